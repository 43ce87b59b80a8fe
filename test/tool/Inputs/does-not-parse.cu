// Input of tool/exit-status.cu: a file with a C++ error.
#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]) * undeclared;
}
