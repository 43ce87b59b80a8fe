// Errors in clause values point at the offending clause (its name or its
// value token), not at the start of the pragma (README: "Each is
// validated; an error points at the offending token").
//
// Fails: all of these are reported at column 1, the '#' of the pragma
// line, e.g. "clause-values-location.cu:<line>:1: error: stages must be
// between 2 and 16" (KernelConfig.cpp reports at the pragma's location).
//
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG

#include <cuda_fp16.h>

#define GEMM_NEST                                                              \
  for (int i = 0; i < M; ++i)                                                  \
    for (int j = 0; j < N; ++j) {                                              \
      float acc = 0.0f;                                                        \
      for (int k = 0; k < K; ++k)                                              \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);        \
      C[i * N + j] = __float2half(acc);                                        \
    }
#define GEMM_ARGS                                                              \
  int M, int N, int K, const __half *__restrict__ A,                           \
      const __half *__restrict__ B, __half *__restrict__ C

void stages_seventeen(GEMM_ARGS) {
  // 'stages' is column 12, '17' column 19.
  // DIAG: {{.*}}clause-values-location.cu:[[@LINE+1]]:{{12|19}}: error: stages must be between 2 and 16
#pragma tc stages(17)
  GEMM_NEST
}

void tile_k_24(GEMM_ARGS) {
  // 'tile' is column 12, '24' column 27.
  // DIAG: {{.*}}clause-values-location.cu:[[@LINE+1]]:{{12|27}}: error: the block tile's K size must be 16, 32, 64 or 128
#pragma tc tile(128, 128, 24)
  GEMM_NEST
}

void other_mma(GEMM_ARGS) {
  // 'mma' is column 12, 'm16n8k8' column 16.
  // DIAG: {{.*}}clause-values-location.cu:[[@LINE+1]]:{{12|16}}: error: unsupported mma 'm16n8k8'
#pragma tc mma(m16n8k8)
  GEMM_NEST
}
