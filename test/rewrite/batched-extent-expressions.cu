// A batch loop whose trip count is an expression (`b < BATCH - 1`,
// `b0 <= b < b1`): the launcher multiplies the count, parenthesised, into
// the tiles, the grid and split-K's workspace. Pasted bare, `BATCH - 1 *
// tc_splits` launched too few blocks and sized the workspace wrong.
//
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// CHECK-LABEL: static void tc_all_but_last_0_launch(
// CHECK: if ((BATCH - 1) <= 0)
// CHECK: const long long tc_tiles = {{.*}} * (BATCH - 1);
// CHECK: const dim3 tc_grid({{.*}}, (BATCH - 1) * tc_splits);
// CHECK: cudaMallocAsync(&tc_workspace, sizeof(float) * (size_t)tc_splits * (BATCH - 1) * (M) * (N), tc_stream);
void all_but_last(int BATCH, int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int b = 0; b < BATCH - 1; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * K + k]) * __half2float(B[(b * K + k) * N + j]);
        C[(b * M + i) * N + j] = acc;
      }
}

// CHECK-LABEL: static void tc_batch_range_0_launch(
// CHECK: const dim3 tc_grid({{.*}}, (-b0 + b1) * tc_splits);
void batch_range(int b0, int b1, int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int b = b0; b < b1; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * K + k]) * __half2float(B[(b * K + k) * N + j]);
        C[(b * M + i) * N + j] = acc;
      }
}
