// Preprocessor directives inside a region: its text becomes a launch,
// which would drop a #define or #undef that the code after the region
// sees, and keep only the branch of a conditional that this compilation
// takes (a build with other macros would get it too). The regions stay
// as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not='error:'
// RUN: diff %s %t.cu

#include <cstdio>
#include <cuda_fp16.h>

#define SCALE 1.0f

void redefines(int N, const __half *__restrict__ A, const __half *__restrict__ B,
               float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
// CHECK: {{.*}}region-directives.cu:[[@LINE+2]]:8: error: '#undef' inside a '#pragma tc' region
// CHECK: {{.*}}region-directives.cu:[[@LINE+1]]:8: note: the region's text becomes a launch, which drops the directive; move it before or after the region
#undef SCALE
#define SCALE 2.0f
      float acc = 0.0f;
      for (int k = 0; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc * SCALE;
    }
  printf("%f\n", SCALE);
}

void selects(int N, const __half *__restrict__ A, const __half *__restrict__ B,
             float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
// CHECK: {{.*}}region-directives.cu:[[@LINE+2]]:2: error: '#ifdef' inside a '#pragma tc' region
// CHECK: {{.*}}region-directives.cu:[[@LINE+1]]:2: note: the rewrite would keep only the code that this compilation's macros select; put the condition around the whole region
#ifdef USE_RELU
      C[i * N + j] = acc > 0.0f ? acc : 0.0f;
#else
      C[i * N + j] = acc;
#endif
    }
}
