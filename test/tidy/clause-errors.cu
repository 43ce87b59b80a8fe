// tc-tensorize on a pragma with a malformed clause: the clause's error and
// note under the check's name (clang-tidy exits 1; it crashed once, the
// errors reported while the pragma was lexed), the region left alone, the
// other region still reported as rewritable.
// REQUIRES: clang-tidy, tc-tidy-module
//
// RUN: not %clang-tidy -load=%tc-tidy-module -checks='-*,tc-tensorize' %s \
// RUN:   -- -xcuda --cuda-host-only --cuda-path=%cuda-path -Wno-unknown-cuda-version \
// RUN:   -resource-dir=%clang-resource-dir -I%tc-include 2>&1 | FileCheck %s

#include <cuda_fp16.h>

void malformed(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
// CHECK: clause-errors.cu:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}} [tc-tensorize]
#pragma tc tile(128, 128)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

void good(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
// CHECK: clause-errors.cu:[[@LINE+1]]:1: warning: region can be rewritten into a tensor-core kernel [tc-tensorize]
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
