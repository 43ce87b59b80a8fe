// A file without '#pragma tc' is written unchanged (no include added), and
// the tool exits 0; also in place.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: diff %s %t.cu
// RUN: cp %s %t.inplace.cu
// RUN: %tc-rewrite -i %t.inplace.cu
// RUN: diff %s %t.inplace.cu

#include <cuda_fp16.h>

// An ordinary GEMM loop without the pragma stays as it is.
void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma unroll
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
