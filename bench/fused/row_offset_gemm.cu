// Fused-idiom benchmark (bench/fused_bench.cu, scripts/bench-prepare.sh):
// A minus a zero point per row, then the GEMM: C = half((A - zero[i]) * B).
// The prologue reads an array by the element's row, so the kernels convert
// A where it lands (an operand converted by its place), not as a function
// of the element alone. fp16 operands, fp32 zero points, an fp32 scalar
// accumulator and an fp16 result; A row-major (A[i*K+k]), B column-major
// (B[j*K+k]), C row-major (C[i*N+j]).
#include <cuda_fp16.h>

void bench_fused_row_offset_gemm(int M, int N, int K, const __half *__restrict__ A,
                                 const __half *__restrict__ B, const float *__restrict__ zero,
                                 __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (__half2float(A[i * K + k]) - zero[i]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
