// Early exits (break, return, goto, continue), also under an `if`, inside
// a region are rejected at the statement.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void with_break(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        // DIAG: {{.*}}early-exit.cu:[[@LINE+2]]:9: error: early exit from a '#pragma tc' region
        // DIAG: {{.*}}early-exit.cu:[[@LINE+1]]:9: note: every iteration of the nest must run to completion; move the exit condition out of the region
        break;
      }
}

void with_return(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}early-exit.cu:[[@LINE+1]]:7: error: early exit from a '#pragma tc' region
      return;
    }
}

void with_goto(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        // DIAG: {{.*}}early-exit.cu:[[@LINE+1]]:9: error: early exit from a '#pragma tc' region
        goto done;
      }
done:;
}

void with_continue(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        // DIAG: {{.*}}early-exit.cu:[[@LINE+1]]:9: error: early exit from a '#pragma tc' region
        continue;
      }
}

void with_conditional_break(int M, int N, int K, const __half *__restrict__ A,
                            const __half *__restrict__ B,
                            float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        if (k == 100)
          // DIAG: {{.*}}early-exit.cu:[[@LINE+2]]:11: error: early exit from a '#pragma tc' region
          // DIAG: {{.*}}early-exit.cu:[[@LINE+1]]:11: note: every iteration of the nest must run to completion; move the exit condition out of the region
          break;
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      }
}
