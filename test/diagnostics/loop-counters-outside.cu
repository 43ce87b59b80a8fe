// A loop counter declared before the region (`int i; ... for (i = 0; ...)`)
// is left by the loops at their final value, and the launch that replaces
// them leaves it as it was. Such a counter is accepted only where nothing
// outside the region can read it before a loop assigns it again (the
// polybench style of test/rewrite/loop-order-ikj-polybench.cu): a use
// after the region, a counter that is not a local, or one captured from
// another function is diagnosed, and the file stays as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cstdio>
#include <cuda_fp16.h>

void read_after(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
  int i;
#pragma tc
  for (i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
  // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+2]]:33: error: 'i', a counter of the '#pragma tc' region's loops, is used here, outside the region
  // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+1]]:33: note: the launch that replaces the loops leaves 'i' as it was, not at the value the loops end with; declare the counter in the loop: 'for (int i = ...'
  printf("processed %d rows\n", i);
}

// A loop around the region that assigns the counter does not cover it: its
// condition reads what the region leaves.
void outer_loop_reads(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C, int *rows) {
  int j;
  // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+1]]:15: error: 'j', a counter of the '#pragma tc' region's loops, is used here, outside the region
  for (j = 0; j < 1; ++j) {
#pragma tc
    for (int i = 0; i < M; ++i)
      for (j = 0; j < N; ++j) {
        float acc = 0.f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
    *rows = j;
  }
}

int global_row;

void global_counter(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+1]]:8: error: loop counter 'global_row' is not a local variable of 'global_counter'
  for (global_row = 0; global_row < M; ++global_row)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[global_row * K + k]) * __half2float(B[k * N + j]);
      C[global_row * N + j] = acc;
    }
}

// A counter that an initialisation reads (`for (i = i + 0; ...)`) is read
// before it is set: not a reset.
void reset_reads_itself(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C, int *out) {
  int i;
#pragma tc
  for (i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
  // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+1]]:12: error: 'i', a counter of the '#pragma tc' region's loops, is used here, outside the region
  for (i = i + 0; i < 2; ++i)
    out[i] = 0;
}

// In the region, after its loop, a counter holds the value that stopped
// the loop, which the model does not compute.
void read_after_loop(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, const float *__restrict__ R,
                     float *__restrict__ C) {
  int i, j, k;
#pragma tc
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      float acc = 0.0f;
      for (k = 0; k < K; k++)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+2]]:30: error: 'k' is read after its loop has ended
      // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+1]]:30: note: there it holds the value that stopped the loop; write that value (the loop's bound), or read the counter inside the loop
      C[i * N + j] = acc + R[k - K + i * N + j];
    }
}

// A counter declared in the region, before its loop.
void declared_in_region(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+2]]:11: error: 'k' is declared in the region and counts a loop of it
      // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+1]]:11: note: declare the counter in its loop: 'for (int k = ...'
      int k = 0;
      float acc = 0.0f;
      for (k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A pointer bound before the loop whose counter it uses: it points where
// the counter was then, not where it is at each read.
void pointer_before_loop(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
  int k = 0;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      // DIAG: {{.*}}loop-counters-outside.cu:[[@LINE+1]]:37: error: pointer 'a' is bound to 'A + i * K + k', which uses 'k', a variable of the region or a counter of a loop that does not enclose the binding
      const __half *a = A + i * K + k;
      float acc = 0.0f;
      for (k = 0; k < K; ++k)
        acc += __half2float(a[k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
