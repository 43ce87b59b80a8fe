// The shared-memory budget depends on --arch: at most 227 KiB per block on
// sm_90a, 163 KiB on sm_80, 99 KiB on sm_86 / sm_89. A tile configuration
// over the target's budget can never launch (cudaFuncSetAttribute and the
// launch fail at run time), so it should be rejected at the pragma.
//
// Fails: the limit is 227 KiB for every --arch (KernelConfig.cpp); both
// regions are rewritten, exit status 0, no diagnostic.
//
// RUN: rm -f %t.sm86.cu %t.sm80.cu
// RUN: not %tc-rewrite --arch=sm_86 %s -o %t.sm86.cu 2>&1 | FileCheck %s --check-prefix=SM86
// RUN: not %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu 2>&1 | FileCheck %s --check-prefix=SM80
// The sm_90a budget takes both.
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.sm90a.cu

#include <cuda_fp16.h>

#define GEMM_NEST                                                              \
  for (int i = 0; i < M; ++i)                                                  \
    for (int j = 0; j < N; ++j) {                                              \
      float acc = 0.0f;                                                        \
      for (int k = 0; k < K; ++k)                                              \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);        \
      C[i * N + j] = __float2half(acc);                                        \
    }

// 4 stages of (128 + 128) x 64 halves: 131072 bytes.
void over_sm86(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
  // SM86: {{.*}}arch-shared-memory.cu:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}131072 bytes of shared memory
#pragma tc tile(128, 128, 64) stages(4)
  GEMM_NEST
}

// 4 stages of (256 + 128) x 64 halves: 196608 bytes.
void over_sm80(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
  // SM86: {{.*}}arch-shared-memory.cu:[[@LINE+2]]:{{[0-9]+}}: error: {{.*}}196608 bytes of shared memory
  // SM80: {{.*}}arch-shared-memory.cu:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}196608 bytes of shared memory
#pragma tc tile(256, 128, 64) warp(64, 64) stages(4)
  GEMM_NEST
}
