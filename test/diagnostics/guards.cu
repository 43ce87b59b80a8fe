// Guards and triangular nests that no kernel can honour
// (model/OperandMasks.h, model/DomainBox.h), and `if`s that are no
// guards: each is diagnosed at the construct, and the file is left exactly as
// written. The accepted forms: test/rewrite/triangular-and-guarded.cu.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not='error:'
// RUN: diff %s %t.cu
#include <cuda_fp16.h>

void guard_else(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
                float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      if (i <= j)
        C[i * N + j] = acc;
      // DIAG: {{.*}}guards.cu:[[@LINE+2]]:7: error: an 'if' around statements may not have an 'else'
      // DIAG: {{.*}}guards.cu:[[@LINE+1]]:7: note: an 'if' that stores is a guard: its statements run where the condition holds; write the other branch as a guard of its own or select values with '?:'
      else
        C[i * N + j] = 0.0f;
    }
}

void guard_not_equal(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      // DIAG: {{.*}}guards.cu:[[@LINE+2]]:11: error: '!=' in the condition of an 'if' around statements
      // DIAG: {{.*}}guards.cu:[[@LINE+1]]:11: note: a guard is a conjunction ('&&') of comparisons ('<', '<=', '>', '>=', '==') of iterators and sizes; a condition on values goes inside the computed value, with '?:' or fmaxf
      if (i != j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

void guard_or(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
              float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      // DIAG: {{.*}}guards.cu:[[@LINE+2]]:11: error: '||' in the condition of an 'if' around statements
      // DIAG: {{.*}}guards.cu:[[@LINE+1]]:11: note: a guard is a conjunction ('&&') of comparisons ('<', '<=', '>', '>=', '==') of iterators and sizes; a condition on values goes inside the computed value, with '?:' or fmaxf
      if (i < 4 || j < 4) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

void guard_on_value(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}guards.cu:[[@LINE+2]]:11: error: the condition of an 'if' around statements must compare iterators and sizes
      // DIAG: {{.*}}guards.cu:[[@LINE+1]]:11: note: a guard is a conjunction ('&&') of comparisons ('<', '<=', '>', '>=', '==') of iterators and sizes; a condition on values goes inside the computed value, with '?:' or fmaxf
      if (acc > 0.0f)
        C[i * N + j] = acc;
    }
}

void guard_row_column_k(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        if (k < i + j)
          // DIAG: {{.*}}guards.cu:[[@LINE+2]]:11: error: the condition 'i + j - k - 1 >= 0' of the reduction relates the output row 'i', column 'j' and 'k' at once
          // DIAG: {{.*}}guards.cu:[[@LINE+1]]:11: note: a guard of the product masks one operand: it may name 'k' with the row (A's) or with the column (B's), not with both
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void guard_reduction_only(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      // DIAG: {{.*}}guards.cu:[[@LINE+2]]:7: error: the statement runs on other output elements than the reduction
      // DIAG: {{.*}}guards.cu:[[@LINE+1]]:7: note: guard the initialisation, the reduction and the stores of an output element alike
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        if (i <= j)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void guard_sum(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
               const __half *__restrict__ P, const __half *__restrict__ Q, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = i; k < K; ++k)
        // DIAG: {{.*}}guards.cu:[[@LINE+2]]:9: error: a guarded statement in a sum of matmuls
        // DIAG: {{.*}}guards.cu:[[@LINE+1]]:9: note: guards and triangular loops are supported for one product; write each product as a region of its own
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      for (int k = 0; k < K; ++k)
        acc += __half2float(P[i * K + k]) * __half2float(Q[k * N + j]);
      C[i * N + j] = acc;
    }
}

void conjunction_direction(int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: {{.*}}guards.cu:[[@LINE+2]]:32: error: each part of a loop condition joined by '&&' must bound the iterator from above
      // DIAG: {{.*}}guards.cu:[[@LINE+1]]:32: note: write 'i < upper && i <= other'
      for (int k = 0; k < K && k >= i; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void unsigned_difference(unsigned M, unsigned N, unsigned K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j)
      // DIAG: {{.*}}guards.cu:[[@LINE+2]]:11: error: 'i - 1' is computed unsigned and may be negative in the condition of an 'if' around statements
      // DIAG: {{.*}}guards.cu:[[@LINE+1]]:11: note: there the source wraps it to a large value; compare signed values, or move the subtracted term to the other side
      if (i - 1 < j) {
        float acc = 0.0f;
        for (unsigned k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

void box_min(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
             float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: {{.*}}guards.cu:[[@LINE+2]]:7: error: the bounds of loop 'k' over the region are not one affine function of the sizes
      // DIAG: {{.*}}guards.cu:[[@LINE+1]]:7: note: a triangular loop runs over the box of its iterations with a mask; its smallest and largest iteration over the region must be affine in the sizes (without min or max), here [M, N, K] -> { [k] : N > 0 and 0 <= k < K and k <= -2 + M }
      for (int k = 0; k < i; ++k)
        if (k < K)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void never_runs(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
                float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (i < 0) {
        // DIAG: {{.*}}guards.cu:[[@LINE+2]]:9: error: this statement never runs: its loops' bounds and conditions hold for no sizes
        // DIAG: {{.*}}guards.cu:[[@LINE+1]]:9: note: its domain is [M, N, K] -> { S0[i, j] : false }; check the conditions of the enclosing 'if's and loops
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// Odd rows with a triangular column: the columns of B a row reads are
// j <= 2 * i + 1 over the counted i, a set with an integer division.
void strided_rows_triangle(int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 1; i < M; i += 2)
    for (int j = 0; j <= i && j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}guards.cu:[[@LINE+2]]:9: error: the elements of operand 'B' that the loops read are not one polyhedron
        // DIAG: {{.*}}guards.cu:[[@LINE+1]]:9: note: {{.*}} without the unions or integer divisions a step beside another loop's bound gives; within the box they are [M, N, K] -> { [j, k] : {{.*}}floor{{.*}} }
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
