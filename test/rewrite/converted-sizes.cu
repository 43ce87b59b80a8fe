// Sizes the source converts (`i < (int)n`, `int i = n`), which may change
// their value: `(int)n` of an unsigned or size_t n >= 2^31 is not n, and
// the source's loop runs that many times. The converted size is a
// parameter of its own, which the launch converts as the source does; the
// size itself, where the region reads it unconverted too (a stride), is
// another. Explicit conversions are followed, implicit ones to a narrower
// type and implicit ones of a converted value; conversions that keep every
// value (`(long)m`) and constants are read through, and so is an implicit
// change of sign alone (it changes negative sizes only). The refused ones:
// test/diagnostics/converted-sizes.cu.
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
