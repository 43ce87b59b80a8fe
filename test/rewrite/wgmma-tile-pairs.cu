// The 128x256 and 64x128 TMA kernels run as pairs of blocks (clusters of two) whose
// tiles (m, n) and (m + 1, n) share B's tile, each block copying half of it
// into both blocks' stages by TMA multicast (tc/cluster.cuh), where the
// launcher's schedule takes pairs (tc::schedule_tile_pairs). The kernels
// are composed of the sm_90 components: B's tile type copies in halves
// (OperandTile's last argument), and PairsScheduler<rule, stream units>
// takes pairs by each kernel's rule (tc::PairRule); unpaired, only the
// 128x256 kernel, which loops over stream units, may get them. The kernel
// side (empty barriers counting both blocks' consumers, cluster_sync before
// the first copy, releases only of refilled stages) is
// tc/sm90/mainloop.cuh's and tc/sm90/gemm_kernel.cuh's, tested on the GPU
// by test/gpu/sm90_components_test.cu. The 128x128 kernel (persistent
// blocks, the region's default) stays unpaired.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// B K-major: its rows in two boxes of half the tile, the fitted widths
// (224, 192, 176; 112 and 96 for 64-row tiles) too.
// CHECK:      {{^}}static void tc_gemm_kmajor_0_launch(
// CHECK:      {{^}}  case 2:  // 128x224 tiles
// CHECK-NEXT: {{^}}    if (tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 224, tc::sm90::Major::K, true>,  // B
// CHECK-NEXT: {{^}}            4>,
// CHECK-NEXT: {{^}}        tc::sm90::PairsScheduler<tc::kPairWideTiles, true>>({M, N, K}, A, K, B, K, tc_gemm_kmajor_0_epilogue{M, N, K, A, B, C}, tc_stream))
// CHECK-NEXT: {{^}}      return;
// CHECK-NEXT: {{^}}    break;
// CHECK:      {{^}}  case 5:  // 128x256 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 256, tc::sm90::Major::K, true>,  // B
// CHECK-NEXT: {{^}}            4>,
// CHECK-NEXT: {{^}}        tc::sm90::PairsScheduler<tc::kPairWideTiles, true>>(
// CHECK:      {{^}}  case 6:  // 64x112 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 112, tc::sm90::Major::K, true>,  // B
// CHECK-NEXT: {{^}}            8>,
// CHECK-NEXT: {{^}}        tc::sm90::ClusterPartsScheduler<12, tc::sm90::PairsScheduler<tc::kPairOneRound>>>(
// The 64x128 kernel of one block per SM (8 stages), by its rule; its
// few-tile outputs run as clusters of a tile's parts
// (rewrite/wgmma-cluster-parts.cu), else by the pairs' rule.
// CHECK:      {{^}}  case 8:  // 64x128 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K, true>,  // B
// CHECK-NEXT: {{^}}            8>,
// CHECK-NEXT: {{^}}        tc::sm90::ClusterPartsScheduler<12, tc::sm90::PairsScheduler<tc::kPairOneRound>>>(
// The 128x128 kernel: persistent blocks, B's tile whole.
// CHECK:      {{^}}  default:
// CHECK:      {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // B
// CHECK-NEXT: {{^}}          4>,
// CHECK-NEXT: {{^}}      tc::sm90::PersistentScheduler>({M, N, K},
void gemm_kmajor(int M, int N, int K, const __half *__restrict__ A,
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

// B N-major: its 64-column panels, half of them copied by each block of a
// pair; only whole panels split so (the 128x192 kernel takes no pairs).
// CHECK:      {{^}}static void tc_gemm_nmajor_0_launch(
// CHECK:      {{^}}  case 2:  // 128x192 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 192, tc::sm90::Major::MN>,  // B
// CHECK-NEXT: {{^}}            4>,
// CHECK-NEXT: {{^}}        tc::sm90::StreamUnitsScheduler>(
// CHECK:      {{^}}  case 3:  // 128x256 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 256, tc::sm90::Major::MN, true>,  // B
// CHECK-NEXT: {{^}}            4>,
// CHECK-NEXT: {{^}}        tc::sm90::PairsScheduler<tc::kPairWideTiles, true>>({M, N, K}, A, K, B, N,
// CHECK:      {{^}}  case 4:  // 64x128 tiles
// CHECK:      {{^}}            tc::sm90::OperandTile<__half, 128, tc::sm90::Major::MN, true>,  // B
void gemm_nmajor(int M, int N, int K, const __half *__restrict__ A,
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
