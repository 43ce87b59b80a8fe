// The default 128x128 TMA kernel has a persistent twin, taken at launch
// time where tc::prefer_persistent_tiles says so (tc/tile_choice.cuh): one
// block per SM computes whole tiles b, b + SMs, ... in turn
// (schedule_persistent_tiles, unit_work), with 4 stages and an fp32 output
// buffer of its own after them. The consumers stage each tile's sums in
// the buffer and go on with the next tile, while two epilogue warpgroups
// (the block's last 256 threads) store it through the epilogue;
// two mbarriers pass the buffer between them, every thread of either side
// arriving for its own part. The stage barriers are not
// reset between tiles: every role counts the block's earlier uses of the
// stages in tc_k_origin, and the consumers release the last k tile's stage
// too, so that the producer copies the next tile's k tiles during the
// epilogue. No parts to combine, no workspace; its cp.async fallback is the
// default kernel's twin (the same tiles), declared ahead, not a second copy.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc' \
// RUN:   --implicit-check-not='_persistent{{_}}cp_async'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTXAS --allow-empty %}
// No kernel's wgmma serialised for want of registers (C7511, C7512).
// PTXAS-NOT: C751

#include <cuda_fp16.h>

// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), persistent blocks (one per SM, whole tiles in turn; two epilogue warpgroups store each tile from a buffer of its own), {{.*}}, 200784 bytes of shared memory, sm_90a
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(544, 1) tc_gemm_0_persistent_kernel(
// CHECK-NOT:  _work<8>
// The barriers after the stages (4 x 32 KiB) and the buffer (128 x 136 floats).
// CHECK:      {{^}}  uint64_t *tc_full = reinterpret_cast<uint64_t *>(tc_smem + 200704);
// CHECK-NOT:  tc_flag
// CHECK:      {{^}}  uint64_t *tc_out_full = tc_empty + 4;
// CHECK-NEXT: {{^}}  uint64_t *tc_out_empty = tc_out_full + 1;
// CHECK:      {{^}}    tc::mbarrier_init(tc_out_full, 256);  // one arrival per consumer thread
// CHECK-NEXT: {{^}}    tc::mbarrier_init(tc_out_empty, 256);  // one per epilogue thread
// CHECK:      {{^}}  __syncthreads();
// CHECK-NEXT: {{^}}  int tc_k_origin = 0;  // the stages' uses by this block's earlier tiles
// CHECK-NEXT: {{^}}  for (int tc_unit = 0; tc::unit_work<8>(tc_schedule, tc_unit, tc_block_m, tc_block_n, tc_k_begin,
// CHECK-NEXT: {{^}}                                           tc_k_end, tc_split_tile, tc_part, tc_rank);
// CHECK-NEXT: {{^}}       ++tc_unit, tc_k_origin += (int)(tc_k_end - tc_k_begin)) {
// CHECK-NOT:  reset_stage_barriers
// The epilogue warpgroups: 256 threads store the staged tile (16-byte
// vectors of 16 threads a row, 16 rows at a time), then hand the buffer back.
// CHECK-NEXT: {{^}}    if (threadIdx.x >= 288) {  // the epilogue warpgroups
// CHECK-NEXT: {{^}}      const int tc_thread = tc::unit_thread_index() - 288;
// CHECK-NEXT: {{^}}      const float *tc_stage = reinterpret_cast<const float *>(tc_smem + 131072);
// CHECK-NEXT: {{^}}      tc::mbarrier_wait(tc_out_full, tc_unit % 2);  // the consumers staged the tile
// CHECK:      {{^}}            const float *tc_sums = tc_stage + ((16 * c0) + (tc_thread / 16)) * 136 + (8 * (tc_thread % 16));
// CHECK:      {{^}}            tc::store_lanes<8>(&C[(long long)((tc_m)) * (N) + ((tc_n0))], tc_lanes_0);
// CHECK:      {{^}}      tc::mbarrier_arrive(tc_out_empty);  // this thread has read its part
// CHECK-NEXT: {{^}}      continue;
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}    if (threadIdx.x >= 256) {  // the producer warp
// The producer waits for a release from the block's fifth use of the stages on.
// CHECK:      {{^}}          if ((tc_k_origin + c0) >= (tc_k_begin + 4)) {
// CHECK-NEXT: {{^}}            tc::mbarrier_wait(tc_empty + (((unsigned(tc_k_origin) - unsigned(tc_k_begin)) + unsigned(c0)) % 4),
// CHECK:      {{^}}      continue;
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}    const int tc_thread = tc::unit_thread_index();
// CHECK:      {{^}}    float *tc_stage = reinterpret_cast<float *>(tc_smem + 131072);  // the output tile's own buffer
// CHECK:      {{^}}      tc::mbarrier_wait(tc_full + (unsigned(tc_k_origin) % 4), ((unsigned(tc_k_origin) / 4) - (2 * (unsigned(tc_k_origin) / 8))));  // the tile has landed
// CHECK:      {{^}}      tc::release_stage(tc_empty + ((((unsigned(tc_k_origin) - unsigned(tc_k_begin)) + unsigned(c0)) - 1) % 4), tc_thread);  // tile t - 1's stage
// CHECK:      {{^}}    tc::wgmma_wait<0>(tc_acc[0]);  // the last tile's wgmma
// CHECK-NEXT: {{^}}    if (tc_k_end > tc_k_begin)
// CHECK-NEXT: {{^}}      tc::release_stage(tc_empty + (tc_k_origin + tc_k_end - tc_k_begin - 1) % 4, tc_thread);  // its stage
// CHECK-NEXT: {{^}}    if (tc_unit > 0)  // the previous tile has left the output buffer
// CHECK-NEXT: {{^}}      tc::mbarrier_wait(tc_out_empty, (tc_unit - 1) % 2);
// CHECK-NOT:  consumer_sync
// CHECK:      {{^}}    tc::mbarrier_arrive(tc_out_full);  // this thread's part is staged
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}}
// CHECK-NOT:  combine_parts
// CHECK:      {{^}}static void tc_gemm_0_persistent_launch(
// CHECK:      {{^}}    tc_gemm_0_cp_async_launch(M, N, K, A, B, C, tc_stream);
// CHECK:      {{^}}  tc::TileSchedule tc_schedule = tc::schedule_persistent_tiles({{.*}}, tc_k_tiles, tc_facts.device);
// CHECK-NOT:  stream_workspace
// CHECK:      {{^}}  tc_gemm_0_persistent_kernel<<<(unsigned)tc::schedule_blocks(tc_schedule), 544, tc_smem_bytes, tc_stream>>>(
// The default kernel (the sm_90 components', two blocks per SM, one tile
// each) and its launcher, which takes the persistent one before the 64x128
// tiles of two blocks per SM.
// CHECK:      {{^}}static void tc_gemm_0_launch(
// CHECK:      {{^}}      {tc::KernelRule::DeepNarrowTiles},  // tc_gemm_0_narrow_deep
// CHECK-NEXT: {{^}}      {tc::KernelRule::PersistentTiles},  // tc_gemm_0_persistent
// CHECK-NEXT: {{^}}      {tc::KernelRule::NarrowTiles},  // tc_gemm_0_narrow
// CHECK:      {{^}}  case 9:  // 128x128 tiles
// CHECK-NEXT: {{^}}    return tc_gemm_0_persistent_launch(M, N, K, A, B, C, tc_stream);
void gemm(int M, int N, int K, const __half *__restrict__ A,
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

// ReLU on A: a persistent kernel whose consumers apply it to wgmma's A
// fragments (two buffers by the tile's parity, as the 128x256 tiles do),
// beside a producer warpgroup and one epilogue warpgroup that both resize
// their registers (setmaxnreg) so that the consumers hold the fragments
// beside their accumulators. Each of those two runs a loop over the units
// of its own: code after a resize is not shared. 16 warps start at 128
// registers a thread (with two epilogue warpgroups, 20 warps started at
// 96 and ptxas serialised the consumers' wgmma, C7512). Taken for longer
// reductions than the plain kernel (prefer_persistent_fragment_tiles).
// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warpgroup; setmaxnreg: 40 registers a producer thread, 64 an epilogue thread, 200 a consumer's), 4 TMA stages (mbarriers), persistent blocks (one per SM, whole tiles in turn; an epilogue warpgroup stores each tile from a buffer of its own), {{.*}}, 200784 bytes of shared memory, sm_90a
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(512, 1) tc_relu_a_gemm_0_persistent_kernel(
// CHECK:      {{^}}    tc::mbarrier_init(tc_out_empty, 128);  // one per epilogue thread
// CHECK:      {{^}}  int tc_k_origin = 0;
// CHECK-NEXT: {{^}}  if (threadIdx.x >= 384) {  // the epilogue warpgroup: registers of its own
// CHECK-NEXT: {{^}}    tc::release_registers<64>();
// CHECK-NEXT: {{^}}    for (int tc_unit = 0; tc::unit_work<8>(
// CHECK:      {{^}}      tc::mbarrier_wait(tc_out_full, tc_unit % 2);
// CHECK:      {{^}}      tc::mbarrier_arrive(tc_out_empty);
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}    return;
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  if (threadIdx.x >= 256) {  // the producer warpgroup: few registers
// CHECK-NEXT: {{^}}    tc::release_registers<40>();
// CHECK:      {{^}}  tc::claim_registers<200>();  // the consumers' share
// CHECK:      {{^}}    uint32_t tc_frag_a[2][4][4];  // by the tile's parity
// CHECK:      {{^}}      tc::wgmma_m64k16_rs<
// CHECK:      {{^}}static void tc_relu_a_gemm_0_persistent_launch(
// CHECK:      {{^}}  tc_relu_a_gemm_0_persistent_kernel<<<(unsigned)tc::schedule_blocks(tc_schedule), 512, tc_smem_bytes, tc_stream>>>(
// CHECK-LABEL: {{^}}static void tc_relu_a_gemm_0_launch(
// CHECK:      {{^}}      {tc::KernelRule::PersistentFragmentTiles},  // tc_relu_a_gemm_0_persistent
// CHECK:      {{^}}  case 6:  // 128x128 tiles
// CHECK-NEXT: {{^}}    return tc_relu_a_gemm_0_persistent_launch(M, N, K, A, B, C, tc_stream);
void relu_a_gemm(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}
