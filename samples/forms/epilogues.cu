// Pointwise work after the reduction in the same nest (issue 3:
// "pointwise statements that consume the result are folded into the
// kernel's epilogue"), and temp(...) scratch arrays. fp16 operands,
// row-major.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>

// Bias per output column, ReLU through fmaxf, fp16 output:
// C = half(max(A * B + bias[j], 0)).
void epi_bias_col_relu(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B,
                       const float *__restrict__ bias,
                       __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(fmaxf(acc + bias[j], 0.0f));
    }
}

// Bias per output row, fp32 output: C = A * B + bias[i].
void epi_bias_row(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, const float *__restrict__ bias,
                  float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc + bias[i];
    }
}

// ReLU as a conditional expression, fp32 output: C = A * B > 0 ? A * B : 0.
void epi_relu_ternary(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc > 0.0f ? acc : 0.0f;
    }
}

// alpha and beta times the old output, then a column bias and ReLU:
// C = max(alpha * A * B + beta * C_old + bias[j], 0) (fp32).
void epi_alpha_beta_bias_relu(int M, int N, int K, float alpha, float beta,
                              const __half *__restrict__ A,
                              const __half *__restrict__ B,
                              const float *__restrict__ bias,
                              float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = fmaxf(alpha * acc + beta * C[i * N + j] + bias[j], 0.0f);
    }
}

// In-place accumulation (C *= beta; C += alpha * A * B) followed by a bias
// and ReLU written to a second output D (fp16):
// D = half(max(beta * C_old + alpha * A * B + bias[j], 0)); C keeps the
// pre-activation value beta * C_old + alpha * A * B.
void epi_inplace_then_relu_out(int M, int N, int K, float alpha, float beta,
                               const __half *__restrict__ A,
                               const __half *__restrict__ B,
                               const float *__restrict__ bias,
                               float *__restrict__ C, __half *__restrict__ D) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] *= beta;
      for (int k = 0; k < K; ++k)
        C[i * N + j] += alpha * __half2float(A[i * K + k]) *
                        __half2float(B[k * N + j]);
      D[i * N + j] = __float2half(fmaxf(C[i * N + j] + bias[j], 0.0f));
    }
}

// temp(T): the accumulator array T is scratch, kept in registers and never
// written to memory; the result is C = half(max(T + bias[j], 0)).
void epi_temp(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, const float *__restrict__ bias,
              float *__restrict__ T, __half *__restrict__ C) {
#pragma tc temp(T)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      T[i * N + j] = 0.0f;
      for (int k = 0; k < K; ++k)
        T[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(fmaxf(T[i * N + j] + bias[j], 0.0f));
    }
}

// Two outputs from one scalar accumulator: C = A * B (fp32) and
// D = half(max(A * B, 0)).
void epi_two_outputs(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C,
                     __half *__restrict__ D) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
      D[i * N + j] = __float2half(fmaxf(acc, 0.0f));
    }
}

// An fp16 bias per column, ReLU through std::max:
// C = half(max(A * B + float(bias[j]), 0)).
void epi_f16_bias_std_max(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B,
                          const __half *__restrict__ bias,
                          __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(std::max(acc + __half2float(bias[j]), 0.0f));
    }
}

// The epilogue as statements that rebind a local: a bias, then ReLU
// through a reassignment, fp16 output: C = half(max(A * B + bias[j], 0)).
void epi_bias_relu_reassigned(int M, int N, int K, const __half *__restrict__ A,
                              const __half *__restrict__ B,
                              const float *__restrict__ bias,
                              __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      float v = acc + bias[j];
      v = fmaxf(v, 0.0f);
      C[i * N + j] = __float2half(v);
    }
}

// ReLU as an if statement on a local, fp16 output:
// C = half(max(A * B + bias[j], 0)).
void epi_bias_relu_if(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B,
                      const float *__restrict__ bias, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      float v = acc + bias[j];
      if (v < 0.0f)
        v = 0.0f;
      C[i * N + j] = __float2half(v);
    }
}

