// temp(...) names arrays that are scratch: dead after the region. Their
// values stay in registers and are forwarded to the statements that read
// them; the kernel never stores them. Without the clause, every array the
// region writes is stored (the control function below), so no result is
// lost by default.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^}}#pragma tc'
// No kernel of the two scratch regions (every tile alternative, cp.async
// twin and split-K reduction) reads or writes T or U; the control writes V:
// RUN: grep -v '^ *//' %t.cu | not grep -n '[^_A-Za-z0-9][TU]\['
// RUN: grep -v '^ *//' %t.cu | grep -c '[^_A-Za-z0-9]V\[' | grep -v '^0$'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// The accumulator itself is scratch: T = A * B, C = half(max(T + bias, 0)).
void scratch_accumulator(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, const float *__restrict__ bias,
                         float *__restrict__ T, __half *__restrict__ C) {
#pragma tc temp(T)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      T[i * N + j] = 0.0f;
      for (int k = 0; k < K; ++k)
        T[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(fmaxf(T[i * N + j] + bias[j], 0.0f));
    }
}
// CHECK-LABEL: {{^}}struct tc_scratch_accumulator_0_epilogue {
// CHECK-NOT: {{[^_A-Za-z0-9]}}T[
// CHECK: {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = ::__float2half(::fmaxf((tc_value + tc::read_only(bias[((tc_n))])), 0.0f));
// CHECK-NOT: {{[^_A-Za-z0-9]}}T[
// CHECK: {{^ *}}tc_scratch_accumulator_0_launch(

// A scratch array between two nests: U = A * B in the first, read by the
// second; U is forwarded from a register.
void scratch_between_nests(int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, const float *__restrict__ bias,
                           float *__restrict__ U, __half *__restrict__ E) {
#pragma tc temp(U)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        U[i * N + j] = acc + bias[j];
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        E[i * N + j] = __float2half(fmaxf(U[i * N + j], 0.0f));
  }
}
// CHECK-LABEL: {{^}}struct tc_scratch_between_nests_0_epilogue {
// CHECK-NOT: {{[^_A-Za-z0-9]}}U[
// CHECK: {{^ *}}const float tc_temp_[[S:S[0-9]+]] = (tc_value + tc::read_only(bias[((tc_n))]));
// CHECK-NEXT: {{^ *}}{{E\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = ::__float2half(::fmaxf(tc_temp_[[S]], 0.0f));
// CHECK-NOT: {{[^_A-Za-z0-9]}}U[
// CHECK: {{^ *}}tc_scratch_between_nests_0_launch(

// The same region without the clause: V is live after it and stored.
void live_between_nests(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, const float *__restrict__ bias,
                        float *__restrict__ V, __half *__restrict__ E) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        V[i * N + j] = acc + bias[j];
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        E[i * N + j] = __float2half(fmaxf(V[i * N + j], 0.0f));
  }
}
// CHECK-LABEL: {{^}}struct tc_live_between_nests_0_epilogue {
// CHECK: {{^ *}}const float tc_result_[[S:S[0-9]+]] = (tc_value + tc::read_only(bias[((tc_n))]));
// CHECK-NEXT: {{^ *}}{{V\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = tc_result_[[S]];
// CHECK-NEXT: {{^ *}}{{E\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_1\[tc_v\]}} = ::__float2half(::fmaxf(tc_result_[[S]], 0.0f));
