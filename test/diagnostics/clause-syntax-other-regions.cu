// A malformed clause rejects its own region only: the file is still
// written, that region left exactly as written, and the other regions of
// the file rewritten (README: "the region is left exactly as written;
// other regions of the file are still rewritten").
//
// Fails: a clause error is a Clang error during preprocessing, so the
// whole file counts as not parsing: "tc-rewrite: 'clause-syntax-other-
// regions.cu' was not rewritten because it does not parse", and no -o
// output is written at all.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --input-file=%t.cu

// DIAG:     {{.*}}clause-syntax-other-regions.cu:{{[0-9]+}}:12: error: unknown clause 'tiles' in '#pragma tc'
// DIAG-NOT: does not parse

#include <cuda_fp16.h>
// CHECK:      {{^}}#include <tc/tc.cuh>

// The good region becomes a launch.
// CHECK:      {{^}}static void tc_good_0_launch(
// CHECK:      {{^}}void good(
// CHECK-NEXT: {{^}}          const __half *__restrict__ B, __half *__restrict__ C) {
// CHECK-NEXT: {{^  }}// '#pragma tc' region computed by tc_good_0_launch (tc-rewrite)
// CHECK-NEXT: {{^  }}tc_good_0_launch(M, N, K, A, B, C, 0);
// CHECK-NEXT: {{^}}}

// The bad region stays as written, pragma included.
// CHECK:      {{^}}void bad(
// CHECK-NEXT: {{^}}         const __half *__restrict__ B, __half *__restrict__ C) {
// CHECK-NEXT: {{^}}#pragma tc tiles(128, 128, 32)
// CHECK-NEXT: {{^}}  for (int i = 0; i < M; ++i)
// CHECK-NEXT: {{^}}    for (int j = 0; j < N; ++j) {
// CHECK-NEXT: {{^}}      float acc = 0.0f;
// CHECK-NEXT: {{^}}      for (int k = 0; k < K; ++k)
// CHECK-NEXT: {{^}}        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
// CHECK-NEXT: {{^}}      C[i * N + j] = __float2half(acc);
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}}

void good(int M, int N, int K, const __half *__restrict__ A,
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

void bad(int M, int N, int K, const __half *__restrict__ A,
         const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tiles(128, 128, 32)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
