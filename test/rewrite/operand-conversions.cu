// Ways of reading the fp16 operands as float: __half2float, C-style
// (float) casts, static_cast<float>, functional float(...) casts. All are
// conversions of a plain array element, so the operands go to the tensor
// cores unchanged.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}struct tc_gemm_intrinsic_0_epilogue {
// CHECK:      {{^  }}tc_gemm_intrinsic_0_launch(M, N, K, A, B, C, 0);
// CHECK:      {{^}}struct tc_gemm_c_cast_0_epilogue {
// CHECK:      {{^  }}tc_gemm_c_cast_0_launch(M, N, K, A, B, C, 0);
// CHECK:      {{^}}struct tc_gemm_static_cast_0_epilogue {
// CHECK:      {{^  }}tc_gemm_static_cast_0_launch(M, N, K, A, B, C, 0);
// CHECK:      {{^}}struct tc_gemm_functional_cast_0_epilogue {
// CHECK:      {{^  }}tc_gemm_functional_cast_0_launch(M, N, K, A, B, C, 0);
// CHECK:      {{^}}struct tc_gemm_bf16_static_cast_0_epilogue {
// CHECK:      {{^  }}tc_gemm_bf16_static_cast_0_launch(M, N, K, A, B, C, 0);

#include <cuda_bf16.h>
#include <cuda_fp16.h>

void gemm_intrinsic(int M, int N, int K, const __half *__restrict__ A,
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

void gemm_c_cast(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (float)A[i * K + k] * (float)B[k * N + j];
      C[i * N + j] = acc;
    }
}

void gemm_static_cast(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += static_cast<float>(A[i * K + k]) * static_cast<float>(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void gemm_functional_cast(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += float(A[i * K + k]) * float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void gemm_bf16_static_cast(int M, int N, int K,
                           const __nv_bfloat16 *__restrict__ A,
                           const __nv_bfloat16 *__restrict__ B,
                           float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += static_cast<float>(A[i * K + k]) * static_cast<float>(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
