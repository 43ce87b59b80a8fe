// One file, three regions: a rejected one between two good ones (one in
// the same function). The rejected region is diagnosed and left exactly as
// written; the others are still rewritten; the exit status is 1.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// Only the bad region is diagnosed (DIAG lines in function 'two').

#include <cuda_fp16.h>
// CHECK:      {{^}}#include <tc/tc.cuh>

// CHECK:      {{^}}static void tc_first_0_launch(
// CHECK:      {{^}}void first(
// CHECK:      {{^  }}tc_first_0_launch(M, N, K, C, A, B, 0);

// Kernels are numbered per function, rejected regions included.
// CHECK:      {{^}}static void tc_two_1_launch(
// CHECK-SAME: float *D
// CHECK:      {{^}}void two(
// CHECK:      {{^}}#pragma tc
// CHECK-NEXT: {{^}}  for (int i = 0; i < M; ++i)
// CHECK-NEXT: {{^}}    for (int j = 0; j < N; ++j)
// CHECK-NEXT: {{^}}      for (int k = 0; k < K; ++k)
// CHECK-NEXT: {{^}}        C[i * N + j] += __half2float(A[i / 2 * K + k]) * __half2float(B[k * N + j]);
// CHECK-NEXT: {{^  }}// '#pragma tc' region computed by tc_two_1_launch (tc-rewrite)
// CHECK-NEXT: {{^  }}tc_two_1_launch(M, N, K, D, A, B, 0);

void first(int M, int N, int K, const __half *__restrict__ A,
           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

void two(int M, int N, int K, const __half *__restrict__ A,
         const __half *__restrict__ B, float *__restrict__ C,
         float *__restrict__ D) {
  // DIAG: {{.*}}mixed-regions.cu:[[@LINE+6]]:42: error: non-affine operator '/' in a subscript or loop bound
  // DIAG-NOT: error:
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i / 2 * K + k]) * __half2float(B[k * N + j]);
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        D[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}
