// In-place C += A * B in every order of the three loops. The two output
// loops become (m, n) in the order they are nested: with j outside i the
// tool computes the transposed product (m = j, n = i), so B is read as the
// m-contiguous "A" operand and A as the k-contiguous "B" operand.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}#include <tc/tc.cuh>

// CHECK:      {{^}}struct tc_gemm_ikj_0_epilogue {
// CHECK:      {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = {{.*}}tc_value{{.*}};
// CHECK:      {{^  }}tc_gemm_ikj_0_launch(

// CHECK:      {{^}}struct tc_gemm_kij_0_epilogue {
// CHECK:      {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = {{.*}}tc_value{{.*}};
// CHECK:      {{^  }}tc_gemm_kij_0_launch(

// CHECK:      {{^}}struct tc_gemm_jik_0_epilogue {
// CHECK:      {{^ *}}C[(long long)((tc_n)) * (N) + ((tc_m))] = {{.*}}tc_value{{.*}};
// CHECK:      {{^  }}tc_gemm_jik_0_launch(

// CHECK:      {{^}}struct tc_gemm_jki_0_epilogue {
// CHECK:      {{^  }}tc_gemm_jki_0_launch(

// CHECK:      {{^}}struct tc_gemm_kji_0_epilogue {
// CHECK:      {{^  }}tc_gemm_kji_0_launch(

#include <cuda_fp16.h>

void gemm_ikj(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

void gemm_kij(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

void gemm_jik(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

void gemm_jki(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < K; ++k)
      for (int i = 0; i < M; ++i)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

void gemm_kji(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < M; ++i)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}
