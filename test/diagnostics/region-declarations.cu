// Declarations inside a region that the rewrite cannot carry: a pointer
// declared in the region that is assigned, or bound to the region's
// variables (a pointer bound once to an array plus the iterators is a view
// into that array), and a variable
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
// A pointer the region assigns: which element it points at depends on the
// iterations before (a pointer bound once is a view into its array,
// test/rewrite/pointer-views.cu).
void walking_pointer(int N, const __half *__restrict__ A, const __half *__restrict__ B,
                     float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
// POINTER: {{.*}}region-declarations.cu:[[@LINE+2]]:21: error: pointer 'a' is declared in the region and assigned
// POINTER: {{.*}}region-declarations.cu:[[@LINE+1]]:21: note: bind it once, to an array plus an offset ('const __half *a = A + i * K;'), or index the array itself
      const __half *a = A + i * N;
      float acc = 0.0f;
      for (int k = 0; k < N; ++k) {
        acc += __half2float(a[0]) * __half2float(B[k * N + j]);
        ++a;
      }
      C[i * N + j] = acc;
    }
}

// A pointer bound to a variable of the region, which may be rebound
// between the pointer's declaration and its use.
void bound_to_local(int N, const __half *__restrict__ A, const __half *__restrict__ B,
                    float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      int row = i * N;
// POINTER: {{.*}}region-declarations.cu:[[@LINE+1]]:29: error: pointer 'a' is bound to 'A + row', which uses 'row', a variable of the region
      const __half *a = A + row;
      float acc = 0.0f;
      for (int k = 0; k < N; ++k)
        acc += __half2float(a[k]) * __half2float(B[k * N + j]);
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
