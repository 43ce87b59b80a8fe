// fp32 GEMMs on the tensor cores through the allow_tf32 clause, for
// bench/tf32_bench.cu: the products are formed from operands rounded to
// tf32, sums stay fp32 (see samples/forms/tf32.cu). Written as a user would;
// every size in the benchmark keeps the indices within int.
#include <cuda_runtime.h>

// C = X W^T: A (X) M x K row-major, B (W) stored N x K (a linear layer).
void bench_tf32_xwt(int M, int N, int K, const float *__restrict__ A,
                    const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[j * K + k];
      C[i * N + j] = acc;
    }
}

// C = A B: A M x K, B K x N, both row-major.
void bench_tf32_nn(int M, int N, int K, const float *__restrict__ A,
                   const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
