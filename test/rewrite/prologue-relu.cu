// A pointwise prologue on an operand (ReLU on A) is applied to A's register
// fragments right after ldmatrix; a prologue on both operands, or one that
// uses more than the element, is rejected.
//
// RUN: not %tc-rewrite --mma-path=sync %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

void relu_gemm(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
// CHECK: {{^}}struct tc_relu_gemm_0_prologue_a {
// CHECK-NEXT: {{^ *}}__device__ __forceinline__ float operator()(float tc_x) const {
// CHECK-NEXT: {{^ *}}return static_cast<float>(fmaxf(tc_x, 0.0f));
// CHECK: {{^ *}}tc::apply_prologue<__half>(tc_frag_a[0][c{{[0-9]}}], tc_relu_gemm_0_prologue_a());

void both(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: prologue-relu.cu:[[@LINE+1]]:9: error: both operands of the product have a prologue
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * fmaxf(__half2float(B[k * N + j]), 0.0f);
      C[i * N + j] = __float2half(acc);
    }
}
