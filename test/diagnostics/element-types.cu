// Operand element types the tensor-core path does not take: int, double,
// mixed fp16 x bf16. Reported at the first offending operand access.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_bf16.h>
#include <cuda_fp16.h>

void int_operands(int M, int N, int K, const int *__restrict__ A,
                  const int *__restrict__ B, int *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int acc = 0;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}element-types.cu:[[@LINE+2]]:16: error: operand 'A' has element type 'int'
        // DIAG: {{.*}}element-types.cu:[[@LINE+1]]:16: note: tensor-core operands must be __half or __nv_bfloat16
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

void double_operands(int M, int N, int K, const double *__restrict__ A,
                     const double *__restrict__ B, double *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}element-types.cu:[[@LINE+2]]:16: error: operand 'A' has element type 'double'
        // DIAG: {{.*}}element-types.cu:[[@LINE+1]]:16: note: tensor-core operands must be __half or __nv_bfloat16
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

void mixed_operands(int M, int N, int K, const __half *__restrict__ A,
                    const __nv_bfloat16 *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}element-types.cu:[[@LINE+2]]:71: error: operands 'A' and 'B' have different element types
        // DIAG: {{.*}}element-types.cu:[[@LINE+1]]:71: note: mixed floating-point types are not supported yet
        C[i * N + j] += __half2float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
}
