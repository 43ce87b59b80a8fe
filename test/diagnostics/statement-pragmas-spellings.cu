// Loop pragmas next to a region's '#pragma tc' in other spellings (the
// plain ones: statement-pragmas.cu): as _Pragma, over a line splice, and
// through a macro (its _Pragma, through another macro, or `_Pragma(#x)`
// of its argument).
// Refused with or without OpenMP; the file is left as written.
//
// RUN: rm -f %t.cu %t-omp.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu
// RUN: not %tc-rewrite %s -o %t-omp.cu -- -fopenmp 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t-omp.cu

#include <cuda_fp16.h>

void pragma_operator(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
  _Pragma("omp parallel for")
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: statement-pragmas-spellings.cu:[[@LINE-10]]:3: error: '#pragma omp' applies to the loop that the '#pragma tc' region after it replaces

void spliced(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, float *__restrict__ C) {
#pragma \
  omp parallel for
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: statement-pragmas-spellings.cu:[[@LINE-11]]:1: error: '#pragma omp' applies to the loop that the '#pragma tc' region after it replaces

#define TC_TEST_OMP_FOR _Pragma("omp parallel for")
#define TC_TEST_PARALLEL TC_TEST_OMP_FOR
#define TC_TEST_PRAGMA(x) _Pragma(#x)

void macro(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
           float *__restrict__ C) {
  TC_TEST_OMP_FOR
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: statement-pragmas-spellings.cu:[[@LINE-10]]:3: error: '#pragma omp' applies to the loop that the '#pragma tc' region after it replaces (through the macro 'TC_TEST_OMP_FOR')

void macro_of_macro(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
  TC_TEST_PARALLEL
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: statement-pragmas-spellings.cu:[[@LINE-10]]:3: error: '#pragma omp' applies to the loop that the '#pragma tc' region after it replaces (through the macro 'TC_TEST_PARALLEL')

void stringizing_macro(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
  TC_TEST_PRAGMA(omp parallel for)
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: statement-pragmas-spellings.cu:[[@LINE-10]]:3: error: '#pragma omp' applies to the loop that the '#pragma tc' region after it replaces (through the macro 'TC_TEST_PRAGMA')
