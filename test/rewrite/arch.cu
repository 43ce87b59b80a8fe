// --arch: the target goes into the kernel's description comment and the
// result compiles for that architecture. sm_90a is the default; sm_90 is
// accepted as sm_90a.
//
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 --input-file=%t.sm80.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -c %t.sm80.cu -o %t.sm80.o %}
//
// RUN: %tc-rewrite --arch=sm_86 %s -o %t.sm86.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM86 --input-file=%t.sm86.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_86,code=sm_86 -c %t.sm86.cu -o %t.sm86.o %}
//
// RUN: %tc-rewrite --arch=sm_89 %s -o %t.sm89.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM89 --input-file=%t.sm89.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_89,code=sm_89 -c %t.sm89.cu -o %t.sm89.o %}
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.sm90a.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM90A --input-file=%t.sm90a.cu
// RUN: %tc-rewrite %s -o %t.default.cu
// RUN: diff %t.sm90a.cu %t.default.cu
// RUN: %tc-rewrite --arch=sm_90 %s -o %t.sm90.cu
// RUN: diff %t.sm90a.cu %t.sm90.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.sm90a.cu -o %t.sm90a.o %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// SM80:       {{^}}//   block tile {{.*}}, sm_80{{$}}
// SM86:       {{^}}//   block tile {{.*}}, sm_86{{$}}
// SM89:       {{^}}//   block tile {{.*}}, sm_89{{$}}
// SM90A:      {{^}}//   block tile {{.*}}, sm_90a{{$}}
// CHECK:      {{^}}__global__ void __launch_bounds__(128) tc_gemm_0_kernel(
// CHECK:      {{^ *}}tc::mma_m16n8k16_f16(
// CHECK:      {{^  }}tc_gemm_0_launch(M, N, K, A, B, C, 0);

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
