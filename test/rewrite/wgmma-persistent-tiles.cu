// The 128x128 TMA tiles as persistent blocks: one block per SM computes
// whole tiles b, b + SMs, ... in turn (schedule_persistent_tiles,
// unit_work), with 4 stages and an fp32 output buffer of its own after
// them. For a plain region it is the sm_90 components'
// persistent_gemm_kernel (PersistentScheduler, tc/sm90/gemm_kernel.cuh),
// and the region's default kernel: the consumers stage each tile's sums in
// the buffer and go on with the next tile, while two epilogue warpgroups
// store it through the region's epilogue functor (BufferedEpilogue,
// tc/sm90/epilogue.cuh); the stages are one ring across the block's tiles.
// No parts to combine, no workspace, and no cp.async kernel: where TMA
// cannot map an operand its producer warp copies the tiles, for the other
// kernels too, which fall through to it.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc' \
// RUN:   --implicit-check-not='_persistent{{_}}cp_async'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTXAS --allow-empty %}
// No kernel's wgmma serialised for want of registers (C7511, C7512).
// PTXAS-NOT: C751

#include <cuda_fp16.h>

// Its launcher ends in the persistent kernel; no 64x128 tiles of two
// blocks per SM (their shapes take it).
// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), persistent blocks {{.*}}, sm_90a
// CHECK-NEXT: {{^}}static void tc_gemm_0_launch(
// CHECK:      {{^}}      {tc::KernelRule::DeepNarrowTiles},  // tc_gemm_0_narrow_deep
// CHECK-NEXT: {{^}}  };
// CHECK:      {{^}}  default:
// CHECK:      {{^}}  if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // B
// CHECK-NEXT: {{^}}          4>,
// CHECK-NEXT: {{^}}      tc::sm90::PersistentScheduler>({M, N, K}, A, K, B, K, tc_gemm_0_epilogue{M, N, K, A, B, C}, tc_stream))
// CHECK-NEXT: {{^}}    tc::report_error(tc::Status::LaunchFailed,
void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

// ReLU on A: a persistent kernel whose consumers apply it to wgmma's A
// fragments (two buffers by the tile's parity, as the 128x256 tiles do),
// beside a producer warpgroup and one epilogue warpgroup that both resize
// their registers (setmaxnreg) so that the consumers hold the fragments
// beside their accumulators (tc/sm90/roles.cuh: RegisterA,
// ProducerWarpgroup; each role runs a loop over the tiles of its own, as
// code after a resize is not shared). The producer keeps 56 registers (its
// copying path spilled at 40), the epilogue warpgroup 48, the consumers
// 200. The region's default, as for the plain GEMM.
// CHECK-LABEL: {{^}}static void tc_relu_a_gemm_0_launch(
// CHECK-NOT:   KernelRule::Persistent
// CHECK:       {{^}}  default:
// CHECK:       {{^ *}}tc::sm90::RegisterA<tc_relu_a_gemm_0_prologue_a>, tc::sm90::ProducerWarpgroup<56, 200, 48>>,
// CHECK-NEXT:  {{^ *}}tc::sm90::PersistentScheduler>({M, N, K}, A, K, B, K, tc_relu_a_gemm_0_epilogue{M, N, K, A, B, C}, tc_stream))
void relu_a_gemm(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}
