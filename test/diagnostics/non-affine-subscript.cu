// Non-affine subscripts are rejected at the offending operator, and the
// region is left exactly as written (the whole file here: diff).
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void square(int M, int N, int K, const __half *__restrict__ A,
            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}non-affine-subscript.cu:[[@LINE+2]]:42: error: cannot delinearise the subscript of 'A': the subscript multiplies two loop iterators
        // DIAG: {{.*}}non-affine-subscript.cu:[[@LINE+1]]:42: note: write a row-major subscript such as 'A[i * lda + k]' or use a multi-dimensional array
        C[i * N + j] += __half2float(A[i * i]) * __half2float(B[k * N + j]);
}

void divide(int M, int N, int K, const __half *__restrict__ A,
            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}non-affine-subscript.cu:[[@LINE+2]]:42: error: non-affine operator '/' in a subscript or loop bound
        // DIAG: {{.*}}non-affine-subscript.cu:[[@LINE+1]]:42: note: subscripts and loop bounds must be sums of loop iterators and region-invariant integers times constants (e.g. 'A[i * K + k]')
        C[i * N + j] += __half2float(A[i / 2 * K + k]) * __half2float(B[k * N + j]);
}

void modulo(int M, int N, int K, const __half *__restrict__ A,
            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}non-affine-subscript.cu:[[@LINE+1]]:71: error: non-affine operator '%' in a subscript or loop bound
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k % 8 * N + j]);
}

// A size shifted by a constant is a size (test/rewrite/constant-division.cu);
// by another size, not.
void bound(int M, int N, int K, int s, const __half *__restrict__ A,
           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      // DIAG: {{.*}}non-affine-subscript.cu:[[@LINE+1]]:30: error: non-affine operator '>>' in a subscript or loop bound
      for (int k = 0; k < (K >> s); ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// Coefficients are folded in int64_t: one that leaves it would wrap into a
// different access (found by tc-fuzz-region under UBSan).
void coefficient_overflow(long M, long N, long K, const __half *__restrict__ A,
                          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (long i = 0; i < M; ++i)
    for (long j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (long k = 0; k < K; ++k)
        acc += __half2float(A[i * 4611686018427387904L * 4 + k]) * __half2float(B[k * N + j]);
      // DIAG: non-affine-subscript.cu:[[@LINE-1]]:56: error: integer overflow in a subscript or loop bound
      // DIAG: note: its coefficients are folded in 64-bit signed integers
      C[i * N + j] = __float2half(acc);
    }
}

// A layer's index times two sizes: one matrix of many, which the note
// says how to pass (the literal form, W[(l * 128 + k) * 64 + j], is a
// view at row 128 * l and is rewritten).
void layer_of_many(int M, int N, int K, int l, const __half *__restrict__ X,
                   const __half *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * __half2float(W[(l * K + k) * N + j]);
      // DIAG: non-affine-subscript.cu:[[@LINE-1]]:58: error: operand 'W' is indexed with 3 dimensions, the outermost naming no loop
      // DIAG: note: its subscript selects one matrix of many; pass a pointer to it, W + N * K * l, and index that as a matrix
      Y[i * N + j] = acc;
    }
}
