// Triangular and guarded nests (test/gpu/regions_test.cu): tc-rewrite runs
// the box of the loops with the guards as masks of an operand or of the
// output (model/DomainBox.h, model/OperandMasks.h). The driver runs
// the same functions as written on the host.
#include <cuda_fp16.h>

// TRMM: A upper triangular (k from i), C = A * B.
void domains_trmm(int N, int P, const __half *__restrict__ A, const __half *__restrict__ B,
                  float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < P; ++j) {
      float acc = 0.0f;
      for (int k = i; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * P + j]);
      C[i * P + j] = acc;
    }
}

// SYRK: the lower triangle of C = A * A^T; the upper one is left as it was.
void domains_syrk(int N, int K, const __half *__restrict__ A, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(A[j * K + k]);
      C[i * N + j] = acc;
    }
}

// The lower triangle of A·Aᵀ into C with its own leading dimension: where
// ldc < N the rows overlap and the later row's stores win, which the
// launcher keeps by running the loops as written.
void domains_syrk_ldc(int N, int K, int ldc, const __half *__restrict__ A,
                      float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(A[j * K + k]);
      C[i * ldc + j] = acc;
    }
}

// A guard around the body: the upper triangle (and diagonal) of a product
// with a bias, stored as __half.
void domains_guarded(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, const float *__restrict__ bias,
                     __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (i <= j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = __float2half(acc + bias[j]);
      }
}

// A conjunction in the loop condition (A lower trapezoidal); for M < K the
// box would read A beyond its last row's elements: the region runs as
// written there.
void domains_conjunction(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k <= i && k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A guard inside the reduction on k and the column (B's mask), B stored
// N x K, accumulated in place into C.
void domains_mask_b(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        if (k < j + 8)
          C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
}
