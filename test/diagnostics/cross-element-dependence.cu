// The output read at another position creates a dependence between
// different output elements, which forbids computing them in parallel.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

// The epilogue reads the row below, which another iteration writes.
void epilogue_reads_neighbour(int M, int N, int K, const __half *__restrict__ A,
                              const __half *__restrict__ B,
                              float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}cross-element-dependence.cu:[[@LINE+2]]:7: error: a dependence crosses output elements, which forbids the parallel mapping
      // DIAG: {{.*}}cross-element-dependence.cu:[[@LINE+1]]:7: note: each output element must be computed independently of the others (check for an output read at another position)
      C[i * N + j] = acc + C[(i + 1) * N + j];
    }
}

// The initialisation reads the element below.
void init_reads_neighbour(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = C[(i + 1) * N + j];
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}cross-element-dependence.cu:{{[0-9]+}}:{{[0-9]+}}: error: a dependence crosses output elements, which forbids the parallel mapping
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}

// The reduction multiplies by another element of its own output.
void reduction_reads_neighbour(int M, int N, int K,
                               const __half *__restrict__ A,
                               const __half *__restrict__ B,
                               float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}cross-element-dependence.cu:[[@LINE+1]]:25: error: the accumulator is read inside its own product
        C[i * N + j] += C[(i + 1) * N + j] * __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// The operands are written by the region.
void writes_operand(int M, int N, int K, __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
      // DIAG: {{.*}}cross-element-dependence.cu:[[@LINE+2]]:7: error: the region writes operand 'A'
      // DIAG: {{.*}}cross-element-dependence.cu:[[@LINE+1]]:7: note: operands of the matmul must be read-only in the region
      A[i * K + j] = __float2half(acc);
    }
}
