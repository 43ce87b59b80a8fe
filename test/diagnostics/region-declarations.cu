// Declarations inside a region that the rewrite cannot carry: an array or
// pointer declared in the region (the kernels read arrays through the
// launcher's arguments, and its initialiser would be lost), and a variable
// that the region never reads whose initialiser may have effects (it would
// be dropped with them), and a static or thread_local variable (its value
// carries from one element to the next; the kernels' are each element's).
// The region stays as written.
//
// RUN: rm -f %t1.cu %t2.cu
// RUN: not %tc-rewrite %s -o %t1.cu 2>&1 | FileCheck %s --check-prefix=POINTER
// RUN: diff %s %t1.cu
// RUN: not %tc-rewrite %s -o %t2.cu -extra-arg=-DEFFECTS 2>&1 | FileCheck %s --check-prefix=EFFECTS
// RUN: diff %s %t2.cu
// RUN: not %tc-rewrite %s -o %t2.cu -extra-arg=-DSTORAGE 2>&1 | FileCheck %s --check-prefix=STORAGE --implicit-check-not='error:'
// RUN: diff %s %t2.cu

#include <cuda_fp16.h>

#if !defined(EFFECTS) && !defined(STORAGE)
// A pointer that shadows a parameter: the kernel would read the parameter.
void shadow(int N, const __half *__restrict__ A, const __half *__restrict__ B,
            float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      const __half *A = B;
      float acc = 0.0f;
      for (int k = 0; k < N; ++k)
// POINTER: {{.*}}region-declarations.cu:[[@LINE+2]]:29: error: 'A' is an array declared in the region
// POINTER: {{.*}}region-declarations.cu:[[@LINE+1]]:29: note: declare it before the '#pragma tc' region
        acc += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
#elif defined(EFFECTS)
int calls = 0;
__host__ __device__ int bump() { return ++calls; }

void unused(int N, const __half *__restrict__ A, const __half *__restrict__ B,
            float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
// EFFECTS: {{.*}}region-declarations.cu:[[@LINE+2]]:11: error: the initialiser of 'u' may have effects, and the region never reads it
// EFFECTS: {{.*}}region-declarations.cu:[[@LINE+1]]:11: note: remove the variable, or compute it before the region
      int u = bump();
      float acc = 0.0f;
      for (int k = 0; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
#else
// A running total over every element so far (and every earlier call).
void running_total(int N, const __half *__restrict__ A, const __half *__restrict__ B,
                   float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
// STORAGE: {{.*}}region-declarations.cu:[[@LINE+2]]:20: error: 'acc' is a static variable declared in the region
// STORAGE: {{.*}}region-declarations.cu:[[@LINE+1]]:20: note: its value carries from one element to the next, which the kernels do not keep; declare it without the storage class
      static float acc = 0.0f;
      for (int k = 0; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void first_sum(int N, const __half *__restrict__ A, const __half *__restrict__ B,
               float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
// STORAGE: {{.*}}region-declarations.cu:[[@LINE+1]]:26: error: 'first' is a thread_local variable declared in the region
      thread_local float first = acc;
      C[i * N + j] = first;
    }
}
#endif
