// Accumulators initialised the ways C++ code writes a zero or a value:
// braces (`float acc{}`, `= {}`, `{0.5f}`) and `float()`. A zero is the
// sum itself; another value is added to it.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'

#include <cuda_fp16.h>

#define GEMM_INTO(Y, INIT)                                                                         \
  for (int i = 0; i < M; ++i)                                                                      \
    for (int j = 0; j < N; ++j) {                                                                  \
      float acc INIT;                                                                              \
      for (int k = 0; k < K; ++k)                                                                  \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);                            \
      Y[i * N + j] = acc;                                                                          \
    }

// CHECK-LABEL: struct tc_braces_0_epilogue {
// CHECK: float tc_value = tc_sum;
// CHECK-LABEL: struct tc_braces_1_epilogue {
// CHECK: float tc_value = tc_sum;
// CHECK-LABEL: struct tc_braces_2_epilogue {
// CHECK: float tc_value = static_cast<float>(0.5f);
// CHECK-NEXT: tc_value += tc_sum;
// CHECK-LABEL: struct tc_braces_3_epilogue {
// CHECK: float tc_value = tc_sum;
void braces(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
            float *__restrict__ C, float *__restrict__ D, float *__restrict__ E,
            float *__restrict__ F) {
#pragma tc
  GEMM_INTO(C, {})
#pragma tc
  GEMM_INTO(D, = {})
#pragma tc
  GEMM_INTO(E, {0.5f})
#pragma tc
  GEMM_INTO(F, = float())
}
