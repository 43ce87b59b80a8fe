// CUDA's max and min, which nvcc declares for host code too and Clang's
// CUDA headers for device code only (tool/NvccHostFunctions.h): a region
// that nvcc compiles parses, and the calls are the library's, written from
// the global namespace in the kernels (fmaxf and fminf on floats, as nvcc's
// host code computes them). In a loop's bound, theirs and std::min's
// minimum of two bounds is both bounds.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --input-file=%t.sm80.cu --check-prefix=SM80
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <algorithm>
#include <cuda_fp16.h>

// CHECK: {{^}}struct tc_relu6_0_epilogue {
// CHECK: = ::min(::max(tc_value, 0.0f), 6.0f);
// CHECK: {{^}}void relu6(
// SM80: = ::min(::max(
void relu6(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
           float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = min(max(acc, 0.0f), 6.0f);
    }
}

// A bound of a loop may be their minimum (an upward loop) or maximum (a
// downward one): the conjunction of the two bounds.
// On integers, an argument is in its parameter's type (the kernels compute
// iterators in long long, which would choose max(long long, unsigned), or
// find max(long long, int) ambiguous): `i - 5` wraps, as in the source.
// CHECK: {{^}}struct tc_index_clamp_0_epilogue {
// CHECK: ::max(static_cast<int>(((tc_m) - 5)), 0u)
// CHECK: ::min(static_cast<int>((tc_n)), static_cast<int>(R))
// CHECK: {{^}}void index_clamp(
void index_clamp(int M, int N, int K, int R, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc + (float)max(i - 5, 0u) + (float)min(j, R);
    }
}

// CHECK: {{^}}void capped_rows(
// CHECK: {{^  }}tc_capped_rows_0_launch(
void capped_rows(int M, int R, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < min(M, R); ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = K - 1; k >= std::max(0, K - 64); --k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// An argument that converts to the call's type without a change of value
// (a constant it holds, an unsigned int to size_t) is a bound as written.
// CHECK: {{^}}void capped_converted_rows(
// CHECK: {{^  }}tc_capped_converted_rows_0_launch(
void capped_converted_rows(std::size_t M, unsigned R, std::size_t N, std::size_t K,
                           const __half *__restrict__ A, const __half *__restrict__ B,
                           float *__restrict__ C) {
#pragma tc
  for (std::size_t i = 0; i < std::min<std::size_t>(std::min<std::size_t>(M, 4096), R); ++i)
    for (std::size_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (std::size_t k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
