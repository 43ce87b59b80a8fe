// warp_split_k(P): the paper's p-way intra-block split-K. The block has P
// groups of warps; group tc_warp_k computes the same warp tiles over its
// own contiguous share of each k tile's mma steps (the fragment loaders
// start at that share, the unrolled step band runs over it), and after the
// main loop groups 1..P-1 hand their accumulators to group 0 through the
// drained operand stages. Group 0 then runs the epilogue.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -c %t.cu -o %t.sm80.o %}

// p = 2 on the default 128x128x64 tile: 8 warps (256 threads), 2 of the 4
// k steps per group (still even: double-buffered fragments); 64 KiB of
// partial sums fit in the 96 KiB of stages.
// CHECK:      {{^}}//   block tile 128x128x64, warp tile 64x64 (8 warps), intra-block split-K p=2, 3 cp.async stages, {{.*}}98304 bytes of shared memory
// CHECK:      {{^}}__global__ void __launch_bounds__(256) tc_gemm_wsk2_0_kernel(
// CHECK:      {{^}}  const int tc_warp_k = tc_thread / 32 / 4;
// CHECK-NEXT: {{^}}  const int tc_warp_m = tc_thread / 32 / 2 % 2, tc_warp_n = tc_thread / 32 % 2;
// CHECK:      {{^}}  ::float4 *tc_partial = reinterpret_cast<::float4 *>(tc_smem);
// CHECK:      {{^}}  ::uint32_t tc_frag_a[2][4][4];
// CHECK-NEXT: {{^}}  tc::FragmentLoader<tc::FragmentLayout::AKContiguous, 64, 4, 2> tc_frag_load_a;
// CHECK-NEXT: {{^}}  tc_frag_load_a.setup(64 * tc_warp_m, 2 * tc_warp_k);
// CHECK-NEXT: {{^}}  tc::FragmentLoader<tc::FragmentLayout::BNContiguous, 128, 4, 2> tc_frag_load_b;
// CHECK-NEXT: {{^}}  tc_frag_load_b.setup(64 * tc_warp_n, 2 * tc_warp_k);
// The steady state: two k steps per iteration, fragments of step 1 loaded
// while step 0's mma run (buffers 1 and 0).
// CHECK:      {{^}}  for (int c0 = tc_k_begin; c0 < {{.*}}; c0 += 1) {
// CHECK:      {{^ *}}tc_frag_load_a.load(tc_frag_a[1][c2], tc_smem_a + (c0 % 3) * 8192, c2, 1);
// CHECK:      {{^ *}}tc::mma_m16n8k16_f16(tc_acc[c2][c3], tc_frag_a[0][c2], tc_frag_b[0][c3]);
// CHECK:      {{^ *}}tc_frag_load_a.load(tc_frag_a[0][c2], tc_smem_a + ((c0 + 1) % 3) * 8192, c2, 0);
// CHECK:      {{^ *}}tc::mma_m16n8k16_f16(tc_acc[c2][c3], tc_frag_a[1][c2], tc_frag_b[1][c3]);
// CHECK-NOT:  tc_frag_load_a.load({{.*}}, c2, 2);
// The reduction, unconditional, after the drain; then group 0's epilogue,
// through the staged output tile stored by all 256 threads.
// CHECK:      {{^}}  tc::cp_async_wait<0>();  // the operand stages become the partial sums
// CHECK-NEXT: {{^}}  __syncthreads();
// CHECK-NEXT: {{^}}  if (tc_warp_k == 1) {
// CHECK:      {{^ *}}tc::store_partial(tc_partial + ((((((2048 * tc_warp_m) + (1024 * tc_warp_n)) + (4 * tc_lane_row)) + tc_lane_col) + (256 * c0)) + (32 * c1)), tc_acc[c0][c1]);
// CHECK:      {{^}}  __syncthreads();  // the partial sums of warp group 1 are in shared memory
// CHECK-NEXT: {{^}}  if (tc_warp_k == 0) {
// CHECK:      {{^ *}}tc::add_partial(tc_acc[c1][c2], tc_partial + ((((((2048 * tc_warp_m) + (1024 * tc_warp_n)) + (4 * tc_lane_row)) + tc_lane_col) + (256 * c1)) + (32 * c2)));
// CHECK:      {{^}}  __syncthreads();  // the output tile reuses the partial sums' memory
// CHECK-NEXT: {{^}}  if (tc_warp_k == 0) {
// CHECK:      {{^ *}}*reinterpret_cast<::float2 *>(tc_stage + {{.*}}) = ::make_float2(tc_acc[c0][c1][(2 * c2)], tc_acc[c0][c1][(2 * c2) + 1]);
// CHECK:      {{^}}  __syncthreads();
// CHECK-NEXT: {{^}}  #pragma unroll 4
// CHECK-NEXT: {{^}}  for (int c0 = 0; c0 <= 63; c0 += 1) {
// CHECK:      {{^}}static void tc_gemm_wsk2_0_launch(
// CHECK:      {{^ *}}constexpr int tc_smem_bytes = 98304;
// CHECK:      {{^ *}}tc_gemm_wsk2_0_kernel<{{.*}}><<<tc_grid, 256, tc_smem_bytes, tc_stream>>>(

