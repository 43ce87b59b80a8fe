// A batch loop that only one operand reads: the other is shared by every
// batch (a layer's weights applied to a batch of sequences, Y[b][i][j] +=
// X[b][i][k] * W[k][j]). The batch is the loop of the batched operand's
// outermost subscript, whatever the loop order; the shared operand's
// batch stride is 0 (model/MatmulIdiom.cpp). GPU check:
// test/gpu/regions/loops.cu (loops_shared_weights).
//
// RUN: not %tc-rewrite %s -o %t.cu 2> %t.err
// RUN: FileCheck %s --input-file=%t.cu
// RUN: FileCheck %s --check-prefix=DIAG --input-file=%t.err
// RUN: not %tc-rewrite --explain %s 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// EXPLAIN-LABEL: region tc_shared_b_0 at
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K, batch loop b of Bt
// EXPLAIN-NEXT:  A = X (row-major{{.*}}), B = W (row-major, leading dimension N, shared by every batch)
// CHECK:         tc_copy_a.base = (X + (long long)tc_batch * (M * K));
// CHECK:         tc_copy_b.base = (W + (long long)tc_batch * (0));
// CHECK-LABEL:   {{^}}void shared_b(
// CHECK:         {{^ *}}tc_shared_b_0_launch(Bt, M, N, K, X, W, Y, 0);
void shared_b(int Bt, int M, int N, int K, const __half *__restrict__ X,
              const __half *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(X[(b * M + i) * K + k]) * __half2float(W[k * N + j]);
        Y[(b * M + i) * N + j] = acc;
      }
}

// The shared operand is A: C[b][i][j] = A[i][k] B[b][k][j].
// EXPLAIN-LABEL: region tc_shared_a_0 at
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K, batch loop b of Bt
// CHECK:         tc_copy_a.base = (A + (long long)tc_batch * (0));
// CHECK:         tc_copy_b.base = (B + (long long)tc_batch * (N * K));
// CHECK-LABEL:   {{^}}void shared_a(
void shared_a(int Bt, int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[(b * K + k) * N + j]);
        C[(b * M + i) * N + j] = acc;
      }
}

// The batch is the loop of X's outermost subscript, here the inner loop b;
// with X[(i * Bt + b) * K + k] it would be i.
// EXPLAIN-LABEL: region tc_rows_outside_0 at
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K, batch loop b of Bt
// EXPLAIN-LABEL: region tc_batch_of_rows_0 at
// EXPLAIN:       matmul over (b, j) reducing k: M = Bt, N = N, K = K, batch loop i of M
void rows_outside(int Bt, int M, int N, int K, const __half *__restrict__ X,
                  const __half *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int b = 0; b < Bt; ++b)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(X[(b * M + i) * K + k]) * __half2float(W[k * N + j]);
        Y[(b * M + i) * N + j] = acc;
      }
}
void batch_of_rows(int Bt, int M, int N, int K, const __half *__restrict__ X,
                   const __half *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(X[(i * Bt + b) * K + k]) * __half2float(W[k * N + j]);
        Y[(b * M + i) * N + j] = acc;
      }
}

// X's two output loops in one subscript: no batch, and no matrix.
// DIAG: batched-shared-operand.cu:[[@LINE+10]]:31: error: output loops 'b' and 'i' both index operand 'X' only, and neither is its batch
// DIAG: note: a batch loop indexes an operand's outermost subscript, upwards with a step of 1: X[(b * M + i) * K + k]
void no_batch(int Bt, int M, int N, int K, const __half *__restrict__ X,
              const __half *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(X[(b + i) * K + k]) * __half2float(W[k * N + j]);
        Y[(b * M + i) * N + j] = acc;
      }
}
