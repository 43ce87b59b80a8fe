// The kernel runs each output element's statements in their written order,
// after the whole reduction. In one nest, a statement that reads another
// element of a result before the iteration that writes it (a transposed
// read: C[j][i] for j > i is still the old value) would read the new one:
// rejected at that statement. The same read in a nest of its own after the
// matmul's is rewritten (rewrite/epilogue-separate-nest.cu). Every region
// here is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void transposed_read_in_nest(int N, int K, const __half *__restrict__ A,
                             const __half *__restrict__ B, float *__restrict__ C,
                             float *__restrict__ D) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
      // DIAG: {{.*}}epilogue-order.cu:[[@LINE+2]]:7: error: statement accesses an element before an earlier statement of the region writes or reads it
      // DIAG: {{.*}}epilogue-order.cu:[[@LINE+1]]:7: note: the kernel runs each output element's statements in their written order; read results at other elements in a loop nest after the matmul's
      D[i * N + j] = C[j * N + i];
    }
}

void transposed_read_in_place(int N, int K, const __half *__restrict__ A,
                              const __half *__restrict__ B, float *__restrict__ C,
                              float *__restrict__ D) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}epilogue-order.cu:[[@LINE+1]]:7: error: statement accesses an element before an earlier statement of the region writes or reads it
      D[i * N + j] = C[j * N + i];
    }
}
