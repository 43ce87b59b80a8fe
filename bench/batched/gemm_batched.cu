// Batched GEMMs as attention and grouped layers write them, for
// bench/batched_bench.cu: one fp16 GEMM per batch entry, each entry's
// matrices stored after the previous entry's, fp32 accumulation.
#include <cuda_fp16.h>

// C[b] = A[b] B[b]^T: A[b] M x K, B[b] N x K (attention's Q K^T).
void bench_batched_f16_rc(int BATCH, int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int b = 0; b < BATCH; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[((long)b * M + i) * K + k]) *
                 __half2float(B[((long)b * N + j) * K + k]);
        C[((long)b * M + i) * N + j] = __float2half(acc);
      }
}

// C[b] = A[b] B[b]: A[b] M x K, B[b] K x N (attention's P V).
void bench_batched_f16_rr(int BATCH, int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int b = 0; b < BATCH; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[((long)b * M + i) * K + k]) *
                 __half2float(B[((long)b * K + k) * N + j]);
        C[((long)b * M + i) * N + j] = __float2half(acc);
      }
}
