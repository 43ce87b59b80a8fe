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
