// Well-formed clauses whose values the kernel cannot realise: rejected on
// the pragma's line with the reason, the region left as written (the whole
// file here: diff). The column is not pinned here; that the error points at
// the offending clause is checked by clause-values-location.cu.
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

void stages_seventeen(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: error: stages must be between 2 and 16
#pragma tc stages(17)
  GEMM_NEST
}

void stages_one(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: error: stages must be between 2 and 16
#pragma tc stages(1)
  GEMM_NEST
}

void tile_k_24(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+2]]:{{[0-9]+}}: error: the block tile's K size must be 16, 32, 64 or 128
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: note: the reduction is strip-mined by the mma depth, 16
#pragma tc tile(128, 128, 24)
  GEMM_NEST
}

void tile_not_pow2(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+2]]:{{[0-9]+}}: error: block tile sizes must be powers of two of at least 16
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: note: shared-memory rows are swizzled in 16-byte chunks
#pragma tc tile(96, 128, 32) warp(32, 64)
  GEMM_NEST
}

void warp_not_dividing(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+2]]:{{[0-9]+}}: error: the block tile must be a multiple of the warp tile
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: note: e.g. tile(128, 128, 32) warp(64, 64)
#pragma tc tile(128, 128, 32) warp(48, 64)
  GEMM_NEST
}

void warp_not_16(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: error: warp tiles must be multiples of 16 in both dimensions
#pragma tc tile(128, 128, 32) warp(8, 64)
  GEMM_NEST
}

void too_many_warps(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: error: the tile needs 64 warps; between 1 and 32 are possible
#pragma tc tile(256, 256, 32) warp(32, 32) stages(2)
  GEMM_NEST
}

void too_many_registers(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+2]]:{{[0-9]+}}: error: the warp tile needs 512 accumulator registers per thread
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: note: use a warp tile of at most 64x128
#pragma tc tile(256, 256, 32) warp(128, 128)
  GEMM_NEST
}

void too_many_chunks(GEMM_ARGS) {
  // One warp copies A's 256 x 128 k tile: 128 chunks a thread (the copiers
  // keep a bit for each, 64 at most).
  // DIAG: {{.*}}clause-values.cu:[[@LINE+2]]:{{[0-9]+}}: error: each thread would copy 128 16-byte chunks of an operand's k tile; at most 64 are possible
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: note: use more warps (a smaller warp tile) or a smaller tile K size
#pragma tc tile(256, 16, 128) warp(256, 16) stages(2)
  GEMM_NEST
}

void too_much_shared_memory(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+2]]:{{[0-9]+}}: error: the tile configuration needs 786432 bytes of shared memory, more than a block can have
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: note: reduce the tile sizes or the number of stages
#pragma tc tile(256, 256, 128) stages(6)
  GEMM_NEST
}

void other_mma(GEMM_ARGS) {
  // DIAG: {{.*}}clause-values.cu:[[@LINE+2]]:{{[0-9]+}}: error: unsupported mma 'm16n8k8'
  // DIAG: {{.*}}clause-values.cu:[[@LINE+1]]:{{[0-9]+}}: note: the supported instruction shapes are mma(m16n8k16) and mma(wgmma)
#pragma tc mma(m16n8k8)
  GEMM_NEST
}
