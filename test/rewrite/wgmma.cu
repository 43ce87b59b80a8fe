// The sm_90a main loop of the cp.async kernels, which the regions here
// take because B is read with its elements 2 apart, gathered (and its
// prologue, 1/x, applied) while it is copied, which TMA cannot do:
// wgmma.mma_async reading both operands from the cp.async stages. A row-major (K-major stages) and B column-major (K-major)
// in the first region; A column-major (M-major: 64-column panels) and bf16
// in the second; a tile clause choosing 128x256 with 4 stages (one wgmma
// group left in flight) in the third.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps), 3 cp.async stages, wgmma.mma_async.m64n128k16 (fp32 accumulation, 0 groups in flight), 98304 bytes of shared memory, sm_90a
// CHECK-NEXT: {{^}}template <int kCopyMode>
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(256, 2) tc_gemm_rc_0_kernel(
// CHECK:      {{^}}  extern __shared__ __align__(1024) unsigned char tc_smem[];
// CHECK:      {{^}}  tc::OperandCopier<kCopyMode, __half, 4, 64, true, 64, 32> tc_copy_a;
// CHECK:      {{^}}  tc::ConvertingCopier<kCopyMode, __half, __half, 4, 64, true, 64, 32> tc_copy_b;
// CHECK:      {{^}}  float tc_acc[1][16][4] = {};
// CHECK:      {{^}}  const int tc_warpgroup = tc_thread / 128;
// CHECK-NEXT: {{^}}  const ::uint64_t tc_desc_a = tc::wgmma_desc_k_major_sw128(tc_smem_a + 4096 * tc_warpgroup);
// CHECK-NEXT: {{^}}  const ::uint64_t tc_desc_b = tc::wgmma_desc_k_major_sw128(tc_smem_b);
// The steady state: wait for tile t, publish it to the async proxy, four k
// steps of 16 as one group, B's tile t + 1 converted from registers into
// its stage, the copies of tile t + 2 (B's into registers), wait for the
// group.
// CHECK:      {{^}}    tc::cp_async_wait<1>();
// CHECK-NEXT: {{^}}    tc::fence_proxy_async();
// CHECK-NEXT: {{^}}    __syncthreads();
// CHECK-NEXT: {{^}}    tc::warpgroup_arrive(tc_acc[0]);
// CHECK-NEXT: {{^}}    tc::wgmma_m64k16<__half, 0, 0, 128>(tc_acc[0], tc::wgmma_desc_advance(tc_desc_a, (c0 % 3) * 16384 + 32 * 0), tc::wgmma_desc_advance(tc_desc_b, (c0 % 3) * 16384 + 32 * 0));
// CHECK-NEXT: {{^}}    tc::wgmma_m64k16<__half, 0, 0, 128>({{.*}} + 32 * 1){{.*}} + 32 * 1));
// CHECK-NEXT: {{^}}    tc::wgmma_m64k16<__half, 0, 0, 128>({{.*}} + 32 * 2){{.*}} + 32 * 2));
// CHECK-NEXT: {{^}}    tc::wgmma_m64k16<__half, 0, 0, 128>({{.*}} + 32 * 3){{.*}} + 32 * 3));
// CHECK-NEXT: {{^}}    tc::wgmma_commit();
// CHECK-NEXT: {{^}}    tc_copy_b.land(0, tc_smem_b + ((c0 + 1) % 3) * 8192, (c0 + 1), tc_convert_b);
// CHECK:      {{^}}    tc_copy_a.issue(0, tc_smem_a + ((c0 + 2) % 3) * 8192, (c0 + 2));
// CHECK:      {{^}}    tc_copy_b.load(0, (c0 + 2));
// CHECK:      {{^}}    tc::cp_async_commit();
// CHECK-NEXT: {{^}}    tc::wgmma_wait<0>(tc_acc[0]);
// The epilogue reads a warp's accumulators as 16 x 128 fragments, a row's
// two neighbours at once (one 8-byte store into the staged tile).
// CHECK:      {{^}}      *reinterpret_cast<::float2 *>(tc_stage + (((16 * tc_warp_m) + tc_lane_row) + (8 * c2)) * 136 + ((2 * tc_lane_col) + (8 * c1))) = ::make_float2(tc_acc[0][c1][(2 * c2)], tc_acc[0][c1][(2 * c2) + 1]);
// Operands not in aligned 16-byte chunks are copied element-wise.
// CHECK:      {{^ *}}tc_gemm_rc_0_kernel<tc::kElementwise><<<tc_grid, 256, tc_smem_bytes, tc_stream>>>(M, N, K, A, B, C, tc_splits, tc_split_tiles, tc_workspace);

// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups {{.*}} wgmma.mma_async.m64n128k16
// CHECK:      {{^}}  tc::OperandCopier<kCopyMode, __nv_bfloat16, 4, 128, false, 64, 16, true> tc_copy_a;
// CHECK:      {{^}}  const ::uint64_t tc_desc_a = tc::wgmma_desc_mn_major_sw128(tc_smem_a + 4096 * tc_warpgroup, 8192);
// CHECK:      {{^}}    tc::wgmma_m64k16<__nv_bfloat16, 1, 0, 128>(tc_acc[0], tc::wgmma_desc_advance(tc_desc_a, (c0 % 3) * 16384 + 2048 * 0), tc::wgmma_desc_advance(tc_desc_b, (c0 % 3) * 16384 + 32 * 0));

// CHECK:      {{^}}//   block tile 128x256x64, 2 warpgroups (8 warps), 4 cp.async stages, wgmma.mma_async.m64n256k16 (fp32 accumulation, 1 group in flight), 196608 bytes
// CHECK:      {{^}}__global__ void __launch_bounds__(256) tc_gemm_wide_0_kernel(
// CHECK:      {{^}}  float tc_acc[1][32][4] = {};
// CHECK:      {{^}}    tc::wgmma_commit();
// CHECK:      {{^}}    tc_copy_a.issue(0, tc_smem_a + ((c0 + 2) % 4) * 8192, (c0 + 2));
// CHECK:      {{^}}    tc::wgmma_wait<1>(tc_acc[0]);
// CHECK:      {{^}}  tc::wgmma_wait<0>(tc_acc[0]);  // the last tile's wgmma
// CHECK-NEXT: {{^}}  tc::cp_async_wait<0>();

#include <cuda_bf16.h>
#include <cuda_fp16.h>

void gemm_rc(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc stages(3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * (1.0f / __half2float(B[2 * (j * K + k)]));
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_cc_bf16(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
                  const __nv_bfloat16 *__restrict__ B, float *__restrict__ C) {
#pragma tc stages(3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[k * M + i]) * (1.0f / __bfloat162float(B[2 * (j * K + k)]));
      C[i * N + j] = acc;
    }
}

void gemm_wide(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 256, 64) stages(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * (1.0f / __half2float(B[2 * (j * K + k)]));
      C[i * N + j] = __float2half(acc);
    }
}
