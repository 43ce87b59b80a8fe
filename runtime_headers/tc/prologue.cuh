// tc/prologue.cuh - pointwise functions of an operand, applied to fragments
// or to a whole stage tile.
//
// A region may transform an operand's elements before the product
// (`fmaxf(A[i][k], 0)`: ReLU on A). Where the tensor cores read the operand
// from registers (mma.sync; wgmma's A from registers), the function is
// applied there, right after ldmatrix: no extra pass over shared memory and
// no extra barrier. Each 32-bit fragment register holds two 16-bit elements
// (or one tf32 value); the function maps float to float.
//
// Where wgmma reads the operand from a stage, the consumers apply it to the
// landed stage in place before their wgmma (apply_prologue_to_tile; then
// fence_proxy_async and a barrier): with TMA, each warpgroup to its own
// rows of A (warpgroup_sync, mbarrier.cuh) and all consumers to B's tile
// (consumer_sync), while their previous tile's wgmma still run; with
// cp.async stages all threads after the wait. The function is elementwise,
// so the tile's layout and swizzle do not matter, and the copies stay those
// of the plain GEMM.
#pragma once

#include <cstdint>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace tc {

// A float broadcast to both halves of a packed pair (__half2 or
// __nv_bfloat162), for prologues given on pairs (F::kPacked).
template <typename T2>
__device__ __forceinline__ T2 splat2(float x);
template <>
__device__ __forceinline__ __half2 splat2<__half2>(float x) {
  return __float2half2_rn(x);
}
template <>
__device__ __forceinline__ __nv_bfloat162 splat2<__nv_bfloat162>(float x) {
  return __float2bfloat162_rn(x);
}

// The packed pair type of a 16-bit element type.
template <typename T>
struct packed_pair;
template <>
struct packed_pair<__half> {
  using type = __half2;
};
template <>
struct packed_pair<__nv_bfloat16> {
  using type = __nv_bfloat162;
};

// An operand without a prologue: its elements as they are.
struct NoPrologue {
  static constexpr bool kPacked = true;
  __device__ __forceinline__ float operator()(float x) const { return x; }
  template <typename T2>
  __device__ __forceinline__ T2 operator()(T2 x) const {
    return x;
  }
};

// F is a generated prologue functor: operator()(float), and, where
// F::kPacked, operator() on packed pairs too, exact there (one instruction
// per pair instead of a round trip through fp32 per element).
template <typename T, int N, typename F>
__device__ __forceinline__ void apply_prologue(uint32_t (&r)[N], F f) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if constexpr (sizeof(T) == 2 && F::kPacked) {
      using T2 = typename packed_pair<T>::type;
      T2 x;
      memcpy(&x, &r[i], 4);
      x = f(x);
      memcpy(&r[i], &x, 4);
    } else if constexpr (sizeof(T) == 4) {
      r[i] = __float_as_uint(f(__uint_as_float(r[i])));
    } else {
      T lo, hi;
      const uint16_t lo_bits = static_cast<uint16_t>(r[i] & 0xffffu);
      const uint16_t hi_bits = static_cast<uint16_t>(r[i] >> 16);
      memcpy(&lo, &lo_bits, 2);
      memcpy(&hi, &hi_bits, 2);
      lo = T(f(static_cast<float>(lo)));
      hi = T(f(static_cast<float>(hi)));
      uint16_t a, b;
      memcpy(&a, &lo, 2);
      memcpy(&b, &hi, 2);
      r[i] = static_cast<uint32_t>(a) | (static_cast<uint32_t>(b) << 16);
    }
  }
}

// Applies f to the kElements elements of type T of a (part of a) stage
// tile in place: thread `lane` of kThreads takes every kThreads-th 16-byte
// chunk (consecutive lanes, consecutive chunks: conflict-free shared
// accesses). Up to kMaxBatch of a thread's chunks are loaded before any of
// them is converted, so that their latencies overlap (fewer where
// registers are short). Padding that TMA or the zero-filling copies left as
// zeros becomes f(0); the other operand's zero padding keeps those
// products zero.
template <typename T, int kElements, int kThreads, int kMaxBatch = 4, typename F>
__device__ __forceinline__ void apply_prologue_to_tile(T *tile, int lane, F f) {
  constexpr int kChunks = kElements * static_cast<int>(sizeof(T)) / 16;
  // Whole rounds of kThreads chunks, then the first threads take the rest
  // (a B tile of 176 rows of tf32: 5.5 chunks a consumer thread).
  constexpr int kPerThread = kChunks / kThreads;
  constexpr int kBatch = kPerThread % kMaxBatch == 0 ? kMaxBatch : kPerThread % 2 == 0 ? 2 : 1;
  uint4 *chunks = reinterpret_cast<uint4 *>(tile) + lane;
#pragma unroll
  for (int b = 0; b < kPerThread; b += kBatch) {
    uint4 v[kBatch];
#pragma unroll
    for (int i = 0; i < kBatch; ++i)
      v[i] = chunks[(b + i) * kThreads];
#pragma unroll
    for (int i = 0; i < kBatch; ++i) {
      uint32_t r[4] = {v[i].x, v[i].y, v[i].z, v[i].w};
      apply_prologue<T>(r, f);
      chunks[(b + i) * kThreads] = make_uint4(r[0], r[1], r[2], r[3]);
    }
  }
  if constexpr (kChunks % kThreads != 0) {
    if (kPerThread * kThreads + lane < kChunks) {
      const uint4 v = chunks[kPerThread * kThreads];
      uint32_t r[4] = {v.x, v.y, v.z, v.w};
      apply_prologue<T>(r, f);
      chunks[kPerThread * kThreads] = make_uint4(r[0], r[1], r[2], r[3]);
    }
  }
}

}  // namespace tc
