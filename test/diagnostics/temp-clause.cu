// The temp clause names arrays the region writes whose values are dead
// after it. A malformed list, a name given twice, an array the region does
// not access or only reads, and a region whose every output is named are
// errors at the name (or the clause); the region is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not='error:'
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

#define GEMM_NEST                                                              \
  for (int i = 0; i < M; ++i)                                                  \
    for (int j = 0; j < N; ++j) {                                              \
      float acc = 0.0f;                                                        \
      for (int k = 0; k < K; ++k)                                              \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);        \
      T[i * N + j] = acc;                                                      \
      C[i * N + j] = __float2half(T[i * N + j]);                               \
    }

void trailing_comma(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ T, __half *__restrict__ C) {
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+2]]:20: error: expected an array name in clause 'temp'
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+1]]:20: note: write temp(X) or temp(X, Y): the arrays the region writes whose values are dead after it
#pragma tc temp(T, )
  GEMM_NEST
}

void empty_list(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ T, __half *__restrict__ C) {
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+1]]:17: error: expected an array name in clause 'temp'
#pragma tc temp()
  GEMM_NEST
}

void named_twice(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ T, __half *__restrict__ C) {
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+2]]:20: error: 'T' is named twice in clause 'temp'
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+1]]:17: note: 'T' is first named here
#pragma tc temp(T, T)
  GEMM_NEST
}

void not_a_name(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ T, __half *__restrict__ C) {
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+1]]:18: error: expected ',' or ')' in clause 'temp'
#pragma tc temp(T[0])
  GEMM_NEST
}

void not_accessed(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ T, __half *__restrict__ C,
                  float *__restrict__ X) {
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+2]]:20: error: temp(X): 'X' is not an array the region accesses
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+1]]:20: note: name the arrays that are dead after the region
#pragma tc temp(T, X)
  GEMM_NEST
}

void read_only(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ T, __half *__restrict__ C) {
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+2]]:17: error: temp(A): the region only reads 'A'
  // DIAG: {{.*}}temp-clause.cu:[[@LINE+1]]:17: note: temp(...) names arrays the region writes whose values are dead after it; their stores are left out
#pragma tc temp(A)
  GEMM_NEST
}

void every_output(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ T, __half *__restrict__ C) {
#pragma tc temp(T, C)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}temp-clause.cu:[[@LINE+2]]:9: error: every array the region writes is named in temp(...)
        // DIAG: {{.*}}temp-clause.cu:[[@LINE+1]]:9: note: nothing would be stored; remove the live-out array from temp(...)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      T[i * N + j] = acc;
      C[i * N + j] = __float2half(T[i * N + j]);
    }
}
