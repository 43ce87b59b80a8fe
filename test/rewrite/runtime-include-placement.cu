// Where the runtime's #include goes: after the file's last #include that
// precedes every region's definitions, outside conditional blocks (one
// that nvcc's device pass or host compiler skips, `#ifndef __CUDA_ARCH__`
// or `#ifdef __clang__`) and outside declarations (an extern "C" block,
// where C++ headers cannot be included). An #include after the region's
// function comes too late: the definitions before the function use it.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^#include <tc/tc.cuh>}}'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -I%S \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

// CHECK: {{^}}#include <cuda_fp16.h>
// CHECK-NEXT: {{^}}#include <tc/tc.cuh>
// CHECK-NEXT: {{^}}extern "C" {
#include <cuda_fp16.h>
extern "C" {
#include "Inputs/c-api.h"
}
#ifndef __CUDA_ARCH__
#include <cstdio>
#endif
#ifdef __clang__
#include <cstdlib>
#endif

// CHECK: tc_gemm_0_epilogue
// CHECK: {{^}}void gemm(
void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
  printf("done\n");
}

// CHECK: {{^}}#include <cstring>
#include <cstring>
