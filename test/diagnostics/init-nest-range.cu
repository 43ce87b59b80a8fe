// An initialisation nest must cover the matmul's output elements and no
// others: one over 64 columns before products over 48 was rewritten into
// a kernel that stores 48 (the source's columns 48..63 hold the bias).
// Rows that a triangular reduction (`k < i`) gives no products are still
// the matmul's: their value is the initialisation alone; so are all
// elements where K = 0.
//
// RUN: rm -f %t.cu %t.ok.cu
// RUN: not %tc-rewrite --arch=sm_90a %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not='error:'
// RUN: diff %s %t.cu
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.ok.cu -extra-arg=-DTRIANGULAR
// RUN: FileCheck %s --check-prefix=TRIANGULAR --input-file=%t.ok.cu

#include <cuda_fp16.h>

#ifndef TRIANGULAR
void wider_init(int M, int K, const __half *__restrict__ A, const __half *__restrict__ B,
                const float *__restrict__ bias, float *__restrict__ C) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < 64; ++j)
// CHECK: {{.*}}init-nest-range.cu:[[@LINE+2]]:9: error: the statement runs on other output elements than the reduction
// CHECK: {{.*}}init-nest-range.cu:[[@LINE+1]]:9: note: guard the initialisation, the reduction and the stores of an output element alike
        C[i * 64 + j] = bias[j];
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < 48; ++j)
        for (int k = 0; k < K; ++k)
          C[i * 64 + j] += __half2float(A[i * K + k]) * __half2float(B[k * 48 + j]);
  }
}
#else
// TRIANGULAR: '#pragma tc' region computed by tc_strictly_lower_0_launch
void strictly_lower(int N, const __half *__restrict__ A, const __half *__restrict__ B,
                    const float *__restrict__ bias, float *__restrict__ C) {
#pragma tc
  {
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        C[i * N + j] = bias[j];
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < i; ++k)
          C[i * N + j] += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
  }
}

// Without an initialisation, the products added to the output in place
// and an epilogue reading it: at K = 0 there are no products, and the
// epilogue still runs over the same elements (a fuzzer case refused once).
// TRIANGULAR: '#pragma tc' region computed by tc_in_place_then_magnitude_0_launch
void in_place_then_magnitude(int M, int N, int K, int lda, int ldb, int ldc,
                             const __half *__restrict__ A, const __half *__restrict__ B,
                             float *__restrict__ y, __half *__restrict__ D) {
#pragma tc
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i) {
      for (int k = 0; k < K; k++)
        y[i * ldc + j] += float(A[k * lda + i]) * __half2float(B[j * ldb + k]);
      D[i * ldc + j] = static_cast<__half>(fabsf(y[i * ldc + j]));
    }
}
#endif
