// fp32 operands under allow_tf32 stored M- or N-major, where wgmma is
// asked for (the mma(wgmma) clause here; --mma-path=wgmma alike): wgmma
// reads tf32 operands K-major only, so the launch stages such an operand
// from a transposed copy it makes each time (a read and a write of the
// operand) for every shape; by default only where the copy pays
// (gemm-tf32-wgmma.cu: at small M it costs more than the product,
// docs/results/tf32-components-2026-12-06.md). A batch is not staged so:
// the clause is then an error.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a --explain %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: not %tc-rewrite --arch=sm_90a --extra-arg=-DTC_TEST_BATCH %s -o %t.batch.cu 2>&1 | FileCheck %s --check-prefix=BATCH

// B stored N-major, staged K-major (OperandTile's last argument).
// EXPLAIN-LABEL: region tc_nn_wgmma_0
// EXPLAIN:       (B stored N-major: staged from a transposed copy made at each launch)
// CHECK-LABEL: {{^}}static void tc_nn_wgmma_0_launch(
// CHECK-NOT:   prefer_transposed_copies
// CHECK:       {{^  }}if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT:  {{^ +}}tc::sm90::OperandTile<float, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT:  {{^ +}}tc::sm90::OperandTile<float, 128, tc::sm90::Major::K, false, true>,  // B
void nn_wgmma(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
              float *__restrict__ C) {
#pragma tc allow_tf32 mma(wgmma)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// EXPLAIN-LABEL: region tc_cc_wgmma_0
// EXPLAIN:       main loop: wgmma: sm_90a, tf32 operands (rounded to nearest first, {{.*}}); A K-major, B K-major stages (A stored M-major: staged from a transposed copy made at each launch)
// CHECK-LABEL: {{^}}static void tc_cc_wgmma_0_launch(
// CHECK:       {{^  }}if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT:  {{^ +}}tc::sm90::OperandTile<float, 128, tc::sm90::Major::K, false, true>,  // A
// CHECK-NEXT:  {{^ +}}tc::sm90::OperandTile<float, 128, tc::sm90::Major::K>,  // B
void cc_wgmma(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
              float *__restrict__ C) {
#pragma tc allow_tf32 mma(wgmma)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[k * M + i] * B[j * K + k];
      C[i * N + j] = acc;
    }
}

void nn_batched(int Bt, int M, int N, int K, const float *__restrict__ A,
                const float *__restrict__ B, float *__restrict__ C) {
#ifdef TC_TEST_BATCH
// (_Pragma: the output keeps this inactive block, where `#pragma tc` must
// not appear.)
// BATCH: {{.*}}gemm-tf32-transposed-copy.cu:[[@LINE+2]]:{{[0-9]+}}: error: this region cannot use wgmma
// BATCH: note: wgmma reads tf32 operands K-major only {{.*}}but not in a batch
  _Pragma("tc allow_tf32 mma(wgmma)")
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += A[(long)b * M * K + i * K + k] * B[(long)b * K * N + k * N + j];
        C[(long)b * M * N + i * N + j] = acc;
      }
#endif
}
