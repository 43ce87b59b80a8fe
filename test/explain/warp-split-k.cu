// --explain with warp_split_k(2): the kernel line names the intra-block
// split-K, the compute decomposition ends with mapReductionToWarpGroups (the
// warp group parameter tc_warp_k takes k steps [2 tc_warp_k, 2 tc_warp_k + 1]
// of each 4-step k tile), and the kernel schedule has the reduction of the
// groups' accumulators as a step of its own.
//
// RUN: %tc-rewrite --explain %s | FileCheck %s

// CHECK:      {{^}}region tc_gemm_0 at warp-split-k.cu:[[@LINE+18]]{{$}}
// CHECK:      {{^}}  kernel: block tile 128x128x64, warp tile 64x64 (8 warps), intra-block split-K p=2, 3 cp.async stages,
// CHECK:      {{^}}  step mapToBlocksAndWarps
// CHECK:      {{^}}  step mapReductionToWarpGroups (intra-block split-K p=2)
// CHECK-NEXT: {{^}}    domain: "[M, N, K, tc_block_m, tc_block_n, tc_warp_m, tc_warp_n, tc_warp_k] -> { S1[m, n, k] : {{.*}}0 <= tc_warp_k <= 1 and {{.*}}-31 - 32tc_warp_k + k <= 64*floor((k)/64) <= -32tc_warp_k + k
// CHECK:      {{^}}  step insertWarpGroupReduction (intra-block split-K p=2)
// CHECK-NEXT: {{^}}    domain: {{.*}}PartialSync[]; PartialAdd[z = 1, mt, nt] : tc_warp_k = 0 and 0 <= mt <= 3 and 0 <= nt <= 7; PartialStore[z = tc_warp_k, mt, nt] : tc_warp_k > 0 and 0 <= mt <= 3 and 0 <= nt <= 7 }"
// CHECK:      {{^}}  step kernel schedule (copies, pipeline, fragment loads, epilogue)
// The main loop's step band runs over the group's share (kk mod 2); the
// fragments of local step 0 are loaded in step 1 of the previous iteration.
// CHECK:      {{^ *}}schedule: "[{ LoadB[t, kk, np] -> [(1 - (kk) mod 2)]; {{.*}}; Wait[t] -> [(1)]; Mma[t, kk, mt, nt] -> [((kk) mod 2)];
// CHECK:      {{.*}}PartialStore[z, mt, nt]
// CHECK:      {{.*}}PartialAdd[z, mt, nt]

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
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
