// Index helpers that are not read in place of their call (the accepted
// ones: test/rewrite/index-helpers.cu): a body that reads a variable
// other than its parameters (its value at the launch would stand for the
// one at each call), one that narrows, one without a body in the file,
// a recursive one, an unsigned subtraction (which wraps where the
// integers' value is negative), a member call (dispatched on an object
// that is not read: virtually, perhaps), and an argument with effects
// (read as often as the body names it). The file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

int g_offset = 0;
inline int with_global(int r, int c, int ld) { return r * ld + c + g_offset; }
inline short narrowing(int r, int c, int ld) { return r * ld + c; }
int declared_only(int r, int c, int ld);
inline int recursive(int r) { return recursive(r - 1) + 1; }
inline long long shifted(unsigned m, unsigned c) { return m - c; }
struct Layout {
  virtual int at(int r, int c, int ld) const { return r * ld + c; }
};
int next_column();

#define GEMM(A_INDEX)                                                                         \
  for (int i = 0; i < M; ++i)                                                                 \
    for (int j = 0; j < N; ++j) {                                                             \
      float acc = 0.0f;                                                                       \
      for (int k = 0; k < K; ++k)                                                             \
        acc += __half2float(A[A_INDEX]) * __half2float(B[k * N + j]);                         \
      C[i * N + j] = acc;                                                                     \
    }

void reads_global(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(with_global(i, k, K))
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}

void narrows(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(narrowing(i, k, K))
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}

void no_body(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(declared_only(i, k, K))
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}

void recurses(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(recursive(i) * K + k)
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}

void unsigned_subtraction(unsigned M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (long long i = shifted(M, 4); i < M; ++i)
    // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: 'shifted' computes 'm - c' in 32-bit unsigned arithmetic and returns another type: a wrap there would not be seen at the call
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void member_call(int M, int N, int K, const Layout &L, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(L.at(i, k, K))
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}

void argument_effects(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
  auto at = [](int r, int c, int ld, int unused) { return r * ld + c; };
#pragma tc
  GEMM(at(i, k, K, next_column()))
  // DIAG: index-helpers.cu:[[@LINE-1]]:{{[0-9]+}}: error: a function call in a subscript or loop bound
}
