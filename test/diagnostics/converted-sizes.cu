// Bounds the region cannot take as written (the accepted forms:
// test/rewrite/converted-sizes.cu): a conversion that may change the value
// of a size expression, and a loop bounded by its own iterator. The file
// is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cstddef>
#include <cuda_fp16.h>

void converted_expression(size_t M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < (int)(M - 1); ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: converted-sizes.cu:[[@LINE-8]]:28: error: conversion to 'int' of '(M - 1)' may change its value
// DIAG: note: convert a size alone ('(int)n'), or compute the value before the region

// A conversion of an iterator's expression in a bound: `(int)(M - i)`
// of a size_t M is not M - i for M >= 2^31.
void converted_iterator_expression(size_t M, int K, const __half *__restrict__ A,
                                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < (int)(M - i); ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * 64 + j]);
      C[i * 64 + j] = acc;
    }
}
// DIAG: converted-sizes.cu:[[@LINE-7]]:30: error: conversion to 'int' of '(M - i)' may change its value

// An implicit conversion of a size expression to int: `int k = K - 1`
// narrows a long K (fuzz case s7103_0006), and changes the sign of an
// unsigned K >= 2^31 + 1 (the launch would pass K as it is).
void implicit_narrowing_downwards(int M, int N, long K, const __half *__restrict__ A,
                                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = K - 1; k >= 0; --k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: converted-sizes.cu:[[@LINE-5]]:20: error: conversion to 'int' of 'K - 1' may change its value

void implicit_sign_change_downwards(int M, int N, unsigned K, const __half *__restrict__ A,
                                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = K - 1; k >= 0; --k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: converted-sizes.cu:[[@LINE-5]]:20: error: conversion to 'int' of 'K - 1' may change its value

void bounded_by_itself(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < j + N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: converted-sizes.cu:[[@LINE-7]]:25: error: the bound of the loop over 'j' depends on 'j' itself
// DIAG: note: bound the loop by an expression of the sizes and the enclosing loops' iterators
