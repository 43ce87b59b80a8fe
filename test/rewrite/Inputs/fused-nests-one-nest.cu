// The one-nest spelling of fused-nests.cu's first region: one accumulator,
// two reduction loops.
#include <cuda_fp16.h>

void arrays(int M, int N, int K1, int K2, const __half *__restrict__ A,
            const __half *__restrict__ B, const __half *__restrict__ P,
            const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
            float *__restrict__ Z) {
#pragma tc temp(C)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[i * N + j] = 0.0f;
        for (int k = 0; k < K1; ++k)
          C[i * N + j] += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
        for (int k = 0; k < K2; ++k)
          C[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j];
  }
}
