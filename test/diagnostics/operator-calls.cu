// Operator calls of class types: a region may use __half's and
// __nv_bfloat16's arithmetic and comparisons (rewrite/result-conversions.cu),
// but not a function object's operator() nor a class of the user's, whose
// operators may do anything; each is rejected at the call. Every region is
// left as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

struct Activation {
  __host__ __device__ float operator()(float x) const { return x > 0 ? x : 0; }
};

void function_object(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C,
                     Activation act) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}operator-calls.cu:[[@LINE+2]]:22: error: call of operator '()' of type 'Activation'
      // DIAG: {{.*}}operator-calls.cu:[[@LINE+1]]:22: note: a region may use the arithmetic and comparison operators of __half and __nv_bfloat16, and the built-in ones
      C[i * N + j] = act(acc);
    }
}

struct Counted {
  float v;
};
__host__ __device__ inline float operator+(Counted a, float b) { return a.v + b; }

void user_operator(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C, Counted offset) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      // DIAG: {{.*}}operator-calls.cu:[[@LINE+1]]:29: error: call of operator '+' of type 'Counted'
      C[i * N + j] = offset + acc;
    }
}
