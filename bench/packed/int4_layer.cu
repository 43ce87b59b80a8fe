// The region benchmarked by bench/packed/int4_layer_bench.cu: an int4
// weight-only layer as people write it (unsigned nibbles, group-wise zero
// points and scales of 128 k, fp16 activations and output).
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

void int4_layer(int M, int N, int K, const __half *__restrict__ X,
                const uint8_t *__restrict__ Wq, const __half *__restrict__ zero,
                const __half *__restrict__ scale, __half *__restrict__ Y,
                cudaStream_t stream) {
#pragma tc stream(stream)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) *
               (((float)((Wq[j * (K / 2) + k / 2] >> (4 * (k % 2))) & 15) -
                 __half2float(zero[j * (K / 128) + k / 128])) *
                __half2float(scale[j * (K / 128) + k / 128]));
      Y[i * N + j] = __float2half(acc);
    }
}
