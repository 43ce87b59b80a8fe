// Column-major output C[j * M + i] (and a column-major fp16 output with a
// leading dimension): the store swaps the roles of tc_m and tc_n.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}struct tc_gemm_ccol_0_epilogue {
// CHECK:      {{^ *}}C[(long long)((tc_n)) * (M) + ((tc_m))] = tc_value;
// CHECK:      {{^  }}tc_gemm_ccol_0_launch(

// CHECK:      {{^}}struct tc_gemm_ccol_ld_0_epilogue {
// CHECK:      {{^ *}}C[(long long)((tc_n)) * (ldc) + ((tc_m))] = ::__float2half(tc_value);
// CHECK:      {{^  }}tc_gemm_ccol_ld_0_launch(

#include <cuda_fp16.h>

void gemm_ccol(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[j * M + i] = acc;
    }
}

void gemm_ccol_ld(int M, int N, int K, int ldc, const __half *__restrict__ A,
                  const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[j * ldc + i] = __float2half(acc);
    }
}
