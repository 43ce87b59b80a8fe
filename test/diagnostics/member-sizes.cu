// Sizes read from members that the region cannot take (the accepted
// forms: test/rewrite/member-sizes.cu): a member that is not an integer, a
// static data member without a constant value (its name alone would not
// find it at the launch), and a member of a function's result. The file is
// left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

struct Shape {
  int m, n, k;
  float scale;
  static int rows;
};
Shape make_shape();

void float_member(Shape s, const __half *__restrict__ A, const __half *__restrict__ B,
                  float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < s.scale; ++i)
// DIAG: member-sizes.cu:[[@LINE-1]]:25: error: 's.scale' is not an integer
// DIAG: member-sizes.cu:[[@LINE-2]]:25: note: subscripts and loop bounds must be sums of loop iterators
    for (int j = 0; j < s.n; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < s.k; ++k)
        acc += __half2float(A[i * s.k + k]) * __half2float(B[k * s.n + j]);
      C[i * s.n + j] = acc;
    }
}

void static_member(Shape s, const __half *__restrict__ A, const __half *__restrict__ B,
                   float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < s.rows; ++i)
// DIAG: member-sizes.cu:[[@LINE-1]]:25: error: 'rows' is a static data member without a constant value
// DIAG: member-sizes.cu:[[@LINE-2]]:25: note: read it into a local variable before the region
    for (int j = 0; j < s.n; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < s.k; ++k)
        acc += __half2float(A[i * s.k + k]) * __half2float(B[k * s.n + j]);
      C[i * s.n + j] = acc;
    }
}

void call_member(const __half *__restrict__ A, const __half *__restrict__ B,
                 float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < make_shape().m; ++i)
// DIAG: member-sizes.cu:[[@LINE-1]]:23: error: a function call in a subscript or loop bound
    for (int j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        acc += __half2float(A[i * 64 + k]) * __half2float(B[k * 64 + j]);
      C[i * 64 + j] = acc;
    }
}
