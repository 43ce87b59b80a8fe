// A region in an included header is that header's to rewrite: an error
// says so (exit 1: the region would run as written, on the host), the
// header stays as it is, and the file's own regions are still rewritten.
//
// RUN: not %tc-rewrite --arch=sm_90a %s -o %t.cu 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.cu
// RUN: %tc-rewrite --arch=sm_90a %S/Inputs/region-header.cuh -o %t.cuh
// RUN: FileCheck %s --check-prefix=HEADER --input-file=%t.cuh

// CHECK: region-header.cuh:7:1: error: '#pragma tc' region in an included file is not rewritten
// CHECK: region-header.cuh:7:1: note: tc-rewrite rewrites the files it is given; give it this file, or move the region into the source file
#include "Inputs/region-header.cuh"

// OUT: {{^}}#include "Inputs/region-header.cuh"
// OUT: '#pragma tc' region computed by tc_own_gemm_0_launch
void own_gemm(int N, const __half *__restrict__ A, const __half *__restrict__ B,
              float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// The header rewritten on its own.
// HEADER: '#pragma tc' region computed by tc_header_gemm_0_launch
