// Macros a file defines before its #includes are in force where the
// runtime header's #include goes (after the last #include): those of
// ordinary names are set aside around it (push_macro, #undef, pop_macro),
// so that they cannot rewrite the headers' own names (N, T, kThreads).
// Reserved names, NDEBUG and TC_* configure headers and stay in force.
// Also: a double output (two 32-bit words a lane in the vector store).
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^}}#undef NDEBUG' \
// RUN:   --implicit-check-not='{{^}}#undef TC_DEBUG_SWITCHES' --implicit-check-not='{{^}}#undef _MY_CONFIG'
// RUN: %if nvcc %{ %nvcc -std=c++17 -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#define N 1024
#define T float
#define kThreads 256
#define NDEBUG
#define TC_DEBUG_SWITCHES
#define _MY_CONFIG 1
#include <cuda_fp16.h>
#include <cstdlib>

// CHECK:      {{^}}#include <cstdlib>
// CHECK-NEXT: {{^}}// Macros of this file set aside while the runtime headers are read:
// CHECK-NEXT: {{^}}#pragma push_macro("N")
// CHECK-NEXT: {{^}}#undef N
// CHECK-NEXT: {{^}}#pragma push_macro("T")
// CHECK-NEXT: {{^}}#undef T
// CHECK-NEXT: {{^}}#pragma push_macro("kThreads")
// CHECK-NEXT: {{^}}#undef kThreads
// CHECK-NEXT: {{^}}#include <tc/tc.cuh>
// CHECK-NEXT: {{^}}#pragma pop_macro("N")
// CHECK-NEXT: {{^}}#pragma pop_macro("T")
// CHECK-NEXT: {{^}}#pragma pop_macro("kThreads")
// CHECK:      {{^}}  tc_gemm_0_launch(m, n, k, A, B, C, 0);
void gemm(int m, int n, int k, const __half *__restrict__ A, const __half *__restrict__ B,
          double *__restrict__ C) {
#pragma tc
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0.f;
      for (int kk = 0; kk < k; ++kk)
        acc += __half2float(A[i * k + kk]) * __half2float(B[kk * n + j]);
      C[i * n + j] = acc;
    }
}
