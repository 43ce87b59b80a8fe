// mma(wgmma) where the region or the target rules wgmma out: an error at the
// clause, with the reason as the note; that region is left as written (on
// sm_80 both are: diff), the other one rewritten.
//
// RUN: rm -f %t.cu %t.sm80.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.cu
// RUN: not %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: diff %s %t.sm80.cu

#include <cstdint>
#include <cuda_fp16.h>

// OUT:      {{^}}void dequant_kn(
// OUT:      {{^}}#pragma tc mma(wgmma)
// OUT-NEXT: {{^}}  for (int i = 0; i < M; ++i)
// OUT:      {{^}}void plain(
// OUT-NEXT: {{^}}           const __half *__restrict__ B, float *__restrict__ C) {
// OUT-NEXT: {{^}}  // '#pragma tc' region computed by tc_plain_0_launch (tc-rewrite)

// uint8 weights stored N-major (B row-major), converted while copying: only
// K-major converted stages are laid out for wgmma.
// DIAG: wgmma-clause.cu:[[@LINE+5]]:12: error: this region cannot use wgmma
// DIAG: note: an operand converted while copying is stored M/N-major, and only K-major converted stages are laid out for wgmma
void dequant_kn(int M, int N, int K, const __half *__restrict__ A,
                const uint8_t *__restrict__ B, const float *__restrict__ scale,
                const float *__restrict__ zero, float *__restrict__ C) {
#pragma tc mma(wgmma)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * (((float)B[k * N + j] - zero[j]) * scale[j]);
      C[i * N + j] = acc;
    }
}

// A plain GEMM: wgmma on sm_90a (accepted there), not on sm_80.
// SM80: wgmma-clause.cu:[[@LINE+5]]:12: error: this region cannot use wgmma
// SM80: note: wgmma needs sm_90a; sm_80 has mma.sync
// DIAG-NOT: wgmma-clause.cu:[[@LINE+3]]:{{.*}} error
void plain(int M, int N, int K, const __half *__restrict__ A,
           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc mma(wgmma)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}
