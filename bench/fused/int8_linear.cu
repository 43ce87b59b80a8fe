// Fused-idiom benchmark (bench/fused_bench.cu, scripts/bench-prepare.sh):
// a linear layer with int8 weights and per-output-channel scale and zero
// point, dequantised on the fly: Y = half(X * W'^T) with
// W'[j][k] = (W[j][k] - zero[j]) * scale[j].
// X fp16 M x K row-major (X[i*K+k]); W int8 N x K (W[j*K+k], i.e. the B
// operand column-major); scale, zero fp32 per output column j; an fp32
// scalar accumulator and an fp16 result Y row-major (Y[i*N+j]).
// One idiom per file, so that a file tc-rewrite rejects is skipped alone.
#include <cstdint>
#include <cuda_fp16.h>

void bench_fused_int8_linear(int M, int N, int K,
                             const __half *__restrict__ X,
                             const int8_t *__restrict__ W,
                             const float *__restrict__ scale,
                             const float *__restrict__ zero,
                             __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * (((float)W[j * K + k] - zero[j]) * scale[j]);
      Y[i * N + j] = __float2half(acc);
    }
}
