// Index helpers in subscripts and bounds: a function or a lambda whose body
// is one `return` of `+`, `-`, `*`, literals and its integer parameters is
// read as if its expression were written in place of the call, its
// parameters replaced by the call's arguments (Extraction: indexHelper),
// also where it calls another such helper.
// The refused helpers: test/diagnostics/index-helpers.cu.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a --explain %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cstddef>
#include <cuda_fp16.h>

__host__ __device__ inline int idx(int r, int c, int ld) { return r * ld + c; }
inline std::size_t row_major(std::size_t r, std::size_t c, std::size_t ld) {
  return r * ld + c;
}
inline int flat(int r, int c, int ld) { return idx(r, c, ld); }
constexpr int last(int n) { return n - 1; }

// EXPLAIN-LABEL: region tc_helpers_0
// EXPLAIN: domain: [M, N, K] -> { S0[i, j] : M >= 0 and N >= 0 and K >= 0 and 0 <= i < M and 0 <= j < N }
// EXPLAIN: A = A (row-major, leading dimension K), B = B (row-major, leading dimension N), inputs __half, accumulation float
// CHECK-LABEL: {{^}}struct tc_helpers_0_epilogue {
// CHECK: {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = tc_value;
// CHECK: {{^  }}tc_helpers_0_launch(
void helpers(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
             float *__restrict__ C) {
  auto at = [](int r, int c, int ld) { return r * ld + c; };
#pragma tc
  for (int i = 0; i <= last(M); ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[flat(i, k, K)]) * __half2float(B[at(k, j, N)]);
      C[row_major(i, j, N)] = acc;
    }
}
