// Fused-idiom benchmark (bench/fused_bench.cu, scripts/bench-prepare.sh):
// ReLU on the A operand, then the GEMM: C = half(max(A, 0) * B).
// fp16 operands, an fp32 scalar accumulator and an fp16 result; A row-major
// (A[i*K+k]), B column-major (B[j*K+k]), C row-major (C[i*N+j]).
// One idiom per file, so that a file tc-rewrite rejects is skipped alone.
#include <cuda_fp16.h>

void bench_fused_relu_gemm(int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B,
                           __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
