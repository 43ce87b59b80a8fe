// tf32 with warp_split_k: the default warp tile (64x32) makes eight warps
// a group, too many for two groups' registers (test/diagnostics/
// warp-split-k.cu); with the warp(64, 64) the diagnostic's note names,
// the region is rewritten on mma.sync (the clause keeps it off wgmma).
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// The mma.sync components' kernel: two groups of four warps over k, fp32
// operands read as tf32.
// CHECK-NOT: {{^}}__global__
// CHECK: {{^ *}}tc::sm80::OperandTile<float, 128, tc::sm80::Major::K>,  // A
// CHECK-NEXT: {{^ *}}tc::sm80::OperandTile<float, 128, tc::sm80::Major::K>,  // B
// CHECK-NEXT: {{^ *}}32, 3, 2, 2, tc::NoPrologue, tc::NoPrologue, 2>>(
// CHECK: {{^}}void xwt_split(
// CHECK: {{^  }}tc_xwt_split_0_launch(M, N, K, X, W, Y, 0);

void xwt_split(int M, int N, int K, const float *__restrict__ X, const float *__restrict__ W,
               float *__restrict__ Y) {
#pragma tc allow_tf32 warp(64, 64) warp_split_k(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += X[i * K + k] * W[j * K + k];
      Y[i * N + j] = acc;
    }
}
