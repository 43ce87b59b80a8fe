// --warn-only reports a rejected region as a warning (with its note) and
// exits 0; the rejected region is still left as written and the others
// rewritten.
//
// RUN: rm -f %t.cu
// RUN: %tc-rewrite --warn-only %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error:
// RUN: FileCheck %s --input-file=%t.cu
// Without --warn-only the same file fails with an error.
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite %s -o %t.strict.cu 2>&1 | FileCheck %s --check-prefix=STRICT

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}static void tc_good_0_launch(
// CHECK:      {{^  }}tc_good_0_launch(M, N, K, A, B, C, 0);
// CHECK:      {{^}}void bad(
// CHECK:      {{^}}#pragma tc
// CHECK-NEXT: {{^}}  for (int i = 0; i < M; ++i)

#include <cuda_fp16.h>

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
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}warn-only.cu:[[@LINE+3]]:33: warning: non-affine operator '/' in a subscript or loop bound
        // DIAG: {{.*}}warn-only.cu:[[@LINE+2]]:33: note: subscripts and loop bounds must be sums
        // STRICT: {{.*}}warn-only.cu:[[@LINE+1]]:33: error: non-affine operator '/' in a subscript or loop bound
        acc += __half2float(A[i / 2 * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
