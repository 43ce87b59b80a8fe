// A 192-column wgmma tile (tile clause) with stream units: the sm_90
// components' kernel (tc/sm90/gemm_kernel.cuh) for 128 x 192 tiles of B
// stored [n][k] (one TMA box of 192 rows, m64n192k16 steps, split tiles'
// slots combined in batches that divide a thread's 24 vectors, all in the
// components, GPU-tested by test/gpu/sm90_components_test.cu) and the
// stream-units scheduler. The default's 192-column sibling of the 128x256
// kernel is test/rewrite/wgmma-wide-widths.cu.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// CHECK:      {{^}}//   block tile 128x192x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), stream units (a nearly empty last round shared by all SMs), wgmma.mma_async.m64n192k16 {{.*}}
// CHECK-NEXT: {{^}}static void tc_gemm192_0_launch(
// CHECK-NOT:  {{^}}__global__
// CHECK:      {{^}}  if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 192, tc::sm90::Major::K>,  // B
// CHECK-NEXT: {{^}}          4>,
// CHECK-NEXT: {{^}}      tc::sm90::StreamUnitsScheduler>({M, N, K}, A, K, B, K,
void gemm192(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 192, 64) stages(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
