// Sizes written the ways C++ code writes them: enumerators (named
// constants, like constexpr variables: `B[k * kCols + j]` still
// delinearises), const references to integers (read once, at the launch),
// and other integer constant expressions (constexpr function calls,
// sizeof). The wrong ones: test/diagnostics/integer-sizes.cu.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a %s --explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

enum { kCols = 256, kDepth = 64 };
enum class Tile : long { Rows = 128 };
constexpr int twice(int x) { return 2 * x; }

// The enumerator is no kernel argument: its value is the kernel's.
// CHECK: {{^}}static void tc_by_enumerator_0_launch(long long M, long long K, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_by_enumerator_0_launch(M, K, A, B, C, 0);
// EXPLAIN: region tc_by_enumerator_0 at
// EXPLAIN-NEXT: context: [M, kCols, K] -> {  : kCols = 256 and M >= 0 and K >= 0 }
void by_enumerator(const __half *__restrict__ A, const __half *__restrict__ B,
                   float *__restrict__ C, int M, int K) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < kCols; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * kCols + j]);
      C[i * kCols + j] = acc;
    }
}

// A scoped enumerator and a constexpr call in the bounds.
// CHECK: {{^}}static void tc_by_constant_expressions_0_launch(long long N, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_by_constant_expressions_0_launch(N, A, B, C, 0);
void by_constant_expressions(const __half *__restrict__ A, const __half *__restrict__ B,
                             float *__restrict__ C, int N) {
#pragma tc
  for (int i = 0; i < static_cast<long>(Tile::Rows); ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < twice(kDepth / 2); ++k)
        acc += __half2float(A[i * kDepth + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Sizes by const reference: the call reads them.
// CHECK: {{^}}static void tc_by_const_reference_0_launch(long long M, long long N, long long K, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_by_const_reference_0_launch(M, N, K, A, B, C, 0);
void by_const_reference(const __half *__restrict__ A, const __half *__restrict__ B,
                        float *__restrict__ C, const int &M, const int &N, const long &K) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
