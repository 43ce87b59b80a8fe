// The rewritten file compiles with the include path and the architecture
// alone: no --expt-relaxed-constexpr (a constexpr function the kernels call
// must be __host__ __device__). PTX at -O0 keeps this in the default tier;
// the full tier's ptxas runs compile more kernels the same way.
//
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.sm90.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_80,code=sm_80 \
// RUN:   -ptx -Xcicc -O0 %t.sm80.cu -o %t.sm80.ptx %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_90a,code=sm_90a \
// RUN:   -ptx -Xcicc -O0 %t.sm90.cu -o %t.sm90.ptx %}
// RUN: FileCheck %s --input-file=%t.sm80.cu
// CHECK: tc::sm80::CpAsyncMmaMainloop<

#include <cstdint>
#include <cuda_fp16.h>

// fp16 operands, one of them N-major, and fp32 out.
void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
          float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// An 8-bit weight, N-major: converted while copying (the sm_80 kernels on
// both architectures).
void int8_kn(int M, int N, int K, const __half *__restrict__ X, const int8_t *__restrict__ W,
             float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * W[k * N + j];
      Y[i * N + j] = acc;
    }
}
