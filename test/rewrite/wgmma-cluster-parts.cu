// Few-tile outputs of the GEMM's 64-row TMA kernels (the ones the launcher
// takes for small outputs, tc/tile_choice.cuh) split every tile along k into
// parts launched as one cluster, which add their partial tiles through
// distributed shared memory (tc/cluster_parts.cuh) instead of meeting in L2
// slots; each part then finishes its share of the tile's rows. A kernel
// built for pairs runs those clusters as parts, not pairs: its stages are
// each block's own (tc::unit_blocks is 1 without pairs), so a part with
// fewer k tiles never leaves a producer waiting for its releases. The
// kernels of two and three warpgroups, taken for outputs of a round of
// tiles or more, have no cluster parts.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite %s --explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// The skinny 64x64 kernel (N-major B: outputs of at most 64 columns), not built for
// pairs: its blocks meet by __syncthreads, its stages are its own, and its
// parts add and finish their rows as the 64x128 kernel's below do.
// CHECK:      {{^}}//   block tile 64x64x64, 1 warpgroup (4 warps and a producer warp), 6 TMA stages (mbarriers), few tiles split into parts launched as one cluster each (distributed shared memory adds them), {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(160, 2) tc_gemm_0_skinny_kernel(
// CHECK:      {{^}}      tc::mbarrier_init(tc_empty + tc_s, 1);  // one arrival per consumer warpgroup
// CHECK:      {{^}}  __syncthreads();
// CHECK:      {{^}}    if (tc_schedule.cluster_parts)  // (all threads of the cluster meet)
// CHECK-NEXT: {{^}}      tc::producer_parts_in_cluster();
// CHECK:      {{^}}    tc::release_stage(tc_empty + {{.*}}, tc_thread);  // tile t - 1's stage
// CHECK:      {{^}}    tc::add_parts_in_cluster<64, 64, 72, 128>(tc_stage, tc_part, tc_schedule.parts, tc_thread,
// CHECK:      {{^}}      if (tc_row_begin <= [[SROW:.*]] && [[SROW]] < tc_row_end) {
// CHECK:      {{^}}      if (tc_row_begin <= [[SROW1:.*]] && [[SROW1]] < tc_row_end) {
// CHECK:      {{^}}static void tc_gemm_0_skinny_launch(
// CHECK:      {{^}}    tc_in_clusters = tc::schedule_cluster_parts({{.*}}, tc_k_tiles, 12, tc_capacity,
// CHECK:      {{^}}  tc::launch_schedule(tc_gemm_0_skinny_kernel, tc_schedule,

