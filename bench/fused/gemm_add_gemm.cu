// Fused-idiom benchmark (bench/fused_bench.cu, scripts/bench-prepare.sh):
// the sum of two GEMMs with different reduction lengths, in one accumulator:
// C = half(A1 * B1 + A2 * B2), A1 M x K1, B1 K1 x N, A2 M x K2, B2 K2 x N.
// fp16 operands, an fp32 scalar accumulator and an fp16 result; A1/A2
// row-major (A1[i*K1+k]), B1/B2 column-major (B1[j*K1+k]), C row-major.
// One idiom per file, so that a file tc-rewrite rejects is skipped alone.
#include <cuda_fp16.h>

void bench_fused_gemm_add_gemm(int M, int N, int K1, int K2,
                               const __half *__restrict__ A1,
                               const __half *__restrict__ B1,
                               const __half *__restrict__ A2,
                               const __half *__restrict__ B2,
                               __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      C[i * N + j] = __float2half(acc);
    }
}
