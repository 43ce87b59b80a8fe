// C = A B, fp16, A[M][K] and B[K][N] row-major, on 128x128x64 tiles: the
// generated kernel that bench/sm90_components_bench.cu compares with the
// component kernel of the same tiles (tc/sm90/gemm_kernel.cuh).
#include <cuda_fp16.h>

void bench_gemm_rowrow_tile128(const __half *__restrict__ A, const __half *__restrict__ B,
                               __half *__restrict__ C, int M, int N, int K) {
#pragma tc tile(128, 128, 64)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
