// The plain GEMM of the walking skeleton: C = A * B with fp16 operands,
// fp32 accumulation and an fp16 result. All matrices are row-major and live
// in device memory. `tc-rewrite samples/gemm.cu -o gemm.tc.cu` replaces the
// nest with a tensor-core kernel launch; without the tool this is a valid
// (slow, host-side) serial program.
#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
