// A part of a subscript that the source computes in 32-bit unsigned
// arithmetic, beside a part that may be negative: the launcher's test of
// the whole subscript's range (tc/subscript_range.cuh) would not bound the
// part, whose wrap then goes unseen. (A part that is a dimension's index,
// its term or the flat index of the inner dimensions is tested alone:
// test/rewrite.) The file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

// A mirrored column beside the next row's offset, `(size_t)(i + 1) * N -
// 1 - j`: the part computed unsigned, i + 1, is no dimension's index or
// term (the row is i), and the rest may be negative.
void next_row_mirrored(unsigned M, unsigned N, unsigned K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * N + j]);
      C[(size_t)(i + 1) * N - 1 - j] = acc;
    }
}
// DIAG: narrow-unsigned-subscripts.cu:[[@LINE-3]]:{{[0-9]+}}: error: '(size_t)(i + 1) * N - 1 - j' of a subscript of 'C' may be negative beside a part computed in 32-bit unsigned arithmetic
// DIAG: note: the kernels compute subscripts in 64-bit integers, and the launcher tests that a whole subscript computed unsigned does not wrap, not each part of one; compute the subscript in one type, e.g. '(size_t)i * lda + k'

// An index helper whose body computes in 32-bit unsigned arithmetic and
// returns a wider type: its wrap would happen inside the call, where the
// launcher's test of the call's value cannot see it, so the helper is not
// read.
inline size_t wide_idx(unsigned r, unsigned c, unsigned ld) { return r * ld + c; }

void helper_wraps_inside(unsigned M, unsigned N, unsigned K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[wide_idx(i, k, K)]) * __half2float(B[(size_t)k * N + j]);
      C[(size_t)i * N + j] = acc;
    }
}
// DIAG: narrow-unsigned-subscripts.cu:[[@LINE-4]]:{{[0-9]+}}: error: 'wide_idx' computes 'r * ld + c' in 32-bit unsigned arithmetic and returns another type: a wrap there would not be seen at the call
// DIAG: note: give the helper parameters of the type it returns ('size_t'), or let it return 'unsigned int', whose value the launcher then tests

// A value of iterators computed unsigned on the smaller side of a guard:
// its wrap makes the condition hold more often, for instances the model
// does not have, so no test of the model's domains covers it.
void guard_grows_on_wrap(unsigned M, unsigned N, unsigned K, unsigned U,
                         const __half *__restrict__ A, const __half *__restrict__ B,
                         float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j)
      if (i + U < j) {
        float acc = 0.0f;
        for (unsigned k = 0; k < K; ++k)
          acc += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * N + j]);
        C[(size_t)i * N + j] = acc;
      }
}
// DIAG: narrow-unsigned-subscripts.cu:[[@LINE-7]]:{{[0-9]+}}: error: 'i + U' of iterators is computed in 32-bit unsigned arithmetic, where it may wrap
// DIAG: note: the kernels compute bounds and conditions in 64-bit integers; compute it in a signed or 64-bit type
