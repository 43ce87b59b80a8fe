// Index helpers that are not read in place of their call (the accepted
// ones: test/rewrite/index-helpers.cu): a body that reads a variable
// other than its parameters (its value at the launch would stand for the
// one at each call), one that narrows, one without a body in the file,
// and a recursive one. The file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

int g_offset = 0;
inline int with_global(int r, int c, int ld) { return r * ld + c + g_offset; }
inline short narrowing(int r, int c, int ld) { return r * ld + c; }
int declared_only(int r, int c, int ld);
inline int recursive(int r) { return recursive(r - 1) + 1; }

#define GEMM(A_INDEX)                                                                         \
  for (int i = 0; i < M; ++i)                                                                 \
    for (int j = 0; j < N; ++j) {                                                             \
      float acc = 0.0f;                                                                       \
      for (int k = 0; k < K; ++k)                                                             \
        acc += __half2float(A[A_INDEX]) * __half2float(B[k * N + j]);                         \
      C[i * N + j] = acc;                                                                     \
    }

void reads_global(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(with_global(i, k, K))
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}

void narrows(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(narrowing(i, k, K))
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}

void no_body(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(declared_only(i, k, K))
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}

void recurses(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(recursive(i) * K + k)
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}
