// The accumulator read twice in its own update: the message quotes the
// operand with the accumulator as the source names it (`acc`), not as the
// model expands it over its loops (`acc[i][j]`). The file is left as
// written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void accumulated_twice(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        float a = __half2float(A[i * K + k]);
        float b = __half2float(B[k * N + j]);
        acc = acc + a * b + acc;
        // DIAG: accumulator-in-operand.cu:[[@LINE-2]]:{{[0-9]+}}: error: operand '(acc + (static_cast<float>(__half2float(A[i * K + k])) * static_cast<float>(__half2float(B[k * N + j]))))' of the product
      }
      C[i * N + j] = acc;
    }
}
