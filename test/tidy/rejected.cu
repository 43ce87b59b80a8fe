// tc-tensorize on a region the tool rejects: the tool's error and note,
// under the check's name (clang-tidy exits 1), or warnings with the WarnOnly
// option; the other region is still reported as rewritable. Options: Arch,
// WarnOnly.
// REQUIRES: clang-tidy, tc-tidy-module
//
// RUN: not %clang-tidy -load=%tc-tidy-module -checks='-*,tc-tensorize' %s \
// RUN:   -- -xcuda --cuda-host-only --cuda-path=%cuda-path -Wno-unknown-cuda-version \
// RUN:   -resource-dir=%clang-resource-dir -I%tc-include 2>&1 | FileCheck %s --check-prefixes=CHECK,ERROR
// RUN: %clang-tidy -load=%tc-tidy-module -checks='-*,tc-tensorize' \
// RUN:   -config='{CheckOptions: {tc-tensorize.WarnOnly: true, tc-tensorize.Arch: sm_80}}' %s \
// RUN:   -- -xcuda --cuda-host-only --cuda-path=%cuda-path -Wno-unknown-cuda-version \
// RUN:   -resource-dir=%clang-resource-dir -I%tc-include 2>&1 | FileCheck %s --check-prefixes=CHECK,WARN
// RUN: not %clang-tidy -load=%tc-tidy-module -checks='-*,tc-tensorize' \
// RUN:   -config='{CheckOptions: {tc-tensorize.Arch: sm_70}}' %s \
// RUN:   -- -xcuda --cuda-host-only --cuda-path=%cuda-path -Wno-unknown-cuda-version \
// RUN:   -resource-dir=%clang-resource-dir -I%tc-include 2>&1 | FileCheck %s --check-prefix=BAD-ARCH
// BAD-ARCH: warning: invalid Arch 'sm_70' for tc-tensorize (sm_90a, sm_80, sm_86, sm_89); using sm_90a

#include <cuda_fp16.h>

void good(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
// CHECK: rejected.cu:[[@LINE+1]]:1: warning: region can be rewritten into a tensor-core kernel [tc-tensorize]
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void bad(int M, int N, int K, const __half *__restrict__ A,
         const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // ERROR: rejected.cu:[[@LINE+4]]:33: error: non-affine operator '/' in a subscript or loop bound [tc-tensorize]
        // WARN: rejected.cu:[[@LINE+3]]:33: warning: non-affine operator '/' in a subscript or loop bound [tc-tensorize]
        // CHECK: rejected.cu:[[@LINE+2]]:33: note: subscripts and loop bounds must be sums
        // CHECK-NOT: warning: region can be rewritten
        acc += __half2float(A[i / 2 * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
