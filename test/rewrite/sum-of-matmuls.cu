// Sums of matmuls: one accumulator and several reduction loops with
// different K in the same output nest. The kernel runs the products' k tiles
// one after another into the same accumulators. On sm_90a the kernels are
// the components' (tc/sm90/products.cuh): each launch takes the products'
// operands and reductions as tc::sm90::Products, and the region defines no
// kernel of its own. On sm_80 too (tc::sm80::Product): the launch lists
// each product's operands' Arguments and k, and the main loop's copiers
// switch to the next product's operands at its first k tile. The region
// is replaced by one launch.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 --input-file=%t.cu --implicit-check-not='{{^}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 --input-file=%t.sm80.cu --implicit-check-not='{{^}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_80,code=sm_80 -c %t.sm80.cu -o %t.sm80.o %}

#include <cuda_fp16.h>

// Two products, A row-major, B column-major.
void sum_two(int M, int N, int K1, int K2, const __half *__restrict__ A1,
             const __half *__restrict__ B1, const __half *__restrict__ A2,
             const __half *__restrict__ B2, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      C[i * N + j] = __float2half(acc);
    }
}
// CHECK-LABEL: '#pragma tc' region of 'sum_two'
// sm_90a: every kernel of the region is the components' (no kernel text),
// each launch with both products; the persistent kernel is the default.
// SM90-NOT: tc_sum_two_0_kernel
// SM90-NOT: tc_sum_two_0_cp_async
// SM90:      switch (tc::choose_kernel(M, N, (K1) + (K2), 1,
// SM90:      tc::sm90::PairsScheduler<tc::kPairWideTiles, true>>(M, N, tc::sm90::Products<__half, 2>{{[{][{]}}
// SM90-NEXT: {{^ *}}{A1, K1, B1, K1, K1},
// SM90-NEXT: {{^ *}}{A2, K2, B2, K2, K2}}}, tc_sum_two_0_epilogue{M, N, K1, K2, A1, B1, A2, B2, C}, tc_stream))
// SM90:      tc::sm90::PersistentScheduler>(M, N, tc::sm90::Products<__half, 2>{{[{][{]}}
// SM90-NEXT: {{^ *}}{A1, K1, B1, K1, K1},
// SM90-NEXT: {{^ *}}{A2, K2, B2, K2, K2}}}, tc_sum_two_0_epilogue{M, N, K1, K2, A1, B1, A2, B2, C}, tc_stream))
// SM90-NEXT: tc::report_error(tc::Status::LaunchFailed,
// sm_80: the cp.async kernel rebases its copiers. A product's k tiles are
// none where its extent is negative (an empty loop `k0 <= k < k1`, k1 < k0),
// so that it does not take the others' tiles away.
// SM80-NOT: __global__
// SM80: static void tc_sum_two_0_launch(
// SM80: tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// SM80: {{^ *}}M, N, {
// SM80-NEXT: {{^ *}}{{[{][{]}}A1, K1}, {B1, K1}, K1},
// SM80-NEXT: {{^ *}}{{[{][{]}}A2, K2}, {B2, K2}, K2}},
// SM80-NEXT: {{^ *}}tc_sum_two_0_epilogue{M, N, K1, K2, A1, B1, A2, B2, C}, tc_stream)
// CHECK: {{^ *}}tc_sum_two_0_launch(M, N, K1, K2, A1, B1, A2, B2, C, 0);
// CHECK-NEXT: {{^}}}

