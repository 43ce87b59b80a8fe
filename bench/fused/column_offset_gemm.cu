// Fused-idiom benchmark (bench/fused_bench.cu, scripts/bench-prepare.sh):
// B minus a zero point per column, then the GEMM: C = half(A * (B -
// zero[j])). The conversion reads an array by B's column, so the kernels
// convert B where it lands; on sm_90a they compute the tile transposed,
// B as wgmma's A converted in its register fragments. fp16 operands, fp32
// zero points, an fp32 scalar accumulator and an fp16 result; A row-major
// (A[i*K+k]), B column-major (B[j*K+k]), C row-major (C[i*N+j]).
#include <cuda_fp16.h>

void bench_fused_column_offset_gemm(int M, int N, int K, const __half *__restrict__ A,
                                    const __half *__restrict__ B,
                                    const float *__restrict__ zero, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * (__half2float(B[j * K + k]) - zero[j]);
      C[i * N + j] = __float2half(acc);
    }
}
