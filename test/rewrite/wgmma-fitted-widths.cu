// Tiles fitted to rounds of SMs. Besides 128x256, the wide kernel with
// tiles 224, 192 and 176 columns wide (4 TMA stages, one block per SM,
// stream units, built for pairs like it), each taken where tc::wide_tile_width picks its
// width from the region's list, checked before the 128x256 kernel. Like
// every kernel of the region they fall through to the default persistent
// kernel where they cannot launch (its producer warp copying what TMA
// cannot map). An N-major B is stored in 64-column panels: of these widths,
// only 192. Likewise the 8-stage 64x128 kernel with tiles 112 and 96
// columns wide (tc::narrow_tile_width), for a K-major B only. All are the
// sm_90 components' kernel: a K-major B's tile is whole 8-row swizzle
// atoms (tc/sm90/operand_tile.cuh), in halves for pairs (88 rows of a
// 176-row tile, 56 of a 112-row one: 1024-byte multiples, so the 128-byte
// swizzle's phase holds), tested on the GPU by
// test/gpu/sm90_components_test.cu.
//
// Compiled without --expt-relaxed-constexpr: the rewritten code needs no
// nvcc switch beyond the include path and the architecture.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite %s --explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// The candidates in order: each narrower width under the wide kernel's rule
// and the region's widths, the 8-stage kernel's with its floor of k tiles
// for cluster parts.
// CHECK:      {{^}}      {tc::KernelRule::FittedTiles},  // tc_gemm_kmajor_0_fitted
// CHECK-NEXT: {{^}}      {tc::KernelRule::WideTmaWidth, 224, {256, 224, 192, 176}},  // tc_gemm_kmajor_0_wide224
// CHECK-NEXT: {{^}}      {tc::KernelRule::WideTmaWidth, 192, {256, 224, 192, 176}},  // tc_gemm_kmajor_0_wide192
// CHECK-NEXT: {{^}}      {tc::KernelRule::WideTmaWidth, 176, {256, 224, 192, 176}},  // tc_gemm_kmajor_0_wide176
// CHECK-NEXT: {{^}}      {tc::KernelRule::WideTmaTiles},  // tc_gemm_kmajor_0_wide
// CHECK-NEXT: {{^}}      {tc::KernelRule::DeepNarrowWidth, 112, {128, 112, 96}, 12},  // tc_gemm_kmajor_0_narrow_deep112
// CHECK-NEXT: {{^}}      {tc::KernelRule::DeepNarrowWidth, 96, {128, 112, 96}, 12},  // tc_gemm_kmajor_0_narrow_deep96
// CHECK-NEXT: {{^}}      {tc::KernelRule::DeepNarrowTiles},  // tc_gemm_kmajor_0_narrow_deep
// CHECK:      {{^}}  case 2:  // 128x224 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 224, tc::sm90::Major::K, true>,  // B
// CHECK-NEXT: {{^}}            4>,
// CHECK-NEXT: {{^}}        tc::sm90::PairsScheduler<tc::kPairWideTiles, true>>(
// CHECK:      {{^}}  case 3:  // 128x192 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 192, tc::sm90::Major::K, true>,  // B
// CHECK:      {{^}}  case 4:  // 128x176 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 176, tc::sm90::Major::K, true>,  // B
// CHECK-NEXT: {{^}}            4>,
// CHECK-NEXT: {{^}}        tc::sm90::PairsScheduler<tc::kPairWideTiles, true>>(
// CHECK-NEXT: {{^}}      return;
// CHECK-NEXT: {{^}}    break;
// CHECK:      {{^}}  case 5:  // 128x256 tiles
// CHECK:      {{^}}  case 6:  // 64x112 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 112, tc::sm90::Major::K, true>,  // B
// CHECK-NEXT: {{^}}            8>,
// CHECK-NEXT: {{^}}        tc::sm90::ClusterPartsScheduler<12, tc::sm90::PairsScheduler<tc::kPairOneRound>>>(
// CHECK:      {{^}}  case 7:  // 64x96 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 96, tc::sm90::Major::K, true>,  // B
// CHECK:      {{^}}  case 8:  // 64x128 tiles
// CHECK:      {{^}}  default:
// No kernel of its own.
// CHECK-NOT:  {{^}}__global__
// CHECK:      {{^}}void gemm_kmajor(
// EXPLAIN:    where TMA cannot map an operand (not even through an aligned copy), or K = 0: tc_gemm_kmajor_0, its producer warp copying the tiles{{$}}
// EXPLAIN:    shapes where tc::prefer_wide_tma_width: tc_gemm_kmajor_0_wide224, block tile 128x224x64
// EXPLAIN:    shapes where tc::prefer_wide_tma_width: tc_gemm_kmajor_0_wide192, block tile 128x192x64
// EXPLAIN:    shapes where tc::prefer_wide_tma_width: tc_gemm_kmajor_0_wide176, block tile 128x176x64
// EXPLAIN:    shapes where tc::prefer_wide_tma_tiles: tc_gemm_kmajor_0_wide, block tile 128x256x64
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

// B N-major: only the 192-column tiles (three 64-column panels: the sm_90
// components' kernel with stream units), and no narrower 64-row tiles.
// CHECK:      {{^}}static void tc_gemm_nmajor_0_launch(
// CHECK-NOT:  {{^}}      {tc::KernelRule::WideTmaWidth, 224
// CHECK:      {{^}}      {tc::KernelRule::WideTmaWidth, 192, {256, 192}},  // tc_gemm_nmajor_0_wide192
// CHECK-NEXT: {{^}}      {tc::KernelRule::WideTmaTiles},  // tc_gemm_nmajor_0_wide
// CHECK-NEXT: {{^}}      {tc::KernelRule::DeepNarrowTiles},  // tc_gemm_nmajor_0_narrow_deep
// CHECK:      {{^}}  case 2:  // 128x192 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 192, tc::sm90::Major::MN>,  // B
// CHECK-NEXT: {{^}}            4>,
// CHECK-NEXT: {{^}}        tc::sm90::StreamUnitsScheduler>(
// CHECK:      {{^}}  case 3:  // 128x256 tiles
// CHECK-NOT:  {{^}}  case {{.*}}  // 64x{{112|96}} tiles
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
