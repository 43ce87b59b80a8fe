// fp32 result: fp16 and bf16 operands stored straight from the fp32
// accumulator, no conversion on the store.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_gemm_f16_f32out_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = tc_value;
// CHECK:      {{^}}void gemm_f16_f32out(
// CHECK:      {{^  }}tc_gemm_f16_f32out_0_launch(M, N, K, A, B, C, 0);
// CHECK:      {{^}}struct tc_gemm_bf16_f32out_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = tc_value;
// CHECK:      {{^}}void gemm_bf16_f32out(
// CHECK:      {{^  }}tc_gemm_bf16_f32out_0_launch(M, N, K, A, B, C, 0);

#include <cuda_bf16.h>
#include <cuda_fp16.h>

void gemm_f16_f32out(int M, int N, int K, const __half *__restrict__ A,
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

void gemm_bf16_f32out(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
                      const __nv_bfloat16 *__restrict__ B,
                      float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
