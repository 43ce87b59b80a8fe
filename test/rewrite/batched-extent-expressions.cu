// A batch loop whose trip count is an expression (`b < BATCH - 1`,
// `b0 <= b < b1`): the launch takes the count as the batch's entries, and
// the entries' offset (b0) goes into the operands' views and the epilogue's
// subscripts. (The launch computes the tiles, the grid and split-K's
// workspace from the count: tc::sm80::launch_batched_gemm.) Pasted bare
// into a product, `BATCH - 1 * tc_splits` once launched too few blocks.
//
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// CHECK-LABEL: {{^}}static void tc_all_but_last_0_launch(
// CHECK: {{^}}  if (!((((BATCH >= 2) && (M >= 1)) && (N >= 1))))
// CHECK: {{^}}  tc::report_status(tc::sm80::launch_batched_gemm<
// CHECK: {{^ *}}BATCH - 1, M, N, {
// CHECK-NEXT: {{^ *}}{{[{][{]}}A, K}, {B, N}, K, M * K, N * K}},
void all_but_last(int BATCH, int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int b = 0; b < BATCH - 1; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * K + k]) * __half2float(B[(b * K + k) * N + j]);
        C[(b * M + i) * N + j] = acc;
      }
}

// batch_range's epilogue functor (defined before its launch): entry
// tc_batch is b0 + tc_batch of C.
// CHECK-LABEL: {{^}}struct tc_batch_range_0_epilogue {
// CHECK: {{^}}    C[(long long)(b0 + (tc_batch)) * (M * N) + (long long)((tc_m)) * (N) + ((tc_n))] = tc_value;
// CHECK: {{^}}static void tc_batch_range_0_launch(
// CHECK: {{^}}  A += (long long)(b0) * (M * K)
// CHECK: {{^}}  B += (long long)(b0) * (N * K)
// CHECK: {{^ *}}-b0 + b1, M, N, {
void batch_range(int b0, int b1, int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int b = b0; b < b1; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * K + k]) * __half2float(B[(b * K + k) * N + j]);
        C[(b * M + i) * N + j] = acc;
      }
}
