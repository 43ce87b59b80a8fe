// A pragma of another tool that applies to the statement after it, next to
// a region's '#pragma tc' (before it, or between it and its loop), would
// apply to the launch that replaces the loop: refused at that pragma, with
// OpenMP parsed or not. Pragmas of the file (diagnostics, messages) and
// code between them are no such neighbours (the accepted forms:
// test/rewrite/statement-pragmas.cu). The file is left as written.
//
// RUN: rm -f %t.cu %t-omp.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu
// RUN: not %tc-rewrite %s -o %t-omp.cu -- -fopenmp 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t-omp.cu

#include <cuda_fp16.h>

void omp_before(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
#pragma omp parallel for
  // the pragma applies to the loop below, across this comment

#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: statement-pragmas.cu:[[@LINE-12]]:1: error: '#pragma omp' applies to the loop that the '#pragma tc' region after it replaces
// DIAG-NEXT: #pragma omp parallel for
// DIAG: note: the region becomes a kernel launch, to which the directive cannot apply: remove the directive, or remove '#pragma tc' to keep the loop

void unroll_between(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
#pragma unroll 2
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: statement-pragmas.cu:[[@LINE-9]]:1: error: '#pragma unroll' applies to the loop that the '#pragma tc' region before it replaces

void clang_loop_between(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
#pragma GCC diagnostic ignored "-Wunused"
  #  pragma   clang loop vectorize(enable)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// DIAG: statement-pragmas.cu:[[@LINE-9]]:3: error: '#pragma clang loop' applies to the loop that the '#pragma tc' region before it replaces

void acc_block(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma acc parallel loop
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
  }
}
// DIAG: statement-pragmas.cu:[[@LINE-12]]:1: error: '#pragma acc' applies to the loop that the '#pragma tc' region after it replaces

