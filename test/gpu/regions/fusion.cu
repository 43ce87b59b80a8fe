// Products in separate loop nests, added in a later nest (test/gpu/
// regions_test.cu): tc-rewrite fuses them into one kernel
// (model/NestFusion.h), whose scratch arrays never reach memory. The
// driver runs the same functions as written on the host.
#include <cuda_fp16.h>

// C = A * B and R = P * Q accumulated in place in scratch arrays; Z = C + R.
void fusion_arrays(int M, int N, int K1, int K2, const __half *__restrict__ A,
                   const __half *__restrict__ B, const __half *__restrict__ P,
                   const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
                   float *__restrict__ Z) {
#pragma tc temp(C, R)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[i * N + j] = 0.0f;
        for (int k = 0; k < K1; ++k)
          C[i * N + j] += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        R[i * N + j] = 0.0f;
        for (int k = 0; k < K2; ++k)
          R[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
  }
}

// Locals named alike in both nests, B and Q column-major, and the sum one
// term of an epilogue with a bias and ReLU: Z = half(relu((C + R) + bias)).
void fusion_locals(int M, int N, int K1, int K2, const __half *__restrict__ A,
                   const __half *__restrict__ B, const __half *__restrict__ P,
                   const __half *__restrict__ Q, const float *__restrict__ bias,
                   float *__restrict__ C, float *__restrict__ R, __half *__restrict__ Z) {
#pragma tc temp(C, R)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K1; ++k)
          acc += __half2float(A[i * K1 + k]) * __half2float(B[j * K1 + k]);
        C[i * N + j] = acc;
      }
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < N; ++c) {
        float acc = 0.0f;
        for (int k = 0; k < K2; ++k)
          acc += __half2float(P[r * K2 + k]) * __half2float(Q[c * K2 + k]);
        R[r * N + c] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = __float2half(fmaxf(C[i * N + j] + R[i * N + j] + bias[j], 0.0f));
  }
}

// Three products, the first initialised in a nest of its own, the last
// added in its own nest; no __restrict__: the launcher tests the arrays for
// overlap and runs the region as written where they meet.
void fusion_three(int M, int N, int K1, int K2, int K3, const __half *A, const __half *B,
                  const __half *P, const __half *Q, const __half *U, const __half *V, float *C,
                  float *R, float *S, float *Z) {
#pragma tc temp(C, R, S)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        C[i * N + j] = 0.0f;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < K1; ++k)
          C[i * N + j] += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        R[i * N + j] = 0.0f;
        for (int k = 0; k < K2; ++k)
          R[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        S[i * N + j] = 0.0f;
        for (int k = 0; k < K3; ++k)
          S[i * N + j] += __half2float(U[i * K3 + k]) * __half2float(V[k * N + j]);
        Z[i * N + j] = (C[i * N + j] + S[i * N + j]) + R[i * N + j];
      }
  }
}

// Column-major scratch arrays and output: each copy stores the product
// transposed.
void fusion_column_major(int M, int N, int K1, int K2, const __half *__restrict__ A,
              const __half *__restrict__ B, const __half *__restrict__ P,
              const __half *__restrict__ Q, float *__restrict__ T1, float *__restrict__ T2,
              float *__restrict__ Z) {
#pragma tc temp(T1, T2)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K1; ++k)
          acc += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
        T1[j * M + i] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K2; ++k)
          acc += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
        T2[j * M + i] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[j * M + i] = T1[j * M + i] + T2[j * M + i];
  }
}
