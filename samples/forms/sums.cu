// Sums of matmuls: one accumulator, several reduction loops with different
// reduction lengths in the same output nest, C = A1 * B1 + A2 * B2 (+ ...).
// The kernel runs the products' k tiles one after another into the same
// accumulators. The products share the output loops, the element types and
// the operand layouts. fp16 operands, __restrict__ pointers.
#include <cuda_fp16.h>

#include <cmath>

// Two products, A row-major, B column-major, fp16 output:
// C = half(A1 * B1 + A2 * B2), A1 M x K1, B1 K1 x N, A2 M x K2, B2 K2 x N.
void sum_two(int M, int N, int K1, int K2, const __half *__restrict__ A1,
             const __half *__restrict__ B1, const __half *__restrict__ A2,
             const __half *__restrict__ B2, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      C[i * N + j] = __float2half(acc);
    }
}

// Three products, fp16 output: C = half(A1 * B1 + A2 * B2 + A3 * B3).
void sum_three(int M, int N, int K1, int K2, int K3,
               const __half *__restrict__ A1, const __half *__restrict__ B1,
               const __half *__restrict__ A2, const __half *__restrict__ B2,
               const __half *__restrict__ A3, const __half *__restrict__ B3,
               __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      for (int k = 0; k < K3; ++k)
        acc += __half2float(A3[i * K3 + k]) * __half2float(B3[j * K3 + k]);
      C[i * N + j] = __float2half(acc);
    }
}

// The sum, then a column bias and ReLU, fp16 output:
// C = half(max(A1 * B1 + A2 * B2 + bias[j], 0)).
void sum_bias_relu(int M, int N, int K1, int K2, const __half *__restrict__ A1,
                   const __half *__restrict__ B1,
                   const __half *__restrict__ A2,
                   const __half *__restrict__ B2,
                   const float *__restrict__ bias, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      C[i * N + j] = __float2half(fmaxf(acc + bias[j], 0.0f));
    }
}

// fp32 output scaled by a scalar: C = alpha * (A1 * B1 + A2 * B2).
void sum_f32_out(int M, int N, int K1, int K2, float alpha,
                 const __half *__restrict__ A1, const __half *__restrict__ B1,
                 const __half *__restrict__ A2, const __half *__restrict__ B2,
                 float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      C[i * N + j] = alpha * acc;
    }
}

// A row-major and B row-major (B1[k*N+j]) in both products, fp16 output.
void sum_layouts(int M, int N, int K1, int K2, const __half *__restrict__ A1,
                 const __half *__restrict__ B1, const __half *__restrict__ A2,
                 const __half *__restrict__ B2, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[k * N + j]);
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// Both products reduce over the same K, different arrays, fp16 output:
// C = half(A1 * B1 + A2 * B2), all of A1, A2 M x K and B1, B2 K x N.
void sum_same_k(int M, int N, int K, const __half *__restrict__ A1,
                const __half *__restrict__ B1, const __half *__restrict__ A2,
                const __half *__restrict__ B2, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A1[i * K + k]) * __half2float(B1[j * K + k]);
      for (int k = 0; k < K; ++k)
        acc += __half2float(A2[i * K + k]) * __half2float(B2[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

// In place, with an init nest: C = 0, then both products accumulate into
// C[i*N+j] in one i-j nest, fp32 output: C = A1 * B1 + A2 * B2.
void sum_inplace(int M, int N, int K1, int K2, const __half *__restrict__ A1,
                 const __half *__restrict__ B1, const __half *__restrict__ A2,
                 const __half *__restrict__ B2, float *__restrict__ C) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        C[i * N + j] = 0.0f;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        for (int k = 0; k < K1; ++k)
          C[i * N + j] +=
              __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
        for (int k = 0; k < K2; ++k)
          C[i * N + j] +=
              __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      }
  }
}
