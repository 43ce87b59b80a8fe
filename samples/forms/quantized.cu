// Weight-only quantized linear layers: one operand stored as int8_t or
// uint8_t, dequantised while it is copied to shared memory
// (runtime_headers/tc/tile_convert.cuh), optionally with a zero point and a
// scale per output channel or a scalar. The element's conversion and the
// prologue (W - zero[j]) run once per block and element; a scale that does
// not depend on k (scale[j]) factors out of the sum and is applied in the
// epilogue.
#include <cmath>
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Y = half(X * W'^T), W'[j][k] = (W[j][k] - zero[j]) * scale[j]: int8
// weights N x K (the B operand, k contiguous), fp32 zero point and scale per
// output column, fp16 activations M x K.
void q_int8_zero_point(int M, int N, int K, const __half *__restrict__ X,
                       const int8_t *__restrict__ W, const float *__restrict__ zero,
                       const float *__restrict__ scale, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * (((float)W[j * K + k] - zero[j]) * scale[j]);
      Y[i * N + j] = __float2half(acc);
    }
}

// Symmetric int8 (no zero point), bf16 activations, the scale applied to
// the sum, plus a bias: Y = bf16(scale[j] * (X * W^T) + bias[j]).
void q_int8_symmetric_bf16(int M, int N, int K, const __nv_bfloat16 *__restrict__ X,
                           const int8_t *__restrict__ W, const float *__restrict__ scale,
                           const float *__restrict__ bias, __nv_bfloat16 *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(X[i * K + k]) * (float)W[j * K + k];
      Y[i * N + j] = __float2bfloat16(acc * scale[j] + bias[j]);
    }
}

// uint8 weights stored K x N (row-major, n contiguous), an fp32 zero point
// and scale per output column, fp32 output.
void q_uint8_kn(int M, int N, int K, const __half *__restrict__ X,
                const uint8_t *__restrict__ W, const float *__restrict__ zero,
                const float *__restrict__ scale, float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * ((float)W[k * N + j] - zero[j]) * scale[j];
      Y[i * N + j] = acc;
    }
}

// A scalar zero point and scale for the whole tensor (per-tensor
// quantization), uint8 weights N x K.
void q_uint8_per_tensor(int M, int N, int K, float zero_point, float step,
                        const __half *__restrict__ X, const uint8_t *__restrict__ W,
                        __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * (((float)W[j * K + k] - zero_point) * step);
      Y[i * N + j] = __float2half(acc);
    }
}

// The quantized operand on the left: int8 rows of A (M x K) with a zero
// point per row, fp16 B column-major (N x K), fp32 output.
void q_int8_rows_of_a(int M, int N, int K, const int8_t *__restrict__ A,
                      const int *__restrict__ zero, const __half *__restrict__ B,
                      float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (float)(A[i * K + k] - zero[i]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}

// ReLU on the activations beside symmetric int8 weights N x K: a prologue
// on X, W only converted, its scale applied to the sum.
void q_relu_int8(int M, int N, int K, const __half *__restrict__ X,
                 const int8_t *__restrict__ W, const float *__restrict__ scale,
                 __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(X[i * K + k]), 0.0f) * (float)W[j * K + k];
      Y[i * N + j] = __float2half(acc * scale[j]);
    }
}
