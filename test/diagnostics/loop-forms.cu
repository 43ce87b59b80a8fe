// Loop forms the region cannot take (the accepted ones:
// test/rewrite/loop-origins.cu): a step other than 1, a condition that runs
// against the increment, an unsigned iterator counting down to `>= 0`
// (the source's loop never ends), and a lower bound that names another
// loop (a triangular nest). The file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void strided(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
             float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: loop-forms.cu:[[@LINE+2]]:32: error: loop step 2 is not supported
      // DIAG: note: strided loops are not supported yet; loop over every element and index with 'step * i'
      for (int k = 0; k < K; k += 2)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void against_increment(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+2]]:23: error: a downward loop's condition must compare the iterator with '>' or '>=' against a lower bound
  // DIAG: note: write 'i >= lower' or 'i > lower'
  for (int i = M - 1; i < M; --i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void unsigned_down(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+2]]:28: error: a downward loop over the unsigned 'i' with this condition never ends or never runs
  // DIAG: note: count down to the bound with '>': 'for (unsigned i = n; i > 0; --i)'
  for (unsigned i = M - 1; i >= 0; --i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void triangular(int N, const __half *__restrict__ A, const __half *__restrict__ B,
                float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: loop-forms.cu:[[@LINE+2]]:7: error: the lower bound of loop 'k' depends on another loop
      // DIAG: note: triangular loop nests are not supported
      for (int k = i; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
