// Variables the launcher cannot take as the region names them: a qualified
// name (the launcher's parameters are the region's variables under their
// names alone, so `dims::M` would become the parameter `M` at the call)
// a volatile object (the kernels do not keep the order of its accesses)
// and a long double, a variable or a value (device code has none: nvcc takes it as double there,
// so a kernel argument of one is laid out otherwise). A qualified integer constant is folded to its value. The
// rejected regions stay as written.
//
// RUN: rm -f %t.cu %t.ok.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not='error:'
// RUN: diff %s %t.cu
// RUN: %tc-rewrite %s -o %t.ok.cu -extra-arg=-DFOLDED
// RUN: FileCheck %s --check-prefix=FOLDED --input-file=%t.ok.cu

#include <cuda_fp16.h>

namespace cfg {
constexpr int lda = 128;
constexpr int shift = 3;
constexpr float scale = 0.125f;
}  // namespace cfg
namespace dims {
int M = 256;
}
struct Opt {
  static float alpha;
};

#ifndef FOLDED
void qualified_bound(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
// DIAG: {{.*}}named-variables.cu:[[@LINE+2]]:23: error: 'dims::M' is named with a qualifier
// DIAG: {{.*}}named-variables.cu:[[@LINE+1]]:23: note: the generated launcher takes the region's variables by their names alone; copy it to a local variable before the region
  for (int i = 0; i < dims::M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void qualified_scalars(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C, float scale) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}named-variables.cu:[[@LINE+1]]:28: error: 'cfg::scale' is named with a qualifier
      C[i * N + j] = acc * cfg::scale + Opt::alpha;
    }
}

void volatile_output(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, volatile float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}named-variables.cu:[[@LINE+2]]:7: error: 'C' is volatile
      // DIAG: {{.*}}named-variables.cu:[[@LINE+1]]:7: note: the kernels do not keep the order of a volatile object's accesses; drop the qualifier or leave the loop without the pragma
      C[i * N + j] = acc;
    }
}

void long_double_scalar(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C, long double beta) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}named-variables.cu:[[@LINE+2]]:35: error: 'beta' is of type 'long double'
      // DIAG: {{.*}}named-variables.cu:[[@LINE+1]]:35: note: device code has no long double (nor __float128); convert it to double before the region
      C[i * N + j] = acc * 2.0f + beta;
    }
}

// A long double value without a variable of the type: a literal.
void long_double_literal(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}named-variables.cu:[[@LINE+2]]:26: error: 'acc * 1.1L' is of type 'long double'
      // DIAG: {{.*}}named-variables.cu:[[@LINE+1]]:26: note: device code has no long double (nor __float128); compute in double
      C[i * N + j] = acc * 1.1L;
    }
}
#else
// FOLDED: (tc_value * static_cast<float>(static_cast<float>(3)))
// FOLDED: tc_f_0_launch(M, N, A, B, C, 0);
void f(int M, int N, const __half *__restrict__ A, const __half *__restrict__ B,
       float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < cfg::lda; ++k)
        acc += __half2float(A[i * cfg::lda + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc * (float)cfg::shift;
    }
}
#endif
