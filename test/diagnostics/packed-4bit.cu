// Packed 4-bit operands the tool refuses, each at the construct that is
// not as it needs: a byte unpacked through a local, the nibble chosen by
// another index's parity, the high nibble first (no unpacking the tool
// knows, so the byte read at half an index is named), a divided index
// outside the statement that unpacks packed values (an epilogue's bias, a
// group scale of 16-bit weights), a batched product, the bytes also read
// as bytes, crumbs (2-bit values at k / 4), a size quotient of a region's own
// variable, and fp32 activations. Each region is diagnosed
// and the file is left exactly as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not='error:'
// RUN: diff %s %t.cu
#include <cstdint>
#include <cuda_fp16.h>

void through_local(int M, int N, int K, int ldw, const __half *__restrict__ X,
                   const uint8_t *__restrict__ Wq, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:42: error: 'Wq' is read at half an index, but not unpacked as a 4-bit value in the same expression
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:42: note: a byte of packed 4-bit values is read at half the reduction's index and unpacked in the same expression, the even index in the low nibble: '(W[j * ldw + k / 2] >> (4 * (k % 2))) & 15' (0 to 15), or the same nibble as two's complement (-8 to 7)
        const uint8_t b = Wq[j * ldw + k / 2];
        acc += __half2float(X[i * K + k]) * (float)((b >> (4 * (k % 2))) & 15);
      }
      Y[i * N + j] = __float2half(acc);
    }
}

void other_parity(int M, int N, int K, int ldw, const __half *__restrict__ X,
                  const uint8_t *__restrict__ Wq, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:83: error: the nibble is chosen by the parity of 'j', not by that of the index the byte's subscript halves
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:83: note: a byte of packed 4-bit values is read at half the reduction's index and unpacked in the same expression, the even index in the low nibble: '(W[j * ldw + k / 2] >> (4 * (k % 2))) & 15' (0 to 15), or the same nibble as two's complement (-8 to 7)
        acc += __half2float(X[i * K + k]) * (float)((Wq[j * ldw + k / 2] >> (4 * (j % 2))) & 15);
      Y[i * N + j] = __float2half(acc);
    }
}

void high_first(int M, int N, int K, int ldw, const __half *__restrict__ X,
                const uint8_t *__restrict__ Wq, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:69: error: 'Wq' is read at half an index, but not unpacked as a 4-bit value in the same expression
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:69: note: a byte of packed 4-bit values is read at half the reduction's index and unpacked in the same expression, the even index in the low nibble: '(W[j * ldw + k / 2] >> (4 * (k % 2))) & 15' (0 to 15), or the same nibble as two's complement (-8 to 7)
        acc += __half2float(X[i * K + k]) * (float)((Wq[j * ldw + k / 2] >> (4 * (1 - k % 2))) & 15);
      Y[i * N + j] = __float2half(acc);
    }
}

void halved_bias(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
                 const float *__restrict__ bias, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:35: error: non-affine operator '/' in a subscript or loop bound
      // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:35: note: subscripts and loop bounds must be sums of loop iterators and region-invariant integers times constants (e.g. 'A[i * K + k]'); an index divided by a constant reads packed 4-bit values ('k / 2') and their groups' zero points and scales ('k / 128'), in the statement that unpacks the values
      C[i * N + j] = acc + bias[j / 2];
    }
}

void group_scale_fp16(int M, int N, int K, int G, const __half *__restrict__ A,
                      const __half *__restrict__ B, const float *__restrict__ s,
                      float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:86: error: non-affine operator '/' in a subscript or loop bound
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:86: note: subscripts and loop bounds must be sums of loop iterators and region-invariant integers times constants (e.g. 'A[i * K + k]'); an index divided by a constant reads packed 4-bit values ('k / 2') and their groups' zero points and scales ('k / 128'), in the statement that unpacks the values
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]) * s[j * G + k / 128];
      C[i * N + j] = acc;
    }
}

void batched(int Bt, int M, int N, int K, int ldw, const __half *__restrict__ X,
             const uint8_t *__restrict__ Wq, __half *__restrict__ Y) {
#pragma tc
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(X[(b * M + i) * K + k]) *
                 // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:27: error: packed 4-bit operand in a batched product
                 // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:27: note: a packed operand is dequantised once per element before the product, which needs one GEMM over a box of loops, accumulated in float
                 (float)((Wq[(b * N + j) * ldw + k / 2] >> (4 * (k % 2))) & 15);
        Y[(b * M + i) * N + j] = __float2half(acc);
      }
}

void bytes_and_nibbles(int M, int N, int K, int ldw, const __half *__restrict__ X,
                       const uint8_t *__restrict__ Wq, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) *
               // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:79: error: 'Wq' is accessed as bytes and read as packed 4-bit values
               // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:79: note: a region reads an array of packed 4-bit values only through their unpacking, and does not write it
               ((float)((Wq[j * ldw + k / 2] >> (4 * (k % 2))) & 15) - (float)Wq[j * ldw]);
      Y[i * N + j] = __float2half(acc);
    }
}

void quarter(int M, int N, int K, int ldw, const __half *__restrict__ X,
             const uint8_t *__restrict__ Wq, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:69: error: 'Wq' is read at an index divided by 4
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:69: note: an 8-bit array is read at a divided index only as packed 4-bit values: at half the index ('k / 2') of the innermost loop, and unpacked in the same expression
        acc += __half2float(X[i * K + k]) * (float)((Wq[j * ldw + k / 4] >> (2 * (k % 4))) & 3);
      Y[i * N + j] = __float2half(acc);
    }
}

// A size quotient of a region's own variable: the call could not compute it.
void shadowed_quotient(int M, int N, int K, const __half *__restrict__ X,
                       const __half *__restrict__ W, float *__restrict__ Y) {
  int Kh = 7;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const int Kh = K;
      float acc = 0.0f;
      // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:30: error: non-affine operator '/' in a subscript or loop bound
      // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:30: note: subscripts and loop bounds must be sums of loop iterators and region-invariant integers times constants (e.g. 'A[i * K + k]')
      for (int k = 0; k < Kh / 2; ++k)
        acc += __half2float(X[i * K + k]) * __half2float(W[j * K + k]);
      Y[i * N + j] = acc;
    }
  (void)Kh;
}

void float_activations(int M, int N, int K, const float *__restrict__ X,
                       const uint8_t *__restrict__ Wq, float *__restrict__ Y) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+2]]:40: error: packed 4-bit operand beside float activations
        // DIAG: {{.*}}packed-4bit.cu:[[@LINE+1]]:40: note: the operand is dequantised to the other operand's 16-bit type: __half or __nv_bfloat16 activations
        acc += X[i * K + k] * (float)((Wq[j * (K / 2) + k / 2] >> (4 * (k % 2))) & 15);
      Y[i * N + j] = acc;
    }
}
