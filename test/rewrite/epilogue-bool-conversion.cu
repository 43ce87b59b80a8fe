// A conversion to bool in an epilogue is kept: `bool nonzero = acc;` is 0
// or 1, so `acc + nonzero` adds 1 for acc = 0.3. Dropped, it would add
// (int)acc, 0 there.
//
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

void plus_nonzero(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      bool nonzero = acc;
      C[i * N + j] = acc + nonzero;
    }
}
// EXPLAIN: S2: add(R0, cvt<float>(cvt<int>(cvt<bool>(R0))))
// CHECK: (tc_value + static_cast<float>(static_cast<int>(static_cast<bool>(tc_value))))
