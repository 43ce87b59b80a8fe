// The warp-specialised sm_90a kernel: a producer warp fills the stages by
// TMA onto mbarriers, two consumer warpgroups run wgmma from them; blocks
// take whole tiles or parts of k-split tiles (tc/tile_schedule.cuh), whose
// partial sums the last part combines before the epilogue. Where TMA
// cannot map an operand, the producer warp copies the tiles itself.
//
// The first region's default kernel is the sm_90 components' persistent
// one (tc/sm90/gemm_kernel.cuh, tested on the GPU by test/gpu/
// sm90_components_test.cu): an instantiation for its tiles and its
// epilogue functor. The split_k clause splits every tile (second and
// third regions): a scheduler of the components. No region has a cp.async
// kernel.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc' \
// RUN:   --implicit-check-not='{{[a-z]}}_cp_async'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}struct tc_gemm_0_epilogue {
// CHECK-NEXT: {{^}}  long long M;
// CHECK-NEXT: {{^}}  long long N;
// CHECK-NEXT: {{^}}  long long K;
// CHECK-NEXT: {{^}}  const __half *__restrict__ A;
// CHECK-NEXT: {{^}}  const __half *__restrict__ B;
// CHECK-NEXT: {{^}}  __half *__restrict__ C;
// CHECK-NEXT: {{^}}  __device__ void operator()(long long tc_m, long long tc_n, float tc_sum) const {
// CHECK:      {{^}}    C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half(tc_value);
// CHECK:      {{^}}  __device__ void row(long long tc_m, long long tc_n0, const float (&tc_sums)[8]) const {
// CHECK:      {{^}}    tc::store_lane_words<8>(&C[(long long)((tc_m)) * (N) + ((tc_n0))], tc_lanes_0);
// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), persistent blocks {{.*}}, sm_90a
// CHECK-NEXT: {{^}}static void tc_gemm_0_launch(
// CHECK-NOT:  {{^}}__global__ void {{.*}} tc_gemm_0_kernel(
// CHECK:      {{^}}  default:
// CHECK:      {{^}}  if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::MN>,  // B
// CHECK-NEXT: {{^}}          4>,
// CHECK-NEXT: {{^}}      tc::sm90::PersistentScheduler>({M, N, K}, A, K, B, N, tc_gemm_0_epilogue{M, N, K, A, B, C}, tc_stream))
// CHECK-NEXT: {{^}}    tc::report_error(tc::Status::LaunchFailed,
// CHECK-NOT:  tc_gemm_0_cp_async

// The split_k clause: every tile in three parts, by the components' kernels
// with the clause's scheduler (tc::sm90::SplitScheduler: the last part of a
// tile adds the others' from the stream's workspace), in every kernel of
// the region; no persistent blocks, which compute whole tiles. An
// alternative that cannot launch leaves the shape to the default.
// CHECK-NOT:  tc_gemm_split_0_persistent
// CHECK:      {{^}}static void tc_gemm_split_0_launch(
// CHECK-NOT:  persistent
// CHECK:      {{^}}    if (tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK:      {{^}}        tc::sm90::SplitScheduler<3>>({M, N, K}, A, K, B, K, tc_gemm_split_0_epilogue{M, N, K, A, B, C}, tc_stream))
// CHECK-NEXT: {{^}}      return;
// CHECK-NEXT: {{^}}    break;
// CHECK-NOT:  {{^}}__global__ void {{.*}} tc_gemm_split_0_kernel(
// CHECK:      {{^}}  default:
// CHECK:      {{^}}  if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // B
// CHECK-NEXT: {{^}}          3>,
// CHECK-NEXT: {{^}}      tc::sm90::SplitScheduler<3>>({M, N, K}, A, K, B, K, tc_gemm_split_0_epilogue{M, N, K, A, B, C}, tc_stream))
// CHECK-NEXT: {{^}}    tc::report_error(tc::Status::LaunchFailed,
// The third region (split_k(2)), B stored [k][n]: the same scheduler.
// CHECK:      {{^}}static void tc_gemm_parts_0_launch(
// CHECK-NOT:  {{^}}__global__ void {{.*}} tc_gemm_parts_0_kernel(
// CHECK:      {{^}}  default:
// CHECK:      {{^}}      tc::sm90::SplitScheduler<2>>({M, N, K}, A, K, B, N, tc_gemm_parts_0_epilogue{M, N, K, A, B, C}, tc_stream))
// CHECK-NEXT: {{^}}    tc::report_error(tc::Status::LaunchFailed,

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_split(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc split_k(3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}

void gemm_parts(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc split_k(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
