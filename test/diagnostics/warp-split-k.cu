// warp_split_k(P) values the kernel cannot realise: rejected at the clause
// (its name or its value) with the reason, the region left as written (the
// whole file here: diff).
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

#define GEMM_NEST                                                              \
  for (int i = 0; i < M; ++i)                                                  \
    for (int j = 0; j < N; ++j) {                                              \
      float acc = 0.0f;                                                        \
      for (int k = 0; k < K; ++k)                                              \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);        \
      C[i * N + j] = __float2half(acc);                                        \
    }
#define GEMM_ARGS                                                              \
  int M, int N, int K, const __half *__restrict__ A,                           \
      const __half *__restrict__ B, __half *__restrict__ C

// The parser's errors come first (while preprocessing); it rejects
// non-positive sizes at the value.
void zero_groups(GEMM_ARGS) {
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+1]]:25: error: invalid size '0' in clause 'warp_split_k'
#pragma tc warp_split_k(0)
  GEMM_NEST
}

void two_values(GEMM_ARGS) {
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+1]]:12: error: clause 'warp_split_k' takes one integer
#pragma tc warp_split_k(2, 2)
  GEMM_NEST
}

void three_groups(GEMM_ARGS) {
  // At the clause's name.
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+2]]:12: error: warp_split_k(3) is not supported
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+1]]:12: note: the k steps of a tile are split among 1, 2 or 4 warp groups
#pragma tc warp_split_k(3)
  GEMM_NEST
}

void eight_groups(GEMM_ARGS) {
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+1]]:12: error: warp_split_k(8) is not supported
#pragma tc warp_split_k(8)
  GEMM_NEST
}

void one_k_step(GEMM_ARGS) {
  // tile K 16 is one mma k step, which two groups cannot share.
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+2]]:44: error: warp_split_k(2) does not divide the 1 mma k steps of a k tile
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+1]]:44: note: each warp group takes an equal share of the k steps; use a larger tile K size or fewer warp groups
#pragma tc tile(128, 128, 16) warp(64, 64) warp_split_k(2)
  GEMM_NEST
}

void too_many_warps(GEMM_ARGS) {
  // 4 groups of 16 warps (32x64 warp tiles of a 128x256 tile).
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+2]]:44: error: the tile needs 64 warps; between 1 and 32 are possible
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+1]]:44: note: 16 warps per warp group, 4 warp groups
#pragma tc tile(128, 256, 64) warp(32, 64) warp_split_k(4)
  GEMM_NEST
}

void too_few_registers(GEMM_ARGS) {
  // 512 threads leave 128 registers a thread: too few for the 64
  // accumulators of a 32x64 warp tile and their fragments. Fewer, wider
  // warp tiles leave more (a smaller one would not).
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+2]]:54: error: with 512 threads a thread has 128 registers, too few for 64 accumulators
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+1]]:54: note: the block tile has 4 warps of 32x64 a group; warp(32, 128) gives 2 (or use fewer warp groups)
#pragma tc tile(64, 128, 128) warp(32, 64) stages(2) warp_split_k(4)
  GEMM_NEST
}

// tf32's default warp tile (64x32: eight warps a group) with two groups:
// the note names the warp clause that fits (with it the region is
// rewritten: test/rewrite/gemm-tf32-warp-split-k.cu).
void tf32_default_warps(int M, int N, int K, const float *__restrict__ A,
                        const float *__restrict__ B, float *__restrict__ C) {
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+2]]:23: error: with 512 threads a thread has 128 registers, too few for 64 accumulators
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+1]]:23: note: the block tile has 8 warps of 64x32 a group; warp(64, 64) gives 4 (or use fewer warp groups)
#pragma tc allow_tf32 warp_split_k(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[j * K + k];
      C[i * N + j] = acc;
    }
}

void partial_sums_do_not_fit(GEMM_ARGS) {
  // Group 1 hands group 0 a 256x256 fp32 tile: 256 KiB.
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+2]]:45: error: the intra-block split-K reduction needs 262144 bytes of shared memory, more than a block can have on sm_90a (232448)
  // DIAG: {{.*}}warp-split-k.cu:[[@LINE+1]]:45: note: warp groups 1 to P-1 each hand a whole fp32 block tile to group 0; use a smaller block tile or fewer warp groups
#pragma tc tile(256, 256, 32) warp(64, 128) warp_split_k(2)
  GEMM_NEST
}
