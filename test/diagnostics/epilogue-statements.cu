// Statements after the reduction that are not a value of the output
// element: an `if` that assigns two variables, a local read before it is
// assigned, and an update of the accumulator followed by another reduction
// into it. Each is rejected at the statement, and the file is left as
// written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void if_two_variables(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f, lo = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+2]]:7: error: control flow other than counted 'for' loops is not supported in a '#pragma tc' region
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+1]]:7: note: express conditions inside the computed value, e.g. with '?:' or fmaxf
      if (acc < 0.0f) lo = acc; else acc = 0.0f;
      C[i * N + j] = acc + lo;
    }
}

void read_before_assigned(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      float scale;
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+2]]:28: error: 'scale' is read before it is assigned
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+1]]:28: note: initialise the variable where it is declared
      C[i * N + j] = acc * scale;
      scale = 2.0f;
    }
}

void update_between_reductions(int M, int N, int K, const __half *__restrict__ A,
                               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // A store of acc, as the second reduction continues from it.
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+2]]:7: error: statement between the products of a sum of matmuls
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+1]]:7: note: initialise before the first product and consume the sum after the last
      acc *= 0.5f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
