// Statements after the reduction that are not a value of the output
// element: an `if` that assigns two variables, a local read before it is
// assigned, an update of the accumulator followed by another reduction
// into it, a local whose value reads an array element the region stores
// before the local is used (its value would be read after the store), and
// a chain of `if`s whose value grows past the bound on substitutions. Each
// is rejected, and the file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void if_two_variables(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f, lo = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+2]]:11: error: the condition of an 'if' around statements must compare iterators and sizes
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+1]]:11: note: a guard is a conjunction ('&&') of comparisons ('<', '<=', '>', '>=', '==') of iterators and sizes; a condition on values goes inside the computed value, with '?:' or fmaxf
      if (acc < 0.0f) lo = acc; else acc = 0.0f;
      C[i * N + j] = acc + lo;
    }
}

void read_before_assigned(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      float scale;
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+2]]:28: error: 'scale' is read before it is assigned
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+1]]:28: note: initialise the variable where it is declared
      C[i * N + j] = acc * scale;
      scale = 2.0f;
    }
}

void update_between_reductions(int M, int N, int K, const __half *__restrict__ A,
                               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // A store of acc, as the second reduction continues from it.
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+2]]:7: error: statement between the products of a sum of matmuls
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+1]]:7: note: initialise before the first product and consume the sum after the last
      acc *= 0.5f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void value_read_after_store(int M, int N, int K, const __half *__restrict__ A,
                            const __half *__restrict__ B, float *__restrict__ C,
                            __half *__restrict__ D) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+2]]:14: error: 'C' is stored to between this read and a use of the local value that reads it
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+1]]:14: note: use the value before the store, or keep it in an array named in temp(...)
      acc += C[i * N + j];
      C[i * N + j] = acc;
      D[i * N + j] = __float2half(acc);
    }
}

void if_chain_too_large(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc;
      if (v > 1.0f) v = v - 1.0f;
      if (v > 1.0f) v = v - 1.0f;
      if (v > 1.0f) v = v - 1.0f;
      if (v > 1.0f) v = v - 1.0f;
      if (v > 1.0f) v = v - 1.0f;
      if (v > 1.0f) v = v - 1.0f;
      if (v > 1.0f) v = v - 1.0f;
      if (v > 1.0f) v = v - 1.0f;
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+2]]:7: error: the statement's value is too large once the locals it reads are substituted
      // DIAG: {{.*}}epilogue-statements.cu:[[@LINE+1]]:7: note: store intermediate values in an array named in temp(...)
      C[i * N + j] = v;
    }
}
