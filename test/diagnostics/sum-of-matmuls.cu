// Sums of matmuls the tool rejects: a statement between the products,
// products with different operand layouts, an operand prologue in a sum
// (in the first or in a later product), a second accumulator that
// subtracts. Each region is diagnosed and the file is left exactly as
// written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not='error:'
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void statement_between(int M, int N, int K1, int K2,
                       const __half *__restrict__ A1,
                       const __half *__restrict__ B1,
                       const __half *__restrict__ A2,
                       const __half *__restrict__ B2, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+2]]:7: error: statement between the products of a sum of matmuls
      // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+1]]:7: note: initialise before the first product and consume the sum after the last
      acc = acc * 2.0f;
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      C[i * N + j] = acc;
    }
}

// B column-major in the first product, row-major in the second.
void different_layouts(int M, int N, int K1, int K2,
                       const __half *__restrict__ A1,
                       const __half *__restrict__ B1,
                       const __half *__restrict__ A2,
                       const __half *__restrict__ B2, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+2]]:9: error: this product of the sum differs from the first in an operand layout
        // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+1]]:9: note: the products of a sum of matmuls share the output loops, element types, operand layouts and scalar factors; only K and the arrays may differ
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A ReLU prologue on A1 (first product): reported at the second product,
// where the region becomes a sum.
void prologue_first(int M, int N, int K1, int K2,
                    const __half *__restrict__ A1,
                    const __half *__restrict__ B1,
                    const __half *__restrict__ A2,
                    const __half *__restrict__ B2, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += fmaxf(__half2float(A1[i * K1 + k]), 0.0f) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+2]]:9: error: an operand prologue or 8-bit operand in a sum of matmuls
        // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+1]]:9: note: apply the prologue or conversion in a separate loop
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      C[i * N + j] = acc;
    }
}

// A ReLU prologue on B2 (second product).
void prologue_second(int M, int N, int K1, int K2,
                     const __half *__restrict__ A1,
                     const __half *__restrict__ B1,
                     const __half *__restrict__ A2,
                     const __half *__restrict__ B2, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+2]]:9: error: an operand prologue or 8-bit operand in a sum of matmuls
        // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+1]]:9: note: apply the prologue or conversion in a separate loop
        acc += __half2float(A2[i * K2 + k]) * fmaxf(__half2float(B2[j * K2 + k]), 0.0f);
      C[i * N + j] = acc;
    }
}

// Two accumulators, the second subtracting its products: not a further
// product of the sum, said at that reduction (not at the declaration).
void difference(int M, int N, int K1, int K2, const __half *__restrict__ A1,
                const __half *__restrict__ B1, const __half *__restrict__ A2,
                const __half *__restrict__ B2, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float a1 = 0.0f, a2 = 0.0f;
      for (int k = 0; k < K1; ++k)
        a1 += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+2]]:9: error: this product of the sum is subtracted and the first added
        // DIAG: {{.*}}sum-of-matmuls.cu:[[@LINE+1]]:9: note: the kernel adds the products of a sum of matmuls with one sign; subtract the whole sum, or compute the difference after the region
        a2 -= __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      C[i * N + j] = a1 + a2;
    }
}
