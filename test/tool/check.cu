// --check writes nothing and compares: exit 0 when the output (-o) or the
// file itself (-i) already is the rewrite; otherwise exit 1, a unified diff
// from what is there to the rewrite on stdout, and a line on stderr (as
// `clang-format --dry-run -Werror` does). The diff applies (like `patch`).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %s %t/in.cu
// RUN: %tc-rewrite %t/in.cu -o %t/fresh.cu
//
// Fresh output: status 0, no output, nothing written.
// RUN: %tc-rewrite %t/in.cu -o %t/fresh.cu --check > %t/fresh.diff 2>&1
// RUN: count 0 < %t/fresh.diff
// RUN: ls %t | FileCheck %s --check-prefix=FILES --implicit-check-not=.tc-
// FILES: fresh.cu
// FILES: fresh.diff
// FILES: in.cu
//
// Stale output (older tiles): status 1 and the diff; the file is untouched.
// RUN: sed -e 's/^#pragma tc tile(64, 64, 32) warp(32, 32)$/#pragma tc tile(64, 64, 32) warp(32, 64)/' %t/in.cu > %t/old-in.cu
// RUN: %tc-rewrite %t/old-in.cu -o %t/stale.cu
// RUN: cp %t/stale.cu %t/stale.before.cu
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite %t/in.cu -o %t/stale.cu --check > %t/stale.diff 2> %t/stale.err
// RUN: FileCheck %s --check-prefix=STALE --input-file=%t/stale.diff
// RUN: FileCheck %s --check-prefix=STALE-ERR --input-file=%t/stale.err
// RUN: diff %t/stale.before.cu %t/stale.cu
// RUN: %python %S/Inputs/apply-unified-diff.py %t/stale.cu %t/stale.diff
// RUN: diff %t/fresh.cu %t/stale.cu
// STALE:      {{^}}--- {{.*}}stale.cu{{$}}
// STALE-NEXT: {{^}}+++ {{.*}}stale.cu (rewritten){{$}}
// STALE-NEXT: {{^}}@@ -[[#]],[[#]] +[[#]],[[#]] @@{{$}}
// STALE:      {{^}}-{{.*}}warp tile 32x64
// STALE:      {{^}}+{{.*}}warp tile 32x32
// STALE:      {{^}}-          32, 3, 2, 1>>(
// STALE:      {{^}}+          32, 3, 2, 2>>(
// STALE-ERR: tc-rewrite: '{{.*}}stale.cu' is not the current rewrite of '{{.*}}in.cu'
//
// A missing output is stale too: the diff adds the whole file.
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite %t/in.cu -o %t/missing.cu --check 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not ls %t/missing.cu
// MISSING: @@ -0,0 +1,[[#]] @@
// MISSING: tc-rewrite: '{{.*}}missing.cu' does not exist
//
// -i --check on a file that still has its pragmas: status 1, the diff, and
// the file unchanged; on the rewritten file: status 0.
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite -i --check %t/in.cu > %t/in.diff 2> %t/in.err
// RUN: diff %s %t/in.cu
// RUN: FileCheck %s --check-prefix=IN-PLACE --input-file=%t/in.diff
// RUN: FileCheck %s --check-prefix=IN-PLACE-ERR --input-file=%t/in.err
// RUN: %tc-rewrite -i --check %t/fresh.cu
// IN-PLACE: {{^}}--- {{.*}}in.cu{{$}}
// IN-PLACE: {{^}}+#include <tc/tc.cuh>
// IN-PLACE: {{^}}-#pragma tc
// IN-PLACE: {{^}}+  tc_check_0_launch(
// IN-PLACE-ERR: tc-rewrite: '{{.*}}in.cu' is not rewritten
//
// A region the tool rejects fails the check as it fails the rewrite.
// RUN: cp %S/exit-status.cu %t/rejected.cu
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite -i --check %t/rejected.cu 2>&1 | FileCheck %s --check-prefix=REJECTED
// REJECTED: error: {{.+}}
// RUN: %tc-rewrite --warn-only -i --check %t/rejected.cu

#include <cuda_fp16.h>

void check(int M, int N, int K, const __half *__restrict__ A,
           const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc tile(64, 64, 32) warp(32, 32)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
