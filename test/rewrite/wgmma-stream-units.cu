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
// (the prologue applied in registers), beside a producer warpgroup; each
// role loops over the units on its own (tc/sm90/gemm_kernel.cuh,
// gemm_units; tc/sm90/roles.cuh).
// CHECK-LABEL: {{^}}static void tc_relu_a_gemm_0_launch(
// CHECK:       {{^ *}}tc::sm90::RegisterA<tc_relu_a_gemm_0_prologue_a>, tc::sm90::ProducerWarpgroup<40, 232>>,
// CHECK-NEXT:  {{^ *}}tc::sm90::PairsScheduler<tc::kPairWideTiles, true>>(
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
