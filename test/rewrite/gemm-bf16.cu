// bf16 operands and result (as in samples/gemm_types.cu): the bf16 mma and
// bf16 shared-memory tiles.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx %t.cu -o %t.ptx %}
// RUN: %if nvcc && full-tier %{ FileCheck %s --check-prefix=PTX --input-file=%t.ptx %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_gemm_bf16_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = ::__float2bfloat16(tc_value);
// CHECK:      {{^}}void gemm_bf16(
// CHECK:      {{^  }}tc_gemm_bf16_0_launch(M, N, K, A, B, C, 0);

// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

#include <cuda_bf16.h>

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
