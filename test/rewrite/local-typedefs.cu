// Types named through typedefs and aliases the function declares: the
// generated code, defined before the function, names their canonical types
// (float, unsigned long, __half, long) in casts, accumulators, captured
// scalars, sizes and operand pointers, and a cast to an alias of float is a
// conversion to float (no operand prologue). The second region, without
// __restrict__, has a serial kernel (the alias check's) declaring the
// accumulator.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>
#include <cstddef>

// CHECK-LABEL: {{^}}struct tc_gemm_0_epilogue {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = static_cast<__half>(static_cast<__half>((tc_value + (static_cast<float>(static_cast<float>(static_cast<unsigned long>(static_cast<unsigned long>((tc_n))))) * 0.5f))));
// CHECK-NOT:   {{acc_t|index_t|half_t}}
// CHECK:       {{^}}void gemm(
void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
          __half *__restrict__ C) {
  using acc_t = float;
  using half_t = __half;
  typedef std::size_t index_t;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      acc_t acc = 0;
      for (int k = 0; k < K; ++k)
        acc += (acc_t)A[i * K + k] * (acc_t)B[k * N + j];
      C[i * N + j] = half_t(acc + (acc_t)(index_t)j * 0.5f);
    }
}

// CHECK-LABEL: {{^}}struct tc_scaled_0_epilogue {
// CHECK-NOT:   {{acc_t|index_t|half_t|idx_t}}
// CHECK:       {{^}}  float alpha;
// CHECK-NOT:   {{acc_t|index_t|half_t|idx_t}}
// CHECK:       {{^}}__global__ void __launch_bounds__(1) tc_scaled_0_serial_kernel(long long M, long long N, long long K, float alpha, const __half *A, const __half *B, __half *C) {
// CHECK-NEXT:  {{^  }}float acc{};
// CHECK-NOT:   {{acc_t|index_t|half_t|idx_t}}
// CHECK:       {{^}}void scaled(
void scaled(int M0, int N0, int K0, float alpha0, const __half *A0, const __half *B0,
            __half *C0) {
  using idx_t = long;
  using acc_t = float;
  using half_t = __half;
  const idx_t M = M0, N = N0, K = K0;
  const acc_t alpha = alpha0;
  const half_t *A = A0, *B = B0;
  half_t *C = C0;
#pragma tc
  for (idx_t i = 0; i < M; ++i)
    for (idx_t j = 0; j < N; ++j) {
      acc_t acc = 0;
      for (idx_t k = 0; k < K; ++k)
        acc += (acc_t)A[i * K + k] * (acc_t)B[k * N + j];
      C[i * N + j] = __float2half(alpha * acc);
    }
}

// A function's local enumeration: its enumerators are their values, and a
// cast to it a conversion to its integer type.
// CHECK-LABEL: {{^}}struct tc_local_enum_0_epilogue {
// CHECK:       (static_cast<float>(static_cast<unsigned int>(static_cast<unsigned int>(3))))
// CHECK-NOT:   Scale
// CHECK:       {{^}}void local_enum(
void local_enum(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
  enum Scale : unsigned { kTimes = 3 };
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc * (float)(Scale)kTimes;
    }
}
