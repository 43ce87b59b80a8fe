// A region whose output may alias another array and that no run-time test
// can keep as written (a local's value, read from A, is used after the
// store to C): rejected, with a note whose fix-it declares the output
// pointer __restrict__ (clang's -fdiagnostics-parseable-fixits prints it).
// Applied, the region rewrites.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite %s -o %t/out.cu -- -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s -DFILE=%s
// CHECK: restrict-fixit.cu:[[@LINE+7]]:75: error: output 'C' may alias 'A', which the region also accesses
// CHECK: restrict-fixit.cu:[[@LINE+6]]:75: note: a local's value is read after a store that follows its definition, which no run-time overlap test can order; declare the pointers __restrict__ to promise they do not overlap
// CHECK: fix-it:"[[FILE]]":{[[@LINE+5]]:75-[[@LINE+5]]:75}:"__restrict__ "
// RUN: sed -e 's/__half \*C,/__half *__restrict__ C,/' %s > %t/fixed.cu
// RUN: %tc-rewrite %t/fixed.cu -o %t/fixed.out.cu

#include <cuda_fp16.h>
void alias(int M, int N, int K, const __half *A, const __half *B, __half *C,
           __half *__restrict__ D) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float first = __half2float(A[i * K]);
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
      D[i * N + j] = __float2half(acc + first);
    }
}
