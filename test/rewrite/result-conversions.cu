// Ways of storing the float result into an fp16 / bf16 output:
// __float2half, __float2half_rn, a C-style cast, static_cast, an implicit
// conversion, __float2bfloat16. The conversion is kept in the epilogue.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}struct tc_store_float2half_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = ::__float2half(tc_value);
// CHECK:      {{^  }}tc_store_float2half_0_launch(
// CHECK:      {{^}}struct tc_store_float2half_rn_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = ::__float2half_rn(tc_value);
// CHECK:      {{^  }}tc_store_float2half_rn_0_launch(
// CHECK:      {{^}}struct tc_store_c_cast_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = {{.*}}<__half>{{.*}}tc_value{{.*}};
// CHECK:      {{^  }}tc_store_c_cast_0_launch(
// CHECK:      {{^}}struct tc_store_static_cast_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = {{.*}}<__half>{{.*}}tc_value{{.*}};
// CHECK:      {{^  }}tc_store_static_cast_0_launch(
// CHECK:      {{^}}struct tc_store_implicit_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = {{.*}}tc_value{{.*}};
// CHECK:      {{^  }}tc_store_implicit_0_launch(
// CHECK:      {{^}}struct tc_store_bf16_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = ::__float2bfloat16(tc_value);
// CHECK:      {{^  }}tc_store_bf16_0_launch(

#include <cuda_bf16.h>
#include <cuda_fp16.h>

void store_float2half(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void store_float2half_rn(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half_rn(acc);
    }
}

void store_c_cast(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = (__half)acc;
    }
}

void store_static_cast(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = static_cast<__half>(acc);
    }
}

void store_implicit(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void store_bf16(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2bfloat16(acc);
    }
}
