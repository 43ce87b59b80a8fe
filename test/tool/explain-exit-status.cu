// --explain follows the exit statuses of a rewrite: 0 when every region is
// a matmul the tool can generate, 1 when a region is rejected (its
// diagnostic is printed as an error, as without --explain).
//
// RUN: %python %S/Inputs/exit-status.py 0 %tc-rewrite --explain %S/Inputs/gemm.cu > %t.good.out
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite --explain %s > %t.bad.out 2> %t.bad.err
// RUN: FileCheck %s --input-file=%t.bad.err

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // CHECK: explain-exit-status.cu:[[@LINE+1]]:7: error: a dependence crosses output elements
      C[i * N + j] = acc + C[(i + 1) * N + j];
    }
}
