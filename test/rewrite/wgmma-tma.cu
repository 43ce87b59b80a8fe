// The warp-specialised sm_90a kernel: a producer warp fills the stages by
// TMA onto mbarriers, two consumer warpgroups run wgmma from them; blocks
// take whole tiles or parts of k-split tiles (tc/tile_schedule.cuh), whose
// partial sums the last part combines before the epilogue. The launcher
// builds the tensor maps and falls back to the cp.async kernel of the same
// tiles when TMA cannot describe an operand.
//
// The first region's default kernel is the sm_90 components' persistent
// one (tc/sm90/gemm_kernel.cuh, tested on the GPU by test/gpu/
// sm90_components_test.cu): an instantiation for its tiles and its
// epilogue functor, whose producer warp copies the tiles where TMA cannot
// map an operand, so that the region has no cp.async kernel. The split_k clause splits every tile (second and third
// regions), which keeps the generated text kernel: the third region checks
// its structure.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}struct tc_gemm_0_epilogue {
// CHECK-NEXT: {{^}}  long long M;
// CHECK-NEXT: {{^}}  long long N;
// CHECK-NEXT: {{^}}  long long K;
// CHECK-NEXT: {{^}}  const __half *__restrict__ A;
// CHECK-NEXT: {{^}}  const __half *__restrict__ B;
// CHECK-NEXT: {{^}}  __half *__restrict__ C;
// CHECK-NEXT: {{^}}  __device__ void operator()(long long tc_m, long long tc_n, float tc_sum) const {
// CHECK:      {{^}}    C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half(tc_value);
// CHECK:      {{^}}  __device__ void row(long long tc_m, long long tc_n0, const float (&tc_sums)[8]) const {
// CHECK:      {{^}}    tc::store_lane_words<8>(&C[(long long)((tc_m)) * (N) + ((tc_n0))], tc_lanes_0);
// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), persistent blocks {{.*}}, sm_90a
// CHECK-NEXT: {{^}}static void tc_gemm_0_launch(
// CHECK-NOT:  {{^}}__global__ void {{.*}} tc_gemm_0_kernel(
// CHECK:      {{^}}  default:
// CHECK:      {{^}}  if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::MN>,  // B
// CHECK-NEXT: {{^}}          4>,
// CHECK-NEXT: {{^}}      tc::sm90::PersistentScheduler>({M, N, K}, A, K, B, N, tc_gemm_0_epilogue{M, N, K, A, B, C}, tc_stream))
// CHECK-NEXT: {{^}}    tc::report_error(tc::Status::LaunchFailed,
// CHECK-NOT:  tc_gemm_0_cp_async

// The split_k clause: every tile in three parts, by kernels that add up a
// split tile's parts (no persistent blocks, which compute whole tiles).
// CHECK-NOT:  tc_gemm_split_0_persistent
// CHECK:      {{^}}static void tc_gemm_split_0_launch(
// CHECK-NOT:  persistent
// CHECK:      {{^}}  tc::TileSchedule tc_schedule = tc::split_all_tiles({{.*}}, tc_k_tiles, 3);  // split_k clause


