// A loop's initialisation may name its bound besides the iterator, as LLVM's
// style writes loops (`for (int i = 0, e = n; i < e; ++i)`): the extra
// integer is its initial value, here and in the values of the region, like
// a declaration in the body.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: not %tc-rewrite --arch=sm_90a %s -o %t.diag.cu -extra-arg=-DREFUSED 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// The sizes are M, N and K, and `e` in the epilogue is M.
// CHECK: {{^}}    C[(long long)((tc_m)) * (N) + ((tc_n))] = (tc_value + static_cast<float>(static_cast<int>(M)));
// CHECK: {{^}}  tc_bound_names_0_launch(M, N, K, A, B, C, 0);
void bound_names(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0, e = M; i < e; ++i)
    for (int n = N, j = 0; j != n; j++) {
      float acc = 0.0f;
      for (int k = 0, kk = K; kk > k; k += 1)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc + e;
    }
}

#ifdef REFUSED
// A bound the body assigns is no name for a value.
void assigned_bound(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0, e = M; i < e; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
      e = 0;
    }
}
// DIAG: loop-init-constants.cu:[[#@LINE-9]]:{{[0-9]+}}: error: a loop's initialisation declares 'e' besides its iterator, which is not an integer named for its initial value
// DIAG: note: besides the iterator, declare only integers that the region never assigns ('for (int i = 0, e = n; i < e; ++i)')
#endif
