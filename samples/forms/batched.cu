// Batched GEMM (issue 3: "a batch loop around the GEMM (A[(b*M+i)*K+k] and
// friends) mapped to the grid"). Each batch entry is a dense matrix stored
// after the previous one.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>

// Row-major, fp16: C[b] = half(A[b] * B[b]).
void batched_rr(int BATCH, int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int b = 0; b < BATCH; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * K + k]) *
                 __half2float(B[(b * K + k) * N + j]);
        C[(b * M + i) * N + j] = __float2half(acc);
      }
}

// Column-major operands, bf16 -> fp32: C[b] = A[b]^(col) * B[b]^(col).
void batched_cc_bf16(int BATCH, int M, int N, int K,
                     const __nv_bfloat16 *__restrict__ A,
                     const __nv_bfloat16 *__restrict__ B,
                     float *__restrict__ C) {
#pragma tc
  for (int b = 0; b < BATCH; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __bfloat162float(A[(b * K + k) * M + i]) *
                 __bfloat162float(B[(b * N + j) * K + k]);
        C[(b * M + i) * N + j] = acc;
      }
}

// In place with alpha, C column-major, i-k-j order inside the batch:
// C[b] += alpha * A[b] * B[b].
void batched_ikj_inplace_alpha(int BATCH, int M, int N, int K, float alpha,
                               const __half *__restrict__ A,
                               const __half *__restrict__ B,
                               float *__restrict__ C) {
#pragma tc
  for (int b = 0; b < BATCH; ++b)
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j)
          C[(b * N + j) * M + i] += alpha *
                                    __half2float(A[(b * M + i) * K + k]) *
                                    __half2float(B[(b * K + k) * N + j]);
}

// long sizes, a bias per output column of each batch entry and ReLU:
// C[b][i][j] = half(max(A[b] * B[b] + bias[b][j], 0)).
void batched_bias_relu(long BATCH, long M, long N, long K,
                       const __half *__restrict__ A,
                       const __half *__restrict__ B,
                       const float *__restrict__ bias,
                       __half *__restrict__ C) {
#pragma tc
  for (long b = 0; b < BATCH; ++b)
    for (long i = 0; i < M; ++i)
      for (long j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (long k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * K + k]) *
                 __half2float(B[(b * K + k) * N + j]);
        C[(b * M + i) * N + j] = __float2half(fmaxf(acc + bias[b * N + j], 0.0f));
      }
}

// The batch loop innermost of the output loops: i, j, b, then k.
void batched_b_inner(int BATCH, int M, int N, int K,
                     const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int b = 0; b < BATCH; ++b) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * K + k]) *
                 __half2float(B[(b * K + k) * N + j]);
        C[(b * M + i) * N + j] = acc;
      }
}

// Statically shaped batch entries through pointers to matrices:
// A[BATCH][40][24], B[BATCH][24][72], C[BATCH][40][72] (fp16).
namespace forms {
constexpr int kBM = 40, kBN = 72, kBK = 24;
}
void batched_static(int BATCH,
                    const __half (*__restrict__ A)[forms::kBM][forms::kBK],
                    const __half (*__restrict__ B)[forms::kBK][forms::kBN],
                    __half (*__restrict__ C)[forms::kBM][forms::kBN]) {
#pragma tc
  for (int b = 0; b < BATCH; ++b)
    for (int i = 0; i < forms::kBM; ++i)
      for (int j = 0; j < forms::kBN; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < forms::kBK; ++k)
          acc += __half2float(A[b][i][k]) * __half2float(B[b][k][j]);
        C[b][i][j] = __float2half(acc);
      }
}

// Batch entries with leading dimensions (rows padded to lda/ldb/ldc, entries
// one after the other): C[b] = A[b] * B[b] (fp32).
void batched_ld(int BATCH, int M, int N, int K, int lda, int ldb, int ldc,
                const __half *__restrict__ A, const __half *__restrict__ B,
                float *__restrict__ C) {
#pragma tc
  for (int b = 0; b < BATCH; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * lda + k]) *
                 __half2float(B[(b * K + k) * ldb + j]);
        C[(b * M + i) * ldc + j] = acc;
      }
}
