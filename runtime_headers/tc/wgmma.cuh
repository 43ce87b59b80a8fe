// tc/wgmma.cuh - warpgroup MMA (sm_90a): matrix descriptors, ordering, and
// the m64nNk16 (16-bit) or m64nNk8 (tf32) instruction chosen by element type
// and N.
//
// Shared-memory layouts the descriptors describe
// ----------------------------------------------
// K-major (wgmma_desc_k_major_sw128). An operand tile is stored K-major:
// rows of 128 bytes (one k tile: 64 16-bit elements, or 32 fp32 ones read
// as tf32), row r of the tile at byte 128 r, its 16-byte chunks
// permuted by chunk ^ (r % 8). For 16-bit elements that is
// tc::swizzled_offset<64> (swizzle.cuh), and it is the "128-byte swizzle"
// layout of wgmma: 8-row atoms of 1024
// bytes, which must start at 1024-byte aligned addresses, because the
// hardware applies the XOR to address bits 4-6 with bits 7-9.
//
//   start address   the tile's first row of this instruction (>> 4)
//   stride (SBO)    1024 bytes: from one 8-row atom to the next
//   leading (LBO)   unused for K-major swizzled layouts (1 by convention)
//   layout          1 = 128-byte swizzle
//
// The k step kk of a tile (32 bytes: 16 16-bit elements, k16, or 8 fp32
// ones, tf32's k8; wgmma_step_elements) moves the start address by 32
// bytes inside each row: the swizzle, computed from the full address,
// then finds the permuted chunks (so the tile base must be 1024-aligned).
// The descriptor does not name the element size: the same descriptors
// serve both.
//
// M/N-major (wgmma_desc_mn_major_sw128, kTrans = 1). The tile holds k rows
// of m (n) elements, as 64-element panels (swizzle.cuh, paneled_offset):
// the same 128-byte rows and swizzle, with m (n) along the row. See the
// function for its offsets. 16-bit elements only: tf32 wgmma reads
// K-major operands alone.
//
// Ordering
// --------
// wgmma reads shared memory through the async proxy: data written by the
// generic proxy (st.shared, and the copies of tile_copy.cuh) needs
// fence_proxy_async() in the writing threads before the barrier that
// publishes it. warpgroup_arrive() must precede the first wgmma after the
// accumulators were touched by other instructions; wgmma_commit() closes a
// group of wgmma, wgmma_wait<N>() waits until at most N groups are pending.
// The accumulators must not be read or written between the two, which
// fence_operands() tells the compiler.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "device_trap.cuh"
#include "wgmma_instructions.cuh"

namespace tc {

// Descriptor of a K-major, 128-byte-swizzled tile whose instruction rows
// start at `smem` (1024-byte aligned).
__device__ __forceinline__ uint64_t wgmma_desc_k_major_sw128(const void *smem) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  uint64_t desc = 0;
  desc |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4);       // start address
  desc |= static_cast<uint64_t>(1) << 16;                      // LBO (unused)
  desc |= static_cast<uint64_t>(1024 >> 4) << 32;              // SBO
  desc |= static_cast<uint64_t>(1) << 62;                      // 128B swizzle
  return desc;
}

// Descriptor of an M- (N-) major, 128-byte-swizzled tile stored as 64-
// element panels (tc::paneled_offset): in a panel, row k holds 64
// consecutive m (n) elements of reduction index k, 8-row atoms 1024 bytes
// apart (SBO); the next 64 m (n) elements are in the next panel,
// `panel_bytes` further (LBO). A k step of 16 moves the start by two atoms.
__device__ __forceinline__ uint64_t wgmma_desc_mn_major_sw128(const void *smem, int panel_bytes) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  uint64_t desc = 0;
  desc |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4);       // start address
  desc |= static_cast<uint64_t>((panel_bytes >> 4) & 0x3FFF) << 16;  // LBO
  desc |= static_cast<uint64_t>(1024 >> 4) << 32;              // SBO
  desc |= static_cast<uint64_t>(1) << 62;                      // 128B swizzle
  return desc;
}

// A descriptor moved by `bytes` (a multiple of 16) in shared memory.
__device__ __forceinline__ constexpr uint64_t wgmma_desc_advance(uint64_t desc, int bytes) {
  return desc + static_cast<uint64_t>(bytes >> 4);
}

__device__ __forceinline__ void fence_proxy_async() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

template <int kBlocks>
__device__ __forceinline__ void fence_operands(float (&d)[kBlocks][4]) {
#pragma unroll
  for (int j = 0; j < kBlocks; ++j)
#pragma unroll
    for (int r = 0; r < 4; ++r)
      asm volatile("" : "+f"(d[j][r])::"memory");
}

