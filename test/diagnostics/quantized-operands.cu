// 8-bit operands and prologues the tool rejects: both operands 8-bit, a
// prologue reading an array along the other output dimension or along k,
// and plain char (text, not a number). Each region is diagnosed and the
// file is left exactly as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not='error:'
// RUN: diff %s %t.cu

#include <cstdint>
#include <cuda_fp16.h>

void both_int8(int M, int N, int K, const int8_t *__restrict__ A,
               const int8_t *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}quantized-operands.cu:[[@LINE+2]]:45: error: both operands 'A' and 'B' are 8-bit integers
        // DIAG: {{.*}}quantized-operands.cu:[[@LINE+1]]:45: note: integer products (s32 accumulation) are not supported yet; give one operand the type __half or __nv_bfloat16
        acc += (float)A[i * K + k] * (float)B[j * K + k];
      C[i * N + j] = acc;
    }
}

void zero_point_along_m(int M, int N, int K, const __half *__restrict__ X,
                        const int8_t *__restrict__ W, const float *__restrict__ zero,
                        float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}quantized-operands.cu:[[@LINE+2]]:68: error: the prologue of operand 'W' reads 'zero' along 'i'
        // DIAG: {{.*}}quantized-operands.cu:[[@LINE+1]]:68: note: a prologue may read arrays indexed by the operand's own row or column ('j'), such as a per-channel scale or zero point
        acc += __half2float(X[i * K + k]) * ((float)W[j * K + k] - zero[i]);
      Y[i * N + j] = acc;
    }
}

void zero_point_along_k(int M, int N, int K, const __half *__restrict__ X,
                        const int8_t *__restrict__ W, const float *__restrict__ zero,
                        float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}quantized-operands.cu:[[@LINE+2]]:68: error: operand '(static_cast<float>(W[j * K + k]) - zero[k])' of the product is not a pointwise function of one array element
        // DIAG: {{.*}}quantized-operands.cu:[[@LINE+1]]:68: note: a prologue may use the element, literals, scalars and arrays indexed by the operand's row or column (a per-channel scale or zero point)
        acc += __half2float(X[i * K + k]) * ((float)W[j * K + k] - zero[k]);
      Y[i * N + j] = acc;
    }
}

void plain_char(int M, int N, int K, const __half *__restrict__ X,
                const char *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}quantized-operands.cu:[[@LINE+2]]:52: error: operand 'W' has element type 'char'
        // DIAG: {{.*}}quantized-operands.cu:[[@LINE+1]]:52: note: tensor-core operands must be __half or __nv_bfloat16 (one of them may be int8_t or uint8_t, converted while it is copied)
        acc += __half2float(X[i * K + k]) * (float)W[j * K + k];
      Y[i * N + j] = acc;
    }
}
