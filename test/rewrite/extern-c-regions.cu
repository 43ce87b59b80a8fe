// A region in a function of an extern "C" block, or declared extern "C":
// its definitions (kernel templates among them) are wrapped in
// extern "C++", which a C linkage block may hold; the function keeps its
// C linkage.
//
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// CHECK: {{^}}extern "C" {
// CHECK-NEXT: {{^}}extern "C++" {  // the region's kernels and launchers
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}#ifdef __NVCC__
// CHECK-NEXT: {{^}}#pragma nv_diagnostic push
// CHECK-NEXT: {{^}}#pragma nv_diag_suppress 177
// CHECK-NEXT: {{^}}#endif
// CHECK-NEXT: {{^}}namespace {  // this file's: the regions' kernels and launchers
// CHECK: {{^}}static void tc_gemm_in_block_0_launch(
// CHECK: {{^}}}{{$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}}  // namespace
// CHECK-NEXT: {{^}}#ifdef __NVCC__
// CHECK-NEXT: {{^}}#pragma nv_diagnostic pop
// CHECK-NEXT: {{^}}#endif
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}}{{$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}void gemm_in_block(
extern "C" {
void gemm_in_block(int M, int N, int K, const __half *__restrict__ A,
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
}

// CHECK: {{^}}extern "C++" {  // the region's kernels and launchers
// CHECK: {{^}}static void tc_gemm_declared_c_0_launch(
// CHECK: {{^}}extern "C" void gemm_declared_c(
extern "C" void gemm_declared_c(int M, int N, int K, const __half *__restrict__ A,
                                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
