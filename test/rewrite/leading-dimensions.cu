// Leading-dimension parameters (BLAS lda/ldb/ldc): the operands are
// delinearised with lda and ldb, the store uses ldc.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %tc-rewrite --mma-path=sync --explain %s | FileCheck %s --check-prefix=EXPLAIN

// EXPLAIN: {{^}}  array A: __half, strides [lda, 1]
// EXPLAIN: {{^}}  array B: __half, strides [ldb, 1]
// EXPLAIN: {{^}}  array C: __half, strides [ldc, 1]
// EXPLAIN: {{^}}    A = A (row-major, leading dimension lda), B = B (row-major, leading dimension ldb),

// CHECK:      {{^}}struct tc_gemm_ld_0_epilogue {
// CHECK:      {{^ *}}C[(long long)((tc_m)) * (ldc) + ((tc_n))] = ::__float2half(tc_value);
// CHECK:      {{^  }}tc_gemm_ld_0_launch(M, N, K, lda, ldb, ldc, A, B, C, 0);

#include <cuda_fp16.h>

void gemm_ld(int M, int N, int K, int lda, int ldb, int ldc,
             const __half *__restrict__ A, const __half *__restrict__ B,
             __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * lda + k]) * __half2float(B[k * ldb + j]);
      C[i * ldc + j] = __float2half(acc);
    }
}
