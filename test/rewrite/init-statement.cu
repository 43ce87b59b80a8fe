// The output is initialised by a statement of the (i, j) loop before the
// reduction loop, `C[i * N + j] = 0`, and then accumulated in place. The
// accumulators start at +0, so a +0 initialisation is the sum itself (no
// addition of 0.0f per element); any other is added to it.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_gemm_init_0_epilogue {
// CHECK:      {{^ *}}float tc_value = tc_sum;
// CHECK-NEXT: {{^ *}}{{C\[.*\]|tc_lanes_0\[tc_v\]}} = {{.*}}tc_value{{.*}};
// CHECK:      {{^}}void gemm_init(
// CHECK:      {{^  }}tc_gemm_init_0_launch(

#include <cuda_fp16.h>

void gemm_init(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      C[i * N + j] = 0;
      for (int k = 0; k < K; k++)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}

// CHECK:      {{^}}struct tc_gemm_init_half_0_epilogue {
// CHECK:      {{^ *}}float tc_value = static_cast<float>(0.5f);
// CHECK-NEXT: {{^ *}}tc_value += tc_sum;
// CHECK:      {{^}}void gemm_init_half(
void gemm_init_half(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      C[i * N + j] = 0.5f;
      for (int k = 0; k < K; k++)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}

// 0x0F is fifteen: a hexadecimal integer's F is a digit, not a suffix.
// CHECK:      {{^}}struct tc_gemm_init_hex_0_epilogue {
// CHECK:      {{^ *}}float tc_value = static_cast<float>({{.*}}0x0F{{.*}});
// CHECK-NEXT: {{^ *}}tc_value += tc_sum;
// CHECK:      {{^}}void gemm_init_hex(
void gemm_init_hex(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      C[i * N + j] = 0x0F;
      for (int k = 0; k < K; k++)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}

// A +0 is read by its value, whatever its spelling (a digit separator here):
// no addition of it per element.
// CHECK:      {{^}}struct tc_gemm_init_separator_0_epilogue {
// CHECK:      {{^ *}}float tc_value = tc_sum;
// CHECK-NEXT: {{^ *}}{{C\[.*\]|tc_lanes_0\[tc_v\]}} = {{.*}}tc_value{{.*}};
// CHECK:      {{^}}void gemm_init_separator(
void gemm_init_separator(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      C[i * N + j] = 0'000;
      for (int k = 0; k < K; k++)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}
