// Scalars of the function, k-invariant, scale the sum in the epilogue:
// C = alpha * (A * B) with a local accumulator, and C = alpha * A * B + beta
// * D with a second input read by the epilogue; an int scalar in its type.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}struct tc_gemm_alpha_0_epilogue {
// CHECK:      {{^ *}}tc_value += static_cast<float>(alpha) * tc_sum;
// CHECK:      {{^  }}tc_gemm_alpha_0_launch(
// CHECK:      {{^}}struct tc_gemm_axpby_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = {{.*}}tc_value{{.*}}beta{{.*}}D[{{.*}}tc_m{{.*}}tc_n{{.*}}]
// CHECK:      {{^  }}tc_gemm_axpby_0_launch(

#include <cuda_fp16.h>

void gemm_alpha(int M, int N, int K, float alpha, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += alpha * __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void gemm_axpby(int M, int N, int K, float alpha, float beta,
                const __half *__restrict__ A, const __half *__restrict__ B,
                const float *__restrict__ D, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = alpha * acc + beta * D[i * N + j];
    }
}

// An int scalar is passed as long long and read back as int, so that its
// arithmetic wraps where the source's does (t << 1 at t = 2^30).
// CHECK:      {{^ *}}C[{{.*}}] = {{.*}}(static_cast<int>(t) << 1)
// CHECK:      {{^  }}tc_gemm_int_scalar_0_launch(
void gemm_int_scalar(int M, int N, int K, int t, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc + (float)(t << 1);
    }
}
