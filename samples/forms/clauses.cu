// Clauses that steer the kernel (issue 3: "tile sizes, warp tiles, pipeline
// stages, split-K factor, target MMA, stream, sync"; issue 4: the intra-block
// split-K, warp_split_k). Every function computes
// C = A * B (fp16 operands, row-major) with the same source nest; only the
// clause differs.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// 64x64x32 block tile, 32x32 warp tiles (4 warps), 2 stages.
void cl_tile64_warp32_stages2(int M, int N, int K,
                              const __half *__restrict__ A,
                              const __half *__restrict__ B,
                              __half *__restrict__ C) {
#pragma tc tile(64, 64, 32) warp(32, 32) stages(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// 128x256x32 block tile, 64x64 warp tiles (8 warps).
void cl_tile128x256_8warps(int M, int N, int K,
                           const __half *__restrict__ A,
                           const __half *__restrict__ B,
                           __half *__restrict__ C) {
#pragma tc tile(128, 256, 32) warp(64, 64)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// 256x128x32 block tile, 64x64 warp tiles (8 warps), 3 stages.
void cl_tile256x128_stages3(int M, int N, int K,
                            const __half *__restrict__ A,
                            const __half *__restrict__ B,
                            __half *__restrict__ C) {
#pragma tc tile(256, 128, 32) warp(64, 64) stages(3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// 32x64x64 block tile, 32x32 warp tiles (2 warps), 3 stages.
void cl_tile32x64x64_2warps(int M, int N, int K,
                            const __half *__restrict__ A,
                            const __half *__restrict__ B,
                            __half *__restrict__ C) {
#pragma tc tile(32, 64, 64) warp(32, 32) stages(3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// 16x16x16 block tile, one 16x16 warp.
void cl_one_warp(int M, int N, int K,
                 const __half *__restrict__ A,
                 const __half *__restrict__ B,
                 __half *__restrict__ C) {
#pragma tc tile(16, 16, 16) warp(16, 16)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// 128x128x64 block tile, 3 stages.
void cl_bk64_stages3(int M, int N, int K,
                     const __half *__restrict__ A,
                     const __half *__restrict__ B,
                     __half *__restrict__ C) {
#pragma tc tile(128, 128, 64) stages(3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// Comma-separated clauses, split_k(1) and the mma shape.
void cl_commas_split_k1_mma(int M, int N, int K,
                            const __half *__restrict__ A,
                            const __half *__restrict__ B,
                            __half *__restrict__ C) {
#pragma tc tile(128, 128, 64), stages(2), split_k(1), mma(m16n8k16)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// An explicit split-K factor.
void cl_split_k4(int M, int N, int K,
                 const __half *__restrict__ A,
                 const __half *__restrict__ B,
                 __half *__restrict__ C) {
#pragma tc split_k(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// On a caller stream, synchronised after the launch.
void cl_stream_sync(int M, int N, int K,
                    const __half *__restrict__ A,
                    const __half *__restrict__ B,
                    __half *__restrict__ C,
                    cudaStream_t s) {
#pragma tc stream(s) sync
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// On a caller stream, asynchronous (the caller synchronises).
void cl_stream(int M, int N, int K,
               const __half *__restrict__ A,
               const __half *__restrict__ B,
               __half *__restrict__ C,
               cudaStream_t s) {
#pragma tc stream(s) tile(64, 128, 32) warp(32, 64)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// Intra-block split-K: two warp groups (8 warps) share each k tile of the
// default 128x128x64 tile, group 1's sums added by group 0 in shared memory.
void cl_warp_split_k2(int M, int N, int K,
                      const __half *__restrict__ A,
                      const __half *__restrict__ B,
                      __half *__restrict__ C) {
#pragma tc warp_split_k(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// Four warp groups of four 32x32 warp tiles (512 threads), one k step each.
void cl_warp_split_k4_tile64(int M, int N, int K,
                             const __half *__restrict__ A,
                             const __half *__restrict__ B,
                             __half *__restrict__ C) {
#pragma tc tile(64, 64, 64) warp(32, 32) warp_split_k(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// Intra- and inter-block split-K together: each block's partial sum is its
// group 0's, after the reduction (the output tile is not staged here).
void cl_warp_split_k2_split_k3(int M, int N, int K,
                               const __half *__restrict__ A,
                               const __half *__restrict__ B,
                               __half *__restrict__ C) {
#pragma tc tile(64, 64, 32) warp(32, 32) stages(2) warp_split_k(2) split_k(3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
