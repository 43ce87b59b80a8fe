// The ways people write the accumulation of a product (model/Model.h,
// accumulationOf): `acc = fmaf(a, b, acc)` and `std::fma` are `acc += a * b`
// (the same kernels: nothing but each step's rounding differs, as it does
// between `+=` and the tensor cores), and `acc -= a * b` is the sum negated
// once, which is exact: the operands stay plain (no prologue), and the
// epilogue subtracts the sum from the initial value.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.sm90.cu
// RUN: FileCheck %s --input-file=%t.sm90.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a --explain %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --input-file=%t.sm80.cu --check-prefix=SM80
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.sm90.cu -o %t.sm90.ptx %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -ptx -Xcicc -O0 %t.sm80.cu -o %t.sm80.ptx %}

#include <cmath>
#include <cuda_fp16.h>

// EXPLAIN-LABEL: region tc_by_fmaf_0
// EXPLAIN: A = A (row-major, leading dimension K), B = B (row-major, leading dimension N), inputs __half, accumulation float
// CHECK-LABEL: {{^}}struct tc_by_fmaf_0_epilogue {
// CHECK: {{^ *}}float tc_value = tc_sum;
// CHECK: {{^}}void by_fmaf(
void by_fmaf(int M, int N, int K, const __half *A, const __half *B, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc = fmaf(__half2float(A[i * K + k]), __half2float(B[k * N + j]), acc);
      C[i * N + j] = acc;
    }
}

// EXPLAIN-LABEL: region tc_by_std_fma_0
// EXPLAIN: A = A (row-major, leading dimension K), B = B (row-major, leading dimension N), inputs __half, accumulation float
// CHECK-LABEL: {{^}}struct tc_by_std_fma_0_epilogue {
// CHECK: {{^ *}}float tc_value = tc_sum;
// CHECK: {{^}}void by_std_fma(
void by_std_fma(int M, int N, int K, const __half *A, const __half *B, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc = std::fma(__half2float(A[i * K + k]), __half2float(B[k * N + j]), acc);
      C[i * N + j] = acc;
    }
}

// A residual: R = bias - X * W.
// EXPLAIN-LABEL: region tc_residual_0
// EXPLAIN: A = X (row-major, leading dimension K), B = W (row-major, leading dimension N), inputs __half, accumulation float
// CHECK-LABEL: {{^}}struct tc_residual_0_epilogue {
// CHECK: {{^ *}}float tc_value = static_cast<float>(tc::read_only(bias[{{.*}}tc_n{{.*}}]));
// CHECK-NEXT: {{^ *}}tc_value += static_cast<float>(-1) * tc_sum;
// CHECK: {{^}}void residual(
// SM80: {{^}}struct tc_residual_0_epilogue {
// SM80: {{^ *}}tc_value += static_cast<float>(-1) * tc_sum;
void residual(int M, int N, int K, const float *bias, const __half *X, const __half *W,
              float *R) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = bias[j];
      for (int k = 0; k < K; ++k)
        acc -= __half2float(X[i * K + k]) * __half2float(W[k * N + j]);
      R[i * N + j] = acc;
    }
}

// In place, and as `acc = acc - product`.
// CHECK-LABEL: {{^}}struct tc_in_place_0_epilogue {
// CHECK: {{^ *}}float tc_value = static_cast<float>(C[{{.*}}tc_m{{.*}}tc_n{{.*}}]);
// CHECK-NEXT: {{^ *}}tc_value += static_cast<float>(-1) * tc_sum;
// CHECK: {{^}}void in_place(
void in_place(int M, int N, int K, const __half *A, const __half *B, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] = C[i * N + j] - __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// A negated product added is the product subtracted (negation is exact);
// negated twice, added.
// CHECK-LABEL: {{^}}struct tc_negated_0_epilogue {
// CHECK: {{^ *}}tc_value += static_cast<float>(-1) * tc_sum;
// CHECK-LABEL: {{^}}struct tc_negated_twice_0_epilogue {
// CHECK-NOT: static_cast<float>(-1)
// CHECK: {{^}}void negated_twice(
void negated(int M, int N, int K, const __half *A, const __half *B, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += -(__half2float(A[i * K + k]) * __half2float(B[k * N + j]));
      C[i * N + j] = acc;
    }
}

void negated_twice(int M, int N, int K, const __half *A, const __half *B, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc -= -(__half2float(A[i * K + k]) * __half2float(B[k * N + j]));
      C[i * N + j] = acc;
    }
}
