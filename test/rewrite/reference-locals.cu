// References declared in a region to an array element are names for that
// element: `float &c = C[i * N + j]; c = 0; c += a * b;` is the output
// accumulated in place, and `const __half &a = A[i * K + k]` a read of A.
// Exact, because the iterators that index the element keep their values
// wherever the reference is in scope. The refused forms:
// test/diagnostics/reference-locals.cu.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a --explain %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// EXPLAIN-LABEL: region tc_output_reference_0
// EXPLAIN: A = A (row-major, leading dimension K), B = B (row-major, leading dimension N), inputs __half, accumulation float
// CHECK-LABEL: {{^}}struct tc_output_reference_0_epilogue {
// CHECK: {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = tc::from_float<float>(tc_value);
// CHECK: {{^  }}tc_output_reference_0_launch(
void output_reference(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float &c = C[i * N + j];
      c = 0.0f;
      for (int k = 0; k < K; ++k)
        c += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}

// EXPLAIN-LABEL: region tc_operand_references_0
// EXPLAIN: A = A (row-major, leading dimension K), B = B (row-major, leading dimension N), inputs __half, accumulation float
// CHECK-LABEL: {{^}}struct tc_operand_references_0_epilogue {
// CHECK: {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = (tc_value + tc::read_only(bias[((tc_n))]));
// CHECK: {{^  }}tc_operand_references_0_launch(
void operand_references(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C,
                        const float *__restrict__ bias) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        const __half &a = A[i * K + k];
        const __half &b = *(B + k * N + j);
        acc += __half2float(a) * __half2float(b);
      }
      float &out = C[i * N + j];
      const float &bias_j = bias[j];
      out = acc + bias_j;
    }
}

// A const reference to an element of an array that is not const (the
// qualification conversion binds the element itself): the output's old
// value, read as C's element, not as a read-only one.
// CHECK-LABEL: {{^}}struct tc_const_reference_0_epilogue {
// CHECK: {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ((beta * C[(long long)((tc_m)) * (N) + ((tc_n))]) + tc_value);
// CHECK: {{^  }}tc_const_reference_0_launch(
void const_reference(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C, float beta) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const float &old = C[i * N + j];
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = beta * old + acc;
    }
}
