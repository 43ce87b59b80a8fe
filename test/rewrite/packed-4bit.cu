// Packed 4-bit weights (issue 51), as people write them: a byte read at
// half the reduction's index and unpacked in the same expression (a shift
// by the parity and a mask, a choice on the parity, a signed shift pair,
// an xor), with group-wise zero points and scales read at `k / 128`, and
// row pitches computed from the sizes (`K / 2`, `K / 128`: sizes of their
// own, which the call computes). The launcher dequantises the operand into
// a 16-bit copy (tc::dequantize_operand, the functor computing each element
// as the source does), and the region's GEMM kernels multiply the copy. At
// few rows of fp16 activations (up to 64 for code built for sm_90a, whose
// launchers pass `true` for the wgmma kernel; 16 elsewhere), where the
// factor is (w - z) * s with z and s of the row and of k's group, a 4-bit
// decode kernel reads the packed bytes instead
// (tc::decode::launch_nibble_decode).
//
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %tc-rewrite %t.cu -o %t.again.cu
// RUN: diff %t.cu %t.again.cu
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --input-file=%t.sm80.cu --check-prefix=SM80
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_80,code=sm_80 -c %t.sm80.cu -o %t.sm80.o %}

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

void int4_linear(int M, int N, int K, const __half *__restrict__ X,
                 const uint8_t *__restrict__ Wq, const __half *__restrict__ zero,
                 const __half *__restrict__ scale, __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) *
               (((float)((Wq[j * (K / 2) + k / 2] >> (4 * (k % 2))) & 0xF) -
                 __half2float(zero[j * (K / 128) + k / 128])) *
                __half2float(scale[j * (K / 128) + k / 128]));
      Y[i * N + j] = __float2half(acc);
    }
}
// The model reads the bytes at floor(k / 2) and the groups at floor(k / 128).
// EXPLAIN-LABEL: region tc_int4_linear_0
// EXPLAIN: array Wq: unsigned char
// EXPLAIN: read R1: {{.*}} -> Wq[j, o1] : {{.*}}-1 + k <= 2o1 <= k
// EXPLAIN: read R2: {{.*}} -> zero[j, o1] : {{.*}}-127 + k <= 128o1 <= k
// EXPLAIN: B: packed 4-bit values, dequantised by the launcher into tc_dequantized_b (__half, K-major, leading dimension K rounded up to 8), which the kernels read
// EXPLAIN: decoding shapes (M <= tc::decode::kNibbleWgmmaRows): tc::decode::launch_nibble_decode on the packed bytes with tc_int4_linear_0_nibble_groups and tc_int4_linear_0_epilogue
// EXPLAIN: composed: tc::sm90::launch_gemm<{{.*}}> with tc_int4_linear_0_epilogue
//
// The element as the source computes it: the nibble of the byte at
// floor(k / 2) that k's parity selects.
// CHECK-LABEL: struct tc_int4_linear_0_dequantize {
// CHECK: long long K_div_2;
// CHECK: long long K_div_128;
// CHECK: __device__ auto operator()(long long tc_row, long long tc_k) const {
// CHECK-NEXT: return ((static_cast<float>(static_cast<float>(static_cast<int>(tc::unsigned_nibble(Wq[(long long)((tc_row)) * (K_div_2) + (tc::floor_div((tc_k), 2))], (tc_k))))) - ::__half2float(zero[(long long)((tc_row)) * (K_div_128) + (tc::floor_div((tc_k), 128))])) * ::__half2float(scale[(long long)((tc_row)) * (K_div_128) + (tc::floor_div((tc_k), 128))]));
// The decode kernel's groups: z and s as the source computes them, at the
// group's first k.
// CHECK-LABEL: struct tc_int4_linear_0_nibble_groups {
// CHECK: __device__ tc::decode::NibbleGroup operator()(long long tc_row, long long tc_group) const {
// CHECK-NEXT: const long long tc_k = tc_group * 128;
// CHECK-NEXT: return {::__float2half(static_cast<float>(::__half2float(zero[(long long)((tc_row)) * (K_div_128) + (tc::floor_div((tc_k), 128))]))), ::__float2half(static_cast<float>(::__half2float(scale[(long long)((tc_row)) * (K_div_128) + (tc::floor_div((tc_k), 128))])))};
// The launcher: at few rows the decode kernel on the packed bytes (row
// pitch K / 2, groups of 128); else the copy is its own, made after the
// tests and before any kernel; the kernels read it as B.
// CHECK: static void tc_int4_linear_0_launch(long long M, long long N, long long K, long long K_div_2, long long K_div_128, const __half *X, const unsigned char *Wq, const __half *zero, const __half *scale, __half *Y, ::cudaStream_t tc_stream) {
// CHECK-NEXT: __half *tc_dequantized_b = nullptr;
// CHECK-NEXT: long long tc_dequantized_b_ld = 0;
// CHECK: if (tc_facts.options.decode_kernels && (M) <= tc::decode::kNibbleWgmmaRows &&
// CHECK-NEXT: tc::decode::launch_nibble_decode<false, true>(
// CHECK-NEXT: M, N, K, X, K, Wq, K_div_2, 128,
// CHECK-NEXT: tc_int4_linear_0_nibble_groups{M, N, K, K_div_2, K_div_128, tc_dequantized_b_ld, X, Wq, zero, scale, Y, tc_dequantized_b}, tc_int4_linear_0_epilogue{
// CHECK-NEXT: return;
// CHECK: tc_dequantized_b_ld = tc::dequantized_leading_dimension(K);
// CHECK: const tc::DequantizedBuffer tc_copy_buffer = tc::dequantized_buffer(
// CHECK: if (!tc::dequantize_operand<__half>(N, K, tc_int4_linear_0_dequantize{M, N, K, K_div_2, K_div_128, tc_dequantized_b_ld, X, Wq, zero, scale, Y, tc_dequantized_b}, tc_dequantized_b, tc_dequantized_b_ld, tc_stream)) {
// CHECK: tc::sm90::launch_gemm<{{.*}}({M, N, K}, X, K, tc_dequantized_b, tc_dequantized_b_ld,
// The call computes the sizes the subscripts divide where the region was.
// CHECK: tc_int4_linear_0_launch(M, N, K, K / 2, K / 128, X, Wq, zero, scale, Y, 0);
// SM80: (M) <= tc::decode::kNibbleDecodeRows &&
// SM80-NEXT: tc::decode::launch_nibble_decode<false>(
// SM80: tc_int4_linear_0_launch(M, N, K, K / 2, K / 128, X, Wq, zero, scale, Y, 0);

