// A factor of the product outside its two operands multiplies the whole sum
// in the epilogue, so it must not vary along k: a loop iterator in it (a
// weight by position, a condition on k, a local computed from k) is
// rejected, also where a file-scope variable of the same name would make
// the epilogue's text compile (it would compute k_file * sum, not the sum
// of k * products). Every region is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

constexpr int k = 7;

void weighted_by_k(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}factor-iterators.cu:[[@LINE+2]]:9: error: a factor of the product uses the loop iterator 'k'
        // DIAG: {{.*}}factor-iterators.cu:[[@LINE+1]]:9: note: a factor outside the two operands multiplies the whole sum: it may use literals, scalars and arrays indexed by the output's row or column, not the loop iterators
        acc += (float)k * __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void condition_on_k(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}factor-iterators.cu:[[@LINE+1]]:9: error: a factor of the product uses the loop iterator 'k'
        acc += __half2float(A[i * K + k]) * (__half2float(B[k * N + j]) * (k < 4 ? 2.0f : 1.0f));
      C[i * N + j] = acc;
    }
}

void local_from_k(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int kk = 0; kk < K; ++kk) {
        float w = (float)(kk + 1);
        // DIAG: {{.*}}factor-iterators.cu:[[@LINE+1]]:9: error: a factor of the product uses the loop iterator 'kk'
        acc += w * __half2float(A[i * K + kk]) * __half2float(B[kk * N + j]);
      }
      C[i * N + j] = acc;
    }
}

// An output iterator is no better: the epilogue has none of the source's.
void weighted_by_row(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}factor-iterators.cu:[[@LINE+1]]:9: error: a factor of the product uses the loop iterator 'i'
        acc += (float)i * __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