// Three products: the third product's copiers start after the k tiles of
// the first two.
void sum_three(int M, int N, int K1, int K2, int K3,
               const __half *__restrict__ A1, const __half *__restrict__ B1,
               const __half *__restrict__ A2, const __half *__restrict__ B2,
               const __half *__restrict__ A3, const __half *__restrict__ B3,
               __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      for (int k = 0; k < K3; ++k)
        acc += __half2float(A3[i * K3 + k]) * __half2float(B3[j * K3 + k]);
      C[i * N + j] = __float2half(acc);
    }
}
// CHECK-LABEL: '#pragma tc' region of 'sum_three'
// SM90:      tc::sm90::PersistentScheduler>(M, N, tc::sm90::Products<__half, 3>{{[{][{]}}
// SM90-NEXT: {{^ *}}{A1, K1, B1, K1, K1},
// SM90-NEXT: {{^ *}}{A2, K2, B2, K2, K2},
// SM90-NEXT: {{^ *}}{A3, K3, B3, K3, K3}}}, tc_sum_three_0_epilogue{
// SM80: static void tc_sum_three_0_launch(
// SM80: {{^ *}}M, N, {
// SM80-NEXT: {{^ *}}{{[{][{]}}A1, K1}, {B1, K1}, K1},
// SM80-NEXT: {{^ *}}{{[{][{]}}A2, K2}, {B2, K2}, K2},
// SM80-NEXT: {{^ *}}{{[{][{]}}A3, K3}, {B3, K3}, K3}},
// CHECK: {{^ *}}tc_sum_three_0_launch(M, N, K1, K2, K3, A1, B1, A2, B2, A3, B3, C, 0);
// CHECK-NEXT: {{^}}}

// B row-major (B[k*N+j]): B's copier keeps the leading dimension N and
// takes the second product's reduction length as its k extent.
void sum_b_row(int M, int N, int K1, int K2, const __half *__restrict__ A1,
               const __half *__restrict__ B1, const __half *__restrict__ A2,
               const __half *__restrict__ B2, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc += __half2float(A1[i * K1 + k]) * __half2float(B1[k * N + j]);
      for (int k = 0; k < K2; ++k)
        acc += __half2float(A2[i * K2 + k]) * __half2float(B2[k * N + j]);
      C[i * N + j] = acc;
    }
}
// CHECK-LABEL: '#pragma tc' region of 'sum_b_row'
// SM90:      tc::sm90::OperandTile<__half, 128, tc::sm90::Major::MN>,  // B
// SM90:      tc::sm90::PersistentScheduler>(M, N, tc::sm90::Products<__half, 2>{{[{][{]}}
// SM90-NEXT: {{^ *}}{A1, K1, B1, N, K1},
// SM90-NEXT: {{^ *}}{A2, K2, B2, N, K2}}}, tc_sum_b_row_0_epilogue{
// SM80: tc::sm80::OperandTile<__half, 128, tc::sm80::Major::MN>,  // B
// SM80: {{^ *}}M, N, {
// SM80-NEXT: {{^ *}}{{[{][{]}}A1, K1}, {B1, N}, K1},
// SM80-NEXT: {{^ *}}{{[{][{]}}A2, K2}, {B2, N}, K2}},
// CHECK: {{^ *}}tc_sum_b_row_0_launch(M, N, K1, K2, A1, B1, A2, B2, C, 0);
// CHECK-NEXT: {{^}}}

// In place, with an init nest: C = 0, then both products accumulate into
// C[i*N+j] in one i-j nest. The whole block becomes one launch.
void sum_in_place(int M, int N, int K1, int K2, const __half *__restrict__ A1,
                  const __half *__restrict__ B1,
                  const __half *__restrict__ A2,
                  const __half *__restrict__ B2, float *__restrict__ C) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        C[i * N + j] = 0.0f;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        for (int k = 0; k < K1; ++k)
          C[i * N + j] += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
        for (int k = 0; k < K2; ++k)
          C[i * N + j] += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      }
  }
}
// CHECK-LABEL: '#pragma tc' region of 'sum_in_place'
// The init nest sets C to zero: the old C is not read, and the sum is the
// value (the accumulators start at +0).
// CHECK: float tc_value = tc_sum;
// SM80: {{^ *}}{{[{][{]}}A2, K2}, {B2, K2}, K2}},
// SM90:      tc::sm90::PersistentScheduler>(M, N, tc::sm90::Products<__half, 2>{{[{][{]}}
// CHECK: {{^ *}}tc_sum_in_place_0_launch(M, N, K1, K2, C, A1, B1, A2, B2, 0);
// CHECK-NOT: for (int
// CHECK: {{^}}}
