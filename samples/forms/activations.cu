// Activation functions in the epilogue (issue 5: "any pointwise expression
// tree over the accumulator and other arrays indexed by (i, j), (i), (j) or
// scalars -- bias by row or column, residual inputs, ReLU in its spellings,
// clamp/ReLU6, leaky ReLU, sigmoid, tanh, GELU (erf and tanh forms), SiLU,
// conversions; several outputs from one region"). Every function is
// C = act(A * B + bias) with fp16 operands, A row-major (A[i * K + k]),
// B column-major (B[j * K + k]) and fp32 accumulation, the activation
// written as a framework would spell it in plain CUDA.
#include <cuda_fp16.h>

#include <cmath>

// ReLU6 through fminf(fmaxf(v, 0), 6), column bias, fp16 output:
// C = half(min(max(A * B + bias[j], 0), 6)).
void act_relu6(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, const float *__restrict__ bias,
               __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(fminf(fmaxf(acc + bias[j], 0.0f), 6.0f));
    }
}

// Clamp to scalar bounds, row bias, fp32 output:
// C = min(max(A * B + bias[i], lo), hi).
void act_clamp_row(int M, int N, int K, float lo, float hi,
                   const __half *__restrict__ A, const __half *__restrict__ B,
                   const float *__restrict__ bias, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = fminf(fmaxf(acc + bias[i], lo), hi);
    }
}

// Leaky ReLU with a literal slope, column bias, fp16 output:
// v = A * B + bias[j]; C = half(v > 0 ? v : 0.01 * v).
void act_leaky_relu(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B,
                    const float *__restrict__ bias, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(v > 0.0f ? v : 0.01f * v);
    }
}

// Leaky ReLU with the slope a scalar parameter, row bias, fp16 output:
// v = A * B + bias[i]; C = half(v > 0 ? v : slope * v).
void act_leaky_relu_slope(int M, int N, int K, float slope,
                          const __half *__restrict__ A,
                          const __half *__restrict__ B,
                          const float *__restrict__ bias,
                          __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[i];
      C[i * N + j] = __float2half(v > 0.0f ? v : slope * v);
    }
}

// Sigmoid, column bias, fp16 output:
// v = A * B + bias[j]; C = half(1 / (1 + exp(-v))).
void act_sigmoid(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, const float *__restrict__ bias,
                 __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(1.0f / (1.0f + expf(-v)));
    }
}

// tanh, column bias, fp32 output: C = tanh(A * B + bias[j]).
void act_tanh(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, const float *__restrict__ bias,
              float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = tanhf(acc + bias[j]);
    }
}

// GELU, erf form, column bias, fp16 output:
// v = A * B + bias[j]; C = half(0.5 v (1 + erf(v / sqrt(2)))).
void act_gelu_erf(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, const float *__restrict__ bias,
                  __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678f)));
    }
}

// GELU, tanh form, column bias, fp16 output:
// v = A * B + bias[j];
// C = half(0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3)))).
void act_gelu_tanh(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B,
                   const float *__restrict__ bias, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(
          0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))));
    }
}

// SiLU (swish), row bias, fp16 output:
// v = A * B + bias[i]; C = half(v / (1 + exp(-v))).
void act_silu(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, const float *__restrict__ bias,
              __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[i];
      C[i * N + j] = __float2half(v / (1.0f + expf(-v)));
    }
}

// A residual input added after the activation (a transformer block's
// feed-forward output), fp16 residual and output:
// v = A * B + bias[j]; C = half(gelu_erf(v) + R[i][j]).
void act_gelu_residual(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B,
                       const float *__restrict__ bias,
                       const __half *__restrict__ R, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678f)) +
                                  __half2float(R[i * N + j]));
    }
}

// A residual input added before the activation (a ResNet block), fp16
// residual and output: C = half(relu6(A * B + bias[j] + R[i][j])).
void act_residual_relu6(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B,
                        const float *__restrict__ bias,
                        const __half *__restrict__ R, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(
          fminf(fmaxf(acc + bias[j] + __half2float(R[i * N + j]), 0.0f), 6.0f));
    }
}

// Two outputs from one region: the pre-activation value and its SiLU, both
// fp16: v = A * B + bias[j]; C = half(v); D = half(v / (1 + exp(-v))).
void act_two_outputs(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B,
                     const float *__restrict__ bias, __half *__restrict__ C,
                     __half *__restrict__ D) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(v);
      D[i * N + j] = __float2half(v / (1.0f + expf(-v)));
    }
}

// The epilogue in a loop nest of its own (as epi_separate_nest), with GELU:
// C = A * B (fp32, stored: live after the region);
// D = half(gelu_tanh(C + bias[j])).
void act_gelu_separate_nest(int M, int N, int K, const __half *__restrict__ A,
                            const __half *__restrict__ B,
                            const float *__restrict__ bias,
                            float *__restrict__ C, __half *__restrict__ D) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
        C[i * N + j] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float v = C[i * N + j] + bias[j];
        D[i * N + j] = __float2half(
            0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))));
      }
  }
}
