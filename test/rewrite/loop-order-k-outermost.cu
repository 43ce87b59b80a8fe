// k outermost: C must be initialised by a nest of its own first, so the
// region is a `{ }` block of two nests: the (i, j) initialisation, then the
// k-i-j accumulation.
//
// Fails: "error: the statement runs in a loop nest of its own" at the
// initialisation `C[i0 * N + j0] = 0.0f` (with the nests' iterators both
// named i, j: "loop iterator 'i' reuses the name of another loop's
// iterator").
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
// CHECK-NOT:  {{^ *}}for (int

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  {
    for (int i0 = 0; i0 < M; ++i0)
      for (int j0 = 0; j0 < N; ++j0)
        C[i0 * N + j0] = 0.0f;
    for (int k = 0; k < K; ++k)
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j)
          C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
  }
}
