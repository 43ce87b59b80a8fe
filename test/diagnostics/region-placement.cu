// A region is replaced by a launch, which host code makes, and the
// replacement takes the whole statement under the pragma, a macro's whole
// invocation too. A region in a __global__ or __device__ function, and one
// that ends inside a macro's expansion that goes on after it, are
// diagnosed and the file stays as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=LAMBDA
// RUN: diff %s %t.cu

#include <cstdio>
#include <cuda_fp16.h>

__global__ void kernel_region(int M, int N, int K, const __half *__restrict__ A,
                              const __half *__restrict__ B, float *__restrict__ C) {
// DIAG: {{.*}}region-placement.cu:[[@LINE+2]]:1: error: '#pragma tc' region in device code: 'kernel_region' is a '__global__' function
// DIAG: {{.*}}region-placement.cu:[[@LINE+1]]:1: note: the region becomes a kernel launch, which host code makes; move the loop nest into a host function
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

__host__ __device__ void both_sides(int M, int N, int K, const __half *__restrict__ A,
                                    const __half *__restrict__ B, float *__restrict__ C) {
// DIAG: {{.*}}region-placement.cu:[[@LINE+1]]:1: error: '#pragma tc' region in device code: 'both_sides' is a '__host__ __device__' function
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

#define GEMM_THEN_LOG(M, N, K)                                                 \
  for (int i = 0; i < M; ++i)                                                  \
    for (int j = 0; j < N; ++j) {                                              \
      float acc = 0.f;                                                         \
      for (int k = 0; k < K; ++k)                                              \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);        \
      C[i * N + j] = acc;                                                      \
    }                                                                          \
  printf("gemm %d %d %d done\n", M, N, K);

void macro_goes_on(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: {{.*}}region-placement.cu:[[@LINE+2]]:3: error: the '#pragma tc' region ends inside a macro's expansion that goes on after it
  // DIAG: {{.*}}region-placement.cu:[[@LINE+1]]:3: note: the replacement would take the whole invocation; end the macro with the loop nest, or write the rest outside it
  GEMM_THEN_LOG(M, N, K)
}

// A region in a function that a macro defines: found (not skipped) and
// diagnosed where the macro is invoked.
#define DEFINE_GEMM(NAME)                                                      \
  void NAME(int M, int N, int K, const __half *__restrict__ A,                 \
            const __half *__restrict__ B, float *__restrict__ C) {             \
    _Pragma("tc") for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) {    \
      float acc = 0.f;                                                         \
      for (int k = 0; k < K; ++k)                                              \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);        \
      C[i * N + j] = acc;                                                      \
    }                                                                          \
  }
// DIAG: {{.*}}region-placement.cu:[[@LINE+1]]:1: error: the '#pragma tc' region ends inside a macro's expansion that goes on after it
DEFINE_GEMM(gemm_by_macro)

// A lambda at namespace scope: no function holds it, before which the
// region's kernel would be defined.
auto namespace_lambda = [](int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
// LAMBDA: {{.*}}region-placement.cu:[[@LINE+2]]:1: error: '#pragma tc' in a lambda outside any function is not rewritten
// LAMBDA: {{.*}}region-placement.cu:[[@LINE+1]]:1: note: the region's kernel is defined before the function that holds it; move the loop nest into a function, or define the lambda in one
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
};
