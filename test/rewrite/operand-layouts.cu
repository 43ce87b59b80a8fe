// All four operand layouts. A row-major (A[i * K + k]) is k-contiguous and
// A column-major (A[k * M + i]) m-contiguous; B row-major (B[k * N + j]) is
// n-contiguous and B column-major (B[j * K + k]) k-contiguous. The
// fragment loaders follow; --explain names the layouts and leading
// dimensions.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %tc-rewrite --mma-path=sync --explain %s | FileCheck %s --check-prefix=EXPLAIN

// EXPLAIN-LABEL: {{^}}region tc_gemm_rr_0 at
// EXPLAIN:       {{^}}    A = A (row-major, leading dimension K), B = B (row-major, leading dimension N),
// EXPLAIN-LABEL: {{^}}region tc_gemm_cr_0 at
// EXPLAIN:       {{^}}    A = A (column-major, leading dimension M), B = B (row-major, leading dimension N),
// EXPLAIN-LABEL: {{^}}region tc_gemm_rc_0 at
// EXPLAIN:       {{^}}    A = A (row-major, leading dimension K), B = B (column-major, leading dimension K),
// EXPLAIN-LABEL: {{^}}region tc_gemm_cc_0 at
// EXPLAIN:       {{^}}    A = A (column-major, leading dimension M), B = B (column-major, leading dimension K),

// CHECK:      {{^}}struct tc_gemm_rr_0_epilogue {
// CHECK:      {{^  }}tc_gemm_rr_0_launch(

// CHECK:      {{^}}struct tc_gemm_cr_0_epilogue {
// CHECK:      {{^  }}tc_gemm_cr_0_launch(

// CHECK:      {{^}}struct tc_gemm_rc_0_epilogue {
// CHECK:      {{^  }}tc_gemm_rc_0_launch(

// CHECK:      {{^}}struct tc_gemm_cc_0_epilogue {
// CHECK:      {{^  }}tc_gemm_cc_0_launch(

#include <cuda_fp16.h>

// A row-major, B row-major.
void gemm_rr(int M, int N, int K, const __half *__restrict__ A,
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

// A column-major, B row-major.
void gemm_cr(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[k * M + i]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A row-major, B column-major.
void gemm_rc(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}

// A column-major, B column-major.
void gemm_cc(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[k * M + i]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}
