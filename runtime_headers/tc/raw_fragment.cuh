// tc/raw_fragment.cuh - wgmma's register A operand converted from a raw
// 8-bit stage (Hopper, TMA kernels).
//
// A quantized weight W (int8/uint8, K-major, with a prologue such as minus
// a zero point) is B of C = X W^T. The consumers of a transposed kernel
// compute C^T = W X^T instead: W is then wgmma's A, which it takes from
// registers, so each thread converts its own fragments straight from the
// raw tile that TMA landed. Shared memory holds only raw bytes: nothing is
// converted into a stage, and no barrier or proxy fence stands between the
// conversion and the wgmma (tile_convert.cuh's convert_raw_stage needs
// both, and its round trip bounded that kernel).
//
// The raw k tile: kRows rows of 64 bytes (64 k elements), landed by TMA with
// the 64-byte swizzle (tma_map_2d_bytes, swizzle64): 16-byte chunk j of row
// r lies at chunk j ^ (r / 2 % 4) of the row, so that a warp's 2-byte loads
// (8 rows, 4 pairs each) fall in distinct banks.
//
// Thread -> element layout (RawFragmentLayout): that of wgmma's A fragments
// (mma.m16n8k16's): warp w of the consumers holds rows 16 w + l / 4 (row 0)
// and that + 8 (row 1), l its lane; for k step kk (16 k elements),
// register a[0] holds row 0, k = 16 kk + 2 (l % 4) and the next; a[1] row 1,
// the same k; a[2] row 0, 8 further along k; a[3] row 1, 8 further.
//
// Conversion (as for raw stages, tile_convert.cuh): where the prologue is
// the element minus an exact offset (OffsetRow) and the warp's rows all
// are exact (offset_pairs), one PRMT makes the half2 (1024 + b0, 1024 + b1)
// of a pair and two HSUB2 take away the offset - one where every offset of
// the warp is an integer; otherwise each element goes through fp32 and the
// row's prologue f. Elements at k >= k_valid (past the reduction, which TMA
// filled with zeros) become exact zeros: f(0) is not zero with a zero
// point, and the padded products must add nothing. (The one HSUB2, and one
// branch on k_valid a tile instead of one a k step, because the 128x128
// transposed tiles' conversion is on their main loop's critical path:
// KernelConfig::integerOffsetPairs, docs/design/kernel-config.md.)
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "tile_convert.cuh"

namespace tc {

struct RawFragmentLayout {
  static constexpr int kPerThread = 2;  // rows
  __host__ __device__ __forceinline__ static int row(int thread, int i) {
    return thread / 32 * 16 + thread % 32 / 4 + 8 * i;
  }
  // Byte offset of (row, k) in a raw tile with the 64-byte swizzle.
  __host__ __device__ __forceinline__ static int offset(int row, int k) {
    return row * 64 + (((k >> 4) ^ (row >> 1 & 3)) << 4) + (k & 15);
  }
};

namespace detail {

// Bytes b0, b1 (the low half of x) of an exact offset row, as the half2
// (b0 - z, b1 - z) (see OffsetRow): the bias's HSUB2, then the fraction's
// where the zero point has one (kFraction; for an integer zero point the
// second would subtract +0).
template <typename Src, bool kFraction, typename F>
__device__ __forceinline__ uint32_t pair_minus_offset(uint32_t x, const OffsetRow<F> &row) {
  if (std::is_signed<Src>::value)
    x ^= 0x8080u;
  uint32_t h = __byte_perm(x, 0x64646464u, 0x4140u);
  __half2 v, b;
  memcpy(&v, &h, 4);
  memcpy(&b, &row.bias, 4);
  v = __hsub2(v, b);
  if (kFraction) {
    __half2 f;
    memcpy(&f, &row.fraction, 4);
    v = __hsub2(v, f);
  }
  memcpy(&h, &v, 4);
  return h;
}

// Bytes b0, b1 (the low half of x) as the pair (f(b0), f(b1)) of Dst,
// through fp32 (bytes_to_float's exact PRMT and FADD).
template <typename Src, typename Dst, typename F>
__device__ __forceinline__ uint32_t pair_through_float(uint32_t x, const F &f) {
  constexpr bool kSigned = std::is_signed<Src>::value;
  constexpr float kBias = kSigned ? 8388736.0f : 8388608.0f;  // 2^23 (+ 128)
  if (kSigned)
    x ^= 0x8080u;
  const float v0 = f(__uint_as_float(__byte_perm(x, 0x4B000000u, 0x7440u)) - kBias);
  const float v1 = f(__uint_as_float(__byte_perm(x, 0x4B000000u, 0x7441u)) - kBias);
  uint32_t h;
  if constexpr (std::is_same<Dst, __half>::value) {
    const __half2 p = __floats2half2_rn(v0, v1);
    memcpy(&h, &p, 4);
  } else {
    static_assert(std::is_same<Dst, __nv_bfloat16>::value, "fp16 or bf16 fragments");
    const __nv_bfloat162 p = __floats2bfloat162_rn(v0, v1);
    memcpy(&h, &p, 4);
  }
  return h;
}

// The 2-byte pairs of the thread's fragment registers for k step kk. The
// swizzle only flips bits 4-5 of an offset (the 16-byte chunk), which a row
// 8 further down (+512) or a pair 8 further along k (+8) leave alone: all
// four addresses are the thread's offset at k step 0 with its chunk bits
// XORed by kk, plus a constant.
__device__ __forceinline__ void load_raw_pairs(uint32_t (&x)[4], const unsigned char *raw,
                                               int thread, int kk) {
  const int at = RawFragmentLayout::offset(RawFragmentLayout::row(thread, 0), 2 * (thread % 4)) ^
                 (kk << 4);
#pragma unroll
  for (int r = 0; r < 4; ++r)
    x[r] = *reinterpret_cast<const uint16_t *>(raw + at + 512 * (r % 2) + 8 * (r / 2));
}

// Keeps the elements of fragment register r at k < k_valid (the last k
// tile), zeroing the others; the caller tests for a partial k tile.
__device__ __forceinline__ void zero_past_k(uint32_t (&a)[4], int thread, int kk,
                                            int k_valid) {
  const int k = 16 * kk + 2 * (thread % 4);
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const int kr = k + 8 * (r / 2);
    a[r] &= (kr < k_valid ? 0xffffu : 0u) | (kr + 1 < k_valid ? 0xffff0000u : 0u);
  }
}

// A k tile's fragments of offset rows, each k step's pairs converted as
// they load (loading the whole tile's first measured slower with the
// 256x128 tiles).
template <typename Src, bool kFraction, int kSteps, typename F>
__device__ __forceinline__ void load_offset_pairs(uint32_t (&a)[kSteps][4],
                                                  const unsigned char *raw, int thread,
                                                  const OffsetRow<F> (&rows)[2]) {
#pragma unroll
  for (int kk = 0; kk < kSteps; ++kk) {
    uint32_t x[4];
    load_raw_pairs(x, raw, thread, kk);
#pragma unroll
    for (int r = 0; r < 4; ++r)
      a[kk][r] = pair_minus_offset<Src, kFraction>(x[r], rows[r % 2]);
  }
}

}  // namespace detail