// p = 4 on a 64x64x64 tile with 32x32 warp tiles: 16 warps (512 threads),
// one k step per group (odd: one fragment buffer); 48 KiB of partial sums
// in the 48 KiB of stages, slot z - 1 for group z; group 0 adds them in the
// order of z.
// CHECK:      {{^}}//   block tile 64x64x64, warp tile 32x32 (16 warps), intra-block split-K p=4, 3 cp.async stages, {{.*}}49152 bytes of shared memory
// CHECK:      {{^}}__global__ void __launch_bounds__(512) tc_gemm_wsk4_0_kernel(
// CHECK:      {{^}}  const int tc_warp_k = tc_thread / 32 / 4;
// CHECK-NEXT: {{^}}  const int tc_warp_m = tc_thread / 32 / 2 % 2, tc_warp_n = tc_thread / 32 % 2;
// CHECK:      {{^}}  ::uint32_t tc_frag_a[1][2][4];
// CHECK-NEXT: {{^}}  tc::FragmentLoader<tc::FragmentLayout::AKContiguous, 64, 2, 1> tc_frag_load_a;
// CHECK-NEXT: {{^}}  tc_frag_load_a.setup(32 * tc_warp_m, 1 * tc_warp_k);
// CHECK:      {{^}}  tc::cp_async_wait<0>();  // the operand stages become the partial sums
// CHECK-NEXT: {{^}}  __syncthreads();
// CHECK-NEXT: {{^}}  if (tc_warp_k >= 1) {
// CHECK:      {{^ *}}tc::store_partial(tc_partial + {{.*}}(1024 * tc_warp_k){{.*}} - 1024), tc_acc[c0][c1]);
// CHECK:      {{^}}  __syncthreads();  // the partial sums of warp groups 1..3 are in shared memory
// CHECK-NEXT: {{^}}  if (tc_warp_k == 0) {
// CHECK-NEXT: {{^}}    #pragma unroll
// CHECK-NEXT: {{^}}    for (int c0 = 1; c0 <= 3; c0 += 1) {
// CHECK:      {{^ *}}tc::add_partial(tc_acc[c1][c2], tc_partial + {{.*}}(1024 * c0){{.*}} - 1024));
// CHECK:      {{^}}  __syncthreads();  // the output tile reuses the partial sums' memory
// CHECK:      {{^}}static void tc_gemm_wsk4_0_launch(
// CHECK:      {{^ *}}tc_gemm_wsk4_0_kernel<{{.*}}><<<tc_grid, 512, tc_smem_bytes, tc_stream>>>(

// p = 2 with split_k(2) on a 64x64x32 tile, 2 stages: the fp32 output tile
// (18 KiB) does not fit in the 16 KiB of stages, so group 0 stores from its
// registers, right after adding the partial sums (no further barrier); the
// block's partial sum for the inter-block split-K is that reduced value.
// CHECK:      {{^}}//   block tile 64x64x32, warp tile 32x32 (8 warps), intra-block split-K p=2, 2 cp.async stages, {{.*}}16384 bytes of shared memory
// CHECK:      {{^}}__global__ void __launch_bounds__(256) tc_gemm_wsk2_split_0_kernel(
// CHECK-NOT:  tc_stage
// CHECK:      {{^}}  tc::cp_async_wait<0>();  // the operand stages become the partial sums
// CHECK-NEXT: {{^}}  __syncthreads();
// CHECK-NEXT: {{^}}  if (tc_warp_k == 1) {
// CHECK:      {{^}}  __syncthreads();  // the partial sums of warp group 1 are in shared memory
// CHECK-NEXT: {{^}}  if (tc_warp_k == 0) {
// CHECK:      {{^ *}}tc::add_partial(
// CHECK-NOT:  __syncthreads
// CHECK:      {{^ *}}const float tc_sum = tc_acc[c0][c1][((2 * c2) + c3)];
// CHECK:      {{^ *}}tc_workspace[((long long)::blockIdx.z * (M) + tc_m) * (N) + tc_n] = tc_sum;
// CHECK-NOT:  __syncthreads
// CHECK:      {{^}}static void tc_gemm_wsk2_split_0_launch(
// CHECK:      {{^ *}}int tc_splits = 2;  // split_k clause
// CHECK:      {{^ *}}tc_gemm_wsk2_split_0_kernel<{{.*}}><<<tc_grid, 256, tc_smem_bytes, tc_stream>>>(

#include <cuda_fp16.h>

void gemm_wsk2(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc warp_split_k(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_wsk4(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64, 64, 64) warp(32, 32) warp_split_k(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_wsk2_split(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64, 64, 32) warp(32, 32) stages(2) warp_split_k(2) split_k(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
