// warp_split_k(P): the paper's p-way intra-block split-K. The block has P
// groups of warps; group z computes the same warp tiles over its own
// contiguous share of each k tile's mma steps, and after the main loop
// groups 1..P-1 hand their accumulators to group 0 through the drained
// operand stages. Group 0 then runs the epilogue.
//
// Composed (tc::sm80::CpAsyncMmaMainloop's kWarpsK, after its prologues)
// wherever the mma.sync components take the operands; a generated body
// (isl's mapReductionToWarpGroups: the fragment loaders start at the
// group's share, the unrolled step band runs over it) where they do not,
// here a gathered B.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -c %t.cu -o %t.sm80.o %}

// p = 2 on the default 128x128x64 tile, B gathered (every other element
// of its row): a generated body. 8 warps (256 threads), 2 of the 4 k steps
// per group (one fragment buffer: the gathered copies hold registers);
// 64 KiB of partial sums fit in the 96 KiB of stages.
// CHECK:      {{^}}//   block tile 128x128x64, warp tile 64x64 (8 warps), intra-block split-K p=2, 3 cp.async stages, {{.*}}98304 bytes of shared memory
// CHECK:      {{^}}__global__ void __launch_bounds__(256) tc_gemm_wsk2_0_kernel(
// CHECK:      {{^}}  const int tc_warp_k = tc_thread / 32 / 4;
// CHECK-NEXT: {{^}}  const int tc_warp_m = tc_thread / 32 / 2 % 2, tc_warp_n = tc_thread / 32 % 2;
// CHECK:      {{^}}  ::float4 *tc_partial = reinterpret_cast<::float4 *>(tc_smem);
// CHECK:      {{^}}  ::uint32_t tc_frag_a[1][4][4];
// CHECK-NEXT: {{^}}  tc::FragmentLoader<tc::FragmentLayout::AKContiguous, 64, 4, 2> tc_frag_load_a;
// CHECK-NEXT: {{^}}  tc_frag_load_a.setup(64 * tc_warp_m, 2 * tc_warp_k);
// CHECK-NEXT: {{^}}  tc::FragmentLoader<tc::FragmentLayout::BNContiguous, 128, 4, 2> tc_frag_load_b;
// CHECK-NEXT: {{^}}  tc_frag_load_b.setup(64 * tc_warp_n, 2 * tc_warp_k);
// The steady state: the group's two k steps per iteration (steps 0 and 1
// of its loader), each loaded just before its mma.
// CHECK:      {{^}}  for (int c0 = tc_k_begin; c0 < {{.*}}; c0 += 1) {
// CHECK:      {{^ *}}tc_frag_load_a.load(tc_frag_a[0][c2], tc_smem_a + (c0 % 3) * 8192, c2, 0);
// CHECK:      {{^ *}}tc::mma_m16n8k16_f16(tc_acc[c2][c3], tc_frag_a[0][c2], tc_frag_b[0][c3]);
// CHECK:      {{^ *}}tc_frag_load_a.load(tc_frag_a[0][c2], tc_smem_a + (c0 % 3) * 8192, c2, 1);
// CHECK:      {{^ *}}tc::mma_m16n8k16_f16(tc_acc[c2][c3], tc_frag_a[0][c2], tc_frag_b[0][c3]);
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

// Composed: p = 4 on a 64x64x64 tile with 32x32 warp tiles (16 warps,
// one k step per group); p = 2 with split_k(2) on a 64x64x32 tile, 2
// stages (the launch's parts: 2).
// CHECK:      {{^}}static void tc_gemm_wsk4_0_launch(
// CHECK:      {{^ *}}tc::sm80::OperandTile<__half, 64, tc::sm80::Major::K>,  // A
// CHECK-NEXT: {{^ *}}tc::sm80::OperandTile<__half, 64, tc::sm80::Major::MN>,  // B
// CHECK-NEXT: {{^ *}}64, 3, 2, 2, tc::NoPrologue, tc::NoPrologue, 4>>(
// CHECK-NEXT: {{^ *}}{M, N, K}, A, K, B, N, tc_gemm_wsk4_0_epilogue{M, N, K, A, B, C}, tc_stream)
// CHECK:      {{^}}static void tc_gemm_wsk2_split_0_launch(
// CHECK:      {{^ *}}32, 2, 2, 2, tc::NoPrologue, tc::NoPrologue, 2>>(
// CHECK-NEXT: {{^ *}}{M, N, K}, A, K, B, N, tc_gemm_wsk2_split_0_epilogue{M, N, K, A, B, C}, tc_stream, 2)
// CHECK-NOT:  __global__

#include <cuda_fp16.h>

void gemm_wsk2(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc warp_split_k(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * 2 * N + 2 * j]);
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
