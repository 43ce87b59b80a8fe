// A region in an operator function: the generated names take the
// operator's symbol as underscores (tc_operator___0_launch), which are
// identifiers; the call operator of a functor and a binary operator.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

struct Gemm {
  void operator()(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C);
};
// CHECK: static void tc_operator___0_launch(
void Gemm::operator()(int M, int N, int K, const __half *__restrict__ A,
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
// CHECK: {{^ *}}tc_operator___0_launch(M, N, K, A, B, C, 0);

struct Matrix {
  int rows, cols;
  float *data;
};
// CHECK: static void tc_operator__0_launch(
float *operator+(const Matrix &X, const __half *__restrict__ B) {
  const int M = X.rows, N = X.cols, K = 64;
  float *__restrict__ C = X.data;
  const __half *__restrict__ A = B;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
  return C;
}
// CHECK: {{^ *}}tc_operator__0_launch(M, N, A, B, C, 0);
