// The kernels accumulate in fp32. An integer accumulator is a different
// computation (`int acc; acc += a * b` truncates at every step; an exact
// integer sum need not survive fp32 rounding): rejected at the reduction's
// write, whether a scalar or the output array itself. Every region is left
// as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void int_scalar(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int acc = 0;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}accumulator-types.cu:[[@LINE+2]]:9: error: accumulator 'acc' has type 'int'
        // DIAG: {{.*}}accumulator-types.cu:[[@LINE+1]]:9: note: the kernel accumulates in fp32: declare the accumulator float (an integer one rounds at every step, or sums exactly)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void int_output(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, int *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}accumulator-types.cu:[[@LINE+1]]:9: error: accumulator 'C' has type 'int'
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// A double accumulator asks for more precision than the kernel's fp32
// accumulation gives: rejected too (a double output of a float sum is not).
void double_scalar(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, double *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}accumulator-types.cu:[[@LINE+2]]:9: error: accumulator 'acc' has type 'double'
        // DIAG: {{.*}}accumulator-types.cu:[[@LINE+1]]:9: note: the kernel accumulates in fp32, less precisely than a double sum: declare the accumulator float to accept fp32 accumulation
        acc += (double)__half2float(A[i * K + k]) * (double)__half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
