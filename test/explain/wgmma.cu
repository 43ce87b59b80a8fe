// --explain names the main loop's instruction family and why: wgmma fed by
// TMA for a plain f16 GEMM on sm_90a, whose compute decomposition tiles by warpgroup
// (64 x BN) and contracts to one point per m64n128k16; wgmma with A from
// registers for a prologue on A in the cp.async kernel; a prologue on B
// applied to the landed stages; mma.sync where the arch rules wgmma out.
//
// RUN: %tc-rewrite --explain %s | FileCheck %s
// RUN: %tc-rewrite --explain --arch=sm_80 %s | FileCheck %s --check-prefix=SM80
// RUN: %tc-rewrite --explain --mma-path=sync %s | FileCheck %s --check-prefix=SYNC
// RUN: not %tc-rewrite --explain --mma-path=tcgen05 %s 2>&1 | FileCheck %s --check-prefix=USAGE

// CHECK:      {{^}}region tc_gemm_0 at wgmma.cu:[[@LINE+47]]{{$}}
// CHECK:      {{^}}  kernel: block tile 128x128x64, 2 warpgroups (8 warps and a producer warp), 4 TMA stages (mbarriers), persistent blocks {{.*}}, wgmma.mma_async.m64n128k16
// CHECK-NEXT: {{^}}  main loop: wgmma: sm_90a, f16/bf16 operands; A K-major, B N-major stages; TMA stages filled by a producer warp (where TMA cannot map an operand, even through an aligned copy: the producer warp copying, or a generated kernel's cp.async twin){{$}}
// CHECK:      {{^}}  step tileForWarps (warpgroups: 64 x BN){{$}}
// CHECK:      {{^}}  step contractToMma (one point per m64n128k16 wgmma){{$}}
// CHECK-NEXT: {{^}}    domain: {{.*}}(m) mod 64 = 0 and (n) mod 128 = 0 and (k) mod 16 = 0
// CHECK:      {{^}}  step mapToBlocksAndWarps (warpgroups){{$}}
// CHECK-NEXT: {{^}}    domain: "[M, N, K, tc_block_m, tc_block_n, tc_warpgroup] -> { S1[m = 128tc_block_m + 64tc_warpgroup, n = 128tc_block_n, k] :
// The producer thread's loop: wait for the stage's release (not in the
// first round of stages), then the TMA copies of tile t.
// CHECK:      {{^}}  step producer schedule (TMA copies into the stages){{$}}
// CHECK:      {{^ *}}schedule: "[{ EmptyWait[t] -> [(t)]; TmaLoad[t] -> [(t)] }]"
// CHECK:      {{^}}  step consumer schedule (wgmma pipeline, epilogue){{$}}
// CHECK:      {{^ *}}schedule: "[{ {{.*}}Wgmma[t, kk] -> [(t)]
// The persistent kernel is also the fallback of the others: its producer
// warp copies the tiles where TMA cannot map an operand.
// CHECK:      {{^}}  where TMA cannot map an operand (not even through an aligned copy), or K = 0: tc_gemm_0, its producer warp copying the tiles{{$}}

// ReLU on A: the region's kernels are composed of the components
// (tc/sm90/roles.cuh). The default is the persistent one, A from registers
// (loaded by ldmatrix from each landed stage and transformed there) beside
// a producer warpgroup and one epilogue warpgroup; it is also the others'
// fallback (no cp.async kernel). The 192x192 tiles, whose three
// warpgroups leave no registers for fragments, convert each warpgroup's
// rows of each landed stage in place.
// CHECK:      {{^}}region tc_relu_a_0 at wgmma.cu:{{[0-9]+}}{{$}}
// CHECK:      {{^}}  kernel: block tile 128x128x64, 2 warpgroups (8 warps and a producer warpgroup; setmaxnreg: 56 registers a producer thread, 48 an epilogue thread, 200 a consumer's), 4 TMA stages (mbarriers), persistent blocks
// CHECK-NEXT: {{^}}  main loop: wgmma: {{.*}}; A from registers, its prologue applied to each thread's wgmma fragments
// CHECK-NEXT: {{^}}  composed: tc::sm90::launch_gemm<{{.*}}, 4, tc::sm90::RegisterA<tc_relu_a_0_prologue_a>, tc::sm90::ProducerWarpgroup<56, 200, 48>>, tc::sm90::PersistentScheduler> with tc_relu_a_0_epilogue{{$}}
// CHECK:      {{^}}  where TMA cannot map an operand (not even through an aligned copy), or K = 0: tc_relu_a_0, its producer warp copying the tiles{{$}}
// CHECK:      {{^}}  main loop: wgmma: {{.*}}; A's prologue applied by each consumer warpgroup to its rows of each landed stage
// CHECK-NEXT: {{^}}  composed: tc::sm90::launch_gemm<{{.*}}OperandTile<__half, 192, {{.*}}, tc::sm90::SharedOperands<tc_relu_a_0_prologue_a>>, tc::sm90::TilesScheduler> with tc_relu_a_0_epilogue{{$}}
// ReLU on B: wgmma reads B from shared memory, where all consumers apply
// the prologue to each landed stage before the wgmma.
// CHECK:      {{^}}region tc_relu_b_0 at wgmma.cu:{{[0-9]+}}{{$}}
// CHECK:      {{^}}  main loop: wgmma: sm_90a, f16/bf16 operands; A K-major, B K-major stages; TMA stages filled by a producer warp (where TMA cannot map an operand, even through an aligned copy: the producer warp copying, or a generated kernel's cp.async twin); B's prologue applied by the consumers to each landed stage{{$}}
// CHECK:      {{^}}  step consumer schedule (wgmma pipeline, epilogue){{$}}
// CHECK:      {{^ *}}- filter: "{{.*}} -> { ConvertStage[i0] }"

// SM80:       {{^}}  main loop: mma.sync: wgmma needs sm_90a; sm_80 has mma.sync{{$}}
// SYNC:       {{^}}  main loop: mma.sync: requested{{$}}
// USAGE:      tc-rewrite: unknown --mma-path 'tcgen05' (auto, sync, wgmma)

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

void relu_a(int M, int N, int K, const __half *__restrict__ A,
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

void relu_b(int M, int N, int K, const __half *__restrict__ A,
            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * fmaxf(__half2float(B[j * K + k]), 0.0f);
      C[i * N + j] = acc;
    }
}
