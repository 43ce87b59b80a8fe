// A product built in a local by compound assignment: `float p = a; p *=
// b; acc += p;` is the matmul (a float `p *= b` computes in float, so its
// conversion back to p's type changes nothing and hides no factor).
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --explain %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN

// EXPLAIN:      matmul over (i, j) reducing k: M = M, N = N, K = K
// EXPLAIN-NEXT: A = A (row-major, leading dimension K), B = B (row-major, leading dimension N)
// CHECK:   {{^  }}tc_compound_0_launch(M, N, K, {{A, B|B, A}}, C, 0);

#include <cuda_fp16.h>

void compound(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        float p = __half2float(A[i * K + k]);
        p *= __half2float(B[k * N + j]);
        acc += p;
      }
      C[i * N + j] = acc;
    }
}
