// Operands named through references to pointers or to arrays: a region
// reads the object the reference is bound to, which the launcher's
// argument of the same name binds (a pointer, an array's first row).
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

// CHECK: {{^}}static void tc_pointer_references_0_launch(long long M, long long N, long long K, const __half *A, const __half *B, float *C, cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_pointer_references_0_launch(M, N, K, A, B, C, 0);
void pointer_references(int M, int N, int K, const __half *&A, const __half *const &B,
                        float *__restrict__ &C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// CHECK: {{^}}static void tc_array_references_0_launch(const __half *A, const __half *B, float *C, cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_array_references_0_launch(reinterpret_cast<const __half *>(A), reinterpret_cast<const __half *>(B), reinterpret_cast<float *>(C), 0);
void array_references(const __half (&A)[256][64], const __half (&B)[64][128],
                      float (&C)[256][128]) {
#pragma tc
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 128; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        acc += __half2float(A[i][k]) * __half2float(B[k][j]);
      C[i][j] = acc;
    }
}
