// Regions whose sizes are all constants: the kernels have no size
// parameter. Until the schedule steps built their sets through isl's API,
// the mapping of blocks and warps appended the kernel's ids to an empty
// parameter list as isl text, "[, tc_block_m, ...]", and isl refused every
// such region that reaches the schedule steps: on the mma.sync path, and on
// sm_90a the text kernels (triangular, prologues, 8-bit weights, split_k).
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_80 %s -o %t80.cu
// RUN: FileCheck %s --input-file=%t80.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cstdint>
#include <cuda_fp16.h>

// CHECK: {{^}}  tc_triangular_0_launch(A, B, C, 0);
void triangular(const __half *__restrict__ A, const __half *__restrict__ B,
                float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 256; ++j) {
      float acc = 0.0f;
      for (int k = 0; k <= i; ++k)
        acc += __half2float(A[i * 256 + k]) * __half2float(B[k * 256 + j]);
      C[i * 256 + j] = acc;
    }
}

// CHECK: {{^}}  tc_relu_operand_0_launch(A, B, C, 0);
void relu_operand(const __half *__restrict__ A, const __half *__restrict__ B,
                  float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 128; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        acc += fmaxf(__half2float(A[i * 64 + k]), 0.0f) * __half2float(B[k * 128 + j]);
      C[i * 128 + j] = acc;
    }
}

// CHECK: {{^}}  tc_sum_of_two_0_launch(A, B, P, Q, C, 0);
void sum_of_two(const __half *__restrict__ A, const __half *__restrict__ B,
                const __half *__restrict__ P, const __half *__restrict__ Q,
                float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 128; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        acc += __half2float(A[i * 64 + k]) * __half2float(B[k * 128 + j]);
      for (int k = 0; k < 32; ++k)
        acc += __half2float(P[i * 32 + k]) * __half2float(Q[k * 128 + j]);
      C[i * 128 + j] = acc;
    }
}

// CHECK: {{^}}  tc_int8_weights_0_launch(X, W, Y, s, 0);
void int8_weights(const __half *__restrict__ X, const int8_t *__restrict__ W,
                  const float *__restrict__ s, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 512; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 256; ++k)
        acc += __half2float(X[i * 256 + k]) * (float)W[j * 256 + k];
      Y[i * 512 + j] = __float2half(acc * s[j]);
    }
}

// CHECK: {{^}}  tc_split_reduction_0_launch(A, B, C, 0);
void split_reduction(const __half *__restrict__ A, const __half *__restrict__ B,
                     float *__restrict__ C) {
#pragma tc split_k(4)
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 128; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 4096; ++k)
        acc += __half2float(A[i * 4096 + k]) * __half2float(B[k * 128 + j]);
      C[i * 128 + j] = acc;
    }
}
