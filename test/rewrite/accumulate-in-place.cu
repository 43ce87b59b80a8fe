// C += A * B without an initialisation: the reduction accumulates into the
// output itself, so the epilogue starts from the old value of C.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_gemm_acc_0_epilogue {
// CHECK:      {{^ *}}float tc_value = static_cast<float>(C[{{.*}}tc_m{{.*}}tc_n{{.*}}]);
// CHECK-NEXT: {{^ *}}tc_value += tc_sum;
// CHECK-NEXT: {{^ *}}{{C\[.*tc_m.*tc_n.*\]|tc_lanes_0\[tc_v\]}} = {{.*}}tc_value{{.*}};
// CHECK:      {{^}}void gemm_acc(
// CHECK:      {{^  }}tc_gemm_acc_0_launch(M, N, K, C, A, B, 0);

#include <cuda_fp16.h>

void gemm_acc(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}
