// Iterators narrower than int that stay in their type's range (the
// refused ones: test/diagnostics/loop-forms.cu): a unit step up to a bound
// of the iterator's own type, and a step up to a constant among the
// condition's bounds.
//
// RUN: %tc-rewrite --arch=sm_90a --explain %s -o /dev/null 2>&1 | FileCheck %s

#include <cstdint>
#include <cuda_fp16.h>

// CHECK-LABEL: region tc_own_type_bound_0
// CHECK: domain: [M, N, K] -> { S0[i, j] : M >= 0 and N >= 0 and K >= 0 and 0 <= i < M and 0 <= j < N }
void own_type_bound(short M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (short i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// CHECK-LABEL: region tc_constant_conjunct_0
// CHECK: domain: {{.*}}0 <= i <= 66
void constant_conjunct(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (uint8_t i = 0; i < M && i < 200; i += 3)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
