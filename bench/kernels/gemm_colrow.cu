// GEMM benchmark sample (bench/gemm_bench.cu, scripts/bench-prepare.sh):
// C = A * B with fp16 operands, an fp32 scalar accumulator and an fp16 result.
// A column-major (A[k*M+i]), B row-major (B[k*N+j]),
// C row-major (C[i*N+j]). One function per file, so that a layout tc-rewrite
// rejects is skipped alone.
#include <cuda_fp16.h>

void bench_gemm_f16_cr(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[k * M + i]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
