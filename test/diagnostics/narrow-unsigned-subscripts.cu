// A part of a subscript that the source computes in 32-bit unsigned
// arithmetic, beside a part that may be negative: the launcher's test of
// the whole subscript's range (tc/subscript_range.cuh) would not bound the
// part, whose wrap then goes unseen. (A signed size in such a part is
// tested at launch instead: test/rewrite.) The file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

// A mirrored column through a row's pointer: `N - 1 - j` is computed
// unsigned beside the row's offset, and nothing here shows it is not
// negative (written as one subscript, C[i * N + (N - 1 - j)], it is tested
// whole).
void mirrored_part(unsigned M, unsigned N, unsigned K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      float *c = C + i * N;
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      c[N - 1 - j] = acc;
    }
}
// DIAG: narrow-unsigned-subscripts.cu:[[@LINE-3]]:15: error: 'N - 1 - j' of a subscript of 'C' may be negative beside a part computed in 32-bit unsigned arithmetic
// DIAG: note: the kernels compute subscripts in 64-bit integers, and the launcher tests that a whole subscript computed unsigned does not wrap, not each part of one; compute the subscript in one type, e.g. '(size_t)i * lda + k'
