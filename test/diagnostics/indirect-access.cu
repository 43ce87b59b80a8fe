// Data-dependent subscripts and bounds: an index array (A[idx[i] ...]) and
// a bound read from memory are rejected at the read.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void gather(int M, int N, int K, const int *idx, const __half *__restrict__ A,
            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}indirect-access.cu:[[@LINE+2]]:40: error: indirect access: a subscript or bound reads memory
        // DIAG: {{.*}}indirect-access.cu:[[@LINE+1]]:40: note: subscripts and loop bounds must be sums of loop iterators and region-invariant integers times constants (e.g. 'A[i * K + k]')
        C[i * N + j] += __half2float(A[idx[i] * K + k]) * __half2float(B[k * N + j]);
}

void ragged(int M, int N, const int *len, const __half *__restrict__ A,
            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      // DIAG: {{.*}}indirect-access.cu:[[@LINE+1]]:27: error: indirect access: a subscript or bound reads memory
      for (int k = 0; k < len[i]; ++k)
        C[i * N + j] += __half2float(A[i * 64 + k]) * __half2float(B[k * N + j]);
}
