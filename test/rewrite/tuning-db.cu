// --tuning-db: the launcher lists, per GPU and shape bucket, the kernel
// measured fastest for a region of its kind (docs/tuning.md), and passes
// the table to tc::choose_kernel. In the database (Inputs/tuning-db.json):
// two H200 shapes of bucket (24, 24, 24), where `wide` has the least
// geometric-mean time (1.011 ms) though `wide192` was fastest at 4096^3;
// one H100 shape where `wide` did not run (-1), so `default` is taken; and
// a bf16 region's entry, another key, which this region does not take.
// Without a database there is no table, and the measuring statement is
// there under TC_TUNING either way. It saves and puts back what the region
// reads from before it and writes: nothing in `gemm` (C = A * B, which
// each kernel computes again), C in `accumulate` (C += A * B).
//
// RUN: %tc-rewrite --arch=sm_90a %s --tuning-db=%S/Inputs/tuning-db.json -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --check-prefixes=CHECK,TUNED
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.plain.cu
// RUN: FileCheck %s --input-file=%t.plain.cu --check-prefixes=CHECK,PLAIN
// RUN: %tc-rewrite --arch=sm_90a %s --tuning-db=%S/Inputs/tuning-db.json --explain 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXPLAIN
// A file that defines TC_TUNING itself keeps it over the generated code
// (TC_* configure it; other macros of the user's are set aside there):
// RUN: echo '#define TC_TUNING 1' > %t.defined.cu && cat %s >> %t.defined.cu
// RUN: %tc-rewrite --arch=sm_90a %t.defined.cu -o %t.defined.tc.cu
// RUN: FileCheck %s --input-file=%t.defined.tc.cu --check-prefix=DEFINED
// DEFINED-NOT: {{^}}#pragma push_macro("TC_TUNING")
// DEFINED: {{^}}#ifdef TC_TUNING
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -DTC_TUNING \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// CHECK: {{^}}#ifdef TC_TUNING
// CHECK-NEXT: // A tuning run (tc/tuning.cuh): the first launch of a shape's bucket
// CHECK-NEXT: // times each kernel on the region's arrays, then runs as usual.
// CHECK-NEXT: if (tc::tuning::measures("sm_90a f16.row f16.row -> f32 #b5c8ff0d", M, N, K, tc_stream))
// CHECK-NEXT: tc::tuning::measure("sm_90a f16.row f16.row -> f32 #b5c8ff0d", {"default", "skinny", "fitted", "wide192", "wide", "narrow_deep"},
// CHECK-NEXT: M, N, K, tc_stream,
// CHECK-NEXT: {},
// CHECK-NEXT: [&] { tc_gemm_0_launch(M, N, K, A, B, C, tc_stream); });
// CHECK-NEXT: #endif
// TUNED: {{^}}  static constexpr tc::TunedKernel tc_tuned[] = {
// TUNED-NEXT: {"NVIDIA H100 80GB HBM3", 18, 26, 24, -1},  // default
// TUNED-NEXT: {"NVIDIA H200", 24, 24, 24, 3},  // wide
// TUNED-NEXT: };
// TUNED-NEXT: switch (tc::choose_kernel(M, N, K, 1, tc_candidates, tc_tuned, tc::named(tc_facts.device), tc_facts.options)) {
// PLAIN-NOT: tc_tuned
// PLAIN: {{^}}  switch (tc::choose_kernel(M, N, K, 1, tc_candidates, tc_facts.device, tc_facts.options)) {

// EXPLAIN: tuning: measurements filed under 'sm_90a f16.row f16.row -> f32 #b5c8ff0d', of the kernels default, skinny, fitted, wide192, wide, narrow_deep
// EXPLAIN-NEXT: measured on NVIDIA H100 80GB HBM3, shape buckets (18, 26, 24): default, 0.2 ms (geometric mean over 1 shape)
// EXPLAIN-NEXT: measured on NVIDIA H200, shape buckets (24, 24, 24): wide, 1.011 ms (geometric mean over 2 shapes)
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

// CHECK-LABEL: {{^}}static void tc_accumulate_0_launch(
// CHECK:      {{^}}        {tc::accessed_bytes(C, sizeof(*C), {{[{][{]}}0, (M - 1), N}, {0, (N - 1), 1}})},
// CHECK-NEXT: {{^}}        [&] { tc_accumulate_0_launch(M, N, K, C, A, B, tc_stream); });
void accumulate(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
                float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}
