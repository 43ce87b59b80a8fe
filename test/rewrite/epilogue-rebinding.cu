// An epilogue written as statements on locals (issue 5: ReLU "in its
// spellings"): a local reassigned after the reduction, ReLU as an `if`, an
// `if` / `else` on a local declared without a value, ReLU6 as an `else if`
// chain, a call of copysignf, and the accumulator
// itself updated after its reduction loop (`acc += bias[j]`). Each such
// assignment binds a new value to the name (frontend/Extraction.cpp), so
// the kernel's store is one pointwise expression of the sum, as if the
// source had written it in one statement; an `if` becomes a `?:`.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc' \
// RUN:   --implicit-check-not='{{^ *}}for (int k'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

#include <cmath>

void reassigned(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, const float *__restrict__ bias,
                __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      v = fmaxf(v, 0.0f);
      v *= 2.0f;
      C[i * N + j] = __float2half(v);
    }
}
// CHECK-LABEL: {{^}}struct tc_reassigned_0_epilogue {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half((static_cast<float>(::fmaxf(static_cast<float>((tc_value + tc::read_only(bias[((tc_n))]))), 0.0f)) * 2.0f));
// CHECK-LABEL: {{^}}void reassigned(
// CHECK:       {{^  }}tc_reassigned_0_launch(M, N, K, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

void relu_if(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, const float *__restrict__ bias,
             __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      if (v < 0.0f)
        v = 0.0f;
      C[i * N + j] = __float2half(v);
    }
}
// v is read three times: it is computed once, into a local.
// CHECK-LABEL: {{^}}struct tc_relu_if_0_epilogue {
// CHECK:       {{^ *}}const auto tc_common_S2_0 = static_cast<float>((tc_value + tc::read_only(bias[((tc_n))])));
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half(((tc_common_S2_0 < 0.0f) ? static_cast<float>(0.0f) : tc_common_S2_0));

void leaky_if_else(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, const float *__restrict__ bias,
                   __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      float r;
      if (v > 0.0f) {
        r = v;
      } else {
        r = 0.01f * v;
      }
      C[i * N + j] = __float2half(r);
    }
}
// CHECK-LABEL: {{^}}struct tc_leaky_if_else_0_epilogue {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half(((tc_common_S2_0 > 0.0f) ? static_cast<float>(tc_common_S2_0) : static_cast<float>((0.01f * tc_common_S2_0))));

void relu6_else_if(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, const float *__restrict__ bias,
                   __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      if (v > 6.0f)
        v = 6.0f;
      else if (v < 0.0f)
        v = 0.0f;
      else
        v = copysignf(v, bias[j]);
      C[i * N + j] = __float2half(v);
    }
}
// CHECK-LABEL: {{^}}struct tc_relu6_else_if_0_epilogue {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half(((tc_common_S2_0 > 6.0f) ? static_cast<float>(6.0f) : ((tc_common_S2_0 < 0.0f) ? static_cast<float>(0.0f) : static_cast<float>(::copysignf(tc_common_S2_0, tc::read_only(bias[((tc_n))]))))));

void accumulator_updated(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B,
                         const float *__restrict__ bias, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      acc += bias[i];
      acc = acc > 6.0f ? 6.0f : acc;
      C[i * N + j] = acc;
    }
}
// The row bias is indexed by tc_m; the accumulator's reads are its sum.
// CHECK-LABEL: {{^}}struct tc_accumulator_updated_0_epilogue {
// CHECK:       {{^ *}}const auto tc_common_S2_0 = (tc_value + tc::read_only(bias[((tc_m))]));
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = static_cast<float>(((tc_common_S2_0 > 6.0f) ? 6.0f : tc_common_S2_0));
// CHECK-LABEL: {{^}}void accumulator_updated(
// CHECK:       {{^  }}tc_accumulator_updated_0_launch(M, N, K, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}