// The text kernel of the third region (split_k(2)), as the first region's
// default kernel was before the components.
// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 3 TMA stages (mbarriers), wgmma.mma_async.m64n128k16 (fp32 accumulation, 1 group in flight), 98368 bytes of shared memory, sm_90a
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(288, 2) tc_gemm_parts_0_kernel({{.*}}, const __grid_constant__ ::CUtensorMap tc_map_a, const __grid_constant__ ::CUtensorMap tc_map_b, const tc::TileSchedule tc_schedule, float *__restrict__ tc_workspace, int *__restrict__ tc_counters) {
// CHECK:      {{^}}  tc::block_work<8>(tc_schedule, tc_block_m, tc_block_n, tc_k_begin, tc_k_end, tc_split_tile, tc_part);
// The barriers follow the three 32 KiB stages.
// CHECK:      {{^}}  ::uint64_t *tc_full = reinterpret_cast<::uint64_t *>(tc_smem + 98304);
// CHECK:      {{^}}      tc::mbarrier_init(tc_full + tc_s, 1);
// CHECK-NEXT: {{^}}      tc::mbarrier_init(tc_empty + tc_s, 2);
// CHECK:      {{^}}    tc::fence_barrier_init();
// The producer: the stage's previous use released (from the fourth tile on),
// its 32 KiB announced, one box of A and two 64-column panels of B.
// CHECK:      {{^}}  if (::threadIdx.x >= 256) {  // the producer warp
// CHECK:      {{^}}        if (c0 >= (tc_k_begin + 3)) {
// CHECK-NEXT: {{^}}          tc::mbarrier_wait(tc_empty + ((unsigned(c0) - unsigned(tc_k_begin)) % 3),
// CHECK:      {{^}}        tc::mbarrier_arrive_expect_tx(tc_full + ((unsigned(c0) - unsigned(tc_k_begin)) % 3), 32768);
// CHECK-NEXT: {{^}}        tc::tma_load_2d(tc_smem_a + ((unsigned(c0) - unsigned(tc_k_begin)) % 3) * 8192, tc_map_a, tc_full + ((unsigned(c0) - unsigned(tc_k_begin)) % 3), (64 * c0), 128 * tc_block_m);
// CHECK-NEXT: {{^}}        tc::tma_load_2d(tc_smem_b + ((unsigned(c0) - unsigned(tc_k_begin)) % 3) * 8192, tc_map_b, tc_full + ((unsigned(c0) - unsigned(tc_k_begin)) % 3), 128 * tc_block_n, (64 * c0));
// CHECK-NEXT: {{^}}        tc::tma_load_2d(tc_smem_b + ((unsigned(c0) - unsigned(tc_k_begin)) % 3) * 8192 + 4096, tc_map_b, {{.*}}, 128 * tc_block_n + 64, (64 * c0));
// CHECK:      {{^}}    return;
// The consumers' steady state: wait for tile t, its wgmma group, wait until
// tile t - 1's group has retired, release tile t - 1's stage.
// CHECK:      {{^}}  for (int c0 = tc_k_begin + 1; c0 <= tc::min((tc_k_end - 1), tc::floord((K - 1), 64)); c0 += 1) {
// CHECK-NEXT: {{^}}    tc::mbarrier_wait(tc_full + ((unsigned(c0) - unsigned(tc_k_begin)) % 3),
// CHECK-NEXT: {{^}}    tc::warpgroup_arrive(tc_acc[0]);
// CHECK-NEXT: {{^}}    tc::wgmma_m64k16<__half, 0, 1, 128>(
// CHECK:      {{^}}    tc::wgmma_commit();
// CHECK-NEXT: {{^}}    tc::wgmma_wait<1>(tc_acc[0]);
// CHECK-NEXT: {{^}}    tc::release_stage(tc_empty + (((unsigned(c0) - unsigned(tc_k_begin)) - 1) % 3), tc_thread);
// CHECK:      {{^}}  tc::wgmma_wait<0>(tc_acc[0]);  // the last tile's wgmma
// CHECK-NEXT: {{^}}  tc::consumer_sync<256>();
// CHECK:      {{^}}  tc::consumer_sync<256>();
// CHECK-NEXT: {{^}}  if (tc_split_tile >= 0 &&
// CHECK-NEXT: {{^}}      !tc::combine_parts<128, 128, 136, 256>(tc_stage, tc_workspace, tc_counters, tc_split_tile,
// CHECK:      {{^}}    return;  // another part of this tile finishes it
// The launcher: maps (of an aligned copy where an operand's base or pitch is
// not 16-byte aligned, one buffer per operand) or the cp.async kernel, the
// clause's schedule.
// CHECK:      {{^}}static void tc_gemm_parts_0_launch(
// CHECK:      {{^}}  if (!tc::tma_map_2d_aligned(&tc_map_a, A, K, M, K, 64, 128, tc_stream, 0, tc_facts.device) ||
// CHECK-NEXT: {{^}}      !tc::tma_map_2d_aligned(&tc_map_b, B, N, K, N, 64, 64, tc_stream, 1, tc_facts.device)) {
// CHECK-NEXT: {{^}}    tc_gemm_parts_0_cp_async_launch(M, N, K, A, B, C, tc_stream);
// CHECK:      {{^}}  tc::TileSchedule tc_schedule = tc::split_all_tiles({{.*}}, tc_k_tiles, 2);  // split_k clause
// The parts' counters and slots come from the stream's kept workspace (no
// allocation or memset per launch); without it, whole tiles.
// CHECK:      {{^}}  if (tc::split_tiles(tc_schedule) > 0 &&
// CHECK-NEXT: {{^}}      !tc::stream_workspace(tc_stream, tc::schedule_counter_bytes(tc_schedule),
// CHECK-NEXT: {{^}}                            tc::schedule_slot_bytes(tc_schedule, 16384), tc_counters, tc_workspace))
// CHECK-NEXT: {{^}}    tc_schedule = tc::without_split_tiles(tc_schedule);
// CHECK-NOT:  cudaMemsetAsync
// CHECK:      {{^}}  tc_gemm_parts_0_kernel<<<(unsigned)tc::schedule_blocks(tc_schedule), 288, tc_smem_bytes, tc_stream>>>(M, N, K, A, B, C, tc_map_a, tc_map_b, tc_schedule, tc_workspace, tc_counters);

#include <cuda_fp16.h>

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

void gemm_split(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc split_k(3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}

void gemm_parts(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc split_k(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
