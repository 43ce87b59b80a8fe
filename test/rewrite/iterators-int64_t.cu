// Loop iterators and sizes of type 'int64_t'. The PTX must still contain the
// mma.sync main loop: with unsigned sizes compared against the pipeline's
// negative prologue index (an int), nvcc once proved that loop dead and
// deleted every mma.sync, ldmatrix and cp.async.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx %t.cu -o %t.ptx %}
// RUN: %if nvcc && full-tier %{ FileCheck %s --check-prefix=PTX --input-file=%t.ptx %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_gemm_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}] = ::__float2half(tc_value);
// CHECK:      {{^}}void gemm(int64_t M, int64_t N, int64_t K,
// CHECK:      {{^  }}tc_gemm_0_launch(M, N, K, A, B, C, 0);

// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: ldmatrix.sync.aligned
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

#include <cstdint>
#include <cuda_fp16.h>

void gemm(int64_t M, int64_t N, int64_t K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
