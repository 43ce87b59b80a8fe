// Loop forms the region cannot take (the accepted ones:
// test/rewrite/loop-origins.cu, loop-strides.cu): a step along an
// operand's contiguous dimension, a strided `!=` or unsigned downward loop,
// a condition that runs against the increment, an unsigned iterator
// counting down to `>= 0`
// (the source's loop never ends). The file is left as written. Triangular
// nests and guards: test/diagnostics/guards.cu.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

// A step along A's contiguous dimension: no tensor-core tile reads every
// other element.
void strided_contiguous(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; k += 2)
        // DIAG: loop-forms.cu:[[@LINE+2]]:29: error: operand 'A' is not indexed by the plain iterators
        // DIAG: note: each of an operand's subscripts must be an iterator plus an offset: strides and other iterators in a subscript are not supported
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void strided_not_equal(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    // DIAG: loop-forms.cu:[[@LINE+2]]:21: error: a strided loop's condition must not be '!='
    // DIAG: note: a step may pass the bound; write 'i < upper' or 'i <= upper'
    for (int j = 0; j != N; j += 2) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void strided_unsigned_down(unsigned M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+2]]:32: error: a downward strided loop over the unsigned 'i' may wrap below 0
  // DIAG: note: count a signed iterator down, or count upwards
  for (unsigned i = M; i >= 1; i -= 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i - 1) * K + k]) * __half2float(B[k * N + j]);
      C[(i - 1) * N + j] = acc;
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