// A choice on the parity and a per-channel zero point.
void int4_choice(int M, int N, int K, const __half *__restrict__ X,
                 const uint8_t *__restrict__ Wq, const float *__restrict__ zero,
                 __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) *
               ((float)((k % 2) ? (Wq[j * (K / 2) + k / 2] >> 4) : (Wq[j * (K / 2) + k / 2] & 15)) -
                zero[j]);
      Y[i * N + j] = __float2half(acc);
    }
}
// One group: the row's zero point (float: the difference is computed in
// float).
// EXPLAIN-LABEL: region tc_int4_choice_0
// EXPLAIN: decoding shapes (M <= tc::decode::kNibbleWgmmaRows): tc::decode::launch_nibble_decode
// CHECK-LABEL: struct tc_int4_choice_0_dequantize {
// CHECK: return (static_cast<float>(static_cast<int>(tc::unsigned_nibble(Wq[(long long)((tc_row)) * (K_div_2) + (tc::floor_div((tc_k), 2))], (tc_k)))) - zero[((tc_row))]);

// Signed nibbles by a shift pair (`k >> 1` halves too), bf16 activations,
// a per-channel scale applied to the sum.
void int4_signed(int M, int N, int K, const __nv_bfloat16 *__restrict__ X,
                 const int8_t *__restrict__ Wq, const float *__restrict__ scale,
                 float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(X[i * K + k]) *
               (float)((int8_t)(Wq[j * (K / 2) + (k >> 1)] << (4 * (1 - k % 2))) >> 4) *
               scale[j];
      Y[i * N + j] = acc;
    }
}
// EXPLAIN-LABEL: region tc_int4_signed_0
// EXPLAIN: dequantised by the launcher into tc_dequantized_b (__nv_bfloat16,
// EXPLAIN: decoding shapes (M <= tc::decode::kNibbleWgmmaRows): the copy and the kernels below (A is not fp16 as stored, k contiguous)
// CHECK-LABEL: struct tc_int4_signed_0_dequantize {
// CHECK: return static_cast<float>(static_cast<int>(tc::signed_nibble(Wq[(long long)((tc_row)) * (K_div_2) + (tc::floor_div((tc_k), 2))], (tc_k))));
// CHECK: if (!tc::dequantize_operand<__nv_bfloat16>(N, K,

// 2-D arrays of fixed rows: `Wq[j][k / 2]`, groups of 32 at `[j][k / 32]`.
constexpr int kK = 96;
void int4_rows(int M, int N, const __half (*__restrict__ X)[kK],
               const uint8_t (*__restrict__ Wq)[kK / 2], const float (*__restrict__ scale)[kK / 32],
               __half *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < kK; ++k)
        acc += __half2float(X[i][k]) *
               ((float)(((Wq[j][k / 2] >> (4 * (k & 1))) & 15) ^ 8) - 8.0f) * scale[j][k / 32];
      Y[i * N + j] = __float2half(acc);
    }
}
// The (u ^ 8) - 8 is the prologue's: the nibble is read unsigned, and the
// factor is not (w - z) * s.
// EXPLAIN-LABEL: region tc_int4_rows_0
// EXPLAIN: decoding shapes (M <= tc::decode::kNibbleWgmmaRows): the copy and the kernels below (the nibble's factor is not (w - z), computed without wrapping)
// CHECK-LABEL: struct tc_int4_rows_0_dequantize {
// CHECK: tc::unsigned_nibble(Wq[(long long)((tc_row)) * (48) + (tc::floor_div((tc_k), 2))], (tc_k))
// CHECK-SAME: scale[(long long)((tc_row)) * (3) + (tc::floor_div((tc_k), 32))]

// The symmetric spelling: the nibble minus 8 in int, a scale per group.
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
// EXPLAIN-LABEL: region tc_int4_symmetric_0
// EXPLAIN: decoding shapes (M <= tc::decode::kNibbleWgmmaRows): tc::decode::launch_nibble_decode
// CHECK-LABEL: struct tc_int4_symmetric_0_nibble_groups {
// CHECK: const long long tc_k = tc_group * 64;
// CHECK-NEXT: return {::__float2half(static_cast<float>(8)), ::__float2half(static_cast<float>(::__half2float(scale[
