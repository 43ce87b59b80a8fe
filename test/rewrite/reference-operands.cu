// Operands named through references to pointers or to arrays: a region
// reads the object the reference is bound to, which the launcher's
// argument of the same name binds (a pointer, an array's first row).
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}
// The mma.sync kernels too: a region of constant sizes only (the arrays'
// shapes) has no parameter beside the kernel's ids, which the mapping of
// blocks and warps once wrote as isl text "[, tc_block_m, ...]".
// RUN: %tc-rewrite --arch=sm_80 %s -o %t80.cu
// RUN: FileCheck %s --check-prefix=SM80 --input-file=%t80.cu --implicit-check-not='{{^ *}}#pragma tc'

#include <cuda_fp16.h>

// CHECK: {{^}}static void tc_pointer_references_0_launch(long long M, long long N, long long K, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
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

// CHECK: {{^}}static void tc_array_references_0_launch(const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_array_references_0_launch(reinterpret_cast<const __half *>(A), reinterpret_cast<const __half *>(B), reinterpret_cast<float *>(C), 0);
// SM80: {{^}}  tc_array_references_0_launch(reinterpret_cast<const __half *>(A), reinterpret_cast<const __half *>(B), reinterpret_cast<float *>(C), 0);
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

// Scalars bound to const references are passed by value: the kernels
// cannot follow a host reference (nvcc passes a reference parameter as a
// pointer, here to the host's stack), so each reads the value at the launch.
// CHECK-LABEL: struct tc_scalar_references_0_epilogue {
// CHECK: {{^}}  long long off;
// CHECK: {{^}}  float alpha;
// CHECK: {{^}}  __half hb;
// CHECK: {{^}}static void tc_scalar_references_0_launch(long long M, long long N, long long K, long long off, float alpha, __half hb, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
void scalar_references(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C, const int &off,
                       const float &alpha, const __half &hb) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = alpha * acc + off + __half2float(hb);
    }
}

// The same in an operand's prologue (a kernel parameter of its own), and
// for a template's `const T &`.
// CHECK: {{^}}static void tc_prologue_reference_0_launch(long long M, long long N, long long K, float z, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
void prologue_reference(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C, const float &z) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]) - z, 0.0f) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// CHECK: {{^}}static void tc_template_reference_0_launch(long long M, long long N, long long K, float alpha, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
template <class T>
void template_reference(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C, const T &alpha) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = alpha * acc;
    }
}
template void template_reference<float>(int, int, int, const __half *, const __half *, float *,
                                        const float &);
