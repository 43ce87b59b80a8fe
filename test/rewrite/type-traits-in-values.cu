// Integer constant expressions of types in a region's values (`sizeof(T)`,
// `alignof(T)`) are their values in their type (size_t: `-sizeof(T)` wraps
// as the source's does), as the README's integer constant expressions are.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// CHECK: static_cast<unsigned long>(8u)
// CHECK: (-static_cast<unsigned long>(2u))
// CHECK: {{^}}  tc_scaled_by_size_0_launch(M, N, K, A, B, C, 0);
template <class T>
void scaled_by_size(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc * sizeof(T) + (float)(-alignof(short)) * 1e-20f;
    }
}
template void scaled_by_size<double>(int, int, int, const __half *, const __half *, float *);
