// A written array indexed through a linearised subscript must stay in the
// row it is delinearised into (C[i * N + j + 1] reaches the next row at
// j = N - 1), otherwise blocks could write each other's elements.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void shifted_store(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}written-row-bounds.cu:[[@LINE+2]]:7: error: the subscript of 'C' leaves the row it is linearised into
      // DIAG: {{.*}}written-row-bounds.cu:[[@LINE+1]]:7: note: each index of a written array must stay within [0, {{.*}}N)
      C[i * N + j + 1] = acc;
    }
}
