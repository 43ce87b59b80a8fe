// References declared in a region that are not names for an element (the
// accepted forms: test/rewrite/reference-locals.cu): one whose element is
// indexed by a variable of the region, and one bound to a converted
// temporary. The file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void indexed_by_local(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int row = i;
      // DIAG: reference-locals.cu:[[@LINE+2]]:20: error: the element that 'c' refers to is indexed by 'row', a variable of the region
      // DIAG: note: index the element a reference names with the loops' iterators
      float &c = C[row * N + j];
      c = 0.0f;
      for (int k = 0; k < K; ++k)
        c += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}

void converted_temporary(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      // DIAG: reference-locals.cu:[[@LINE+2]]:20: error: reference 'first' is not bound to an array element of its type
      // DIAG: note: bind a reference to an element ('float &c = C[i * N + j];'), or declare a value ('float c = ...;')
      const float &first = A[i * K];
      float acc = first;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Bound while the k loop's counter, declared before the region, is not
// yet counting: the reference names A[i][K - 1], the model would read the
// running k.
void counter_before_its_loop(int M, int N, int K, const __half *__restrict__ A,
                             const __half *__restrict__ B, float *__restrict__ C) {
  int k = K;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: reference-locals.cu:[[@LINE+1]]:35: error: the element that 'a' refers to is indexed by 'k', a variable of the region
      const __half &a = A[i * K + k - 1];
      for (k = 0; k < K; ++k)
        acc += __half2float(a) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// The same for a value; and an index with effects, which each use would
// repeat (or none, unused).
int next_index();
void value_and_effects(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
  int k = K;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: reference-locals.cu:[[@LINE+1]]:34: error: 'a' is bound to a value of 'k', the counter of a loop that does not run around the binding
      const __half a = A[i * K + k - 1];
      for (k = 0; k < K; ++k)
        acc += __half2float(a) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      // DIAG: reference-locals.cu:[[@LINE+1]]:14: error: the element that 'unused' refers to is indexed by an expression that may have effects
      float &unused = C[next_index()];
      float acc = 0.0f;
      for (int kk = 0; kk < K; ++kk)
        acc += __half2float(A[i * K + kk]) * __half2float(B[kk * N + j]);
      C[i * N + j] = acc;
    }
}
