// A region sized by a header's constant (dependency-file.test).
#include <cuda_fp16.h>
#include "dims.h"

void gemm(int M, int K, const __half *__restrict__ A, const __half *__restrict__ B,
          float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < kN; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * kN + j]);
      C[i * kN + j] = acc;
    }
}
