// A member of an array element (`v[j].x` of a float2 array) in a region:
// the model's arrays hold scalars. Reported at the member, not as a
// subscript's expression; the file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

void vector_scale(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, const float2 *__restrict__ v,
                  float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}array-element-members.cu:[[@LINE+2]]:33: error: member 'x' of an array element: the region's arrays must hold scalars (float, __half, int8_t, ...)
      // DIAG: {{.*}}array-element-members.cu:[[@LINE+1]]:33: note: copy the members into an array of scalars before the region
      C[i * N + j] = acc * v[j].x;
    }
}
