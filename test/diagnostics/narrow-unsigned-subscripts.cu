// A part of a subscript that the source computes in 32-bit unsigned
// arithmetic, beside a part that may be negative: the launcher's test of
// the whole subscript's range (tc/subscript_range.cuh) would not bound the
// part, whose wrap then goes unseen. The file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

// A signed stride converted to unsigned in the row's offset.
void signed_stride(unsigned M, unsigned N, unsigned K, int lda, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      const __half *a = A + i * lda;
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(a[k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: narrow-unsigned-subscripts.cu:[[@LINE-7]]:31: error: 'i * lda' of a subscript of 'A' may be negative beside a part computed in 32-bit unsigned arithmetic
// DIAG: note: the kernels compute subscripts in 64-bit integers, and the launcher tests that a whole subscript computed unsigned does not wrap, not each part of one; compute the subscript in one type, e.g. '(size_t)i * lda + k'

// A signed offset beside the row's unsigned one.
void signed_offset(unsigned M, unsigned N, unsigned K, int off, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      const __half *a = A + i * K;
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(a[k + off]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: narrow-unsigned-subscripts.cu:[[@LINE-4]]:33: error: 'k + off' of a subscript of 'A' may be negative beside a part computed in 32-bit unsigned arithmetic
