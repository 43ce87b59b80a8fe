// TMA kernels of one block per SM and two consumer warpgroups loop over their
// block's units of work (tc/tile_schedule.cuh, unit_work): a whole tile, or
// with stream units (tc::schedule_stream_tiles, where the last round of
// tiles is nearly empty) the start of one tile and then the end of another.
// Each unit after the first starts with fresh stage barriers
// (reset_stage_barriers); where a unit's code used to leave the block (the
// producer warp after its loop, a part of a split tile that another part
// finishes) it goes on to the next unit; the consumers read their thread
// index anew in each unit. Kernels of two blocks per SM or three
// warpgroups keep one unit per block and the plain schedule.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// A plain region's kernels are the sm_90 components' (tc/sm90/gemm_kernel.cuh),
// whose unit loop is the scheduler's (kUnits, tc/sm90/tile_scheduler.cuh).
// The 192x192 kernel (three warpgroups, 128 registers a thread): one unit,
// the plain schedule.
// CHECK:      {{^}}static void tc_gemm_relu_0_launch(
// CHECK:      {{^}}  case 1:  // 192x192 tiles
// CHECK:      {{^}}            4>>({M, N, K},
// The 128x256 kernel (one block per SM, two consumer warpgroups): pairs
// where the shape has them, else stream units where those help
// (schedule_tile_pairs chooses).
// CHECK:      {{^}}  case 5:  // 128x256 tiles
// CHECK:      {{^}}        tc::sm90::PairsScheduler<tc::kPairWideTiles, true>>(
// The 128x128 kernel, the region's default: persistent blocks, each
// computing whole tiles in turn (PersistentScheduler).
// CHECK:      {{^}}  default:
// CHECK:      {{^}}          4>,
// CHECK-NEXT: {{^}}      tc::sm90::PersistentScheduler>({M, N, K},
void gemm_relu(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(fmaxf(acc, 0.0f));
    }
}

// ReLU on A: the consumers load A's fragments of each stage in every unit
// (the prologue applied in registers), with the unit's thread index, beside
// a producer warpgroup with its own loop over the units.
// CHECK:      {{^}}__global__ void __launch_bounds__(384, 1) tc_relu_a_gemm_0_wide_kernel(
// CHECK:      {{^}}  if (::threadIdx.x >= 256) {  // the producer warpgroup: few registers
// CHECK-NEXT: {{^}}    tc::release_registers<40>();
// CHECK-NEXT: {{^}}    for (int tc_unit = 0; tc::unit_work<8>(
// CHECK:      {{^}}        tc::reset_stage_barriers<4>(tc_full, tc_empty, 2 * tc::unit_blocks(tc_schedule));
// CHECK:      {{^}}    return;
// CHECK:      {{^}}  tc::claim_registers<232>();  // the consumers' share
// CHECK-NEXT: {{^}}  for (int tc_unit = 0; tc::unit_work<8>(
// CHECK:      {{^}}      tc::reset_stage_barriers<4>(tc_full, tc_empty, 2 * tc::unit_blocks(tc_schedule));
// CHECK-NEXT: {{^}}    const int tc_thread = tc::unit_thread_index();
// CHECK:      {{^}}    ::uint32_t tc_frag_a[2][4][4];  // by the tile's parity
// CHECK:      {{^}}      tc_frag_load_a.load(tc_frag_a[0][0], tc_smem_a + {{.*}}, 0, 0);
// CHECK-NEXT: {{^}}      tc::apply_prologue<__half>(tc_frag_a[0][0], tc_relu_a_gemm_0_prologue_a());
void relu_a_gemm(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