// The 64x128 kernel of 8 stages (at most one round of tiles), built for
// pairs: its empty barriers count the consumer warpgroups of a unit's
// blocks, which are those of one block when the clusters are a tile's
// parts; the producer warp takes the parts' two cluster barriers.
// CHECK:      {{^}}//   block tile 64x128x64, 1 warpgroup (4 warps and a producer warp), 8 TMA stages (mbarriers), pairs of blocks sharing B's tile (TMA multicast), few tiles split into parts launched as one cluster each (distributed shared memory adds them), {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(160, 1) tc_gemm_0_narrow_deep_kernel(
// CHECK:      {{^}}      tc::mbarrier_init(tc_empty + tc_s, 1 * tc::unit_blocks(tc_schedule));  // one arrival per consumer warpgroup of the pair
// Only a pair's blocks meet before copying (each into the other's
// stages); a tile's parts meet after their main loops.
// CHECK:      {{^}}  if (tc::unit_blocks(tc_schedule) > 1)
// CHECK-NEXT: {{^}}    tc::cluster_sync();  // both blocks' barriers are ready before either copies into them
// CHECK-NEXT: {{^}}  else
// CHECK-NEXT: {{^}}    __syncthreads();  // (a tile's parts meet after their main loops)
// B's tile multicast into a pair's blocks only (a tile's parts have
// tc_schedule.pair = 0 and rank 0: each loads its whole tile).
// CHECK:      {{^}}        tc::tma_load_tile<2, 4096>(tc_smem_b + {{.*}}, tc_map_b, tc_full + {{.*}}, tc_schedule.pair, tc_rank);
// CHECK:      {{^}}    if (tc_schedule.cluster_parts)  // (all threads of the cluster meet)
// CHECK-NEXT: {{^}}      tc::producer_parts_in_cluster();
// CHECK-NEXT: {{^}}    return;
// CHECK:      {{^}}    tc::release_stage_in_cluster(tc_empty + {{.*}}, tc_thread, tc::unit_blocks(tc_schedule));  // tile t - 1's stage, in both blocks of a pair
// The parts add their tiles, each finishing its rows; otherwise the last
// part of a split tile to arrive finishes it.
// CHECK:      {{^}}  int tc_row_begin = 0, tc_row_end = 64;  // the rows this block finishes
// CHECK-NEXT: {{^}}  if (tc_schedule.cluster_parts)
// CHECK-NEXT: {{^}}    tc::add_parts_in_cluster<64, 128, 136, 128>(tc_stage, tc_part, tc_schedule.parts, tc_thread,
// CHECK-NEXT: {{^}}                                   tc_row_begin, tc_row_end);
// CHECK-NEXT: {{^}}  else if (tc_split_tile >= 0 &&
// CHECK-NEXT: {{^}}      !tc::combine_parts<64, 128, 136, 128>(
// Both epilogue forms (vectors of 8 lanes, single elements) store only this
// block's rows.
// CHECK:      {{^}}      if (tc_row_begin <= [[ROW:.*]] && [[ROW]] < tc_row_end) {
// CHECK-NEXT: {{^}}        const long long tc_m = {{.*}}, tc_n0 = {{.*}};
// CHECK:      {{^}}        tc::store_lanes<8>(
// CHECK:      {{^}}      if (tc_row_begin <= [[ROW1:.*]] && [[ROW1]] < tc_row_end) {
// CHECK-NEXT: {{^}}        const long long tc_m = {{.*}}, tc_n = {{.*}};
// The launcher: clusters of parts where the output may take them and they
// run in one wave (the capacity asked for once, and only then), else the
// pairs' rule; no workspace for the clusters.
// CHECK:      {{^}}static void tc_gemm_0_narrow_deep_launch(
// CHECK:      {{^}}  tc::TileSchedule tc_schedule;
// CHECK-NEXT: {{^}}  bool tc_in_clusters = false;
// CHECK-NEXT: {{^}}  if (tc::cluster_parts_may_pay({{.*}}, tc_k_tiles, 12, tc_facts.device,
// CHECK-NEXT: {{^ *}}tc_facts.options)) {
// CHECK-NEXT: {{^}}    static tc::ClusterCapacities tc_capacities;  // measured once per device
// CHECK-NEXT: {{^}}    const tc::ClusterCapacity tc_capacity = tc::cluster_capacity_on(
// CHECK-NEXT: {{^}}        tc_capacities, tc_facts.device.ordinal, tc_gemm_0_narrow_deep_kernel, 160, tc_smem_bytes);
// CHECK-NEXT: {{^}}    tc_in_clusters = tc::schedule_cluster_parts({{.*}}, tc_k_tiles, 12, tc_capacity,
// CHECK-NEXT: {{^ *}}tc_facts.device, tc_facts.options,
// CHECK-NEXT: {{^ *}}tc_schedule);
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  if (!tc_in_clusters)
// CHECK-NEXT: {{^}}    tc_schedule = tc::schedule_tile_pairs({{.*}}, tc_k_tiles, tc::kPairOneRound, false, tc_facts.device, tc_facts.options);  // else pairs where they pay
// CHECK:      {{^}}  if (!tc_schedule.cluster_parts && tc::split_tiles(tc_schedule) > 0 &&
// CHECK:      {{^}}  // A cluster of two blocks per pair of tiles (tc/cluster.cuh), or of
// CHECK-NEXT: {{^}}  // the parts of each tile where they add up there.
// CHECK-NEXT: {{^}}  tc::launch_schedule(tc_gemm_0_narrow_deep_kernel, tc_schedule,
// The persistent 128x128 kernel (whole tiles only) and the two-warpgroup
// 128x128 kernel: no cluster parts.
// CHECK:      {{^}}__global__ void __launch_bounds__(544, 1) tc_gemm_0_persistent_kernel(
// CHECK-NOT:  cluster_parts
// CHECK:      {{^}}static void tc_gemm_0_persistent_launch(
// CHECK-NOT:  cluster_parts
// CHECK:      {{^}}}{{$}}
// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 3 TMA stages (mbarriers), wgmma{{.*}}
// CHECK-NEXT: {{^}}static void tc_gemm_0_launch(
// CHECK-NOT:  cluster_parts
// CHECK:      {{^}}void gemm(

// EXPLAIN: kernel: block tile 64x128x64, 1 warpgroup (4 warps and a producer warp), 8 TMA stages (mbarriers), pairs of blocks sharing B's tile (TMA multicast), few tiles split into parts launched as one cluster each (distributed shared memory adds them)

void gemm(int M, int N, int K, const __half *__restrict__ A,
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
