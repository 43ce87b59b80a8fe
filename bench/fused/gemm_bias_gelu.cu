// Fused-idiom benchmark (bench/fused_bench.cu, scripts/bench-prepare.sh):
// GEMM, then a per-column bias and GELU in its erf form:
// v = A * B + bias[j], C = half(0.5 v (1 + erf(v / sqrt(2)))).
// fp16 operands and bias, an fp32 scalar accumulator and an fp16 result;
// A row-major (A[i*K+k]), B column-major (B[j*K+k]), C row-major (C[i*N+j]).
// One idiom per file, so that a file tc-rewrite rejects is skipped alone.
#include <cuda_fp16.h>

void bench_fused_gemm_bias_gelu(int M, int N, int K,
                                const __half *__restrict__ A,
                                const __half *__restrict__ B,
                                const __half *__restrict__ bias,
                                __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + __half2float(bias[j]);
      C[i * N + j] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678f)));
    }
}
