// A sum of products written as nests into scratch arrays (temp(T1, T2),
// fused on the model) whose launcher also runs the serial kernel (here:
// where rows of the output, ldc apart, may overlap). The serial kernel
// runs the region as written, which writes the scratch arrays too: every
// kernel and launcher takes them, and the call passes them. (Fuzzer case
// s6402_0015: T2 was left out, and the output did not compile.)
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %tc-rewrite %t.cu -o %t.again.cu
// RUN: diff %t.cu %t.again.cu

#include <cuda_fp16.h>

// CHECK: __global__ void __launch_bounds__(1) tc_sum_0_serial_kernel({{.*}}float *T1, {{.*}}float *T2,
// CHECK: tc_sum_0_launch(M, N, K, ldc, A, B, T1, A2, B2, T2, C, 0);
void sum(int M, int N, int K, int ldc, const __half *__restrict__ A,
         const __half *__restrict__ B, float *__restrict__ T1,
         const __half *__restrict__ A2, const __half *__restrict__ B2,
         float *__restrict__ T2, __half *__restrict__ C) {
#pragma tc temp(T1, T2)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
        T1[i * ldc + j] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A2[i * K + k]) * __half2float(B2[j * K + k]);
        T2[i * ldc + j] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        C[i * ldc + j] = __float2half(T1[i * ldc + j] + T2[i * ldc + j]);
  }
}
