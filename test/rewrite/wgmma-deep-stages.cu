// A stages clause beyond 6 on wgmma (up to 16, within the shared memory):
// small tiles that keep a whole short reduction in flight. The mbarrier
// ring and the stage offsets follow the clause.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{[a-z]}}_cp_async'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// CHECK:      {{^}}//   block tile 64x64x64, 1 warpgroup (4 warps and a producer warp), 12 TMA stages (mbarriers), few tiles split into parts launched as one cluster each (distributed shared memory adds them), wgmma.mma_async.m64n64k16 {{.*}}
// The TMA kernel is the sm_90 components' (tc/sm90/mainloop.cuh): the
// ring's depth is its mainloop's stages.
// CHECK-NEXT: {{^}}static void tc_gemm_deep_0_launch(
// CHECK:      {{^ *}}tc::sm90::OperandTile<__half, 64, tc::sm90::Major::K>,  // B
// CHECK-NEXT: {{^ *}}12>,
// CHECK-NEXT: {{^ *}}tc::sm90::ClusterPartsScheduler<12>>(
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
