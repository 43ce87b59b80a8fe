// The text kernels compute a tile's first row and column in 32 bits: the
// launcher refuses (GridTooLarge, reported as CUDA reports errors) an
// output whose tiles would start past 2^31 - 1, where a grid of 2^24
// column tiles of 128 fits CUDA's limits but `128 * tc_block_n` wraps.
//
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'

#include <cuda_fp16.h>

// CHECK-LABEL: static void tc_gemm_0_launch(
// CHECK: if (!tc::grid_fits((((N + 127) / 128) - 1) + 1, (((M + 127) / 128) - 1) + 1, (long long)(1) * tc_splits) ||
// CHECK-NEXT: !tc::tile_origins_fit((((N + 127) / 128) - 1) + 1, 128) || !tc::tile_origins_fit((((M + 127) / 128) - 1) + 1, 128)) {
// CHECK-NEXT: tc::report_error(tc::Status::GridTooLarge,
void gemm(long long M, long long N, long long K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (long long i = 0; i < M; ++i)
    for (long long j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (long long k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
