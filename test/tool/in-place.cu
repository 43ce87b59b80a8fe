// -i rewrites the files in place (one or several), atomically: no
// temporary file is left beside them. The result equals the -o output.
//
// RUN: rm -rf %t && mkdir -p %t/src %t/expected %t/work
// RUN: cp %s %t/src/a.cu
// RUN: cp %S/Inputs/gemm.cu %t/src/b.cu
// RUN: %tc-rewrite %t/src/a.cu -o %t/expected/a.cu
// RUN: %tc-rewrite %t/src/b.cu -o %t/expected/b.cu
// RUN: cp %t/src/a.cu %t/src/b.cu %t/work
// RUN: %tc-rewrite -i %t/work/a.cu %t/work/b.cu
// RUN: diff %t/expected/a.cu %t/work/a.cu
// RUN: diff %t/expected/b.cu %t/work/b.cu
// RUN: FileCheck %s --input-file=%t/work/a.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: ls -a %t/work | FileCheck %s --check-prefix=FILES --implicit-check-not=.tc-
//
// A file whose rewrite is its own text (no region; rewritten already) is
// not written again: its modification time stays, and nothing rebuilds.
// RUN: printf 'int f(int x) { return x; }\n' > %t/work/none.cu
// RUN: touch -d 2020-01-01 %t/work/none.cu %t/work/a.cu
// RUN: %tc-rewrite -i %t/work/none.cu %t/work/a.cu
// RUN: %python -c "import os, sys; sys.exit(any(os.stat(f).st_mtime > 1600000000 for f in sys.argv[1:]))" %t/work/none.cu %t/work/a.cu
// RUN: diff %t/expected/a.cu %t/work/a.cu
//
// FILES: a.cu
// FILES: b.cu

// CHECK: {{^}}#include <tc/tc.cuh>
// CHECK: {{^}}static void tc_in_place_0_launch(
// CHECK: {{^  }}tc_in_place_0_launch(M, N, K, A, B, C, 0);

#include <cuda_fp16.h>

void in_place(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
