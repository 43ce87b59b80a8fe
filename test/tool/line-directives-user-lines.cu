// --line-directives in a source that has #line directives of its own (a
// file generated from another, such as model.tc below): a directive back
// to the source gives the line and file the source's directives give, as
// a compiler reads them (the static_asserts hold in the rewrite too).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %tc-rewrite %s -o %t/out.cu --line-directives
// RUN: FileCheck %s --input-file=%t/out.cu
// RUN: %clangxx -fsyntax-only -std=c++17 -xcuda --cuda-host-only --cuda-path=%cuda-path --cuda-gpu-arch=sm_90a -Wno-unknown-cuda-version -I%tc-include %t/out.cu
//
// CHECK: {{^}}}  // namespace
// CHECK: {{^}}#line 100 "model.tc"
// CHECK-NEXT: {{^}}void gemm(
// CHECK: {{^}}  tc_gemm_0_launch(
// CHECK-NEXT: {{^}}#line 110 "model.tc"
// CHECK-NEXT: {{^}}  static_assert(__LINE__ == 110, "the source's numbering");

#include <cuda_fp16.h>

constexpr bool endsWith(const char *S, const char *Suffix) {
  int N = 0, L = 0;
  while (S[N])
    ++N;
  while (Suffix[L])
    ++L;
  for (int I = 0; I < L; ++I)
    if (N < L || S[N - L + I] != Suffix[I])
      return false;
  return true;
}

#line 100 "model.tc"
void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
          float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
  static_assert(__LINE__ == 110, "the source's numbering");
  static_assert(endsWith(__FILE__, "model.tc"), "and its file");
}