// Leaky ReLU as an if / else assigning a local declared without a value,
// fp16 output: C = half(v > 0 ? v : 0.01 v), v = A * B + bias[j].
void epi_leaky_relu_if_else(int M, int N, int K, const __half *__restrict__ A,
                            const __half *__restrict__ B,
                            const float *__restrict__ bias,
                            __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      float v = acc + bias[j];
      float r;
      if (v > 0.0f) {
        r = v;
      } else {
        r = 0.01f * v;
      }
      C[i * N + j] = __float2half(r);
    }
}

// ReLU6 as an if / else if chain on a local, fp16 output:
// C = half(min(max(A * B + bias[j], 0), 6)).
void epi_relu6_else_if(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B,
                       const float *__restrict__ bias, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      float v = acc + bias[j];
      if (v > 6.0f)
        v = 6.0f;
      else if (v < 0.0f)
        v = 0.0f;
      C[i * N + j] = __float2half(v);
    }
}

// The accumulator itself updated after the reduction loop (a bias added
// in place, then ReLU by an if), fp32 output: C = max(A * B + bias[j], 0).
void epi_accumulator_updated(int M, int N, int K, const __half *__restrict__ A,
                             const __half *__restrict__ B,
                             const float *__restrict__ bias,
                             float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      acc += bias[j];
      if (acc < 0.0f)
        acc = 0.0f;
      C[i * N + j] = acc;
    }
}

// The paper's Listing 1 shape: the epilogue in a loop nest of its own that
// reads the matmul's output C (stored, as it is live after the region).
void epi_separate_nest(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C,
                       __half *__restrict__ D) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        D[i * N + j] = __float2half(fmaxf(C[i * N + j], 0.0f));
  }
}

// A prologue: ReLU on A inside the product, applied to A's fragments.
void pro_relu_a(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// The same prologue spelled with a local of the k loop: ReLU as an if
// statement, and as a conditional reading the local twice (each read is
// the one element of A).
void pro_relu_a_if(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        float a = __half2float(A[i * K + k]);
        if (a < 0.0f)
          a = 0.0f;
        acc += a * __half2float(B[k * N + j]);
      }
      C[i * N + j] = __float2half(acc);
    }
}

void pro_relu_a_conditional(int M, int N, int K, const __half *__restrict__ A,
                            const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        float a = __half2float(A[i * K + k]);
        acc += (a > 0.0f ? a : 0.0f) * __half2float(B[k * N + j]);
      }
      C[i * N + j] = __float2half(acc);
    }
}

// Prologues that are not finite where the element is 0: zero-padded k
// tiles would give inf * 0 = NaN, so the copier applies them to the
// elements inside the matrix only (and pads with exact zeros). The data
// keep them finite, and exact in fp16: A in {0.5, 1}, B not 0.
void pro_recip_a(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (1.0f / __half2float(A[i * K + k])) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// On an M-major A the copier's stages are not laid out for wgmma: mma.sync.
void pro_recip_a_col(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (1.0f / __half2float(A[k * M + i])) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void pro_sign_b_col(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        float b = __half2float(B[j * K + k]);
        acc += __half2float(A[i * K + k]) * (b / fabsf(b));
      }
      C[i * N + j] = acc;
    }
}

// A prologue on B: ReLU on a row-major (N-major) B. wgmma reads B from
// shared memory, so the consumers apply it to each landed stage of B.
void pro_relu_b(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * fmaxf(__half2float(B[k * N + j]), 0.0f);
      C[i * N + j] = __float2half(acc);
    }
}

// A prologue on a column-major (M-major) A, B column-major: applied to each
// landed stage of A (wgmma takes only a K-major A from registers).
void pro_relu_a_col(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[k * M + i]), 0.0f) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

// A prologue clamping bf16 A to [0, 0.5] (B column-major): exact on packed
// bf16 pairs, applied by the TMA kernels' consumer warpgroups to the stages.
void pro_clamp_a_bf16(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
                      const __nv_bfloat16 *__restrict__ B, __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fminf(fmaxf(__bfloat162float(A[i * K + k]), 0.0f), 0.5f) *
               __bfloat162float(B[j * K + k]);
      C[i * N + j] = __float2bfloat16(acc);
    }
}
