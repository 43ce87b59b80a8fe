// The 128x256 and 64x128 TMA kernels run as pairs of blocks (clusters of two) whose
// tiles (m, n) and (m + 1, n) share B's tile, each block copying half of it
// into both blocks' stages by TMA multicast (tc/cluster.cuh), where the
// launcher's schedule takes pairs (tc::schedule_tile_pairs). The empty
// barriers count both blocks' consumer warpgroups, the barriers are ready
// in both blocks before either copies (cluster_sync), and the consumers
// release only the stages a producer refills, so no arrival reaches a block
// that has left. Each kernel's launcher takes pairs by its own rule
// (tc::PairRule); unpaired, only the 128x256 kernel, which loops over
// stream units, may get them (the last argument). The 128x128 kernel (two
// blocks per SM) stays unpaired.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// B K-major: its 256 rows in two boxes of 128.
// CHECK:      {{^}}//   block tile 128x256x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), pairs of blocks sharing B's tile (TMA multicast), {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(288, 1) tc_gemm_kmajor_0_wide_kernel(
// CHECK:      {{^}}      tc::mbarrier_init(tc_empty + tc_s, 2 * tc::unit_blocks(tc_schedule));  // one arrival per consumer warpgroup of the pair
// CHECK:      {{^}}  tc::cluster_sync();  // both blocks' barriers are ready before either copies into them
// The block's units (a paired schedule gives each block one, its tile and
// rank; rewrite/wgmma-stream-units.cu).
// CHECK-NEXT: {{^}}  for (int tc_unit = 0; tc::unit_work<8>(tc_schedule, tc_unit, tc_block_m, tc_block_n, tc_k_begin,
// CHECK-NEXT: {{^}}                                           tc_k_end, tc_split_tile, tc_part, tc_rank); ++tc_unit) {
// CHECK:      {{^}}          tc::tma_load_2d(tc_smem_a + {{.*}}, tc_map_a, tc_full + {{.*}}, (64 * c0), 128 * tc_block_m);
// CHECK-NEXT: {{^}}          tc::tma_load_tile<2, 8192>(tc_smem_b + {{.*}}, tc_map_b, tc_full + {{.*}}, (64 * c0), 256 * tc_block_n, 0, 128, tc_schedule.pair, tc_rank);
// The steady-state loop releases tile t - 1's stage in both blocks while
// tile t - 1 + 4 is still to come; the last loop, the last 3 tiles, does not.
// CHECK:      {{^}}    for (int c0 = tc_k_begin + 1; c0 < tc::min((tc_k_end - 3), (tc::floord((K - 1), 64) - 2)); c0 += 1) {
// CHECK:      {{^}}      tc::release_stage_in_cluster(tc_empty + (((unsigned(c0) - unsigned(tc_k_begin)) - 1) % 4), tc_thread, tc::unit_blocks(tc_schedule));  // tile t - 1's stage, in both blocks of a pair
// CHECK-NEXT: {{^}}    }
// CHECK:      {{^}}    for (int c0 = tc::max((tc_k_begin + 1), (tc_k_end - 3)); c0 <= tc::min((tc_k_end - 1), tc::floord((K - 1), 64)); c0 += 1) {
// CHECK-NOT:  release_stage
// CHECK:      {{^}}static void tc_gemm_kmajor_0_wide_launch(
// CHECK:      {{^}}  if (!tc::tma_map_2d_aligned(&tc_map_a, A, K, M, K, 64, 128, tc_stream, 0, tc_facts.device) ||
// CHECK-NEXT: {{^}}      !tc::tma_map_2d_aligned(&tc_map_b, B, K, N, K, 64, 128, tc_stream, 1, tc_facts.device)) {
// CHECK:      {{^}}  tc::TileSchedule tc_schedule = tc::schedule_tile_pairs({{.*}}, tc_k_tiles, tc::kPairWideTiles, true, tc_facts.device, tc_facts.options);
// CHECK:      {{^}}    tc_schedule = tc::without_split_tiles(tc_schedule);
// CHECK:      {{^}}  tc::launch_schedule(tc_gemm_kmajor_0_wide_kernel, tc_schedule, tc_workspace, tc_counters, 288, tc_smem_bytes, tc_stream, M, N, K, A, B, C, tc_map_a, tc_map_b);
// The 64x128 kernels: B's 128 rows in two boxes of 64, one per block of a
// pair; one block per SM (8 stages) and two (4 stages), each by its rule.
// CHECK:      {{^}}__global__ void __launch_bounds__(160, 1) tc_gemm_kmajor_0_narrow_deep_kernel(
// CHECK:      {{^}}      tc::mbarrier_init(tc_empty + tc_s, 1 * tc::unit_blocks(tc_schedule));  // one arrival per consumer warpgroup of the pair
// CHECK:      {{^}}        tc::tma_load_tile<2, 4096>(tc_smem_b + {{.*}}, tc_map_b, tc_full + {{.*}}, (64 * c0), 128 * tc_block_n, 0, 64, tc_schedule.pair, tc_rank);
// CHECK:      {{^}}      !tc::tma_map_2d_aligned(&tc_map_b, B, K, N, K, 64, 64, tc_stream, 1, tc_facts.device)) {
// Their few-tile outputs run as clusters of a tile's parts
// (rewrite/wgmma-cluster-parts.cu), else by the pairs' rule.
// CHECK:      {{^}}    tc_schedule = tc::schedule_tile_pairs({{.*}}, tc_k_tiles, tc::kPairOneRound, false, tc_facts.device, tc_facts.options);  // else pairs where they pay
// CHECK:      {{^}}  tc::launch_schedule(tc_gemm_kmajor_0_narrow_deep_kernel, tc_schedule,
// CHECK:      {{^}}__global__ void __launch_bounds__(160, 2) tc_gemm_kmajor_0_narrow_kernel(
// CHECK:      {{^}}        tc::tma_load_tile<2, 4096>(tc_smem_b + {{.*}}, tc_map_b, tc_full + {{.*}}, (64 * c0), 128 * tc_block_n, 0, 64, tc_schedule.pair, tc_rank);
// CHECK:      {{^}}    tc_schedule = tc::schedule_tile_pairs({{.*}}, tc_k_tiles, tc::kPairTwoBlocksPerSm, false, tc_facts.device, tc_facts.options);  // else pairs where they pay
// CHECK:      {{^}}  tc::launch_schedule(tc_gemm_kmajor_0_narrow_kernel, tc_schedule,
// The 128x128 kernel: single blocks (the sm_90 components' kernel).
// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 3 TMA stages (mbarriers), wgmma{{.*}}
// CHECK-NEXT: {{^}}static void tc_gemm_kmajor_0_launch(
// CHECK-NOT:  tma_load_tile
// CHECK:      {{^}}  if (!tc::sm90::launch_gemm<tc_mainloop>(
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

