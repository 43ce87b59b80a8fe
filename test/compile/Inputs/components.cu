// The kernel components that samples/gemm.cu, gemm_tf32.cu and gemm_types.cu
// do not instantiate, one small region each, for the default tier's full
// compile (test/compile/components.test). The regions are functions of
// samples/forms/ (quantized.cu, epilogues.cu, clauses.cu) with their tile
// pinned, so that each emits its main kernel, its cp.async fallback and its
// split-k reduction only (about 3 kernels instead of 10 to 20: the tile
// choice variants are the same templates, compiled by gemm.test); the full
// tier compiles the forms themselves, every variant.
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// int8 operand converted while it is copied (tc::ConvertingCopier), with a
// zero point; on sm_90a the raw-fragment path (tc::load_raw_fragments) and
// register-sourced wgmma (tc::wgmma_m64k16_rs).
// samples/forms/quantized.cu
void q_int8_zero_point(int M, int N, int K, const __half *__restrict__ X,
                       const int8_t *__restrict__ W, const float *__restrict__ zero,
                       const float *__restrict__ scale, __half *__restrict__ Y) {
#pragma tc tile(128, 128, 64) stages(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * (((float)W[j * K + k] - zero[j]) * scale[j]);
      Y[i * N + j] = __float2half(acc);
    }
}

// A prologue on A (ReLU applied to A's fragments: tc::apply_prologue; on
// sm_90a register-sourced wgmma with tc::claim_registers).
// samples/forms/epilogues.cu
void pro_relu_a(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 128, 64) stages(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// A prologue on B (on sm_90a applied to the shared-memory tile:
// tc::apply_prologue_to_tile). samples/forms/epilogues.cu
void pro_relu_b(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 128, 64) stages(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * fmaxf(__half2float(B[k * N + j]), 0.0f);
      C[i * N + j] = __float2half(acc);
    }
}

// Warp-level split-k with a grid split-k (tc::add_partial,
// tc::store_partial). samples/forms/clauses.cu
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

// A converted by its row (minus a zero point per row): on sm_90a the tall
// tiles' consumers lack the registers to convert its fragments, so the
// cp.async kernel converts it while copying; on sm_80 it is converted
// while copied (tc::sm80::ConvertedOperandTile). (Composed, in place in
// its stages, two blocks an SM would have left 56 registers a thread,
// which ptxas could not fit: C7602.)
// bench/fused/row_offset_gemm.cu
void row_offset_tall(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, const float *__restrict__ zero,
                     __half *__restrict__ C) {
#pragma tc tile(256, 64, 64) stages(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (__half2float(A[i * K + k]) - zero[i]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

// A converted by its row in its register fragments on sm_90a
// (tc::sm90::RegisterA<tc::sm90::Converted<F>>), in the widest tiles whose
// consumers have the registers for them (KernelConfig::
// convertedFragmentsFit), of two stages; the tall tiles above keep the
// cp.async kernel, which converts while copying.
void row_offset_wide(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, const float *__restrict__ zero,
                     __half *__restrict__ C) {
#pragma tc tile(64, 256, 64) stages(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (__half2float(A[i * K + k]) - zero[i]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
