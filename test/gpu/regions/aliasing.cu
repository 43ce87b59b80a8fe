// Regions whose pointers are not __restrict__ (test/gpu/regions_test.cu):
// the rewritten launchers test the arrays for overlap and run the region
// as written, on one thread, where they meet. The driver runs the same
// functions as written on the host, on the same (overlapping) layout.
#include <cuda_fp16.h>

// Plain pointers, fp32 accumulator, fp16 output.
void alias_gemm(int M, int N, int K, const __half *A, const __half *B, __half *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// PolyBench style: pointers to rows of constant length.
constexpr int kDepth = 64;
constexpr int kCols = 96;
void alias_rows(int M, const __half (*X)[kDepth], const __half (*W)[kCols], float (*Y)[kCols]) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < kCols; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < kDepth; ++k)
        acc += __half2float(X[i][k]) * __half2float(W[k][j]);
      Y[i][j] = acc;
    }
}

// Leading dimensions, and the output read as well as written (beta * C).
void alias_blas(int M, int N, int K, float alpha, const __half *A, int lda, const __half *B,
                int ldb, float beta, float *C, int ldc) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * lda + k]) * __half2float(B[k * ldb + j]);
      C[i * ldc + j] = alpha * acc + beta * C[i * ldc + j];
    }
}

// An epilogue with a bias (another array to test) and ReLU.
void alias_bias_relu(int M, int N, int K, const __half *A, const __half *B, const float *bias,
                     __half *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(v > 0.0f ? v : 0.0f);
    }
}
