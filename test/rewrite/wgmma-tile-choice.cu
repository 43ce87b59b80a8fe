// The launch-time choice between a plain GEMM region's wgmma kernels
// (tc/tile_choice.cuh), in order: skinny tiles for outputs of at most 64
// columns (64x32, or 64x64 where B is N-major and its stages hold 64-column
// panels; the 64x32 ones also for small outputs of short reductions), then 192x192 tiles fitted to whole rounds of SMs, then wide
// 128x256 tiles, then narrow 64x128 tiles (8 stages and
// one block per SM for one round of them), then persistent 128x128 blocks
// for long enough reductions (test/rewrite/wgmma-persistent-tiles.cu), then
// 64x128 tiles with 4 stages, else the default 128x128 tiles.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// B K-major: 64x32 skinny tiles, six 12 KiB TMA stages.
// CHECK:      {{^}}//   block tile 64x32x64, 1 warpgroup (4 warps and a producer warp), 6 TMA stages (mbarriers), few tiles split into parts launched as one cluster each (distributed shared memory adds them), wgmma.mma_async.m64n32k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(160, 2) tc_gemm_kmajor_0_skinny_kernel(
// 192x192 tiles fitted to whole rounds of SMs: three warpgroups, four 48 KiB
// stages, one block per SM.
// CHECK:      {{^}}//   block tile 192x192x64, 3 warpgroups (12 warps and a producer warp), 4 TMA stages (mbarriers), wgmma.mma_async.m64n192k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(416, 1) tc_gemm_kmajor_0_fitted_kernel(
// The deep 64x128 kernel: 8 stages of 24 KiB, one block per SM; its
// cp.async twin keeps the 8 stages.
// CHECK:      {{^}}//   block tile 64x128x64, 1 warpgroup (4 warps), 8 cp.async stages, {{.*}}
// CHECK-NEXT: {{^}}template <int kCopyMode>  // tc::CopyMode, chosen by the launcher
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(128) tc_gemm_kmajor_0_narrow_deep_cp_async_kernel(
// CHECK:      {{^}}//   block tile 64x128x64, 1 warpgroup (4 warps and a producer warp), 8 TMA stages (mbarriers), {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(160, 1) tc_gemm_kmajor_0_narrow_deep_kernel(
// CHECK:      {{^}}static void tc_gemm_kmajor_0_launch(
// CHECK-NEXT: {{^}}  if (!(((M >= 1) && (N >= 1))))
// CHECK-NEXT: {{^}}    return;  // no output element
// CHECK-NEXT: {{^}}  // The kernel for this shape (tc/tile_choice.cuh).
// CHECK-NEXT: {{^}}  if (tc::prefer_skinny_tiles(M, N, K, 32)) {
// CHECK-NEXT: {{^}}    tc_gemm_kmajor_0_skinny_launch(M, N, K, A, B, C, tc_stream);  // 64x32 tiles
// CHECK:      {{^}}  if (tc::prefer_fitted_tiles(M, N, K)) {
// CHECK-NEXT: {{^}}    tc_gemm_kmajor_0_fitted_launch(M, N, K, A, B, C, tc_stream);  // 192x192 tiles
// CHECK:      {{^}}  if (tc::prefer_wide_tma_tiles(M, N, K)) {
// CHECK:      {{^}}  if (tc::prefer_deep_narrow_tiles(M, N)) {
// CHECK-NEXT: {{^}}    tc_gemm_kmajor_0_narrow_deep_launch(M, N, K, A, B, C, tc_stream);  // 64x128 tiles
// CHECK-NEXT: {{^}}    return;
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  if (tc::prefer_persistent_tiles(M, N, K)) {
// CHECK-NEXT: {{^}}    tc_gemm_kmajor_0_persistent_launch(M, N, K, A, B, C, tc_stream);  // 128x128 tiles
// CHECK-NEXT: {{^}}    return;
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  if (tc::prefer_narrow_tiles(M, N)) {
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
// CHECK:      {{^}}//   block tile 64x64x64, 1 warpgroup (4 warps and a producer warp), {{[0-9]}} TMA stages (mbarriers), few tiles split into parts launched as one cluster each (distributed shared memory adds them), wgmma.mma_async.m64n64k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(160, 2) tc_gemm_nmajor_0_skinny_kernel(
// CHECK:      {{^}}  if (tc::prefer_skinny_tiles(M, N, K, 64)) {
// CHECK-NEXT: {{^}}    tc_gemm_nmajor_0_skinny_launch(M, N, K, A, B, C, tc_stream);  // 64x64 tiles
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
