// The kernels hand an operand's element to its prologue as a float, and
// the epilogue gets the sum as a float: where the source uses the element
// or a 16-bit accumulator in its own type, they go back to that type
// (exactly for the element; rounded once for the sum), so that overloads
// and conversions mean what they meant in the source. Before, a negative
// int8 weight cast to uint8_t was 0, `__hadd(a, a)` was the integer
// __hadd(int, int), and `a > zero` or `acc + bias[j]` did not compile.
// Conversions of the element to float still read the float itself.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cstdint>
#include <cuda_fp16.h>

// CHECK-LABEL: tc_unsigned_weights_0
// CHECK: static_cast<uint8_t>(static_cast<uint8_t>(static_cast<int8_t>(tc_x)))
void unsigned_weights(int M, int N, int K, const __half *__restrict__ X,
                      const int8_t *__restrict__ W, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * ((float)(uint8_t)W[j * K + k] - 128.0f);
      Y[i * N + j] = __float2half(acc);
    }
}

// CHECK-LABEL: struct tc_doubled_0_prologue_a {
// CHECK: return static_cast<float>(__half2float(__hadd(static_cast<__half>(tc_x), static_cast<__half>(tc_x))));
void doubled(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
             float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(__hadd(A[i * K + k], A[i * K + k])) * __half2float(B[k * N + j]);
      Y[i * N + j] = acc;
    }
}

// A ReLU on the element written with __half's comparison (converted while
// copying: its zero is a variable); one written on the float keeps the
// float, and is exact on packed pairs.
// CHECK-LABEL: tc_half_relu_0
// CHECK: const auto tc_convert_a = [&](float tc_x, long long tc_row) -> float {
// CHECK-NEXT: return static_cast<float>(__half2float(((static_cast<__half>(tc_x) > zero) ? static_cast<__half>(tc_x) : zero)));
void half_relu(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
               float *__restrict__ Y, __half zero) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k] > zero ? A[i * K + k] : zero) *
               __half2float(B[k * N + j]);
      Y[i * N + j] = acc;
    }
}

// CHECK-LABEL: struct tc_float_relu_0_prologue_a {
// CHECK-NEXT: static constexpr bool kPacked = true;
// CHECK: return static_cast<float>(fmaxf(tc_x, 0.0f));
void float_relu(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
                float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * __half2float(B[k * N + j]);
      Y[i * N + j] = acc;
    }
}

// A __half accumulator: the epilogue reads the sum as a __half, and a
// float output gets it rounded once to __half, as the source stores it.
// CHECK-LABEL: struct tc_half_sum_plus_bias_0_epilogue {
// CHECK: (static_cast<__half>(tc_value) + bias[((tc_n))])
void half_sum_plus_bias(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, const __half *__restrict__ bias,
                        __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      __half acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      Y[i * N + j] = acc + bias[j];
    }
}

// CHECK-LABEL: struct tc_half_sum_to_float_0_epilogue {
// CHECK: = static_cast<float>(static_cast<__half>(tc_value));
void half_sum_to_float(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      __half acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      Y[i * N + j] = acc;
    }
}
