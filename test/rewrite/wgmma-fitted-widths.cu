// Tiles fitted to rounds of SMs. Besides 128x256, the wide kernel with
// tiles 224, 192 and 176 columns wide (4 TMA stages, one block per SM,
// stream units, built for pairs like it), each taken where tc::wide_tile_width picks its
// width from the region's list, checked before the 128x256 kernel. Like
// every TMA kernel of the region they fall back to the default kernel's
// cp.async twin, defined once after them. An N-major B is stored in 64-column panels: of these widths,
// only 192. Likewise the 8-stage 64x128 kernel with tiles 112 and 96
// columns wide (tc::narrow_tile_width), for a K-major B only.
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

// CHECK:      {{^}}//   block tile 128x224x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), pairs of blocks sharing B's tile (TMA multicast), stream units {{.*}}, wgmma.mma_async.m64n224k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(288, 1) tc_gemm_kmajor_0_wide224_kernel(
// CHECK:      {{^}}static void tc_gemm_kmajor_0_wide224_launch(
// CHECK:      {{^}}    tc_gemm_kmajor_0_cp_async_launch(M, N, K, A, B, C, tc_stream);
// CHECK:      {{^}}  tc::launch_schedule(tc_gemm_kmajor_0_wide224_kernel, tc_schedule, tc_workspace, tc_counters, 288, tc_smem_bytes, tc_stream,
// CHECK:      {{^}}//   block tile 128x192x64, 2 warpgroups {{.*}}, 4 TMA stages (mbarriers), pairs of blocks sharing B's tile (TMA multicast), stream units {{.*}}, wgmma.mma_async.m64n192k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(288, 1) tc_gemm_kmajor_0_wide192_kernel(
// CHECK:      {{^}}//   block tile 128x176x64, 2 warpgroups {{.*}}, 4 TMA stages (mbarriers), pairs of blocks sharing B's tile (TMA multicast), stream units {{.*}}, wgmma.mma_async.m64n176k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(288, 1) tc_gemm_kmajor_0_wide176_kernel(
// 176 columns, 256 threads: the right edge's last N mod 8 columns go by
// rows, each thread its row's few elements.
// CHECK:      {{^}}    if (((tc_thread <= 127) && (M >= (((128 * tc_block_m) + tc_thread) + 1))) && (((176 * tc_block_n) + 175) >= N)) {
// CHECK-NEXT: {{^}}      for (int c1 = (-(N % 8)) + N; c1 < N; c1 += 1) {
// CHECK:      {{^}}          const float tc_sum = tc_stage[tc_thread * 184 + ((-176 * tc_block_n) + c1)];
// Pairs: halves of 88 rows of B's 176-row tile, by the 128x256 kernel's rule.
// CHECK:      {{^}}      !tc::tma_map_2d_aligned(&tc_map_b, B, K, N, K, 64, 88, tc_stream, 1, tc_facts.device)) {
// CHECK:      {{^}}  tc::TileSchedule tc_schedule = tc::schedule_tile_pairs({{.*}}, tc::kPairWideTiles, true, tc_facts.device, tc_facts.options);
// CHECK-NOT:  {{^}}__global__ {{.*}}_cp_async_kernel(
// CHECK:      {{^}}//   block tile 128x256x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), pairs of blocks sharing B's tile {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(288, 1) tc_gemm_kmajor_0_wide_kernel(
// CHECK:      {{^}}//   block tile 64x112x64, 1 warpgroup (4 warps and a producer warp), 8 TMA stages (mbarriers), pairs of blocks sharing B's tile (TMA multicast), few tiles split into parts launched as one cluster each (distributed shared memory adds them), wgmma.mma_async.m64n112k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(160, 1) tc_gemm_kmajor_0_narrow_deep112_kernel(
// Pairs: each block copies one 56-row half of B's 112-row tile into both
// blocks' stages (a 1024-byte multiple: the 128-byte swizzle's phase holds).
// CHECK:      {{^}}        tc::tma_load_tile<2, 3584>(tc_smem_b + {{.*}} * 7168, tc_map_b, {{.*}}, 112 * tc_block_n, 0, 56, tc_schedule.pair, tc_rank);
// CHECK:      {{^}}      !tc::tma_map_2d_aligned(&tc_map_b, B, K, N, K, 64, 56, tc_stream, 1, tc_facts.device)) {
// CHECK:      {{^}}    tc_schedule = tc::schedule_tile_pairs({{.*}}, tc::kPairOneRound, false, tc_facts.device, tc_facts.options);  // else pairs where they pay
// CHECK:      {{^}}//   block tile 64x96x64, 1 warpgroup (4 warps and a producer warp), 8 TMA stages (mbarriers), pairs of blocks sharing B's tile (TMA multicast), few tiles split into parts launched as one cluster each (distributed shared memory adds them), wgmma.mma_async.m64n96k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(160, 1) tc_gemm_kmajor_0_narrow_deep96_kernel(
// CHECK-NOT:  {{^}}__global__ {{.*}}_narrow_deep{{.*}}_cp_async_kernel(
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
// CHECK-NEXT: {{^}}    return tc_gemm_kmajor_0_wide224_launch(M, N, K, A, B, C, tc_stream);
// CHECK-NEXT: {{^}}  case 3:  // 128x192 tiles
// CHECK-NEXT: {{^}}    return tc_gemm_kmajor_0_wide192_launch(M, N, K, A, B, C, tc_stream);
// CHECK-NEXT: {{^}}  case 4:  // 128x176 tiles
// CHECK-NEXT: {{^}}    return tc_gemm_kmajor_0_wide176_launch(M, N, K, A, B, C, tc_stream);
// CHECK-NEXT: {{^}}  case 5:  // 128x256 tiles
// CHECK-NEXT: {{^}}    return tc_gemm_kmajor_0_wide_launch(M, N, K, A, B, C, tc_stream);
// CHECK-NEXT: {{^}}  case 6:  // 64x112 tiles
// CHECK-NEXT: {{^}}    return tc_gemm_kmajor_0_narrow_deep112_launch(M, N, K, A, B, C, tc_stream);
// CHECK-NEXT: {{^}}  case 7:  // 64x96 tiles
// CHECK-NEXT: {{^}}    return tc_gemm_kmajor_0_narrow_deep96_launch(M, N, K, A, B, C, tc_stream);
// CHECK-NEXT: {{^}}  case 8:  // 64x128 tiles
// EXPLAIN:    shapes where tc::prefer_wide_tma_width: tc_gemm_kmajor_0_wide224, block tile 128x224x64
// EXPLAIN:    operands not 16-byte aligned: tc_gemm_kmajor_0_cp_async{{$}}
// EXPLAIN:    shapes where tc::prefer_wide_tma_width: tc_gemm_kmajor_0_wide192, block tile 128x192x64
// EXPLAIN:    operands not 16-byte aligned: tc_gemm_kmajor_0_cp_async{{$}}
// EXPLAIN:    shapes where tc::prefer_wide_tma_width: tc_gemm_kmajor_0_wide176, block tile 128x176x64
// EXPLAIN:    operands not 16-byte aligned: tc_gemm_kmajor_0_cp_async{{$}}
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
// CHECK-NOT:  {{^}}static void tc_gemm_nmajor_0_wide224_launch(
// CHECK:      {{^}}static void tc_gemm_nmajor_0_wide192_launch(
// CHECK:      {{^}}      tc::sm90::OperandTile<__half, 192, tc::sm90::Major::MN>,  // B
// CHECK:      {{^}}  if (!tc::sm90::launch_gemm<tc_mainloop, tc::sm90::StreamUnitsScheduler>(
// CHECK-NOT:  {{^}}static void tc_gemm_nmajor_0_wide176_launch(
// CHECK-NOT:  {{^}}__global__ {{.*}} tc_gemm_nmajor_0_narrow_deep{{[0-9]+}}_kernel(
// CHECK:      {{^}}      {tc::KernelRule::WideTmaWidth, 192, {256, 192}},  // tc_gemm_nmajor_0_wide192
// CHECK-NEXT: {{^}}      {tc::KernelRule::WideTmaTiles},  // tc_gemm_nmajor_0_wide
// CHECK-NEXT: {{^}}      {tc::KernelRule::DeepNarrowTiles},  // tc_gemm_nmajor_0_narrow_deep
// CHECK:      {{^}}  case 2:  // 128x192 tiles
// CHECK-NEXT: {{^}}    return tc_gemm_nmajor_0_wide192_launch(M, N, K, A, B, C, tc_stream);
// CHECK-NEXT: {{^}}  case 3:  // 128x256 tiles
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
