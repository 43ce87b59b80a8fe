// Loops as code writes them: 1-based (`i = 1; i <= M`) with subscripts
// `(i - 1) * K + k - 1`, loops from a size (`i = lo; i < hi`), reversed
// loops (`k = K - 1; k >= 0; --k`), `!=` and bounds on the left (`N > j`).
// Each loop is shifted to start at 0 (frontend/LoopOrigins.h): the kernels
// are those of the plain spelling, the values that read an iterator read
// the source's (`i + 1`), and --explain says what was shifted. The GPU
// check is test/gpu/regions/loops.cu; the refused forms are in
// test/diagnostics/loop-forms.cu.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN

#include <cuda_fp16.h>

// The output's value reads the source's i: the model's i plus 1.
// CHECK-LABEL: {{^}}struct tc_one_based_0_epilogue {
// CHECK:       C[(long long)((tc_m)) * (N) + ((tc_n))] = (tc_value + static_cast<float>(static_cast<float>(((tc_m) + 1))));
// CHECK:       {{^}}void one_based(
// CHECK:       {{^  }}tc_one_based_0_launch(M, N, K, A, B, C, 0);
// EXPLAIN-LABEL: region tc_one_based_0 at
// EXPLAIN:       loop i: starts at 1 in the source; shifted to start at 0 (the source's i is i + 1)
// EXPLAIN:       loop j: starts at 1 in the source
// EXPLAIN:       loop k: starts at 1 in the source
// EXPLAIN:       read R0: [M, N, K] -> { S1[i, j, k] -> A[i, k] :
// EXPLAIN:       read R1: [M, N, K] -> { S1[i, j, k] -> B[k, j] :
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K
void one_based(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 1; i <= M; ++i)
    for (int j = 1; j <= N; ++j) {
      float acc = 0.0f;
      for (int k = 1; k <= K; ++k)
        acc += __half2float(A[(i - 1) * K + k - 1]) * __half2float(B[(k - 1) * N + j - 1]);
      C[(i - 1) * N + (j - 1)] = acc + (float)i;
    }
}

// Rows lo .. hi - 1 of the output: M is hi - lo.
// CHECK:       {{^}}void row_range(
// CHECK:       {{^  }}tc_row_range_0_launch(lo, hi, N, K, A, B, C, 0);
// EXPLAIN-LABEL: region tc_row_range_0 at
// EXPLAIN:       loop i: starts at lo in the source; shifted to start at 0 (the source's i is i + lo)
// EXPLAIN:       matmul over (i, j) reducing k: M = -lo + hi, N = N, K = K
void row_range(int lo, int hi, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = lo; i < hi; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i - lo) * K + k]) * __half2float(B[k * N + j]);
      C[(i - lo) * N + j] = __float2half(acc);
    }
}

// Downward loops: the same kernel; the original schedule keeps the order,
// so the dependences are the source's (S0's zero comes before the first k,
// K - 1).
// CHECK:       {{^}}void reversed(
// CHECK:       {{^  }}tc_reversed_0_launch(M, N, K, A, B, C, 0);
// EXPLAIN-LABEL: region tc_reversed_0 at
// EXPLAIN:       loop i: runs downwards in the source (so does the original schedule)
// EXPLAIN:       loop k: runs downwards in the source
// EXPLAIN:       flow dependences: {{.*}}S0[i, j] -> S1[i' = i, j' = j, k = -1 + K]
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K
void reversed(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = M - 1; i >= 0; --i)
    for (int j = 0; N > j; j++) {
      float acc = 0.0f;
      for (int k = K - 1; k > -1; k--)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// `!=` upwards is `<`.
// CHECK:       {{^}}void not_equal(
// CHECK:       {{^  }}tc_not_equal_0_launch(M, N, K, A, B, C, 0);
// EXPLAIN-LABEL: region tc_not_equal_0 at
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K
void not_equal(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i != M; ++i)
    for (int j = 0; j != N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k != K; k += 1)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Unsigned iterators and sizes keep their arithmetic in values: the kernels
// hold them in `long long`, so each is read as its own type again
// (`i - j` wraps in the source). Counting an unsigned iterator down to
// `> 0` is the finite form.
// CHECK-LABEL: {{^}}struct tc_unsigned_values_0_epilogue {
// CHECK:       static_cast<unsigned int>(((tc_m) + 1))
// CHECK:       static_cast<unsigned int>(N)
// EXPLAIN-LABEL: region tc_unsigned_values_0 at
// EXPLAIN:       loop i: starts at 1 in the source
// EXPLAIN:       loop i: runs downwards in the source
void unsigned_values(unsigned M, unsigned N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = M; i > 0; --i)
    for (unsigned j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i - 1) * K + k]) * __half2float(B[k * N + j]);
      C[(i - 1) * N + j] = acc + (float)(i - j) + (float)(j - N);
    }
}
