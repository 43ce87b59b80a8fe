// Sizes the source computes from constants with '/', '%' or shifts
// (`kK / 2`, `kN >> 1` of constexpr sizes) are their values, in loop bounds
// and subscripts alike; a division of a loop iterator or a run-time size
// stays non-affine (test/diagnostics/non-affine-subscript.cu).
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --explain %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN

// EXPLAIN: matmul over (i, j) reducing k: M = M, N = 96, K = 128
// CHECK:   {{^  }}tc_halves_0_launch(M, X, W, Y, 0);

#include <cuda_fp16.h>

constexpr int kK = 256, kN = 192;

void halves(int M, const __half *__restrict__ X, const __half *__restrict__ W,
            __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < (kN >> 1); ++j) {
      float acc = 0.0f;
      for (int k = 0; k < kK / 2; ++k)
        acc += __half2float(X[i * (kK / 2) + k]) * __half2float(W[j * (kK % 200 + 72) + k]);
      Y[i * (kN >> 1) + j] = __float2half(acc);
    }
}
