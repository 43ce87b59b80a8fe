// --explain prints, per region, the isl model (context, arrays, statements
// with domains and access relations, dependences), the recognised matmul,
// the kernel configuration and the schedule tree after each step. It
// rewrites nothing. The tile clauses fix the configuration (the default
// one is the tool's choice), so that the trees are known.
//
// RUN: %tc-rewrite --mma-path=sync --explain %s | FileCheck %s
// RUN: rm -f %t.cu
// RUN: %tc-rewrite --mma-path=sync --explain %s -o %t.cu | FileCheck %s --check-prefix=STEPS
// RUN: not ls %t.cu

// CHECK:       {{^}}region tc_gemm_0 at gemm.cu:[[@LINE+58]]{{$}}
// CHECK-NEXT:  {{^}}  context:  [M, N, K] -> {  : M >= 0 and N >= 0 and K >= 0 }
// CHECK:       {{^}}  array acc: float (scalar accumulator, expanded over its loops)
// CHECK:       {{^}}  array A: __half, strides [K, 1]
// CHECK:       {{^}}  array B: __half, strides [N, 1]
// CHECK:       {{^}}  array C: __half, strides [N, 1]
//
// The initialisation of the accumulator, in the (i, j) loops.
// CHECK:       {{^}}  S0: 0.0f
// CHECK-NEXT:  {{^}}    domain: [M, N, K] -> { S0[i, j] : {{.*}}0 <= i < M and 0 <= j < N }
// CHECK-NEXT:  {{^}}    write:  [M, N, K] -> { S0[i, j] -> acc[i, j] :
//
// The reduction, delinearised: A[i * K + k] is A[i, k].
// CHECK:       {{^}}  S1: add(R2, mul(__half2float(R0), __half2float(R1)))
// CHECK-NEXT:  {{^}}    domain: [M, N, K] -> { S1[i, j, k] : {{.*}}0 <= i < M and 0 <= j < N and 0 <= k < K }
// CHECK-NEXT:  {{^}}    write:  [M, N, K] -> { S1[i, j, k] -> acc[i, j] :
// CHECK-NEXT:  {{^}}    read R0: [M, N, K] -> { S1[i, j, k] -> A[i, k] :
// CHECK-NEXT:  {{^}}    read R1: [M, N, K] -> { S1[i, j, k] -> B[k, j] :
// CHECK-NEXT:  {{^}}    read R2: [M, N, K] -> { S1[i, j, k] -> acc[i, j] :
//
// The store.
// CHECK:       {{^}}  S2: __float2half(R0)
// CHECK-NEXT:  {{^}}    domain: [M, N, K] -> { S2[i, j] :
// CHECK-NEXT:  {{^}}    write:  [M, N, K] -> { S2[i, j] -> C[i, j] :
// CHECK-NEXT:  {{^}}    read R0: [M, N, K] -> { S2[i, j] -> acc[i, j] :
//
// Dependences: the reduction carries a flow dependence along k only.
// CHECK:       {{^}}  flow dependences: {{.*}}S1[i, j, k] -> S1[i' = i, j' = j, k' = 1 + k]
// CHECK:       {{^}}  anti dependences:
// CHECK:       {{^}}  output dependences:
//
// CHECK:       {{^}}  matmul over (i, j) reducing k: M = M, N = N, K = K
// CHECK-NEXT:  {{^}}    A = A (row-major, leading dimension K), B = B (row-major, leading dimension N), inputs __half, accumulation float
// CHECK-NEXT:  {{^}}    reduction S1, initialisation S0, epilogue S2
// CHECK-NEXT:  {{^}}  kernel: block tile 128x128x32, warp tile 64x64 (4 warps), 4 cp.async stages, mma.sync.m16n8k16 (fp32 accumulation), 65536 bytes of shared memory, sm_90a

// The schedule-tree steps, in order.
// STEPS:      {{^}}  step padToFullTiles
// STEPS:      {{^}}  step initialSchedule
// STEPS:      {{^}}      schedule: "[{ S1[m, n, k] -> [(m)] }, { S1[m, n, k] -> [(n)] }, { S1[m, n, k] -> [(k)] }]"
// STEPS:      {{^}}  step tileForBlocks
// STEPS:      {{^}}      schedule: "[{ S1[m, n, k] -> [(floor((m)/128))] }, { S1[m, n, k] -> [(floor((n)/128))] }, { S1[m, n, k] -> [(floor((k)/32))] }]"
// STEPS:      {{^}}        schedule: "[{ S1[m, n, k] -> [((m) mod 128)] }, { S1[m, n, k] -> [((n) mod 128)] }, { S1[m, n, k] -> [((k) mod 32)] }]"
// STEPS:      {{^}}  step splitReductionTile
// STEPS:      {{^}}  step tileForWarps
// STEPS:      {{^}}  step stripMineReduction
// STEPS:      {{^}}  step contractToMma
// STEPS-NEXT: {{^}}    domain: "{{.*}}S1[m, n, k] : (m) mod 16 = 0 and (n) mod 8 = 0 and (k) mod 16 = 0
// STEPS:      {{^}}  step mapToBlocksAndWarps
// STEPS-NEXT: {{^}}    domain: "[M, N, K, {{.*}}tc_block_m, tc_block_n, tc_warp_m, tc_warp_n] -> {
// STEPS:      {{^}}  step kernel schedule (copies, pipeline, fragment loads, epilogue)
// STEPS:      {{^}}    domain: "{{.*}}CopyA[
// STEPS:      {{^}}      sequence:

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(128, 128, 32) warp(64, 64) stages(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
