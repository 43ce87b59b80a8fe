// --export-fixes=FILE.yaml writes the rewrite as clang Replacements in the
// format clang-apply-replacements reads (TranslationUnitReplacements:
// MainSourceFile, Replacements with FilePath/Offset/Length/ReplacementText),
// and writes nothing else. Applying them gives exactly the -o output; with
// several files, one YAML holds the replacements of all of them.
// REQUIRES: clang-apply-replacements
//
// RUN: rm -rf %t && mkdir -p %t/src %t/expected %t/fixes
// RUN: cp %s %t/src/a.cu
// RUN: cp %S/Inputs/gemm.cu %t/src/b.cu
// RUN: cp %S/no-pragma.cu %t/src/c.cu
// RUN: %tc-rewrite %t/src/a.cu -o %t/expected/a.cu
// RUN: %tc-rewrite %t/src/b.cu -o %t/expected/b.cu
//
// One file: the YAML only, the source untouched.
// RUN: %tc-rewrite %t/src/a.cu --export-fixes=%t/a.yaml
// RUN: diff %s %t/src/a.cu
// RUN: FileCheck %s --check-prefix=YAML --input-file=%t/a.yaml
// YAML:      {{^}}---
// YAML-NEXT: {{^}}MainSourceFile: '{{.*}}src/a.cu'
// YAML-NEXT: {{^}}Replacements:
// YAML:      {{^}}  - FilePath: {{ *}}'{{.*}}src/a.cu'
// YAML-NEXT: {{^}}    Offset: {{ *}}[[#]]
// YAML-NEXT: {{^}}    Length: {{ *}}0
// YAML-NEXT: {{^}}    ReplacementText: "\n#include <tc/tc.cuh>"
// YAML:      ReplacementText: "{{ *}}// '#pragma tc' region computed by tc_exported_0_launch (tc-rewrite)\n{{ *}}tc_exported_0_launch(M, N, K, A, B, C, 0);"
// YAML:      ReplacementText: "{{ *}}// '#pragma tc' region computed by tc_exported_1_launch (tc-rewrite)\n{{ *}}tc_exported_1_launch(
//
// Three files (one without regions) in one YAML, applied by
// clang-apply-replacements on its directory.
// RUN: %tc-rewrite %t/src/a.cu %t/src/b.cu %t/src/c.cu --export-fixes=%t/fixes/all.yaml
// RUN: FileCheck %s --check-prefix=ALL --input-file=%t/fixes/all.yaml
// ALL: {{^}}MainSourceFile: ''
// RUN: %clang-apply-replacements %t/fixes
// RUN: diff %t/expected/a.cu %t/src/a.cu
// RUN: diff %t/expected/b.cu %t/src/b.cu
// RUN: diff %S/no-pragma.cu %t/src/c.cu
//
// With -o as well, both are written.
// RUN: cp %s %t/both.cu
// RUN: %tc-rewrite %t/both.cu -o %t/both.out.cu --export-fixes=%t/both.yaml
// RUN: ls %t/both.out.cu %t/both.yaml

#include <cuda_fp16.h>

void exported(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, __half *__restrict__ C,
              float *__restrict__ D) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
#pragma tc tile(64, 64, 32) warp(32, 32)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        D[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}
