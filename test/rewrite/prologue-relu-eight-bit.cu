// ReLU on the activations beside int8 weights that are only converted (the
// scale applied to the sum). The transposed tile, which converts W into
// wgmma's register fragments, reads X's stage as wgmma's B, where no kernel
// schedule applies X's prologue (isl refused to generate that kernel); so W
// converts in its stage and X's prologue runs on its landed stages, in an
// untransposed tile.
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_90a,code=sm_90a -Xptxas -v -c %t.cu -o %t.o 2>&1 | %drop-elementwise-spills | FileCheck %s --check-prefix=PTXAS %}
// PTXAS-NOT: {{ [1-9][0-9]* bytes spill stores}}
// PTXAS-NOT: C751
#include <cstdint>
#include <cuda_fp16.h>

void relu_int8(int M, int N, int K, const __half *__restrict__ X,
               const int8_t *__restrict__ W, const float *__restrict__ scale,
               __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(X[i * K + k]), 0.0f) * (float)W[j * K + k];
      Y[i * N + j] = __float2half(acc * scale[j]);
    }
}
// EXPLAIN: kernel: block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages
// EXPLAIN-SAME: wgmma.mma_async.m64n128k16
// EXPLAIN-NEXT: main loop: {{.*}}A's prologue applied by each consumer warpgroup to its rows of each landed stage{{.*}}; B's 8-bit tile lands raw in the second half of its stage and the consumers convert it in place
// EXPLAIN-NOT: the tile transposed
// EXPLAIN: shapes where tc::prefer_narrow_converted_tiles: tc_relu_int8_0_narrow, block tile 64x128x64
// EXPLAIN-NOT: the tile transposed
// Each landed stage: W's raw tile converted in place by all consumers,
// then X's rows through the prologue by each warpgroup, both before the
// wgmma read them.
// CHECK: __global__ void __launch_bounds__(160, 2) tc_relu_int8_0_narrow_kernel(
// CHECK: tc::mbarrier_wait(tc_full + 0, 0);  // the tile has landed
// CHECK-NEXT: tc::convert_raw_stage<signed char, __half, 128, 128>(tc_smem_b + 0 * 8192,
// CHECK-NEXT: [] { tc::consumer_sync<128>(); });
// CHECK-NEXT: tc::fence_proxy_async();
// CHECK-NEXT: tc::consumer_sync<128>();
// CHECK-NEXT: tc::apply_prologue_to_tile<__half, 4096, 128, 2>(tc_smem_a + 0 * 4096 + 4096 * tc_warpgroup,
// CHECK-NEXT: tc::fence_proxy_async();
// CHECK-NEXT: tc::warpgroup_sync(tc_warpgroup);
// CHECK-NEXT: tc::warpgroup_arrive(tc_acc[0]);
// CHECK: __global__ void __launch_bounds__(256, 2) tc_relu_int8_0_cp_async_kernel(
// CHECK: __global__ void __launch_bounds__(288, 1) tc_relu_int8_0_kernel(
// CHECK: tc::mbarrier_wait(tc_full + 0, 0);  // the tile has landed
// CHECK-NEXT: tc::convert_raw_stage<signed char, __half, 128, 256>(tc_smem_b + 0 * 8192,
// CHECK-NEXT: [] { tc::consumer_sync<256>(); });
// CHECK-NEXT: tc::fence_proxy_async();
// CHECK-NEXT: tc::consumer_sync<256>();
// CHECK-NEXT: tc::apply_prologue_to_tile<__half, 4096, 128, 4>(tc_smem_a + 0 * 8192 + 4096 * tc_warpgroup,
// CHECK-NEXT: tc::fence_proxy_async();
// CHECK-NEXT: tc::warpgroup_sync(tc_warpgroup);
// CHECK-LABEL: static void tc_relu_int8_0_launch(
// CHECK: {tc::KernelRule::NarrowConvertedTiles},  // tc_relu_int8_0_narrow
// CHECK-NOT: RawRegisterA
// CHECK: tc_relu_int8_0_launch(M, N, K, X, W, Y, scale, 0);
