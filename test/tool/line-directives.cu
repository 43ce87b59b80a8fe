// --line-directives: the rewrite (-o) keeps the source's file and line
// numbers for the user's code and the output's own for the generated code,
// so that compilers, asserts and debuggers point at the right lines.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %tc-rewrite %s -o %t/out.cu --line-directives
// RUN: FileCheck %s --input-file=%t/out.cu
// The directives are whole lines added to the rewrite, nothing else.
// RUN: %tc-rewrite %s -o %t/plain.cu
// RUN: grep -v '^#line ' %t/out.cu > %t/stripped.cu
// RUN: diff %t/plain.cu %t/stripped.cu
// The user's lines are the source's (the static_asserts below hold)...
// RUN: %clangxx -fsyntax-only -std=c++17 -xcuda --cuda-host-only --cuda-path=%cuda-path --cuda-gpu-arch=sm_90a -Wno-unknown-cuda-version -I%tc-include %t/out.cu
// ...and a compiler's error in them is reported there.
// RUN: not %clangxx -fsyntax-only -std=c++17 -xcuda --cuda-host-only --cuda-path=%cuda-path --cuda-gpu-arch=sm_90a -Wno-unknown-cuda-version -I%tc-include -DTC_USER_ERROR %t/out.cu 2>&1 | FileCheck %s --check-prefix=USER-ERROR
// USER-ERROR: line-directives.cu:69:{{[0-9]+}}: error: use of undeclared identifier 'not_declared'
// Each directive naming the output gives the line that follows it.
// RUN: %python -c "import re,sys; ls=open(sys.argv[1]).read().split('\n'); bad=[i+1 for i,l in enumerate(ls) if re.match(r'#line \d+ \".*out\.cu\"', l) and int(l.split()[1]) != i+2]; n=sum(1 for l in ls if l.endswith('out.cu\"')); sys.exit(1 if bad or n < 2 else 0)" %t/out.cu
//
// Without a separate output there is nothing to map.
// RUN: mkdir %t/same && cp %s %t/same/in-place.cu
// RUN: not %tc-rewrite %t/same/in-place.cu -i --line-directives 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT
// RUN: not %tc-rewrite %t/same/in-place.cu -o %t/same/../same/in-place.cu --line-directives 2>&1 | FileCheck %s --check-prefix=SAME-FILE
// NO-OUTPUT: tc-rewrite: --line-directives maps the lines of -o OUT to its source
// SAME-FILE: tc-rewrite: --line-directives needs an output other than the source '{{.*}}in-place.cu'
//
// CHECK: {{^}}#include <tc/tc.cuh>
// CHECK-NEXT: {{^}}#line [[#@LINE+15]] "{{.*}}line-directives.cu"
// CHECK: {{^}}#line {{[0-9]+}} "{{.*}}out.cu"
// CHECK-NEXT: {{^}}#ifdef __NVCC__
// CHECK-NEXT: {{^}}#pragma nv_diagnostic push
// CHECK-NEXT: {{^}}#pragma nv_diag_suppress 177
// CHECK-NEXT: {{^}}#endif
// CHECK-NEXT: {{^}}namespace {  // this file's
// CHECK: {{^}}// line-directives.cu:{{[0-9]+}}: the epilogue
// CHECK: {{^}}#line [[#@LINE+20]] "{{.*}}line-directives.cu"
// CHECK-NEXT: {{^}}void gemm(
// CHECK: {{^}}  tc_gemm_0_launch(
// CHECK-NEXT: {{^}}#line [[#@LINE+27]] "{{.*}}line-directives.cu"
// CHECK-NEXT: {{^}}  static_assert(__LINE__ == 66

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
  static_assert(__LINE__ == 66, "the user's lines keep their numbers");
  static_assert(endsWith(__FILE__, "line-directives.cu"), "and their file");
#ifdef TC_USER_ERROR
  not_declared = 1;
#endif
}

static_assert(__LINE__ == 73, "after the function too");
