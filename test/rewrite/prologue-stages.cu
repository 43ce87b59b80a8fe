// A prologue on B, or on a column-major A: wgmma reads these operands from
// shared memory, so the prologue is applied to each landed stage in place.
// In the TMA kernel all consumers convert B's tile (every warpgroup reads
// it) and meet at barrier 1, each warpgroup its own 64-column panel of an
// M-major A and meets at its own barrier (tc/sm90/roles.cuh,
// SharedOperands). Every kernel is composed: none has a cp.async twin.
// Nothing goes through register fragments, and mma.sync is not needed.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{[a-z]}}_cp_async'
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// EXPLAIN:      {{^}}region tc_relu_b_0 at prologue-stages.cu:{{[0-9]+}}{{$}}
// EXPLAIN:      {{^}}  main loop: wgmma: {{.*}}; B's prologue applied by the consumers to each landed stage{{$}}
// EXPLAIN:      {{^}}region tc_relu_a_col_0 at prologue-stages.cu:{{[0-9]+}}{{$}}
// EXPLAIN:      {{^}}  main loop: wgmma: {{.*}}; A's prologue applied by each consumer warpgroup to its rows of each landed stage{{$}}

// The TMA kernels are composed of the components (tc/sm90/roles.cuh,
// SharedOperands: all consumers convert B's tile, then barrier 1).
// CHECK-LABEL: {{^}}static void tc_relu_b_0_launch(
// CHECK:      {{^ *}}case 0:  // 64x64 tiles
// CHECK:      {{^ *}}tc::sm90::SharedOperands<tc::sm90::NoPrologue, tc_relu_b_0_prologue_b>>,
// CHECK:      {{^ *}}default:
// CHECK:      {{^ *}}tc::sm90::SharedOperands<tc::sm90::NoPrologue, tc_relu_b_0_prologue_b>>>(
// CHECK-NEXT: {{^ *}}tc::report_error(
void relu_b(int M, int N, int K, const __half *__restrict__ A,
            const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * fmaxf(__half2float(B[k * N + j]), 0.0f);
      C[i * N + j] = __float2half(acc);
    }
}

// A column-major A: its stage holds 64-column panels, warpgroup g's at
// 4096 * g (the descriptor's offset), which that warpgroup converts
// (SharedOperands on A), in every kernel: an M-major A has no ldmatrix
// fragments for wgmma.
// CHECK-LABEL: {{^}}static void tc_relu_a_col_0_launch(
// CHECK:      {{^ *}}tc::sm90::OperandTile<__half, 64, tc::sm90::Major::MN>,  // A
// CHECK:      {{^ *}}tc::sm90::SharedOperands<tc_relu_a_col_0_prologue_a>>,
// CHECK-NOT:  RegisterA
// CHECK:      {{^ *}}default:
// CHECK:      {{^ *}}tc::sm90::SharedOperands<tc_relu_a_col_0_prologue_a>>>(
void relu_a_col(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[k * M + i]), 0.0f) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
