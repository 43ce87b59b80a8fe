// --explain on variants of the model: column-major operands (layouts and
// leading dimensions), constexpr sizes in the context, an initialisation
// reading the output (C *= beta) with a k-invariant scale (alpha), and
// clauses in the kernel configuration.
//
// RUN: %tc-rewrite --explain %s | FileCheck %s

#include <cuda_fp16.h>

constexpr int SM = 256, SN = 128, SK = 64;

// CHECK-LABEL: {{^}}region tc_col_major_0 at model-variants.cu:
// CHECK:       {{^}}    read R0: [M, N, K] -> { S1[i, j, k] -> A[k, i] :
// CHECK-NEXT:  {{^}}    read R1: [M, N, K] -> { S1[i, j, k] -> B[j, k] :
// CHECK:       {{^}}  matmul over (i, j) reducing k: M = M, N = N, K = K
// CHECK-NEXT:  {{^}}    A = A (column-major, leading dimension M), B = B (column-major, leading dimension K), inputs __half, accumulation float
void col_major(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[k * M + i]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}

// CHECK-LABEL: {{^}}region tc_static_sizes_0 at model-variants.cu:
// CHECK-NEXT:  {{^}}  context:  [SM, SN, SK] -> {  : SM = 256 and SN = 128 and SK = 64 }
// CHECK:       {{^}}  array A: __half, strides [64, 1]
// CHECK:       {{^}}  matmul over (i, j) reducing k: M = SM, N = SN, K = SK
// CHECK-NEXT:  {{^}}    A = A (row-major, leading dimension 64), B = B (row-major, leading dimension 128)
void static_sizes(const __half (*__restrict__ A)[SK],
                  const __half (*__restrict__ B)[SN],
                  float (*__restrict__ C)[SN]) {
#pragma tc
  for (int i = 0; i < SM; ++i)
    for (int j = 0; j < SN; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < SK; ++k)
        acc += __half2float(A[i][k]) * __half2float(B[k][j]);
      C[i][j] = acc;
    }
}

// CHECK-LABEL: {{^}}region tc_alpha_beta_0 at model-variants.cu:
// CHECK:       {{^}}  S0: mul(R0, beta)
// CHECK-NEXT:  {{^}}    domain: [M, N, K] -> { S0[i, j] :
// CHECK-NEXT:  {{^}}    write:  [M, N, K] -> { S0[i, j] -> C[i, j] :
// CHECK-NEXT:  {{^}}    read R0: [M, N, K] -> { S0[i, j] -> C[i, j] :
// CHECK:       {{^}}  S1: add(R2, {{.*}}alpha
// CHECK:       {{^}}  flow dependences: {{.*}}S0[i, j] -> S1[i' = i, j' = j, k = 0]
// CHECK:       {{^}}    reduction S1, initialisation S0{{$}}
// CHECK:       {{^}}  kernel: block tile 64x64x32, warp tile 32x32 (4 warps), 2 cp.async stages, {{.*}}16384 bytes of shared memory, sm_90a
void alpha_beta(int M, int N, int K, float alpha, float beta,
                const __half *__restrict__ A, const __half *__restrict__ B,
                float *__restrict__ C) {
#pragma tc tile(64, 64, 32) warp(32, 32) stages(2)
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      C[i * N + j] *= beta;
      for (int k = 0; k < K; k++)
        C[i * N + j] += alpha * (float)A[i * K + k] * (float)B[k * N + j];
    }
}
