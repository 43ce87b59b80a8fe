// A converted operand's functor (tc::sm80::ConvertedOperandTile) has the
// region's arguments as members beside its own names (kMasked, needs,
// operator()): an argument named like one of them is renamed in the
// region's generated code, masked or not, and the output parses again.
//
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %tc-rewrite --arch=sm_80 %t.cu -o %t.again.cu
// RUN: cmp %t.cu %t.again.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -c %t.cu -o %t.o %}

#include <cstdint>
#include <cuda_fp16.h>

// int8 weights minus a zero point named kMasked (not masked).
void zero_point_named_kmasked(int M, int N, int K, const __half *__restrict__ X,
                              const int8_t *__restrict__ W,
                              const float *__restrict__ kMasked, float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * ((float)W[j * K + k] - kMasked[j]);
      Y[i * N + j] = acc;
    }
}
// CHECK-LABEL: {{^}}struct tc_zero_point_named_kmasked_0_operand_b {
// CHECK:       {{^}}  const float *__restrict__ kMasked_1;
// CHECK:       {{^}}  static constexpr bool kMasked = false;
// CHECK-NEXT:  {{^}}  __device__ float operator()(float tc_x, long long tc_row) const {
// CHECK-NEXT:  {{^}}    return static_cast<float>((tc_x - kMasked_1[((tc_row))]));

// A triangular A (masked) with sizes named needs and kMasked.
void triangular_named_needs(int needs, int kMasked, const __half *__restrict__ A,
                            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < needs; ++i)
    for (int j = 0; j < kMasked; ++j) {
      float acc = 0.0f;
      for (int k = i; k < needs; ++k)
        acc += __half2float(A[i * needs + k]) * __half2float(B[k * kMasked + j]);
      C[i * kMasked + j] = acc;
    }
}
// CHECK-LABEL: {{^}}struct tc_triangular_named_needs_0_operand_a {
// CHECK:       {{^}}  static constexpr bool kMasked = true;
// CHECK-NEXT:  {{^}}  __device__ bool needs(long long tc_row, long long tc_k) const {
// CHECK:       tc::sm80::ConvertedOperandTile<__half, __half, 128, tc::sm80::Major::K, tc_triangular_named_needs_0_operand_a>,  // A
