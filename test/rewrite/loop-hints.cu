// `#pragma unroll` on a loop inside a region is a hint the kernels have no
// use for (they schedule the loops themselves): the region is rewritten
// exactly as without it (the second file blanks the hints' lines, so that
// every location stays the same).
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: sed -e 's/^ *#pragma unroll.*$//' %s > %t.plain.cu
// RUN: %tc-rewrite %t.plain.cu -o %t.plain.tc.cu
// RUN: sed -e 's/^ *#pragma unroll.*$//' -e 's/loop-hints[.]cu[.]tmp[.]plain[.]cu/loop-hints.cu/g' %t.plain.tc.cu > %t.expected.cu
// RUN: sed -e 's/^ *#pragma unroll.*$//' %t.cu | diff %t.expected.cu -
// RUN: FileCheck %s --input-file=%t.cu

#include <cuda_fp16.h>

// CHECK: tc_gemm_0_launch(M, N, K, A, B, C, 0);
void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
#pragma unroll 4
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
