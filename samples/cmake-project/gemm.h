// C = A * B for row-major fp16 matrices in device memory (A: M x K,
// B: K x N, C: M x N), accumulated in fp32. Asynchronous, on the default
// stream.
#pragma once
#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C);
