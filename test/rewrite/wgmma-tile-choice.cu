// The launch-time choice between a plain GEMM region's wgmma kernels
// (tc/kernel_choice.cuh, the rules of tc/tile_choice.cuh), in order: skinny tiles for outputs of at most 64
// columns (64x32, or 64x64 where B is N-major and its stages hold 64-column
// panels; the 64x32 ones also for small outputs of short reductions), then 192x192 tiles fitted to whole rounds of SMs, then wide
// 128x256 tiles, then narrow 64x128 tiles (8 stages and
// one block per SM for one round of them), else the default: persistent
// 128x128 blocks (test/rewrite/wgmma-persistent-tiles.cu), which also take
// the shapes the others cannot launch.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// B K-major: 64x32 skinny tiles, six 12 KiB TMA stages. Every kernel is
// the sm_90 components' (its tiles and scheduler in the instantiation).
// CHECK:      {{^}}static void tc_gemm_kmajor_0_launch(
// CHECK-NEXT: {{^}}  const tc::LaunchFacts tc_facts = tc::launch_facts();  // (tc/launch_facts.cuh)
// CHECK-NEXT: {{^}}  if (!(((M >= 1) && (N >= 1))))
// CHECK-NEXT: {{^}}    return;  // no output element
// CHECK-NEXT: {{^}}#ifdef TC_TUNING
// CHECK:      {{^}}#endif
// CHECK-NEXT: {{^}}  // The kernel for this shape: the first candidate whose rule holds, else
// CHECK-NEXT: {{^}}  // this one (tc/kernel_choice.cuh).
// CHECK-NEXT: {{^}}  static constexpr tc::KernelCandidate tc_candidates[] = {
// CHECK-NEXT: {{^}}      {tc::KernelRule::SkinnyTiles, 32},  // tc_gemm_kmajor_0_skinny
// CHECK-NEXT: {{^}}      {tc::KernelRule::FittedTiles},  // tc_gemm_kmajor_0_fitted
// CHECK:      {{^}}      {tc::KernelRule::WideTmaTiles},  // tc_gemm_kmajor_0_wide
// CHECK:      {{^}}      {tc::KernelRule::DeepNarrowTiles},  // tc_gemm_kmajor_0_narrow_deep
// CHECK-NEXT: {{^}}  };
// CHECK-NEXT: {{^}}  switch (tc::choose_kernel(M, N, K, 1, tc_candidates, tc_facts.device, tc_facts.options)) {
// CHECK-NEXT: {{^}}  case 0:  // 64x32 tiles
// CHECK-NEXT: {{^}}    if (tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 64, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 32, tc::sm90::Major::K>,  // B
// CHECK-NEXT: {{^}}            6>,
// CHECK-NEXT: {{^}}        tc::sm90::ClusterPartsScheduler<12>>(
// CHECK:      {{^}}  case 1:  // 192x192 tiles
// CHECK:      {{^}}  case 5:  // 128x256 tiles
// CHECK:      {{^}}  case 8:  // 64x128 tiles
// CHECK:      {{^}}            8>,
// CHECK:      {{^}}  default:
// CHECK-NEXT: {{^}}    break;
// CHECK-NEXT: {{^}}  }
// CHECK:      {{^}}      tc::sm90::PersistentScheduler>(
void gemm_kmajor(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

// B N-major: 64x64 skinny tiles (one 64-column panel).
// CHECK:      {{^}}static void tc_gemm_nmajor_0_launch(
// CHECK:      {{^}}      {tc::KernelRule::SkinnyTiles, 64},  // tc_gemm_nmajor_0_skinny
// CHECK:      {{^}}  case 0:  // 64x64 tiles
// CHECK-NEXT: {{^}}    if (tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 64, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 64, tc::sm90::Major::MN>,  // B
void gemm_nmajor(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
