// Strided loops (`i += 2`, `k += 3`, `k -= 2`): the model's iterator counts
// the iterations and the source's is start + step * it (frontend/
// LoopOrigins.h). Where the step divides the span's coefficients the bound
// is exact (`j < 2 * H`); otherwise the loop runs over a box with a guard
// (`M - 2 * i - 1 >= 0`), a mask of the operands or of the output
// (model/OperandMasks.h). A step scales the leading dimension of the
// arrays it strides (A[2i][k] is row i of a 2K-wide view); along an
// operand's contiguous dimension the copier gathers the elements. The refused
// forms: test/diagnostics/loop-forms.cu; the GPU check:
// test/gpu/regions/loops.cu.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a --explain %s 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// Every other row; the value reads the source's i.
// CHECK-LABEL: region of 'strided_rows'
// CHECK:       if (M - 2 * (tc_m) - 1 >= 0) {
// CHECK:       C[(long long)(2 * (tc_m)) * (N) + ((tc_n))] = (tc_value + (1e-3f * static_cast<float>(static_cast<float>((2 * (tc_m))))));
// EXPLAIN-LABEL: region tc_strided_rows_0
// EXPLAIN:       loop i: steps by 2 in the source; counts its iterations (the source's i is 2 * i)
// EXPLAIN:       domain: [M, N, K] -> { S1[i, j, k] : {{.*}}0 <= i < M and 2i < M and 0 <= j < N and 0 <= k < K }
// EXPLAIN:       A = A (row-major, leading dimension 2 * K, masked to M - 2 * i - 1 >= 0 while copying), B = B (row-major, leading dimension N)
// EXPLAIN:       output elements stored where M - 2 * i - 1 >= 0
void strided_rows(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc + 1e-3f * (float)i;
    }
}

// Every other column of a 2H-wide output: an exact bound, no guard.
// EXPLAIN-LABEL: region tc_strided_columns_0
// EXPLAIN:       loop j: steps by 2 in the source; counts its iterations (the source's j is 2 * j)
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = H, K = K
// EXPLAIN-NOT:   output elements stored where
void strided_columns(int M, int H, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < 2 * H; j += 2) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * 2 * H + j] = acc;
    }
}

// Every third k from 1: A stored K x M and B K x N, their rows 3k + 1.
// EXPLAIN-LABEL: region tc_strided_k_0
// EXPLAIN:       loop k: steps by 3 in the source; counts its iterations (the source's k is 3 * k + 1)
// EXPLAIN:       A = A (column-major, leading dimension 3 * M, masked to K - 3 * k - 2 >= 0 while copying), B = B (row-major, leading dimension 3 * N, masked to K - 3 * k - 2 >= 0 while copying)
void strided_k(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
               float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 1; k < K; k += 3)
        acc += __half2float(A[k * M + i]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// In place, every other row, scaled by beta first: the accumulator's rows
// 2i are the coordinates of both statements.
// EXPLAIN-LABEL: region tc_strided_in_place_0
// EXPLAIN:       output elements stored where M - 2 * i - 1 >= 0
void strided_in_place(int M, int N, int K, float beta, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] *= beta;
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
    }
}

// Every other k of a row-major A: A's k is its contiguous dimension, so the
// copier gathers every other element (and B's rows 2k are a 2N-wide view).
// CHECK-LABEL: region of 'even_k'
// CHECK:       tc_copy_a.element_stride = 2;
// EXPLAIN-LABEL: region tc_even_k_0
// EXPLAIN:       A = A (row-major, leading dimension K, elements 2 apart gathered while copying, masked to K - 2 * k - 1 >= 0 while copying), B = B (row-major, leading dimension 2 * N, masked to K - 2 * k - 1 >= 0 while copying)
void even_k(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
            float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; k += 2)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A strided loop named by an inner loop's start (`k = i` over even i): the
// step scales i once, also when the triangle is boxed and shifted again.
// EXPLAIN-LABEL: region tc_strided_triangle_0
// EXPLAIN:       domain: [M, N, K] -> { S1[i, j, k] : {{.*}}2i <= k < K }
// EXPLAIN:       masked to M - 2 * i - 1 >= 0 and -2 * i + k >= 0 while copying
void strided_triangle(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = i; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// The box of a triangle that starts at 1 over strided rows: the second
// shift moves the counted i by whole steps.
// EXPLAIN-LABEL: region tc_strided_offset_triangle_0
// EXPLAIN:       loop i: steps by 2 in the source
void strided_offset_triangle(int M, int N, int K, const __half *__restrict__ A,
                             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 1; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = i + 1; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
