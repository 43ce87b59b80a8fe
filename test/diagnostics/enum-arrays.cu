// An array whose elements are of an enumeration type (a zero point stored
// as `enum class Zero : short`): the launcher would take it as a pointer to
// the underlying integer type, to which the enumeration's pointer does not
// convert (nvcc rejected the rewritten call). Reported at the array's use;
// the file is left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cstdint>
#include <cuda_fp16.h>

enum class Zero : short { None = 0 };
enum Level { Low = -1, High = 5 };

void scoped_zero_points(int M, int N, int K, const __half *__restrict__ X,
                        const uint8_t *__restrict__ W, const Zero *__restrict__ zp,
                        float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}enum-arrays.cu:[[@LINE+2]]:78: error: array 'zp' has elements of the enumeration type 'Zero'
        // DIAG: {{.*}}enum-arrays.cu:[[@LINE+1]]:78: note: a region's arrays hold arithmetic types: store the values in an array of the enumeration's underlying type
        acc += __half2float(X[i * K + k]) * (W[j * K + k] - static_cast<int>(zp[j]));
      Y[i * N + j] = acc;
    }
}

void unscoped_levels(int M, int N, int K, const __half *__restrict__ X,
                     const uint8_t *__restrict__ W, const Level *__restrict__ shift,
                     float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}enum-arrays.cu:[[@LINE+1]]:61: error: array 'shift' has elements of the enumeration type 'Level'
        acc += __half2float(X[i * K + k]) * (W[j * K + k] + shift[j]);
      Y[i * N + j] = acc;
    }
}
