// fp32 operands: the tensor cores would round them to tf32. Without the
// allow_tf32 clause the region is left as written and the note says how to
// accept that; with it, the region becomes an m16n8k8 tf32 kernel.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.cu

void sgemm(int M, int N, int K, const float *__restrict__ A,
           const float *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}fp32-operands.cu:[[@LINE+2]]:16: error: operand 'A' is fp32
        // DIAG: {{.*}}fp32-operands.cu:[[@LINE+1]]:16: note: tensor cores round fp32 operands to tf32{{.*}}; add the 'allow_tf32' clause to accept that
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
// OUT: void sgemm(
// OUT-NEXT: const float *__restrict__ B, float *__restrict__ C) {
// OUT-NEXT: #pragma tc
// OUT-NEXT: for (int i = 0; i < M; ++i)

void sgemm_tf32(int M, int N, int K, const float *__restrict__ A,
                const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// DIAG-NOT: fp32-operands.cu:{{3[0-9]}}:{{.*}}error
// OUT: tc::sm80::OperandTile<float, {{[0-9]+}}, tc::sm80::Major::K>,  // A
// OUT: void sgemm_tf32(
// OUT: tc_sgemm_tf32_0_launch(M, N, K, A, B, C, 0);
