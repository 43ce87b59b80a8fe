// Narrow unsigned constants keep their values: `true` is 1, a template
// argument of type unsigned char 200 is 200 (not -56), an unsigned short
// 40000 is 40000 (not -25536); 200 + 40000 + 44 = 40244, and a constant's conversion is its
// converted value ((unsigned char)300 is 44). Each was sign-extended once:
// the launcher moved A's view to a negative row, or `M - Skip` counted
// M + 1 rows.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a %s --explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

constexpr unsigned short kRowOffset = 40000;

// CHECK-LABEL: static void tc_skip_rows_0_0_launch(
// CHECK: if (!(((M >= 2) && (N >= 1))))
// CHECK: A += (long long)(1) * (K) + (long long)(0);
// EXPLAIN: region tc_skip_rows_0_0 at
// EXPLAIN: operand A: a view at offset [1, 0]
template <bool Skip>
void skip_rows(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M - Skip; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i + true) * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
template void skip_rows<true>(int, int, int, const __half *, const __half *, float *);

// CHECK-LABEL: static void tc_offset_rows_0_0_launch(
// CHECK: A += (long long)((40000) + 244) * (K) + (long long)(0);
// EXPLAIN: region tc_offset_rows_0_0 at
// EXPLAIN: context: [M, N, K, kRowOffset] -> {  : kRowOffset = 40000 and
// EXPLAIN: operand A: a view at offset [kRowOffset + 244, 0]
template <unsigned char Offset>
void offset_rows(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i + Offset + kRowOffset + (unsigned char)300) * K + k]) *
               __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
template void offset_rows<200>(int, int, int, const __half *, const __half *, float *);
