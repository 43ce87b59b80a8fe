#include <cuda_fp16.h>

void gemm(int m, int n, int k, const __half *__restrict__ tc_smem,
          const __half *__restrict__ c0, __half *__restrict__ tc_acc, float tc_value) {
#pragma tc
  for (int min = 0; min < m; ++min)
    for (int max = 0; max < n; ++max) {
      float tc_stage = 0.0f;
      for (int mod = 0; mod < k; ++mod)
        tc_stage += __half2float(tc_smem[min * k + mod]) * __half2float(c0[mod * n + max]);
      tc_acc[min * n + max] = __float2half(tc_value * tc_stage);
    }
}
