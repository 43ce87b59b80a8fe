// The i-k-j order with the initialisation `C[i][j] = 0` in a j loop of its
// own before the k loop (PolyBench style, distinct iterator names).
//
// Fails: "error: the statement runs in a loop nest of its own" (note:
// "epilogues in a separate nest are not supported yet; write them inside
// the (m, n) loops") at the initialisation `C[i * N + j0] = 0.0f`.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_gemm_0_epilogue {
// The initialisation to 0 is the accumulators' start: the sum is the value.
// CHECK:      {{^ *}}float tc_value = tc_sum;
// CHECK:      {{^  }}tc_gemm_0_launch(

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++) {
    for (int j0 = 0; j0 < N; j0++)
      C[i * N + j0] = 0.0f;
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
  }
}
