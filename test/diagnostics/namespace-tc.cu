// The generated code names the runtime's entities as tc::... (tc.cuh): a
// file that declares a namespace tc of its own is diagnosed there, and its
// regions stay as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

// DIAG: {{.*}}namespace-tc.cu:[[@LINE+2]]:11: error: namespace 'tc' is the namespace of tc-rewrite's runtime headers
// DIAG: {{.*}}namespace-tc.cu:[[@LINE+1]]:11: note: the rewritten regions call tc::...; rename this namespace (the file's regions stay as written)
namespace tc {
inline int min(int a, int b) { return a < b ? a : b; }
}  // namespace tc

void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
          float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