// Fragment a (k step kk) of the raw tile `raw`, each element through fp32
// and its row's prologue f[i] (RawFragmentLayout::row(thread, i)).
template <typename Src, typename Dst, typename F>
__device__ __forceinline__ void load_raw_fragment(uint32_t (&a)[4], const unsigned char *raw,
                                                  int thread, int kk, const F (&f)[2],
                                                  int k_valid) {
  static_assert(sizeof(Src) == 1 && std::is_integral<Src>::value, "8-bit elements");
  uint32_t x[4];
  detail::load_raw_pairs(x, raw, thread, kk);
#pragma unroll
  for (int r = 0; r < 4; ++r)
    a[r] = detail::pair_through_float<Src, Dst>(x[r], f[r % 2]);
  if (k_valid < 64)  // the last, partial k tile
    detail::zero_past_k(a, thread, kk, k_valid);
}

// The same for offset rows taking the fp32 path (each row's f).
template <typename Src, typename Dst, typename F>
__device__ __forceinline__ void load_raw_fragment(uint32_t (&a)[4], const unsigned char *raw,
                                                  int thread, int kk,
                                                  const OffsetRow<F> (&rows)[2], int k_valid) {
  const F f[2] = {rows[0].f, rows[1].f};
  load_raw_fragment<Src, Dst>(a, raw, thread, kk, f, k_valid);
}

// All kSteps fragments of a k tile (the tile's k steps, 16 k elements
// each), through fp32.
template <typename Src, typename Dst, int kSteps, typename F>
__device__ __forceinline__ void load_raw_fragments(uint32_t (&a)[kSteps][4],
                                                   const unsigned char *raw, int thread,
                                                   const F (&f)[2], long long k_valid) {
  const int valid = static_cast<int>(k_valid < 16 * kSteps ? k_valid : 16 * kSteps);
#pragma unroll
  for (int kk = 0; kk < kSteps; ++kk)
    load_raw_fragment<Src, Dst>(a[kk], raw, thread, kk, f, valid);
}

// The same for offset rows (fp16 fragments), converted as `pairs` says
// (offset_pairs): one branch for the whole tile (the warp takes one side),
// so that no side's instructions run on another's (a select per fragment
// would compute all of them), and one on k_valid. Without kIntegerPairs
// the kernel has no version for integer offsets, which then take the
// fraction's (subtracting +0: the same values).
template <typename Src, typename Dst, bool kIntegerPairs = true, int kSteps, typename F>
__device__ __forceinline__ void load_raw_fragments(uint32_t (&a)[kSteps][4],
                                                   const unsigned char *raw, int thread,
                                                   const OffsetRow<F> (&rows)[2],
                                                   OffsetPairs pairs, long long k_valid) {
  static_assert(sizeof(Src) == 1 && std::is_integral<Src>::value &&
                    std::is_same<Dst, __half>::value,
                "offset rows convert 8-bit elements into fp16");
  const int valid = static_cast<int>(k_valid < 16 * kSteps ? k_valid : 16 * kSteps);
  if (pairs == OffsetPairs::kThroughFloat) {
#pragma unroll
    for (int kk = 0; kk < kSteps; ++kk)
      load_raw_fragment<Src, Dst>(a[kk], raw, thread, kk, rows, valid);
    return;
  }
  if (kIntegerPairs && pairs == OffsetPairs::kIntegral)
    detail::load_offset_pairs<Src, false>(a, raw, thread, rows);
  else
    detail::load_offset_pairs<Src, true>(a, raw, thread, rows);
  if (valid < 16 * kSteps) {  // the last, partial k tile
#pragma unroll
    for (int kk = 0; kk < kSteps; ++kk)
      detail::zero_past_k(a[kk], thread, kk, valid);
  }
}

}  // namespace tc
