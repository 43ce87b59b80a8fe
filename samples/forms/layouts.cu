// Operand and output layouts (issue 3: "all four operand layouts (A row- or
// column-major x B row- or column-major), output row-major or
// column-major"). Row-major A is A[i * K + k], column-major A[k * M + i];
// row-major B is B[k * N + j], column-major B[j * K + k]; row-major C is
// C[i * N + j], column-major C[j * M + i].
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// A row, B row, C row (fp32).
void layout_rr(int M, int N, int K, const __half *__restrict__ A,
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

// A column, B row, C row (fp32).
void layout_cr(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[k * M + i]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A row, B column, C row (fp32).
void layout_rc(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}

// A column, B column, C row (fp32).
void layout_cc(int M, int N, int K, const __half *__restrict__ A,
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

// A row, B row, C column (fp16).
void layout_rr_ccol(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[j * M + i] = __float2half(acc);
    }
}

// A column, B row, C column (bf16 operands, bf16 output).
void layout_cr_ccol_bf16(int M, int N, int K,
                         const __nv_bfloat16 *__restrict__ A,
                         const __nv_bfloat16 *__restrict__ B,
                         __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[k * M + i]) * __bfloat162float(B[k * N + j]);
      C[j * M + i] = __float2bfloat16(acc);
    }
}

// A row, B column, C column (bf16 operands, fp32 output): the "TN" GEMM.
void layout_rc_ccol_bf16(int M, int N, int K,
                         const __nv_bfloat16 *__restrict__ A,
                         const __nv_bfloat16 *__restrict__ B,
                         float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[j * K + k]);
      C[j * M + i] = acc;
    }
}

// A column, B column, C column (fp32): column-major throughout (BLAS "NN").
void layout_cc_ccol(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[k * M + i]) * __half2float(B[j * K + k]);
      C[j * M + i] = acc;
    }
}

// Column-major throughout written the Fortran way, j outermost, in place:
// C += A * B.
void layout_cc_ccol_jik_inplace(int M, int N, int K,
                                const __half *__restrict__ A,
                                const __half *__restrict__ B,
                                float *__restrict__ C) {
#pragma tc
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k)
        C[j * M + i] += __half2float(A[k * M + i]) * __half2float(B[j * K + k]);
}
