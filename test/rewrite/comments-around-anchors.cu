// Comments where the rewrite inserts text: the runtime #include goes after
// the end of the last #include's directive, which a block comment or a
// spliced line comment continues onto later lines; a function's code goes
// after a block comment that ends on the function's first line, not at
// that line's start inside the comment. Before, both landed inside the
// comments, and the output did not compile.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h> /* fp16 types,
  and conversions */
#include <cuda_runtime.h> // a line comment that goes on \
                             onto the next line
// CHECK: {{^}}                             onto the next line{{$}}
// CHECK-NEXT: {{^}}#include <tc/tc.cuh>

// CHECK: {{^}}   Row-major. */{{$}}
// CHECK-NEXT: {{^}}#ifdef __NVCC__
// CHECK-NEXT: {{^}}#pragma nv_diagnostic push
// CHECK-NEXT: {{^}}#pragma nv_diag_suppress 177
// CHECK-NEXT: {{^}}#endif
// CHECK-NEXT: {{^}}namespace {  // this file's
// CHECK: {{^}} void gemm(int M,
/* C = A * B.
   Row-major. */ void gemm(int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
