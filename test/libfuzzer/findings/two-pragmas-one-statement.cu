// tc-rewrite two-pragmas-one-statement.cu -o out.cu exits 0; out.cu defines
// tc_gemm_0_launch and tc_gemm_1_launch but calls only the first: the
// second pragma's clauses (stages(2)) are dropped without a diagnostic.
#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64, 64, 32)
#pragma tc stages(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
