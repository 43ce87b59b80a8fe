// A 192-column wgmma tile (tile clause): one m64n192k16 per k step and
// warpgroup, 40 KiB TMA stages, B's box 192 rows; the split tiles' slots
// are combined in batches that divide a thread's 24 vectors
// (tc::load_batch). The default's 192-column sibling of the 128x256
// kernel is test/rewrite/wgmma-wide-widths.cu.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// CHECK:      {{^}}//   block tile 128x192x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), stream units (a nearly empty last round shared by all SMs), wgmma.mma_async.m64n192k16 {{.*}}
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(288, 1) tc_gemm192_0_kernel(
// CHECK:      {{^}}        tc::tma_load_2d(tc_smem_b + {{.*}} * 12288, tc_map_b, {{.*}}, 192 * tc_block_n);
// CHECK:      {{^}}    tc::wgmma_m64k16<__half, 0, 0, 192>(tc_acc[0],
// CHECK:      {{^}}      !tc::combine_parts<128, 192, 200, 256>(
// CHECK:      tc::tma_map_2d_aligned(&tc_map_b, B, K, N, K, 64, 192, tc_stream, 1, tc_facts.device)
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
