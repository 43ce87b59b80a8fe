// The GEMM of samples/gemm.cu in a CMake project: tc_rewrite_sources() in
// CMakeLists.txt compiles its rewrite instead of this file. GEMM_STAGES comes
// from the target's compile definitions.
#include "gemm.h"

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc stages(GEMM_STAGES)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
