// `_Pragma("tc")`, written or from a macro, may follow other code on its
// line: the replacement starts at the operator (or the macro holding it),
// so that the code before it stays, and a second rewrite changes nothing.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %tc-rewrite %t.cu -o %t.again.cu
// RUN: diff %t.cu %t.again.cu

#include <cuda_fp16.h>

#define TC _Pragma("tc")

void mid_line(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C, int *stage) {
  // CHECK:      {{^}}  *stage = 1; // '#pragma tc' region computed by tc_mid_line_0_launch (tc-rewrite)
  // CHECK-NEXT: {{^}}             tc_mid_line_0_launch(M, N, K, A, B, C, 0);
  *stage = 1; _Pragma("tc") for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
  // CHECK:      {{^}}  *stage = 2; // '#pragma tc' region computed by tc_mid_line_1_launch (tc-rewrite)
  // CHECK-NEXT: {{^}}             tc_mid_line_1_launch(M, N, K, A, B, C, 0);
  *stage = 2; TC for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
  // CHECK:      {{^}}  // '#pragma tc' region computed by tc_mid_line_2_launch (tc-rewrite)
  // CHECK-NEXT: {{^}}  tc_mid_line_2_launch(M, N, K, A, B, C, 0);
  // CHECK-NEXT: {{^}}  *stage = 3;
  TC for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
  *stage = 3;
}
