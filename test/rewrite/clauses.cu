// Clauses that shape the kernel: tile, warp, stages, stream, sync, and the
// accepted no-op forms split_k(1), mma(m16n8k16); clauses may be separated
// by commas.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -c %t.cu -o %t.sm80.o %}

// tile(128,128,32) warp(64,64) stages(3) stream(s) sync: 3 stages of
// (128 + 128) x 32 halves = 48 KiB, launched on s, then synchronised.
// CHECK:      {{^}}//   block tile 128x128x32, warp tile 64x64 (4 warps), 3 cp.async stages, {{.*}}49152 bytes of shared memory
// The mma.sync components (tc/sm80/) take every tile the clauses give;
// where the fp32 output tile does not fit in the stages (this one and the
// next two), their kernel's epilogue runs from registers.
// CHECK:      {{^}}static void tc_gemm_all_0_launch(
// CHECK-SAME: ::cudaStream_t tc_stream) {
// CHECK:      {{^ *}}tc::report_status(tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// CHECK-NEXT: {{^ *}}tc::sm80::OperandTile<__half, 128, tc::sm80::Major::K>,  // A
// CHECK-NEXT: {{^ *}}tc::sm80::OperandTile<__half, 128, tc::sm80::Major::MN>,  // B
// CHECK-NEXT: {{^ *}}32, 3, 2, 2>>(
// CHECK-NEXT: {{^ *}}{M, N, K}, A, K, B, N, tc_gemm_all_0_epilogue{M, N, K, A, B, C}, tc_stream), "clauses.cu:{{[0-9]+}}");
// CHECK-NEXT: {{^ *}}::cudaStreamSynchronize(tc_stream);
// CHECK-NEXT: {{^}}}
// CHECK:      {{^  }}tc_gemm_all_0_launch(M, N, K, A, B, C, s);

// Without stream/sync: the legacy default stream, no synchronisation. Sizes
// in any spelling of an integer literal.
// CHECK:      {{^}}//   block tile 64x64x32, warp tile 32x32 (4 warps), 2 cp.async stages, {{.*}}16384 bytes of shared memory
// CHECK:      {{^}}static void tc_gemm_small_0_launch(
// CHECK:      {{^}}          32, 2, 2, 2>>(
// CHECK-NOT:  ::cudaStreamSynchronize
// CHECK:      {{^  }}tc_gemm_small_0_launch(M, N, K, A, B, C, 0);

// 8 warps: tile(128,256,32) warp(64,64).
// CHECK:      {{^}}//   block tile 128x256x32, warp tile 64x64 (8 warps), {{[0-9]+}} cp.async stages,
// CHECK:      {{^}}static void tc_gemm_wide_0_launch(
// CHECK:      {{^ *}}tc::sm80::OperandTile<__half, 256, tc::sm80::Major::MN>,  // B
// CHECK-NEXT: {{^}}          32, {{[0-9]+}}, 2, 4>>(
// CHECK:      {{^  }}tc_gemm_wide_0_launch(M, N, K, A, B, C, 0);

// One warp: tile(16,16,16) warp(16,16).
// CHECK:      {{^}}//   block tile 16x16x16, warp tile 16x16 (1 warps),
// CHECK:      {{^}}static void tc_gemm_one_warp_0_launch(
// CHECK:      {{^}}          16, 3, 1, 1>>(
// CHECK:      {{^  }}tc_gemm_one_warp_0_launch(M, N, K, A, B, C, 0);

// The accepted values of split_k and mma, comma-separated clauses.
// CHECK:      {{^}}//   block tile 128x128x64, warp tile 64x64 (4 warps), 2 cp.async stages,
// CHECK:      {{^}}static void tc_gemm_commas_0_launch(
// CHECK:      {{^}}          64, 2, 2, 2>>(
// CHECK:      {{^  }}tc_gemm_commas_0_launch(M, N, K, A, B, C, 0);

#include <cuda_fp16.h>

void gemm_all(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, __half *__restrict__ C,
              cudaStream_t s) {
#pragma tc tile(128, 128, 32) warp(64, 64) stages(3) stream(s) sync
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_small(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(0x40, 64u, 32) warp(0b100000, 32) stages(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_wide(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 256, 32) warp(64, 64)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_one_warp(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(16, 16, 16) warp(16, 16)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_commas(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 128, 64), stages(2), split_k(1), mma(m16n8k16)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
