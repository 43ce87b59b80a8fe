// Statically shaped matrices passed as pointers to rows, with constexpr
// sizes: the sizes are folded into the kernel, which takes flat pointers
// (the call reinterpret_casts the row pointers).
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %tc-rewrite --mma-path=sync --explain %s | FileCheck %s --check-prefix=EXPLAIN

// EXPLAIN: {{^}}  context:  [M, N, K] -> {  : M = 256 and N = 128 and K = 64 }
// EXPLAIN: {{^}}    A = A (row-major, leading dimension 64), B = B (row-major, leading dimension 128),

// CHECK:      {{^}}struct tc_gemm_static_0_epilogue {
// CHECK-NEXT: {{^}}  const __half *__restrict__ A;
// CHECK-NEXT: {{^}}  const __half *__restrict__ B;
// CHECK-NEXT: {{^}}  float *__restrict__ C;
// CHECK:      {{^ *}}C[(long long)((tc_m)) * (128) + ((tc_n))] = tc_value;
// CHECK:      {{^}}static void tc_gemm_static_0_launch(const __half *A, const __half *B, float *C,
// CHECK:      {{^}}      {(256), (128), (64)}, A, 64, B, 128, tc_gemm_static_0_epilogue{A, B, C}, tc_stream), "static-2d-arrays.cu:{{[0-9]+}}");
// CHECK:      {{^  }}tc_gemm_static_0_launch(reinterpret_cast<const __half *>(A), reinterpret_cast<const __half *>(B), reinterpret_cast<float *>(C), 0);

#include <cuda_fp16.h>

constexpr int M = 256, N = 128, K = 64;

void gemm_static(const __half (*__restrict__ A)[K],
                 const __half (*__restrict__ B)[N], float (*__restrict__ C)[N]) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i][k]) * __half2float(B[k][j]);
      C[i][j] = acc;
    }
}
