// tc-rewrite int128-constant-bound.cu --explain: the model has BIG = 64
// (2^100 + 64 cut to 64 bits); the region is rewritten for 64 rows.
#include <cuda_fp16.h>
void f(int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C) {
  constexpr __int128 BIG = ((__int128)1 << 100) + 64;
#pragma tc tile(64, 64, 32)
  for (long i = 0; i < BIG; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
