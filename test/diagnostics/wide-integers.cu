// Sizes and bounds are computed in 64-bit signed integers: a size of a wider
// type, or a literal beyond int64_t, is an error at its use (it was cut to
// 64 bits and the region rewritten for the wrong bound: found by
// tc-fuzz-region, test/libfuzzer/findings/). The file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void wide_constant(int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, __half *__restrict__ C) {
  constexpr __int128 BIG = ((__int128)1 << 100) + 64;
#pragma tc
  for (long i = 0; i < BIG; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
// DIAG: wide-integers.cu:[[@LINE-8]]:24: error: 'BIG' is wider than 64 bits
// DIAG: note: sizes and bounds are computed in 64-bit signed integers

void huge_literal(int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (unsigned long long i = 0; i < 18446744073709551615ull; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
// DIAG: wide-integers.cu:[[@LINE-8]]:38: error: integer literal out of the range of int64_t

// `i <= X` is `i < X + 1`: that sum must fit too.
void inclusive_bound_overflow(long long M, int N, int K, const __half *__restrict__ A,
                              const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (long long i = 0; i <= M + 9223372036854775807LL; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
// DIAG: wide-integers.cu:[[@LINE-8]]:27: error: integer overflow in a subscript or loop bound
