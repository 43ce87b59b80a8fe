// Literals written through macros are emitted as the literal itself, read
// where it is spelled: a function-like macro's literal (which the expansion's
// text would lose), and an object-like macro redefined inside the function,
// whose name would mean the first definition where the kernel is emitted,
// before the function.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc' \
// RUN:   --implicit-check-not='static_cast<float>{{[(][)]}}' --implicit-check-not='tc_value, {{[)]}}' \
// RUN:   --implicit-check-not='fminf(tc_value, {{LIMIT|6[.]0f}}'

#include <cuda_fp16.h>

#define RELU(x) fmaxf((x), 0.0f)
#define RELU_SELECT(x) ((x) > 0 ? (x) : 0)
#define LIMIT 6.0f

// CHECK-LABEL: void tc_relu_macro_0_kernel
// CHECK: = fmaxf(tc_value, 0.0f);
void relu_macro(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = RELU(acc);
    }
}

// CHECK-LABEL: void tc_relu_select_macro_0_kernel
// CHECK: static_cast<float>(0)
void relu_select_macro(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = RELU_SELECT(acc);
    }
}

// CHECK-LABEL: void tc_redefined_limit_0_kernel
// CHECK: = fminf(tc_value, 1.0f);
void redefined_limit(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#undef LIMIT
#define LIMIT 1.0f
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = fminf(acc, LIMIT);
    }
}
