// --line-directives where the user's code goes on after a region on the
// region's last line: that code would share the launch's output line, and
// its number. It goes on a line of its own, at its column, after a
// directive that gives it its source line (the only text of the rewrite
// besides whole #line lines that --line-directives adds). A comment after
// the region adds nothing.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %tc-rewrite %s -o %t/out.cu --line-directives
// RUN: FileCheck %s --input-file=%t/out.cu
// RUN: %clangxx -fsyntax-only -std=c++17 -xcuda --cuda-host-only --cuda-path=%cuda-path --cuda-gpu-arch=sm_90a -Wno-unknown-cuda-version -I%tc-include %t/out.cu
//
// CHECK: {{^}}  tc_trailing_code_0_launch(
// CHECK-NEXT: {{^}}#line 36 "{{.*}}line-directives-trailing-code.cu"
// CHECK-NEXT: {{^}}     static_assert(__LINE__ == 36, "on the region's last line");
// CHECK-NEXT: {{^}}  static_assert(__LINE__ == 37, "after it");
// CHECK: {{^}}  tc_trailing_comment_0_launch(
// CHECK-NEXT: {{^}}#line 50 "{{.*}}line-directives-trailing-code.cu"
// CHECK-NEXT: {{^}}  static_assert(__LINE__ == 50, "after a comment");
// CHECK: {{^}}  tc_trailing_splice_0_launch(
// CHECK-NEXT: {{^}}#line 63 "{{.*}}line-directives-trailing-code.cu"
// CHECK: {{^}}  tc_trailing_long_comment_0_launch(
// CHECK-NEXT: {{^}}#line 76 "{{.*}}line-directives-trailing-code.cu"

#include <cuda_fp16.h>

void trailing_code(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    } static_assert(__LINE__ == 36, "on the region's last line");
  static_assert(__LINE__ == 37, "after it");
}

void trailing_comment(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    } /* done */ // with the row
  static_assert(__LINE__ == 50, "after a comment");
}

// After a splice, and after a comment that ends on a later line.
void trailing_splice(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    } \
  static_assert(__LINE__ == 64, "after a splice");
}

void trailing_long_comment(int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    } /* a comment
    over two lines */ static_assert(__LINE__ == 77, "after the comment");
}
