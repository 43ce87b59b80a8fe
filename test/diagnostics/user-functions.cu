// Functions and operators of the user's that share a library's name: the
// kernels would compute the library's (fmaxf's max, __half's product), not
// the user's, so the region is left as written. The library's own remain
// accepted (test/rewrite/).
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not='error:'
// RUN: diff %s %t.cu

#define __CUDA_NO_HALF_OPERATORS__
#include <cuda_fp16.h>

// An overload of fmaxf for a __half and a float: the sum, not the maximum.
__host__ __device__ inline float fmaxf(__half a, float b) { return __half2float(a) + b; }

void overload_of_fmaxf(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(A[i * K + k], 1.0f) * __half2float(B[k * N + j]);
        // DIAG: user-functions.cu:[[#@LINE-1]]:16: error: call to 'fmaxf' declared at {{.*}}user-functions.cu:14:{{[0-9]+}}, not the library's 'fmaxf'
        // DIAG: note: a region may call the math and conversion functions of the CUDA headers and the C and C++ libraries; compute the user's function outside the region, or inline its expression
      C[i * N + j] = acc;
    }
}

namespace ns {
float expf(float x) { return x; }

void function_of_a_namespace(int M, int N, int K, const __half *__restrict__ A,
                             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = expf(acc);
      // DIAG: user-functions.cu:[[#@LINE-1]]:22: error: call to 'expf' declared at {{.*}}user-functions.cu:31:{{[0-9]+}}, not the library's 'expf'
    }
}
} // namespace ns

// __CUDA_NO_HALF_OPERATORS__ (as PyTorch builds define it) and an operator
// of the user's: twice the product.
__host__ __device__ inline float operator*(const __half &a, const __half &b) {
  return 2.0f * __half2float(a) * __half2float(b);
}

void operator_of_the_user(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
        // DIAG: user-functions.cu:[[#@LINE-1]]:29: error: call of operator '*' of type '__half'
      C[i * N + j] = acc;
    }
}
