// BLAS-style C = alpha * A * B + beta * C with the PolyBench i-j-k order:
// `C *= beta` before the reduction loop, `C += alpha * A * B` inside it.
// The k-invariant factor alpha scales the sum in the epilogue; the
// initialisation must read the old C.
//
// Regression: the initialisation once read the epilogue's own tc_value
// (`float tc_value = static_cast<float>((tc_value * beta))`).
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_gemm_ab_0_epilogue {
// CHECK-NOT:  {{^ *}}float tc_value = static_cast<float>((tc_value
// CHECK:      {{^ *}}float tc_value = {{.*}}C[{{.*}}tc_m{{.*}}tc_n{{.*}}]{{.*}}beta
// CHECK-NEXT: {{^ *}}tc_value += static_cast<float>(alpha) * tc_sum;
// CHECK-NEXT: {{^ *}}{{C\[.*\]|tc_lanes_0\[tc_v\]}} = {{.*}}tc_value{{.*}};
// CHECK:      {{^}}void gemm_ab(
// CHECK:      {{^  }}tc_gemm_ab_0_launch(

#include <cuda_fp16.h>

void gemm_ab(int M, int N, int K, float alpha, float beta,
             const __half *__restrict__ A, const __half *__restrict__ B,
             float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      C[i * N + j] *= beta;
      for (int k = 0; k < K; k++)
        C[i * N + j] += alpha * (float)A[i * K + k] * (float)B[k * N + j];
    }
}
