// An fp32 region with B stored N-major whose output's sizes the source
// fixes: the hand-over's choice (tc::prefer_transposed_copies) is known
// when rewriting, and only the family the launcher would take is
// generated: mma.sync for 64 rows (the product reads B once), the wgmma
// kernels on a transposed copy for 512.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}if (!tc::prefer_transposed_copies'
// RUN: %tc-rewrite --arch=sm_90a --explain %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// EXPLAIN-LABEL: region tc_rows64_0
// EXPLAIN:       sizes fixed (64 x 100 outputs): the transposed copy would not pay (tc::prefer_transposed_copies): mma.sync only
// EXPLAIN-LABEL: region tc_rows512_0
// EXPLAIN:       sizes fixed (512 x 384 outputs): the wgmma kernels on a transposed copy only

// CHECK:     {{^}}struct tc_rows64_0_epilogue {
// CHECK-NOT: tc_rows64_0_sync
// CHECK:     {{^}}void rows64(
// CHECK:     {{^}}static void tc_rows512_0_launch(
// CHECK-NOT: tc_rows512_0_sync
// CHECK:     tc::sm90::OperandTile<float, {{[0-9]+}}, tc::sm90::Major::K, {{true|false}}, true>,  // B
// CHECK:     {{^}}void rows512(

constexpr int kRows64 = 64, kRows512 = 512;

void rows64(int K, const float *__restrict__ A, const float *__restrict__ B,
            float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < kRows64; ++i)
    for (int j = 0; j < 100; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * 100 + j];
      C[i * 100 + j] = acc;
    }
}

void rows512(int K, const float *__restrict__ A, const float *__restrict__ B,
             float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < kRows512; ++i)
    for (int j = 0; j < 384; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * 384 + j];
      C[i * 384 + j] = acc;
    }
}
