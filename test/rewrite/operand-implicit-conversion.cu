// Operands converted to float implicitly, through float scalars declared
// in the reduction loop: `float a = A[i * K + k]; float b = ...; acc += a * b;`
// (a __half times a float is ambiguous in host code, so the implicit
// conversion has to go through a declaration).
//
// Fails: "error: more than one batch loop" (note: "fold the batch loops
// into one") at `acc += a * b`: the scalars declared inside the k loop are
// expanded over (i, j, k) and not recognised as the operands A and B.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}struct tc_gemm_0_epilogue {
// CHECK:      {{^  }}tc_gemm_0_launch(M, N, K, A, B, C, 0);

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        float a = A[i * K + k];
        float b = B[k * N + j];
        acc += a * b;
      }
      C[i * N + j] = acc;
    }
}