// B N-major: four 64-column panels, two copied by each block of a pair.
// CHECK:      {{^}}__global__ void __launch_bounds__(288, 1) tc_gemm_nmajor_0_wide_kernel(
// CHECK:      {{^}}          tc::tma_load_tile<4, 4096>(tc_smem_b + {{.*}}, tc_map_b, tc_full + {{.*}}, 256 * tc_block_n, (64 * c0), 64, 0, tc_schedule.pair, tc_rank);
// CHECK:      {{^}}  if (!tc::tma_map_2d_aligned(&tc_map_a, A, K, M, K, 64, 128, tc_stream, 0, tc_facts.device) ||
// CHECK-NEXT: {{^}}      !tc::tma_map_2d_aligned(&tc_map_b, B, N, K, N, 64, 64, tc_stream, 1, tc_facts.device)) {
// The 64x128 kernels: two 64-column panels, one copied by each block.
// CHECK:      {{^}}__global__ void __launch_bounds__(160, 1) tc_gemm_nmajor_0_narrow_deep_kernel(
// CHECK:      {{^}}        tc::tma_load_tile<2, 4096>(tc_smem_b + {{.*}}, tc_map_b, tc_full + {{.*}}, 128 * tc_block_n, (64 * c0), 64, 0, tc_schedule.pair, tc_rank);
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
