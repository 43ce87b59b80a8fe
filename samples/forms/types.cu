// Element types (issue 3: "fp16 and bf16 operands with fp32 accumulation"):
// every operand type (fp16, bf16) with every output type (fp16, bf16, fp32).
// Row-major, C = A * B.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

void type_f16_f16(int M, int N, int K, const __half *__restrict__ A,
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

void type_f16_bf16(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B,
                   __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2bfloat16(acc);
    }
}

void type_f16_f32(int M, int N, int K, const __half *__restrict__ A,
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

void type_bf16_bf16(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
                    const __nv_bfloat16 *__restrict__ B,
                    __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
      C[i * N + j] = __float2bfloat16(acc);
    }
}

void type_bf16_f16(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
                   const __nv_bfloat16 *__restrict__ B,
                   __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void type_bf16_f32(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
                   const __nv_bfloat16 *__restrict__ B,
                   float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// bf16 operands accumulated in place into fp32: C += A * B.
void type_bf16_f32_inplace(int M, int N, int K,
                           const __nv_bfloat16 *__restrict__ A,
                           const __nv_bfloat16 *__restrict__ B,
                           float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] +=
            __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
}
