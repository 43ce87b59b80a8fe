#include <cuda_fp16.h>
void incl(int BATCH, int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int b = 0; b <= BATCH; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * K + k]) * __half2float(B[(b * K + k) * N + j]);
        C[(b * M + i) * N + j] = acc;
      }
}
