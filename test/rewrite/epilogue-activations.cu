// Activation functions after the matmul (issue 5): ReLU6, clamp to scalar
// bounds, leaky ReLU (literal and scalar slope), sigmoid, tanh, GELU in its
// erf and tanh forms, SiLU, a residual input, two outputs, and GELU in an
// epilogue nest of its own. Each is kept, as written, in the kernel's store
// (a let-bound local `v` is substituted by its value; used more than once,
// it is computed once, into a `const auto` local), with the bias indexed
// by the tile coordinate it depends on (tc_m for bias[i], tc_n for bias[j]);
// each region is replaced by a call of its launcher.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc' \
// RUN:   --implicit-check-not='{{^ *}}for (int k'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

#include <cmath>

void relu6(int M, int N, int K, const __half *__restrict__ A,
           const __half *__restrict__ B, const float *__restrict__ bias,
           __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(fminf(fmaxf(acc + bias[j], 0.0f), 6.0f));
    }
}
// CHECK-LABEL: {{^}}struct tc_relu6_0_epilogue {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half(::fminf(::fmaxf((tc_value + tc::read_only(bias[((tc_n))])), 0.0f), 6.0f));
// CHECK-LABEL: {{^}}void relu6(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_relu6_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_relu6_0_launch(M, N, K, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

void clamp_scalars(int M, int N, int K, float lo, float hi,
                   const __half *__restrict__ A, const __half *__restrict__ B,
                   const float *__restrict__ bias, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = fminf(fmaxf(acc + bias[i], lo), hi);
    }
}
// CHECK-LABEL: {{^}}struct tc_clamp_scalars_0_epilogue {
// CHECK:       {{^}}  float lo;
// CHECK-NEXT:  {{^}}  float hi;
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::fminf(::fmaxf((tc_value + tc::read_only(bias[((tc_m))])), lo), hi);
// CHECK-LABEL: {{^}}void clamp_scalars(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_clamp_scalars_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_clamp_scalars_0_launch(M, N, K, lo, hi, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

void leaky_relu(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, const float *__restrict__ bias,
                __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(v > 0.0f ? v : 0.01f * v);
    }
}
// CHECK-LABEL: {{^}}struct tc_leaky_relu_0_epilogue {
// CHECK:       {{^ *}}const auto tc_common_S2_0 = static_cast<float>((tc_value + tc::read_only(bias[((tc_n))])));
// CHECK-NEXT:  {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = ::__float2half(((tc_common_S2_0 > 0.0f) ? tc_common_S2_0 : (0.01f * tc_common_S2_0)));
// CHECK-LABEL: {{^}}void leaky_relu(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_leaky_relu_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_leaky_relu_0_launch(M, N, K, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

void leaky_relu_slope(int M, int N, int K, float slope,
                      const __half *__restrict__ A,
                      const __half *__restrict__ B,
                      const float *__restrict__ bias, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[i];
      C[i * N + j] = __float2half(v > 0.0f ? v : slope * v);
    }
}
// CHECK-LABEL: {{^}}struct tc_leaky_relu_slope_0_epilogue {
// CHECK:       {{^}}  float slope;
// CHECK:       {{^ *}}const auto tc_common_S2_0 = static_cast<float>((tc_value + tc::read_only(bias[((tc_m))])));
// CHECK-NEXT:  {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = ::__float2half(((tc_common_S2_0 > 0.0f) ? tc_common_S2_0 : (slope * tc_common_S2_0)));
// CHECK-LABEL: {{^}}void leaky_relu_slope(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_leaky_relu_slope_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_leaky_relu_slope_0_launch(M, N, K, slope, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

void sigmoid(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, const float *__restrict__ bias,
             __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(1.0f / (1.0f + expf(-v)));
    }
}
// CHECK-LABEL: {{^}}struct tc_sigmoid_0_epilogue {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half((1.0f / (1.0f + ::expf((-static_cast<float>((tc_value + tc::read_only(bias[((tc_n))]))))))));
// CHECK-LABEL: {{^}}void sigmoid(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_sigmoid_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_sigmoid_0_launch(M, N, K, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

void tanh_f32(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, const float *__restrict__ bias,
              float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = tanhf(acc + bias[j]);
    }
}
// CHECK-LABEL: {{^}}struct tc_tanh_f32_0_epilogue {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::tanhf((tc_value + tc::read_only(bias[((tc_n))])));
// CHECK-LABEL: {{^}}void tanh_f32(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_tanh_f32_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_tanh_f32_0_launch(M, N, K, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

void gelu_erf(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, const float *__restrict__ bias,
              __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678f)));
    }
}
// CHECK-LABEL: {{^}}struct tc_gelu_erf_0_epilogue {
// CHECK:       {{^ *}}const auto tc_common_S2_0 = static_cast<float>((tc_value + tc::read_only(bias[((tc_n))])));
// CHECK-NEXT:  {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = ::__float2half(((0.5f * tc_common_S2_0) * (1.0f + ::erff((tc_common_S2_0 * 0.70710678f)))));
// CHECK-LABEL: {{^}}void gelu_erf(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_gelu_erf_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_gelu_erf_0_launch(M, N, K, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

void gelu_tanh(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, const float *__restrict__ bias,
               __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(
          0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))));
    }
}
// CHECK-LABEL: {{^}}struct tc_gelu_tanh_0_epilogue {
// CHECK:       {{^ *}}const auto tc_common_S2_0 = static_cast<float>((tc_value + tc::read_only(bias[((tc_n))])));
// CHECK-NEXT:  {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = ::__float2half(((0.5f * tc_common_S2_0) * (1.0f + ::tanhf((0.7978845608f * (tc_common_S2_0 + (((0.044715f * tc_common_S2_0) * tc_common_S2_0) * tc_common_S2_0)))))));
// CHECK-LABEL: {{^}}void gelu_tanh(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_gelu_tanh_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_gelu_tanh_0_launch(M, N, K, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

