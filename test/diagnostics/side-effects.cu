// Calls that may have side effects (printf, a user function) and side
// effects inside expressions are rejected at the call or operator.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cstdio>
#include <cuda_fp16.h>

float weight(int k);
int row(int i);

void print_in_loop(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        // DIAG: {{.*}}side-effects.cu:[[@LINE+2]]:9: error: expression statement without an assignment in a '#pragma tc' region
        // DIAG: {{.*}}side-effects.cu:[[@LINE+1]]:9: note: each statement must assign one array element or accumulator
        printf("%d\n", k);
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      }
}

void print_in_value(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}side-effects.cu:[[@LINE+2]]:83: error: call to 'printf' may have side effects
        // DIAG: {{.*}}side-effects.cu:[[@LINE+1]]:83: note: only conversion and math functions (e.g. __half2float, fmaxf, expf, tanhf) are allowed in a '#pragma tc' region
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]) * printf("");
}

void user_function(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}side-effects.cu:[[@LINE+1]]:83: error: call to 'weight' may have side effects
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]) * weight(k);
}

void user_function_in_subscript(int M, int N, int K,
                                const __half *__restrict__ A,
                                const __half *__restrict__ B,
                                float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}side-effects.cu:[[@LINE+1]]:40: error: a function call in a subscript or loop bound
        C[i * N + j] += __half2float(A[row(i) * K + k]) * __half2float(B[k * N + j]);
}

void increment_in_value(int M, int N, int K, int *count,
                        const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}side-effects.cu:[[@LINE+2]]:91: error: side effect inside an expression
        // DIAG: {{.*}}side-effects.cu:[[@LINE+1]]:91: note: a region's expressions must be pure
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]) * count[0]++;
}
