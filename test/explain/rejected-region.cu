// A region that reaches the isl model but is not a parallel matmul: the
// model (with the dependence that crosses output elements) is still
// printed and the diagnostic goes to stderr. (The exit status is checked by
// tool/explain-exit-status.cu.)
//
// RUN: %tc-rewrite --explain %s > %t.out 2> %t.err || :
// RUN: FileCheck %s --input-file=%t.out
// RUN: FileCheck %s --check-prefix=DIAG --input-file=%t.err

// CHECK:      {{^}}region tc_gemm_0 at rejected-region.cu:
// CHECK:      {{^}}    read R1: [M, N, K] -> { S2[i, j] -> C[1 + i, j] :
// CHECK:      {{^}}  anti dependences: {{.*}}S2[i, j] -> S2[i' = 1 + i, j' = j]
// CHECK-NOT:  {{^}}  matmul over
// CHECK-NOT:  {{^}}  step

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: rejected-region.cu:[[@LINE+1]]:7: error: a dependence crosses output elements, which forbids the parallel mapping
      C[i * N + j] = acc + C[(i + 1) * N + j];
    }
}
