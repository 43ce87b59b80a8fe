// Sizes the source converts (`i < (int)n`, `int i = n`), which may change
// their value: `(int)n` of an unsigned or size_t n >= 2^31 is not n, and
// the source's loop runs that many times. The converted size is a
// parameter of its own, which the launch converts as the source does; the
// size itself, where the region reads it unconverted too (a stride), is
// another. Explicit conversions are followed, implicit ones to a narrower
// type and implicit ones of a converted value; conversions that keep every
// value (`(long)m`) and constants are read through, and so is an implicit
// change of sign alone to unsigned (it changes negative sizes only) or to a
// 64-bit signed type (the launch's long long parameter wraps alike); one to
// int is followed. The refused ones: test/diagnostics/converted-sizes.cu.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a %s --explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cstddef>
#include <cuda_fp16.h>

// Only converted: the launch passes the converted value alone.
// CHECK: {{^}}static void tc_rows_as_int_0_launch(long long M_as_int, long long N, long long K, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_rows_as_int_0_launch(static_cast<int>(M), N, K, A, B, C, 0);
// EXPLAIN: region tc_rows_as_int_0 at
// EXPLAIN-NEXT: context: [static_cast<int>(M), N, K] -> {  : static_cast<int>(M) >= 0 and N >= 0 and K >= 0 }
void rows_as_int(unsigned M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < (int)M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Converted in the bounds, read as it is in the strides: two sizes, the
// launch passes both.
// CHECK: {{^}}static void tc_square_0_launch(long long n_as_int, long long n, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_square_0_launch(static_cast<int>(n), n, A, B, C, 0);
void square(size_t n, const __half *__restrict__ A, const __half *__restrict__ B,
            float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < static_cast<int>(n); ++i)
    for (int j = 0; j < int(n); ++j) {
      float acc = 0.0f;
      for (int k = 0; k < (int)n; ++k)
        acc += __half2float(A[i * n + k]) * __half2float(B[k * n + j]);
      C[i * n + j] = acc;
    }
}

// A member converted; a widening conversion and a constant's are read
// through.
struct Shape {
  unsigned long rows;
  unsigned cols;
};
constexpr unsigned kDepth = 64;
// CHECK: {{^}}static void tc_members_0_launch(long long s_rows_as_int, long long s_cols, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_members_0_launch(static_cast<int>(s.rows), s.cols, A, B, C, 0);
void members(Shape s, const __half *__restrict__ A, const __half *__restrict__ B,
             float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < (int)s.rows; ++i)
    for (long j = 0; j < (long)s.cols; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < (int)kDepth; ++k)
        acc += __half2float(A[i * kDepth + k]) * __half2float(B[k * s.cols + j]);
      C[i * s.cols + j] = acc;
    }
}

// An unsigned iterator compares with (unsigned)(int)M, which is M again;
// an implicit narrowing (`int i = M`) and a let-binding are followed too.
// CHECK: {{^}}  tc_compared_unsigned_0_launch(static_cast<unsigned int>(static_cast<int>(M)), N, K, A, B, C, 0);
void compared_unsigned(unsigned M, unsigned N, unsigned K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < (int)M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// CHECK: {{^}}  tc_implicit_narrowing_0_launch(static_cast<int>(M), N, K, A, B, C, 0);
void implicit_narrowing(size_t M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  {
    const int rows = M;
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
  }
}

// An implicit change of sign alone of an expression of sizes, to a 64-bit
// signed type, is read through: `long long i = q - 1` of a size_t q is
// q - 1 for 1 <= q <= 2^63, and for q == 0 it is -1 (2^64 - 1 converted),
// no iterations, as the model reads q - 1; a larger q the launch's long long
// parameter wraps as the source does. The launch passes q unconverted.
// CHECK: {{^}}  tc_sign_change_downwards_0_launch(q, N, K, C, A, B, 0);
// EXPLAIN: region tc_sign_change_downwards_0 at
// EXPLAIN: domain: [q, N, K] -> { S0[i, j, k] : q >= 0 and N >= 0 and K >= 0 and 0 <= i < q and 0 <= j < N and 0 <= k < K }
void sign_change_downwards(size_t q, long N, long long K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (long long i = q - 1; i >= 0; i -= 1)
    for (long j = 0; j < N; ++j)
      for (long long k = K - 1; k >= 0; --k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// To a narrower signed type, a change of sign is followed: `const int
// depth = K` of an unsigned K is negative for K >= 2^31, and the source's
// loop runs no k; the launch passes static_cast<int>(K) (and K, a stride).
// (`int k = K - 1` of an unsigned K is an error:
// test/diagnostics/converted-sizes.cu.)
// CHECK: {{^}}  tc_sign_change_to_int_0_launch(M, N, static_cast<int>(K), K, A, B, C, 0);
void sign_change_to_int(int M, int N, unsigned K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  {
    const int depth = K;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < depth; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
  }
}
