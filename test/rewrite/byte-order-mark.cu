// A file that starts with a UTF-8 byte order mark and includes nothing:
// the runtime's #include goes after the mark, which must stay the file's
// first bytes (nvcc reads a mark elsewhere as a character of the code).
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: head -c 3 %t.cu | od -An -tx1 | FileCheck %s --check-prefix=MARK
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

// MARK: ef bb bf
// CHECK: {{^.*}}#include <tc/tc.cuh>
// CHECK-NEXT: {{^}}// A file that starts
void gemm(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
          float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
