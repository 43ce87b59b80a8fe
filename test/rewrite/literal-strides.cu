// Literal leading dimensions split a linearised subscript into rows like
// parameter ones (model/Affine.cpp, delinearize): `X[i * TK + k]` with a
// template's constant, `A[i * HIDDEN + k]` with a macro's, `C[i * 64 + j]`
// with a literal. The launcher passes the constants as the operands'
// leading dimensions; where the output's rows may overlap (N > 64) the
// loops as written run. A subscript whose coefficients form no row-major
// chain stays one-dimensional (and is rejected as an operand). Literal
// strides may sit beside parameter offsets and strides (`(i + off) * 128
// + k`, `(b * M + i) * 128 + k`). GPU check:
// test/gpu/regions/loops.cu (loops_literal_strides).
//
// RUN: not %tc-rewrite %s -o %t.cu 2> %t.err
// RUN: FileCheck %s --input-file=%t.cu
// RUN: FileCheck %s --check-prefix=DIAG --input-file=%t.err
// RUN: not %tc-rewrite --explain %s 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>
#define HIDDEN 4096

// EXPLAIN-LABEL: region tc_linear_t_0_0 at
// EXPLAIN:       array X: __half, strides [1024, 1]
// EXPLAIN-NEXT:  array W: __half, strides [1024, 1]
// CHECK:         {{^ *}}tc::sm90::PersistentScheduler>({M, N, 1024}, X, 1024, W, 1024, tc_linear_t_0_0_epilogue{M, N, X, W, Y}, tc_stream))
template <int TK>
void linear_t(int M, int N, const __half *__restrict__ X, const __half *__restrict__ W,
              __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < TK; ++k)
        acc += __half2float(X[i * TK + k]) * __half2float(W[j * TK + k]);
      Y[i * N + j] = __float2half(acc);
    }
}
template void linear_t<1024>(int, int, const __half *, const __half *, __half *);

// EXPLAIN-LABEL: region tc_gemm_0 at
// EXPLAIN:       array A: __half, strides [4096, 1]
// EXPLAIN-NEXT:  array B: __half, strides [256, 1]
// EXPLAIN-NEXT:  array C: __half, strides [256, 1]
// CHECK:         {{^ *}}tc::sm90::PersistentScheduler>({M, 256, 4096}, A, 4096, B, 256, tc_gemm_0_epilogue{M, A, B, C}, tc_stream))
void gemm(int M, const __half *__restrict__ A, const __half *__restrict__ B,
          __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < 256; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < HIDDEN; ++k)
        acc += __half2float(A[i * HIDDEN + k]) * __half2float(B[k * 256 + j]);
      C[i * 256 + j] = __float2half(acc);
    }
}

// C's rows are 64 elements apart: for N > 64 they overlap.
// EXPLAIN-LABEL: region tc_overlapping_0 at
// EXPLAIN:       sizes where rows of a written array overlap: !({{.*}}N <= 64{{.*}}) runs tc_overlapping_0_serial_kernel
// CHECK-LABEL:   {{^}}static void tc_overlapping_0_launch(
// CHECK:         tc_overlapping_0_serial_kernel<<<1, 1, 0, tc_stream>>>(M, N, K, A, B, C);
void overlapping(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
                 float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * 200 + k]) * __half2float(B[k * 64 + j]);
      C[i * 64 + j] = acc;
    }
}

// 1-based rows: (i - 1) * 64 + j is row i - 1, inside its row for N <= 64.
// EXPLAIN-LABEL: region tc_one_based_0 at
// EXPLAIN-NOT:   rows of a written array overlap
// EXPLAIN:       array C: float, strides [64, 1]
// CHECK-LABEL:   {{^}}static void tc_one_based_0_launch(
// CHECK-NOT:     serial_kernel
// CHECK:         {{^}}void one_based(
void one_based(int M, int K, const __half *__restrict__ A, const __half *__restrict__ B,
               float *__restrict__ C) {
#pragma tc
  for (int i = 1; i <= M; ++i)
    for (int j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i - 1) * K + k]) * __half2float(B[k * 64 + j]);
      C[(i - 1) * 64 + j] = acc;
    }
}

// 100 is no multiple of 48: one dimension, which an operand cannot be.
// DIAG: literal-strides.cu:[[@LINE+11]]:29: error: operand 'A' is indexed with 1 dimensions
// DIAG-NEXT: {{^ *}}[[@LINE+10]] |
// DIAG-NEXT: {{^ *}}| ^
// DIAG-NEXT: note: operands must be matrices
void not_a_chain(int M, int N, const __half *__restrict__ A, const __half *__restrict__ B,
                 float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 48; ++k)
        acc += __half2float(A[i * 100 + k * 48]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A row offset beside a literal stride: (i + off) * 128 + k is row i + off
// of a 128-wide matrix; the launcher moves A there.
// EXPLAIN-LABEL: region tc_offset_rows_0 at
// EXPLAIN:       array A: __half, strides [128, 1]
// EXPLAIN:       operand A: a view at offset [off, 0]; the launcher moves the pointer there
// CHECK-LABEL:   {{^}}static void tc_offset_rows_0_launch(
// CHECK:         {{^ *}}A += (long long)(off) * (128) + (long long)(0);  // where the operand's view starts
// CHECK:         tc::sm90::PersistentScheduler>({M, N, 128}, A, 128, B, N, tc_offset_rows_0_epilogue{
void offset_rows(int M, int N, int off, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 128; ++k)
        acc += __half2float(A[(i + off) * 128 + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Literal strides beside parameter ones: A's batches are M rows of 128
// (stride 128 M), B's 64 rows of 64, C's M rows of 64; A starts at row off.
// EXPLAIN-LABEL: region tc_batched_rows_0 at
// EXPLAIN:       array A: __half, strides [128 * M, 128, 1]
// EXPLAIN-NEXT:  array B: __half, strides [4096, 64, 1]
// EXPLAIN-NEXT:  array C: float, strides [64 * M, 64, 1]
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = 64, batch loop b of Bt
// CHECK-LABEL:   {{^}}void batched_rows(
// CHECK:         {{^ *}}tc_batched_rows_0_launch(Bt, M, N, off, A, B, C, 0);
void batched_rows(int Bt, int M, int N, int off, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < 64; ++k)
          acc += __half2float(A[(b * M + i + off) * 128 + k]) *
                 __half2float(B[(b * 64 + k) * 64 + j]);
        C[(b * M + i) * 64 + j] = acc;
      }
}

// A size that offsets a subscript may be negative (model/IslModel.cpp,
// markSignedParameters): with off = -64 and N = 128 the rows of C overlap
// though N + off <= 64, so the loops as written run unless off >= 0 too.
// EXPLAIN-LABEL: region tc_output_offset_0 at
// EXPLAIN:       sizes where rows of a written array overlap: {{.*}}(off >= 0)) && ((N + off) <= 64)){{.*}} runs tc_output_offset_0_serial_kernel
// CHECK-LABEL:   {{^}}static void tc_output_offset_0_launch(
// CHECK:         (off >= 0)) && ((N + off) <= 64))
void output_offset(int M, int N, int K, int off, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * 64 + j + off] = acc;
    }
}
