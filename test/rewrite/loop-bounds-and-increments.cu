// Loop forms: `i <= M - 1` bounds (inclusive, normalised to the same
// extents as `i < M`), `i++` and `i += 1` increments.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %tc-rewrite --mma-path=sync --explain %s | FileCheck %s --check-prefix=EXPLAIN

// CHECK:      {{^}}struct tc_gemm_le_0_epilogue {
// CHECK:      {{^  }}tc_gemm_le_0_launch(M, N, K, A, B, C, 0);
// CHECK:      {{^}}struct tc_gemm_postinc_0_epilogue {
// CHECK:      {{^  }}tc_gemm_postinc_0_launch(M, N, K, A, B, C, 0);
// CHECK:      {{^}}struct tc_gemm_plus_one_0_epilogue {
// CHECK:      {{^  }}tc_gemm_plus_one_0_launch(M, N, K, A, B, C, 0);

// The inclusive bounds give the same extents (and domains) as `<`.
// EXPLAIN-LABEL: region tc_gemm_le_0 at
// EXPLAIN:       S1[i, j, k] : {{.*}}0 <= i < M and 0 <= j < N and 0 <= k < K
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K
// EXPLAIN-LABEL: region tc_gemm_postinc_0 at
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K
// EXPLAIN-LABEL: region tc_gemm_plus_one_0 at
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K

#include <cuda_fp16.h>

void gemm_le(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i <= M - 1; ++i)
    for (int j = 0; j <= N - 1; ++j) {
      float acc = 0.0f;
      for (int k = 0; k <= K - 1; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_postinc(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < K; k++)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_plus_one(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 1)
    for (int j = 0; j < N; j += 1) {
      float acc = 0.0f;
      for (int k = 0; k < K; k += 1)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
