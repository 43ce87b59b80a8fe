// fp32 operands on the tensor cores (issue 3: "fp32 operands only with an
// explicit allow_tf32 clause"): the products are formed from operands
// rounded to tf32 (10-bit mantissa), sums stay fp32.
#include <cuda_runtime.h>

// Row-major, scalar accumulator: C = A * B.
void tf32_rr(int M, int N, int K, const float *__restrict__ A,
             const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// Column-major throughout: C[j*M+i] = sum_k A[k*M+i] * B[j*K+k].
void tf32_cc_ccol(int M, int N, int K, const float *__restrict__ A,
                  const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[k * M + i] * B[j * K + k];
      C[j * M + i] = acc;
    }
}

// i-k-j, in place: C += A * B (A row-major, B column-major).
void tf32_ikj_inplace_rc(int M, int N, int K, const float *__restrict__ A,
                         const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j)
        C[i * N + j] += A[i * K + k] * B[j * K + k];
}

// BLAS-style with leading dimensions: C *= beta; C += alpha * A * B.
void tf32_ld_beta_alpha(int M, int N, int K, float alpha, float beta, int lda,
                        int ldb, int ldc, const float *__restrict__ A,
                        const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * ldc + j] *= beta;
      for (int k = 0; k < K; ++k)
        C[i * ldc + j] += alpha * A[i * lda + k] * B[k * ldb + j];
    }
}
