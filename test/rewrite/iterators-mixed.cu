// size_t iterators against int sizes, and int iterators against long
// sizes: the iterator's type does not have to match the bound's.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}struct tc_gemm_size_t_int_0_epilogue {
// CHECK:      {{^  }}tc_gemm_size_t_int_0_launch(M, N, K, A, B, C, 0);
// CHECK:      {{^}}struct tc_gemm_int_long_0_epilogue {
// CHECK:      {{^  }}tc_gemm_int_long_0_launch(M, N, K, A, B, C, 0);

#include <cstddef>
#include <cuda_fp16.h>

void gemm_size_t_int(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (size_t i = 0; i < M; ++i)
    for (size_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (size_t k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void gemm_int_long(long M, long N, long K, const __half *__restrict__ A,
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
