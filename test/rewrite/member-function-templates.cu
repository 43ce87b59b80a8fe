// An out-of-line member function template of a class template has two
// template headers; the region's definitions go before the first (the
// class template's), not between the two, where they would become a
// template themselves.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_bf16.h>
#include <cuda_fp16.h>

template <class TC> struct Layer {
  int M, N, K;
  template <class T>
  void run(const T *__restrict__ A, const T *__restrict__ B, TC *__restrict__ C) const;
};

// CHECK: struct tc_run_0_0_epilogue {
// CHECK: struct tc_run_0_1_epilogue {
// CHECK: {{^}}template <class TC>
// CHECK-NEXT: {{^}}template <class T>
// CHECK-NEXT: {{^}}void Layer<TC>::run(
template <class TC>
template <class T>
void Layer<TC>::run(const T *__restrict__ A, const T *__restrict__ B, TC *__restrict__ C) const {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += float(A[i * K + k]) * float(B[k * N + j]);
      C[i * N + j] = TC(acc);
    }
}
template void Layer<float>::run<__half>(const __half *, const __half *, float *) const;
template void Layer<__half>::run<__nv_bfloat16>(const __nv_bfloat16 *, const __nv_bfloat16 *,
                                                __half *) const;
