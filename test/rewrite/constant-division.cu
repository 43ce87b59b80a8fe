// Sizes the source computes from constants with '/', '%' or shifts
// (`kK / 2`, `kN >> 1` of constexpr sizes) are their values, in loop bounds
// and subscripts alike. A run-time size divided by a constant (`K >> 1`,
// `(N + 1) / 2`) is a size of its own, which the call computes where the
// region was; a division of a loop iterator (outside packed 4-bit values,
// test/rewrite/packed-4bit.cu) or by a size stays non-affine
// (test/diagnostics/non-affine-subscript.cu).
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

// EXPLAIN: matmul over (i, j) reducing k: M = M, N = (N + 1) / 2, K = K >> 1
// CHECK: static void tc_run_time_halves_0_launch(long long M, long long N, long long N_1_div_2, long long K, long long K_shr_1, const __half *X, const __half *W, __half *Y, ::cudaStream_t tc_stream) {
// CHECK: {{^  }}tc_run_time_halves_0_launch(M, N, (N + 1) / 2, K, K >> 1, X, W, Y, 0);
void run_time_halves(int M, int N, int K, const __half *__restrict__ X,
                     const __half *__restrict__ W, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < (N + 1) / 2; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < (K >> 1); ++k)
        acc += __half2float(X[i * K + k]) * __half2float(W[j * K + k]);
      Y[i * N + j] = __float2half(acc);
    }
}
