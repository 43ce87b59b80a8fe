// The paper's Listing 1: the matmul in one nest, bias and ReLU in a nest of
// their own that reads the matmul's output. Both become one kernel: C is
// stored (it is live after the region) and E is computed from the value in
// registers, not read back from memory.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

void gemm_bias_relu(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C,
                    const float *__restrict__ bias, __half *__restrict__ E) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        E[i * N + j] = __float2half(fmaxf(C[i * N + j] + bias[j], 0.0f));
  }
}
// CHECK: {{^ *}}const float tc_result_[[S:S[0-9]+]] = tc_value;
// CHECK-NEXT: {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = tc_result_[[S]];
// CHECK-NEXT: {{^ *}}{{E\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_1\[tc_v\]}} = ::__float2half(::fmaxf((tc_result_[[S]] + tc::read_only(bias[((tc_n))])), 0.0f));
// CHECK: {{^ *}}tc_gemm_bias_relu_0_launch(
