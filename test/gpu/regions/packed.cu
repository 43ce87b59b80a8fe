// Regions with packed 4-bit weights (issue 51), as people write them: two
// weights a byte, the even k in the low nibble, with group-wise or
// per-channel zero points and scales. Run by test/gpu/packed_regions_test.cu
// rewritten (the launcher dequantises the weights into a 16-bit copy, the
// GEMM kernels multiply it; at few rows of fp16 activations whose rows and
// the weights' are 16-byte aligned, a 4-bit decode kernel reads the packed
// bytes instead: up to 16 rows, or 64 on sm_90a with groups of whole
// 128-deep sub-chunks) and as written on the host.
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Unsigned nibbles, group-wise zero points and scales (groups of 128 k),
// flat subscripts with the row pitches as sizes.
void int4_groups(int M, int N, int K, int ldw, int groups, const __half *__restrict__ X,
                 const uint8_t *__restrict__ Wq, const __half *__restrict__ zero,
                 const __half *__restrict__ scale, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) *
               (((float)((Wq[j * ldw + k / 2] >> (4 * (k % 2))) & 0xF) -
                 __half2float(zero[j * groups + k / 128])) *
                __half2float(scale[j * groups + k / 128]));
      Y[i * N + j] = __float2half(acc);
    }
}

// Signed nibbles by a shift pair, a per-channel scale (applied to the
// sum), bf16 activations and an fp32 output.
void int4_signed(int M, int N, int K, int ldw, const __nv_bfloat16 *__restrict__ X,
                 const int8_t *__restrict__ Wq, const float *__restrict__ scale,
                 float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(X[i * K + k]) *
               (float)((int8_t)(Wq[j * ldw + (k >> 1)] << (4 * (1 - k % 2))) >> 4) *
               scale[j];
      Y[i * N + j] = acc;
    }
}

// A choice on the parity, 2-D arrays of fixed rows (K = 96: 48 bytes, 3
// groups of 32), a bias and ReLU.
constexpr int kK = 96;
void int4_choice(int M, int N, const __half (*__restrict__ X)[kK],
                 const uint8_t (*__restrict__ Wq)[kK / 2], const float (*__restrict__ zero)[3],
                 const float (*__restrict__ scale)[3], const float *__restrict__ bias,
                 __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < kK; ++k) {
        const int q = (k & 1) ? (Wq[j][k / 2] >> 4) : (Wq[j][k / 2] & 15);
        acc += __half2float(X[i][k]) * ((q - zero[j][k / 32]) * scale[j][k / 32]);
      }
      Y[i * N + j] = __float2half(fmaxf(acc + bias[j], 0.0f));
    }
}

// Signed as (u ^ 8) - 8, no zero point, and pointers that may overlap:
// the launcher tests them, and runs the loops as written where they do.
void int4_xor(int M, int N, int K, int ldw, int groups, const __half *X, const uint8_t *Wq,
              const __half *scale, __half *Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) *
               ((float)((((Wq[j * ldw + k / 2] >> (4 * (k & 1))) & 15) ^ 8) - 8) *
                __half2float(scale[j * groups + k / 64]));
      Y[i * N + j] = __float2half(acc);
    }
}

// An int nibble minus its row's 8-bit zero point (int arithmetic), the
// row's scale applied to the sum.
void int4_rows(int M, int N, int K, const __half *__restrict__ X,
               const uint8_t *__restrict__ Wq, const uint8_t *__restrict__ zero,
               const float *__restrict__ scale, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) *
               (float)(((Wq[j * (K / 2) + k / 2] >> (4 * (k % 2))) & 15) - zero[j]);
      Y[i * N + j] = __float2half(acc * scale[j]);
    }
}

// The symmetric spelling: the nibble minus 8 in int, fp16 scales in groups
// of 64.
void int4_symmetric(int M, int N, int K, const __half *__restrict__ X,
                    const uint8_t *__restrict__ Wq, const __half *__restrict__ scale,
                    __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) *
               ((float)(((Wq[j * (K / 2) + k / 2] >> (4 * (k % 2))) & 15) - 8) *
                __half2float(scale[j * (K / 64) + k / 64]));
      Y[i * N + j] = __float2half(acc);
    }
}
