// Few-tile outputs of the GEMM's 64-row TMA kernels (the ones the launcher
// takes for small outputs, tc/tile_choice.cuh) split every tile along k into
// parts launched as one cluster, which add their partial tiles through
// distributed shared memory (tc/cluster_parts.cuh) instead of meeting in L2
// slots; each part then finishes its share of the tile's rows. A kernel
// built for pairs runs those clusters as parts, not pairs: its stages are
// each block's own (tc::unit_blocks is 1 without pairs), so a part with
// fewer k tiles never leaves a producer waiting for its releases. The
// kernels of two and three warpgroups, taken for outputs of a round of
// tiles or more, have no cluster parts.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite %s --explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// The region's kernels are composed of the sm_90 components: the cluster
// parts are ClusterPartsScheduler's (tc/sm90/tile_scheduler.cuh, the
// kernel's side in tc/sm90/gemm_kernel.cuh), with the floor of 12 k tiles
// and, for the kernels built for pairs, PairsScheduler's rule after it.
// The skinny 64x64 kernel (N-major B: outputs of at most 64 columns), not
// built for pairs:
// CHECK:      {{^}}static void tc_gemm_0_launch(
// CHECK:      {{^}}  case 0:  // 64x64 tiles
// CHECK-NEXT: {{^}}    if (tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 64, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 64, tc::sm90::Major::MN>,  // B
// CHECK-NEXT: {{^}}            6>,
// CHECK-NEXT: {{^}}        tc::sm90::ClusterPartsScheduler<12>>({M, N, K}, A, K, B, N, tc_gemm_0_epilogue{M, N, K, A, B, C}, tc_stream))
// The 64x128 kernel: cluster parts, else pairs by its rule (one block an
// SM with 8 stages); B's tile in halves.
// CHECK:      {{^}}  case 4:  // 64x128 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 128, tc::sm90::Major::MN, true>,  // B
// CHECK-NEXT: {{^}}            8>,
// CHECK-NEXT: {{^}}        tc::sm90::ClusterPartsScheduler<12, tc::sm90::PairsScheduler<tc::kPairOneRound>>>(
// The default, persistent 128x128 kernel (whole tiles only): no cluster
// parts.
// CHECK:      {{^}}  default:
// CHECK-NOT:  ClusterParts
// CHECK:      {{^}}      tc::sm90::PersistentScheduler>(
// CHECK-NOT:  ClusterParts
// CHECK:      {{^}}void gemm(

// EXPLAIN: kernel: block tile 64x128x64, 1 warpgroup (4 warps and a producer warp), 8 TMA stages (mbarriers), pairs of blocks sharing B's tile (TMA multicast), few tiles split into parts launched as one cluster each (distributed shared memory adds them)
// EXPLAIN: composed: tc::sm90::launch_gemm<{{.*}}, tc::sm90::ClusterPartsScheduler<12, tc::sm90::PairsScheduler<tc::kPairOneRound>>> with tc_gemm_0_epilogue

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
