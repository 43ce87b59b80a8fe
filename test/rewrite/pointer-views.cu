// Pointers into the arrays, as people write them: a row's pointer bound
// once in the region (`const __half *a{A + i * K};`, `float *c = C + i *
// N;`), `*(p + k)`, `&B[k * N]`, `(A + off)[k]`. Each is its array plus an offset
// (Extraction.cpp, pointerView): the same model, operands and kernels as
// the subscripts written out.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a --explain %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// EXPLAIN-LABEL: region tc_row_pointers_0
// EXPLAIN: A = A (row-major, leading dimension K), B = B (row-major, leading dimension N), inputs __half, accumulation float
// CHECK: {{^}}static void tc_row_pointers_0_launch(long long M, long long N, long long K, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}void row_pointers(
// CHECK: {{^  }}tc_row_pointers_0_launch(M, N, K, A, B, C, 0);
void row_pointers(int M, int N, int K, const __half *A, const __half *B, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i) {
    const __half *a{A + i * K};
    float *c = C + i * N;
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(a[k]) * __half2float(B[k * N + j]);
      c[j] = acc;
    }
  }
}

// A pointer bound to another: b is B's row k, then its element j.
// EXPLAIN-LABEL: region tc_dereferences_0
// EXPLAIN: A = A (row-major, leading dimension K), B = B (row-major, leading dimension N), inputs __half, accumulation float
// CHECK: {{^}}void dereferences(
// CHECK: {{^  }}tc_dereferences_0_launch(M, N, K, A, B, C, 0);
void dereferences(int M, int N, int K, const __half *A, const __half *B, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        const __half *row = &B[k * N];
        const __half *b = row + j;
        acc += __half2float(*(A + i * K + k)) * __half2float(*b);
      }
      *(C + i * N + j) = acc;
    }
}

// One-based subscripts through a shifted pointer, and an offset parameter.
// EXPLAIN-LABEL: region tc_shifted_0
// EXPLAIN: array A: __half, strides [K, 1]
// CHECK: {{^}}void shifted(
// CHECK: {{^  }}tc_shifted_0_launch(M, N, K, off, A, B, C, 0);
void shifted(int M, int N, int K, int off, const __half *A, const __half *B, float *C) {
#pragma tc
  for (int i = 1; i <= M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float((A - K)[i * K + k]) * __half2float((B + off)[k * N + j]);
      C[(i - 1) * N + j] = acc;
    }
}

// A pointer of the region that shadows a parameter is the array it is bound
// to: both operands are B (the parameter A is not read).
// EXPLAIN-LABEL: region tc_shadowing_0
// EXPLAIN: A = B (row-major, leading dimension N), B = B (row-major, leading dimension N), inputs __half, accumulation float
// CHECK: {{^}}void shadowing(
// CHECK: {{^  }}tc_shadowing_0_launch(N, B, C, 0);
void shadowing(int N, const __half *__restrict__ A, const __half *__restrict__ B,
               float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      const __half *A = B;
      float acc = 0.0f;
      for (int k = 0; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
