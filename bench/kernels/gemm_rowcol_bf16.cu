// GEMM benchmark sample (bench/gemm_bench.cu, scripts/bench-prepare.sh):
// C = A * B with bf16 operands, an fp32 scalar accumulator and a bf16 result.
// A row-major (A[i*K+k]), B column-major (B[j*K+k]),
// C row-major (C[i*N+j]). One function per file, so that a layout tc-rewrite
// rejects is skipped alone.
#include <cuda_bf16.h>

void bench_gemm_bf16_rc(int M, int N, int K,
                        const __nv_bfloat16 *__restrict__ A,
                        const __nv_bfloat16 *__restrict__ B,
                        __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[j * K + k]);
      C[i * N + j] = __float2bfloat16(acc);
    }
}
