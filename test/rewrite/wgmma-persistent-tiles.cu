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
// beside their accumulators. Each of those two runs a loop over the units
// of its own: code after a resize is not shared. 16 warps start at 128
// registers a thread (with two epilogue warpgroups, 20 warps started at
// 96 and ptxas serialised the consumers' wgmma, C7512). Taken for longer
// reductions than the plain kernel (prefer_persistent_fragment_tiles).
// CHECK:      {{^}}//   block tile 128x128x64, 2 warpgroups (8 warps and a producer warpgroup; setmaxnreg: 40 registers a producer thread, 64 an epilogue thread, 200 a consumer's), 4 TMA stages (mbarriers), persistent blocks (one per SM, whole tiles in turn; an epilogue warpgroup stores each tile from a buffer of its own), {{.*}}, 200784 bytes of shared memory, sm_90a
// CHECK-NEXT: {{^}}__global__ void __launch_bounds__(512, 1) tc_relu_a_gemm_0_persistent_kernel(
// CHECK:      {{^}}    tc::mbarrier_init(tc_out_empty, 128);  // one per epilogue thread
// CHECK:      {{^}}  int tc_k_origin = 0;
// CHECK-NEXT: {{^}}  if (::threadIdx.x >= 384) {  // the epilogue warpgroup: registers of its own
// CHECK-NEXT: {{^}}    tc::release_registers<64>();
// CHECK-NEXT: {{^}}    for (int tc_unit = 0; tc::unit_work<8>(
// CHECK:      {{^}}      tc::mbarrier_wait(tc_out_full, tc_unit % 2);
// CHECK:      {{^}}      tc::mbarrier_arrive(tc_out_empty);
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}    return;
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  if (::threadIdx.x >= 256) {  // the producer warpgroup: few registers
// CHECK-NEXT: {{^}}    tc::release_registers<40>();
// CHECK:      {{^}}  tc::claim_registers<200>();  // the consumers' share
// CHECK:      {{^}}    ::uint32_t tc_frag_a[2][4][4];  // by the tile's parity
// CHECK:      {{^}}      tc::wgmma_m64k16_rs<
// CHECK:      {{^}}static void tc_relu_a_gemm_0_persistent_launch(
// CHECK:      {{^}}  tc_relu_a_gemm_0_persistent_kernel<<<(unsigned)tc::schedule_blocks(tc_schedule), 512, tc_smem_bytes, tc_stream>>>(
// CHECK-LABEL: {{^}}static void tc_relu_a_gemm_0_launch(
// CHECK:      {{^}}      {tc::KernelRule::PersistentFragmentTiles},  // tc_relu_a_gemm_0_persistent
// CHECK:      {{^}}  case 6:  // 128x128 tiles
// CHECK-NEXT: {{^}}    return tc_relu_a_gemm_0_persistent_launch(M, N, K, A, B, C, tc_stream);
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
