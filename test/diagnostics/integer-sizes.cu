// Sizes the region cannot take as written (the accepted forms:
// test/rewrite/integer-sizes.cu): a reference to a non-const integer, and
// two entities of one spelling, which one parameter would conflate. The
// file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void by_reference(int &M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: integer-sizes.cu:[[@LINE-8]]:23: error: 'M' is a reference to a non-const integer
// DIAG: note: bind sizes to 'const' references, or pass them by value

int N = 64; // a global of the same spelling as the parameter below

void two_ns(int M, int N, int K, const __half *__restrict__ A,
            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < ::N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// The qualified name is refused first (its launcher argument would be the
// parameter N).
// DIAG: integer-sizes.cu:[[@LINE-9]]:25: error: '::N' is named with a qualifier

// The same for arrays: a global pointer and a parameter of one spelling.
const __half *B = nullptr;

void two_bs(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
            float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(::B[k * N + j]);
      C[i * N + j] = acc + __half2float(B[j]);
    }
}
// DIAG: integer-sizes.cu:[[@LINE-4]]:58: error: '::B' is named with a qualifier
