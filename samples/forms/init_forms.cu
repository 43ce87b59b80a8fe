// How the output is initialised and scaled (issue 3: "an initialisation
// statement before the reduction (C[..] = 0, C[..] *= beta) in the same
// region; in-place accumulation C[..] += ... as well as a scalar accumulator;
// alpha/beta scalars"). fp16 operands, row-major, device memory.
#include <cuda_fp16.h>

// `C = 0` statement, then `C += A * B`.
void init_zero_stmt(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0.0f;
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}

// In place, no initialisation: C += A * B.
void init_inplace(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// Scalar accumulator, fp16 result: C = half(A * B).
void init_scalar_acc(int M, int N, int K, const __half *__restrict__ A,
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

// BLAS/PolyBench-style scaling in the i-j-k order:
// C *= beta; C += alpha * A * B.
void init_beta_alpha(int M, int N, int K, float alpha, float beta,
                     const __half *__restrict__ A, const __half *__restrict__ B,
                     float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      C[i * N + j] *= beta;
      for (int k = 0; k < K; k++)
        C[i * N + j] += alpha * (float)A[i * K + k] * (float)B[k * N + j];
    }
}

// alpha inside the accumulation, scalar accumulator: C = alpha * A * B.
void init_acc_alpha(int M, int N, int K, float alpha,
                    const __half *__restrict__ A, const __half *__restrict__ B,
                    float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += alpha * __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Scalar accumulator, alpha and beta in the store: C = alpha * A * B + beta * C.
void init_acc_alpha_beta(int M, int N, int K, float alpha, float beta,
                         const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = alpha * acc + beta * C[i * N + j];
    }
}

// Scalar accumulator, fp16 output, beta times the old fp16 C:
// C = half(alpha * A * B + beta * float(C)).
void init_acc_alpha_beta_f16(int M, int N, int K, float alpha, float beta,
                             const __half *__restrict__ A,
                             const __half *__restrict__ B,
                             __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(alpha * acc + beta * __half2float(C[i * N + j]));
    }
}

// A second input in the store: C = alpha * A * B + beta * D.
void init_axpby(int M, int N, int K, float alpha, float beta,
                const __half *__restrict__ A, const __half *__restrict__ B,
                const float *__restrict__ D, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = alpha * acc + beta * D[i * N + j];
    }
}

// The accumulator starts from the old output: acc = C; acc += A * B; C = acc.
void init_acc_from_c(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = C[i * N + j];
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// The accumulation spelled out: acc = acc + A * B; C = acc.
void init_acc_assign_sum(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc = acc + __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// In place, spelled out: C = C + A * B (no initialisation).
void init_inplace_assign_sum(int M, int N, int K, const __half *__restrict__ A,
                             const __half *__restrict__ B,
                             float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] =
            C[i * N + j] + __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}
