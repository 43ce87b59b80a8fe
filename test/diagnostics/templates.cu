// Regions in templates that cannot be rewritten (the accepted forms:
// test/rewrite/templates.cu): an instantiation the kernels cannot serve
// (double operands; reported at the construct, with the instantiation's
// point), a template this file never instantiates, and two instantiations
// whose arrays would have the same types, and a generic lambda. Each region is
// left as written, for every instantiation.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

template <class T>
void gemm_t(int M, int N, int K, const T *__restrict__ A, const T *__restrict__ B,
            float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: templates.cu:[[@LINE+2]]:22: error: operand 'A' has element type 'double' (in the instantiation 'gemm_t<double>')
        // DIAG: templates.cu:[[@LINE+1]]:22: note: tensor-core operands must be __half or __nv_bfloat16
        acc += float(A[i * K + k]) * float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
template void gemm_t<__half>(int, int, int, const __half *, const __half *, float *);
// DIAG: templates.cu:[[@LINE+1]]:77: note: in the instantiation 'gemm_t<double>' requested here
void use(int M, int N, int K, const double *A, const double *B, float *C) { gemm_t(M, N, K, A, B, C); }

template <class T>
void never(int M, int N, int K, const T *__restrict__ A, const T *__restrict__ B,
           float *__restrict__ C) {
// DIAG: templates.cu:[[@LINE+2]]:1: error: '#pragma tc' region in a template that this file does not instantiate
// DIAG: note: the region is generated for each instantiation in the file
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += float(A[i * K + k]) * float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// The template parameter changes no array's type: the launchers would be
// told apart by nothing (nor by a scalar's type: an int converts to float
// and to long long equally well).
template <int Scale>
void scaled(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
            float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += float(A[i * K + k]) * float(B[k * N + j]);
      C[i * N + j] = Scale * acc;
    }
}
template void scaled<1>(int, int, int, const __half *, const __half *, float *);
// DIAG: templates.cu:[[@LINE+2]]:15: error: the instantiations 'scaled<1>' and 'scaled<2>' give the region's arrays the same types
// DIAG: templates.cu:{{[0-9]+}}:1: note: each instantiation's launcher overloads one name, told apart by the element types of the region's arrays
template void scaled<2>(int, int, int, const __half *, const __half *, float *);

// A generic lambda's `auto` parameters are not instantiated per call.
void generic_lambda(int M, int N, int K, const __half *a, float *c) {
  auto mm = [&](const auto *A, const auto *B, float *C) {
#pragma tc
    // DIAG: templates.cu:[[@LINE+2]]:5: error: a '#pragma tc' region in a generic lambda, whose 'auto' parameters have no types here
    // DIAG: note: give the lambda's parameters their types, or move the loop nest into a function template
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += (float)A[i * K + k] * (float)B[k * N + j];
        C[i * N + j] = acc;
      }
  };
  mm(a, a, c);
}
