// User macros cannot rewrite the generated code (frontend/Hygiene.h): a
// macro in force where the kernels are inserted that shares a name the
// generated code uses is set aside around the definitions (push_macro,
// #undef, pop_macro); one that is not in force there, or that the code does
// not use, is left alone. A file-scope name that the region's launcher would
// take moves the region's names to the next free stem. (An operand
// gathered while copied, its elements 2 apart, keeps a generated text
// kernel, whose code calls tc::min.)
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^}}#pragma push_macro("stage")' \
// RUN:   --implicit-check-not='{{^}}#pragma push_macro("later")'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

#define min(a, b) ((a) < (b) ? (a) : (b)) + broken
#define tc_value broken
#define stage broken
static int tc_gemm_0_launch_calls = 0;

// CHECK:      {{^}}#pragma push_macro("min")
// CHECK-NEXT: {{^}}#undef min
// CHECK-NEXT: {{^}}#pragma push_macro("tc_value")
// CHECK-NEXT: {{^}}#undef tc_value
// CHECK:      {{^}}static void tc_gemm_{{[1-9]}}_launch(
// CHECK:      {{^}}#pragma pop_macro("tc_value")
// CHECK-NEXT: {{^}}#pragma pop_macro("min")
// CHECK:      {{^}}void gemm(
// CHECK:      {{^  }}tc_gemm_{{[1-9]}}_launch(M, N, K, A, B, C, 0);
void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
  ++tc_gemm_0_launch_calls;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (1.0f / __half2float(A[2 * (i * K + k)])) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
#define later broken
