// A stages clause beyond 6 on wgmma (up to 16, within the shared memory):
// small tiles that keep a whole short reduction in flight. The mbarrier
// ring and the stage offsets follow the clause; the cp.async twin keeps the
// same depth.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// CHECK:      {{^}}//   block tile 64x64x64, 1 warpgroup (4 warps), 12 cp.async stages, {{.*}}
// CHECK:      {{^}}//   block tile 64x64x64, 1 warpgroup (4 warps and a producer warp), 12 TMA stages (mbarriers), few tiles split into parts launched as one cluster each (distributed shared memory adds them), wgmma.mma_async.m64n64k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(160, 1) tc_gemm_deep_0_kernel(
// CHECK:      {{^}}    for (int tc_s = 0; tc_s < 12; ++tc_s) {
// CHECK:      tc::mbarrier_wait(tc_empty + ({{.*}} % 12), {{.*}});  // released by the consumers
// CHECK:      tc::release_stage(tc_empty + ({{.*}} % 12), tc_thread);
void gemm_deep(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64, 64, 64) stages(12)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
