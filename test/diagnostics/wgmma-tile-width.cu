// A tile clause whose width wgmma cannot take for this region falls back to
// mma.sync, whose checks then reject it: the error is at the clause, and the
// note says why the region is not on wgmma (an N-major B is stored in
// 64-column panels, so its widths are 64 or multiples of 64). The region is
// left as written; with a K-major B the same 176-column tile is a wgmma tile
// and is rewritten.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.cu

#include <cuda_fp16.h>

// DIAG: wgmma-tile-width.cu:[[@LINE+6]]:12: error: the block tile must be a multiple of the warp tile
// DIAG: note: e.g. tile(128, 128, 32) warp(64, 64) (mma.sync here, not wgmma: an N-major B is stored in 64-column panels: the block tile needs 64 columns or a multiple of 64)
// OUT:      {{^}}void nmajor_176(
// OUT:      {{^}}#pragma tc tile(128, 176, 64) stages(4)
void nmajor_176(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 176, 64) stages(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// DIAG-NOT: wgmma-tile-width.cu:[[@LINE+3]]:{{.*}} error
// OUT:      {{^}}static void tc_kmajor_176_0_launch(
// OUT:      {{^}}  if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// OUT-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// OUT-NEXT: {{^}}          tc::sm90::OperandTile<__half, 176, tc::sm90::Major::K>,  // B
void kmajor_176(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 176, 64) stages(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
