// The clang-tidy module: clang-tidy-22 loads libTcTidyModule.so, whose check
// tc-tensorize runs the tool's pipeline on the translation unit clang-tidy
// parses. Each region that can be rewritten gets a warning at its pragma;
// the first carries the rewrite of the whole file as fix-its, so that
// `clang-tidy -fix` (on a copy) writes exactly what `tc-rewrite -o` writes.
// REQUIRES: clang-tidy, tc-tidy-module
//
// RUN: rm -rf %t && mkdir -p %t/tidy %t/tool
// RUN: cp %s %t/tidy/regions.cu
// RUN: cp %s %t/tool/regions.cu
// RUN: %clang-tidy -load=%tc-tidy-module -checks='-*,tc-tensorize' %t/tidy/regions.cu \
// RUN:   -- -xcuda --cuda-host-only --cuda-path=%cuda-path -Wno-unknown-cuda-version \
// RUN:   -resource-dir=%clang-resource-dir -I%tc-include 2>&1 | FileCheck %s
// RUN: diff %s %t/tidy/regions.cu
//
// The check is listed with the module loaded.
// RUN: %clang-tidy -load=%tc-tidy-module -checks='-*,tc-tensorize' -list-checks | FileCheck %s --check-prefix=LIST
// LIST: tc-tensorize
//
// -fix applies the rewrite; it equals the tool's (same file name: the
// generated comments name it).
// RUN: %clang-tidy -load=%tc-tidy-module -checks='-*,tc-tensorize' -fix %t/tidy/regions.cu \
// RUN:   -- -xcuda --cuda-host-only --cuda-path=%cuda-path -Wno-unknown-cuda-version \
// RUN:   -resource-dir=%clang-resource-dir -I%tc-include 2>&1 | FileCheck %s --check-prefix=FIX
// RUN: %tc-rewrite %t/tool/regions.cu -o %t/tool/expected.cu
// RUN: diff %t/tool/expected.cu %t/tidy/regions.cu
// FIX: clang-tidy applied [[#]] of [[#]] suggested fixes.
//
// The fixed file has no region left: the check is silent on it.
// RUN: %clang-tidy -load=%tc-tidy-module -checks='-*,tc-tensorize' %t/tidy/regions.cu \
// RUN:   -- -xcuda --cuda-host-only --cuda-path=%cuda-path -Wno-unknown-cuda-version \
// RUN:   -resource-dir=%clang-resource-dir -I%tc-include 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// SILENT-NOT: [tc-tensorize]

#include <cuda_bf16.h>
#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C,
          float *__restrict__ D) {
// CHECK: regions.cu:[[@LINE+1]]:1: warning: region can be rewritten into a tensor-core kernel [tc-tensorize]
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
// CHECK: regions.cu:[[@LINE+3]]:1: warning: region can be rewritten into a tensor-core kernel [tc-tensorize]
// CHECK: regions.cu:[[@LINE-9]]:1: note: rewritten by the fix of this region, which rewrites the whole file
//
#pragma tc tile(64, 64, 32) warp(32, 32)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        D[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

void gemm_bf16(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
               const __nv_bfloat16 *__restrict__ B,
               __nv_bfloat16 *__restrict__ C) {
// CHECK: regions.cu:[[@LINE+1]]:1: warning: region can be rewritten into a tensor-core kernel [tc-tensorize]
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
      C[i * N + j] = __float2bfloat16(acc);
    }
}
