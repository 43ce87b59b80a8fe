// Small-output comparison for the fp16 A row-major, B column-major GEMM on
// sm_90a (scripts/bench-run.sh --sets paper --funcs ...): the default
// kernels with and without split-K, and 64x128 wgmma tiles (one warpgroup
// per block), to tune the split-K rule (tc/split_k.cuh) and the choice of
// tile for outputs with fewer 128x128 tiles than the GPU has SMs.
#include <cuda_fp16.h>

void bench_gemm_f16_rc_nosplit(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc split_k(1)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

void bench_gemm_f16_rc_t64(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64, 128, 64) stages(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

void bench_gemm_f16_rc_t64nosplit(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64, 128, 64) stages(4) split_k(1)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

// Deep pipelines, one block per SM (TMA stages on sm_90a): a block alone on
// its SM keeps 5 k tiles in flight instead of the default kernels' 3
// (2), against the default kernels' two blocks per SM. Measured on an H200
// (paper set, geometric mean of the ratio to cuBLAS): 0.44 (64x128) and
// 0.50 (128x128) against the default's 0.62 - the second block on an SM,
// whose main loop overlaps the first's prologue and epilogue, is worth more
// than a deeper pipeline.
void bench_gemm_f16_rc_t64s6(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64, 128, 64) stages(6)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

void bench_gemm_f16_rc_t128s6(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 128, 64) stages(6)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

// Small tiles with deep pipelines for outputs of fewer 128x128 tiles than
// SMs (cuBLAS picks 32x64 to 96x64 tiles with 10 to 16 stages there, no
// split-K): the whole reduction of a short K is in flight at once.

void bench_gemm_f16_rc_t64x64s12(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64,64,64) stages(12)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

void bench_gemm_f16_rc_t64x64s12nosplit(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64,64,64) stages(12) split_k(1)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

void bench_gemm_f16_rc_t64x128s8(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64,128,64) stages(8)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

void bench_gemm_f16_rc_t64x64s6nosplit(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64,64,64) stages(6) split_k(1)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

void bench_gemm_f16_rc_t64x32s12(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64,32,64) stages(12)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
