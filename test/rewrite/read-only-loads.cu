// Reads of an array the region never writes go through the read-only data
// path, tc::read_only (tc/read_only.cuh: ld.global.nc), in the epilogue
// functor of the kernels that run once the arrays are known apart; an
// array the region writes (C below, read and written; a product's scratch
// array) is read as written, and so is every array in the serial kernel,
// which runs where the arrays may overlap, and in the text kernels, whose
// __restrict__ parameters nvcc reads through that path itself.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --check-prefix=SM80 --input-file=%t.sm80.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_90a,code=sm_90a \
// RUN:   -ptx -Xcicc -O0 %t.cu -o %t.ptx %}
// RUN: %if nvcc %{ FileCheck %s --check-prefix=PTX --input-file=%t.ptx %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -c %t.sm80.cu -o %t.sm80.o %}

#include <cuda_fp16.h>

// Pointers without __restrict__ (the launcher's overlap test): scale is
// only read, C read and written.
void update(int M, int N, int K, const __half *A, const __half *B, const float *scale,
            float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = C[i * N + j] + acc * scale[j];
    }
}
// CHECK-LABEL: struct tc_update_0_epilogue {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = (C[(long long)((tc_m)) * (N) + ((tc_n))] + (tc_value * tc::read_only(scale[((tc_n))])));
// CHECK-LABEL: tc_update_0_serial_kernel(
// CHECK:       {{^ *}}C[(long long)((c1)) * (N) + ((c3))] = (C[(long long)((c1)) * (N) + ((c3))] + (acc * scale[((c3))]));
// CHECK-LABEL: static void tc_update_0_launch(
// CHECK:       if (tc::overlap(
// CHECK:       tc_update_0_serial_kernel<<<1, 1, 0, tc_stream>>>
// SM80-LABEL: struct tc_update_0_epilogue {
// SM80:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = (C[(long long)((tc_m)) * (N) + ((tc_n))] + (tc_value * tc::read_only(scale[((tc_n))])));

// A row's offset in the prologue of A: the conversion functor's reads stay
// ordinary loads, which the main loops (no global stores) keep in
// registers as they see fit.
void offsets(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
             const float *__restrict__ zero, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (__half2float(A[i * K + k]) - zero[i]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
// CHECK-LABEL: struct tc_offsets_0_operand_a {
// CHECK:       {{^ *}}return static_cast<float>((tc_x - zero[((tc_row))]));

// The product's scratch array C, then read by the second nest: the
// epilogue keeps it in a register; bias is read-only.
void two_nests(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
               const float *__restrict__ bias, float *__restrict__ C, float *__restrict__ D) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[i * N + j] = 0.0f;
        for (int k = 0; k < K; ++k)
          C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        D[i * N + j] = C[i * N + j] + bias[j];
  }
}
// CHECK-LABEL: struct tc_two_nests_0_epilogue {
// CHECK:       {{^ *}}D[(long long)((tc_m)) * (N) + ((tc_n))] = (tc_value + tc::read_only(bias[((tc_n))]));

// The loads of scale and bias are non-coherent ones.
// PTX: ld.global.nc.f32