void silu(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, const float *__restrict__ bias,
          __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[i];
      C[i * N + j] = __float2half(v / (1.0f + expf(-v)));
    }
}
// CHECK-LABEL: {{^}}struct tc_silu_0_epilogue {
// CHECK:       {{^ *}}const auto tc_common_S2_0 = static_cast<float>((tc_value + tc::read_only(bias[((tc_m))])));
// CHECK-NEXT:  {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = ::__float2half((tc_common_S2_0 / (1.0f + ::expf((-tc_common_S2_0)))));
// CHECK-LABEL: {{^}}void silu(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_silu_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_silu_0_launch(M, N, K, A, B, C, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

// A residual input, read at the output element, after the activation.
void gelu_residual(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, const float *__restrict__ bias,
                   const __half *__restrict__ R, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678f)) +
                                  __half2float(R[i * N + j]));
    }
}
// CHECK-LABEL: {{^}}struct tc_gelu_residual_0_epilogue {
// CHECK:       {{^}}  const __half *__restrict__ R;
// CHECK:       {{^ *}}const auto tc_common_S2_0 = static_cast<float>((tc_value + tc::read_only(bias[((tc_n))])));
// CHECK-NEXT:  {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = ::__float2half((((0.5f * tc_common_S2_0) * (1.0f + ::erff((tc_common_S2_0 * 0.70710678f)))) + ::__half2float(tc::read_only(R[(long long)((tc_m)) * (N) + ((tc_n))]))));
// CHECK-LABEL: {{^}}void gelu_residual(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_gelu_residual_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_gelu_residual_0_launch(M, N, K, A, B, C, bias, R, 0);
// CHECK-NEXT:  {{^}}}{{$}}

// Two outputs: the pre-activation value and its SiLU.
void two_outputs(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, const float *__restrict__ bias,
                 __half *__restrict__ C, __half *__restrict__ D) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(v);
      D[i * N + j] = __float2half(v / (1.0f + expf(-v)));
    }
}
// CHECK-LABEL: {{^}}struct tc_two_outputs_0_epilogue {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half(static_cast<float>((tc_value + tc::read_only(bias[((tc_n))]))));
// CHECK-NEXT:  {{^ *}}const auto tc_common_S3_0 = static_cast<float>((tc_value + tc::read_only(bias[((tc_n))])));
// CHECK-NEXT:  {{^ *}}{{D\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_1\[tc_v\]}} = ::__float2half((tc_common_S3_0 / (1.0f + ::expf((-tc_common_S3_0)))));
// CHECK-LABEL: {{^}}void two_outputs(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_two_outputs_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_two_outputs_0_launch(M, N, K, A, B, C, bias, D, 0);
// CHECK-NEXT:  {{^}}}{{$}}

// GELU in an epilogue nest of its own: C is stored, D computed from the
// value in registers.
void gelu_separate_nest(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B,
                        const float *__restrict__ bias, float *__restrict__ C,
                        __half *__restrict__ D) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
        C[i * N + j] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float v = C[i * N + j] + bias[j];
        D[i * N + j] = __float2half(
            0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))));
      }
  }
}
// CHECK-LABEL: {{^}}struct tc_gelu_separate_nest_0_epilogue {
// CHECK:       {{^ *}}const float tc_result_[[S:S[0-9]+]] = tc_value;
// CHECK-NEXT:  {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = tc_result_[[S]];
// CHECK-NEXT:  {{^ *}}const auto tc_common_[[T:S[0-9]+]]_0 = static_cast<float>((tc_result_[[S]] + tc::read_only(bias[((tc_n))])));
// CHECK-NEXT:  {{^ *}}{{D\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_1\[tc_v\]}} = ::__float2half(((0.5f * tc_common_[[T]]_0) * (1.0f + ::tanhf((0.7978845608f * (tc_common_[[T]]_0 + (((0.044715f * tc_common_[[T]]_0) * tc_common_[[T]]_0) * tc_common_[[T]]_0)))))));
// CHECK-LABEL: {{^}}void gelu_separate_nest(
// CHECK:       {{^  }}// '#pragma tc' region computed by tc_gelu_separate_nest_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^  }}tc_gelu_separate_nest_0_launch(M, N, K, A, B, C, D, bias, 0);
// CHECK-NEXT:  {{^}}}{{$}}

// A subtree used more than once only within a branch of ?: is not
// computed ahead of the condition (the source does not evaluate it where
// the condition is false); `v`, which the condition reads, is.
void exp_branch(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, const float *__restrict__ bias,
                __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      float v = acc + bias[j];
      C[i * N + j] = __float2half(v > 0.0f ? expf(v * 2.0f) * expf(v * 2.0f) : 0.0f);
    }
}
// CHECK-LABEL: {{^}}struct tc_exp_branch_0_epilogue {
// CHECK:       {{^ *}}const auto tc_common_S2_0 = static_cast<float>((tc_value + tc::read_only(bias[((tc_n))])));
// CHECK-NEXT:  {{^ *}}{{C\[\(long long\)\(\(tc_m\)\) \* \(N\) \+ \(\(tc_n\)\)\]|tc_lanes_0\[tc_v\]}} = ::__float2half(((tc_common_S2_0 > 0.0f) ? (::expf((tc_common_S2_0 * 2.0f)) * ::expf((tc_common_S2_0 * 2.0f))) : 0.0f));
// CHECK-LABEL: {{^}}void exp_branch(
// CHECK:       {{^  }}tc_exp_branch_0_launch(M, N, K, A, B, C, bias, 0);
