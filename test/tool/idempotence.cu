// Running the tool on its own output changes nothing (the pragmas are
// gone): a second run exits 0 and writes an identical file. Checked on
// this file (several regions, clauses, in-place accumulation) and on the
// bundled samples.
//
// RUN: %tc-rewrite %s -o %t.1.cu
// RUN: %tc-rewrite %t.1.cu -o %t.2.cu
// RUN: diff %t.1.cu %t.2.cu
// RUN: FileCheck %s --input-file=%t.2.cu --implicit-check-not='{{^ *}}#pragma tc'
//
// RUN: %tc-rewrite %samples/gemm.cu -o %t.gemm.1.cu
// RUN: %tc-rewrite %t.gemm.1.cu -o %t.gemm.2.cu
// RUN: diff %t.gemm.1.cu %t.gemm.2.cu
// RUN: %tc-rewrite %samples/gemm_types.cu -o %t.types.1.cu
// RUN: %tc-rewrite %t.types.1.cu -o %t.types.2.cu
// RUN: diff %t.types.1.cu %t.types.2.cu
//
// And in place: -i on the rewritten copy leaves it as it is.
// RUN: cp %t.1.cu %t.3.cu
// RUN: %tc-rewrite -i %t.3.cu
// RUN: diff %t.1.cu %t.3.cu

// The include is added once.
// CHECK:     {{^}}#include <tc/tc.cuh>
// CHECK-NOT: {{^}}#include <tc/tc.cuh>
// CHECK:     {{^  }}tc_gemm_0_launch(M, N, K, A, B, C, 0);
// CHECK:     {{^  }}tc_gemm_1_launch(M, N, K, D, A, B, s);
// CHECK:     {{^  }}tc_gemm_bf16_0_launch(M, N, K, A, B, C, 0);

#include <cuda_bf16.h>
#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C,
          float *__restrict__ D, cudaStream_t s) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
#pragma tc tile(64, 64, 32) warp(32, 32) stages(3) stream(s) sync
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        D[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

void gemm_bf16(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
               const __nv_bfloat16 *__restrict__ B,
               __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
      C[i * N + j] = __float2bfloat16(acc);
    }
}
