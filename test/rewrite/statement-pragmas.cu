// Pragmas next to a region that do not apply to its statement: pragmas of
// the file before it, a loop pragma with code between it and the region,
// and one inside the region (which the launch replaces with the loops).
// The refused neighbours: test/diagnostics/statement-pragmas.cu.
//
// RUN: %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
// RUN: FileCheck %s < %t.cu
// DIAG-NOT: error

#include <cuda_fp16.h>

void file_pragmas(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
  int unused = 0;
#pragma omp parallel for
  for (int r = 0; r < 1; ++r)
    unused += r;
#pragma GCC diagnostic push
#pragma message("a region follows")
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
#pragma unroll 4
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
#pragma GCC diagnostic pop
}
// CHECK: #pragma omp parallel for
// CHECK-NEXT: for (int r = 0; r < 1; ++r)
// CHECK: #pragma message("a region follows")
// CHECK-NEXT: // '#pragma tc' region computed by tc_file_pragmas_0_launch (tc-rewrite)
// CHECK-NEXT: tc_file_pragmas_0_launch(
// CHECK-NEXT: #pragma GCC diagnostic pop