// The A fragments of the _rs instructions are read asynchronously too: kept
// in their registers until the wait (call after wgmma_wait).
template <int kSteps, int kTiles>
__device__ __forceinline__ void fence_fragments(uint32_t (&a)[kSteps][kTiles][4]) {
#pragma unroll
  for (int s = 0; s < kSteps; ++s)
#pragma unroll
    for (int j = 0; j < kTiles; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r)
        asm volatile("" : "+r"(a[s][j][r])::"memory");
}

template <int kSteps>
__device__ __forceinline__ void fence_fragments(uint32_t (&a)[kSteps][4]) {
#pragma unroll
  for (int s = 0; s < kSteps; ++s)
#pragma unroll
    for (int r = 0; r < 4; ++r)
      asm volatile("" : "+r"(a[s][r])::"memory");
}

template <int kBlocks>
__device__ __forceinline__ void warpgroup_arrive(float (&d)[kBlocks][4]) {
  fence_operands(d);
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  TC_DEVICE_TRAP_();  // wgmma needs sm_90a
#endif
}

__device__ __forceinline__ void wgmma_commit() {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

template <int kPending, int kBlocks>
__device__ __forceinline__ void wgmma_wait(float (&d)[kBlocks][4]) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
#endif
  fence_operands(d);
}

// D(64 x kN) += A(64 x 16) * B(16 x kN), T = __half or __nv_bfloat16; kN
// 16, 32, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224 or 256 (the
// overloads of wgmma_instructions.cuh).
template <typename T, int kTransA, int kTransB, int kN>
__device__ __forceinline__ void wgmma_m64k16(float (&d)[kN / 8][4], uint64_t desc_a,
                                             uint64_t desc_b) {
  wgmma_m64nNk16_ss<kTransA, kTransB>(element_tag<T>{}, d, desc_a, desc_b, 1);
}

// D(64 x kN) += A(64 x 16, registers) * B(16 x kN, shared memory). `a` is
// this warp's 16 rows of A as an mma.m16n8k16 A fragment.
template <typename T, int kTransB, int kN>
__device__ __forceinline__ void wgmma_m64k16_rs(float (&d)[kN / 8][4], const uint32_t (&a)[4],
                                                uint64_t desc_b) {
  wgmma_m64nNk16_rs<kTransB>(element_tag<T>{}, d, a, desc_b, 1);
}

// The k elements of one wgmma k step, which is 32 bytes of a K-major row
// for every element type: k16 of 16-bit elements, k8 of fp32 (tf32).
template <typename T>
inline constexpr int wgmma_step_elements = 32 / static_cast<int>(sizeof(T));

// One 32-byte k step, D(64 x kN) += A(64 x wgmma_step_elements<T>) * B:
// m64nNk16 for T = __half or __nv_bfloat16 (kTransA / kTransB as
// wgmma_m64k16), m64nNk8 for T = float, whose operands wgmma reads as tf32
// (dropping each element's low 13 mantissa bits) and only K-major.
template <typename T, int kTransA, int kTransB, int kN>
__device__ __forceinline__ void wgmma_k_step(float (&d)[kN / 8][4], uint64_t desc_a,
                                             uint64_t desc_b) {
  if constexpr (std::is_same_v<T, float>) {
    static_assert(kTransA == 0 && kTransB == 0, "tf32 wgmma takes K-major operands only");
    wgmma_m64nNk8_ss(element_tag<float>{}, d, desc_a, desc_b, 1);
  } else {
    wgmma_m64k16<T, kTransA, kTransB, kN>(d, desc_a, desc_b);
  }
}

// One 32-byte k step with A from registers (`a`: this warp's 16 rows, as
// wgmma_m64k16_rs takes them): m64nNk16 for 16-bit T, m64nNk8 for T =
// float, whose registers must hold tf32 values (to_tf32) and whose B is
// K-major.
template <typename T, int kTransB, int kN>
__device__ __forceinline__ void wgmma_k_step_rs(float (&d)[kN / 8][4], const uint32_t (&a)[4],
                                                uint64_t desc_b) {
  if constexpr (std::is_same_v<T, float>) {
    static_assert(kTransB == 0, "tf32 wgmma takes a K-major B only");
    wgmma_m64nNk8_rs(element_tag<float>{}, d, a, desc_b, 1);
  } else {
    wgmma_m64k16_rs<T, kTransB, kN>(d, a, desc_b);
  }
}

}  // namespace tc
