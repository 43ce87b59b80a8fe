// tc-rewrite epilogue-shared-subexpression.cu -o out.cu (sm_90a or
// --arch=sm_80): error: internal error: generated code names
// 'tc_common___tc_u<N>___S2_0' (note: please report this as a bug).
#include <cuda_fp16.h>

void leaky(int M, int N, int K, float slope, const __half *__restrict__ A,
           const __half *__restrict__ B, const float *__restrict__ bias,
           __half *__restrict__ C) {
#pragma tc tile(64, 64, 32)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(v > 0.0f ? v : slope * v);
    }
}
