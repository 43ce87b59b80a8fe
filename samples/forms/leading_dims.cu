// Leading-dimension parameters (issue 3: "a leading-dimension parameter
// (A[i*lda+k])"). The driver passes lda/ldb/ldc equal to and larger than the
// row length, aligned to 8 elements and not.
#include <cuda_fp16.h>

// All row-major, fp16 output: C[i*ldc+j] = half(sum_k A[i*lda+k] * B[k*ldb+j]).
void ld_rr(int M, int N, int K, int lda, int ldb, int ldc,
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

// Column-major operands, row-major fp32 output:
// C[i*ldc+j] = sum_k A[k*lda+i] * B[j*ldb+k].
void ld_cc(int M, int N, int K, int lda, int ldb, int ldc,
           const __half *__restrict__ A, const __half *__restrict__ B,
           float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[k * lda + i]) * __half2float(B[j * ldb + k]);
      C[i * ldc + j] = acc;
    }
}

// BLAS sgemm-like, column-major throughout with long sizes:
// C[j*ldc+i] = alpha * sum_k A[k*lda+i] * B[j*ldb+k] + beta * C[j*ldc+i].
void ld_blas_colmajor(long M, long N, long K, float alpha,
                      const __half *__restrict__ A, long lda,
                      const __half *__restrict__ B, long ldb, float beta,
                      float *__restrict__ C, long ldc) {
#pragma tc
  for (long j = 0; j < N; ++j)
    for (long i = 0; i < M; ++i) {
      float acc = 0.0f;
      for (long k = 0; k < K; ++k)
        acc += __half2float(A[k * lda + i]) * __half2float(B[j * ldb + k]);
      C[j * ldc + i] = alpha * acc + beta * C[j * ldc + i];
    }
}

// Row-major, in place with an initialisation reading C:
// C[i*ldc+j] *= beta; C[i*ldc+j] += alpha * A[i*lda+k] * B[k*ldb+j].
void ld_beta_alpha(int M, int N, int K, float alpha, float beta, int lda,
                   int ldb, int ldc, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      C[i * ldc + j] *= beta;
      for (int k = 0; k < K; k++)
        C[i * ldc + j] += alpha * __half2float(A[i * lda + k]) *
                          __half2float(B[k * ldb + j]);
    }
}

// A row-major, B column-major, C column-major fp16 with leading dimensions.
void ld_rc_ccol(int M, int N, int K, int lda, int ldb, int ldc,
                const __half *__restrict__ A, const __half *__restrict__ B,
                __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * lda + k]) * __half2float(B[j * ldb + k]);
      C[j * ldc + i] = __float2half(acc);
    }
}
