// Names of a structured binding (`auto &[A, B, C, M, N, K] = p;`) are not
// variables the launch could pass: the error names the binding, and the
// note the member it binds. Sizes, arrays and values alike; each region
// is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

struct Args {
  const __half *A, *B;
  float *C;
  int M, N, K;
  float alpha;
};

void size(const Args &p) {
  auto &[A, B, C, M, N, K, alpha] = p;
#pragma tc
  // DIAG: {{.*}}structured-bindings.cu:[[@LINE+2]]:23: error: 'M' is a structured binding
  // DIAG: {{.*}}structured-bindings.cu:[[@LINE+1]]:23: note: name the member it binds ('p.M'), or copy it into a variable before the region
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < p.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < p.K; ++k)
        acc += __half2float(p.A[i * p.K + k]) * __half2float(p.B[k * p.N + j]);
      p.C[i * p.N + j] = acc;
    }
}

void array(const Args &p) {
  auto &[A, B, C, M, N, K, alpha] = p;
#pragma tc
  for (int i = 0; i < p.M; ++i)
    for (int j = 0; j < p.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < p.K; ++k)
        // DIAG: {{.*}}structured-bindings.cu:[[@LINE+1]]:29: error: 'A' is a structured binding
        acc += __half2float(A[i * p.K + k]) * __half2float(p.B[k * p.N + j]);
      p.C[i * p.N + j] = acc;
    }
}

void value(const Args &p) {
  auto &[A, B, C, M, N, K, alpha] = p;
#pragma tc
  for (int i = 0; i < p.M; ++i)
    for (int j = 0; j < p.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < p.K; ++k)
        acc += __half2float(p.A[i * p.K + k]) * __half2float(p.B[k * p.N + j]);
      // DIAG: {{.*}}structured-bindings.cu:[[@LINE+1]]:26: error: 'alpha' is a structured binding
      p.C[i * p.N + j] = alpha * acc;
    }
}
