// Loop orders of the three GEMM dimensions (issue 3: "any loop order of the
// three dimensions ... legal reordering decided by isl dependences").
// fp16 operands, fp32 output, all row-major, device memory, __restrict__.
// The reference semantics of each function is given in
// test/gpu/forms_correctness.cu (kForms).
#include <cuda_fp16.h>

// i-j-k with a scalar accumulator: C = A * B.
void order_ijk(int M, int N, int K, const __half *__restrict__ A,
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

// i-k-j, in place: C += A * B (C read first).
void order_ikj(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// j-i-k with a scalar accumulator: the transposed traversal, C = A * B.
void order_jik(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// j-i-k with an initialisation statement: C = 0; C += A * B.
void order_jik_init(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i) {
      C[i * N + j] = 0.0f;
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}

// j-k-i, in place: C += A * B.
void order_jki(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < K; ++k)
      for (int i = 0; i < M; ++i)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// k-i-j (k outermost), in place: C += A * B.
void order_kij(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// k-j-i, in place: C += A * B.
void order_kji(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < M; ++i)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// i-j-k, fp16 output with alpha: C = half(alpha * A * B), written i++ style.
void order_ijk_alpha_f16(int M, int N, int K, float alpha,
                         const __half *__restrict__ A,
                         const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < K; k++)
        acc += alpha * __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// PolyBench's gemm: i-k-j order, the initialisation in a j loop of its own
// and the reduction's j loop reusing the name.
void order_polybench(int M, int N, int K, float alpha, float beta,
                     const __half *__restrict__ A, const __half *__restrict__ B,
                     float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++)
      C[i * N + j] *= beta;
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++)
        C[i * N + j] += alpha * (float)A[i * K + k] * (float)B[k * N + j];
  }
}

// k outermost: a block with an initialisation nest, then the k-i-j nest.
void order_k_outer_block(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        C[i * N + j] = 0.0f;
    for (int k = 0; k < K; ++k)
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j)
          C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
  }
}

// Operands read through named locals (implicit conversion to float).
void order_operand_locals(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        float a = A[i * K + k];
        float b = B[k * N + j];
        acc += a * b;
      }
      C[i * N + j] = acc;
    }
}
