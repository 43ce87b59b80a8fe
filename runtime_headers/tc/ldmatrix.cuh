// tc/ldmatrix.cuh - warp-collective shared->register loads of 8x8 b16 matrices.
//
// Thread -> element layout (PTX ISA, ldmatrix .m8n8 .b16)
// -------------------------------------------------------
// Addresses: lanes 8q .. 8q+7 supply the row addresses of matrix q (row
// 0..7, each row 16 contiguous bytes, 16-byte aligned).  For .x2 only lanes
// 0..15 are read and for .x4 all 32; the tc loaders still pass legal addresses
// from every lane so callers never need to special-case lanes.
//
// Results: register r[q] of lane l = 4*g + t (g = l / 4, t = l % 4) holds two
// 16-bit elements of matrix q, lower column in the low half:
//   non-trans: M_q[g][2t], M_q[g][2t+1]         (row g, consecutive columns)
//   .trans   : M_q[2t][g], M_q[2t+1][g]         (i.e. row g of M_q^T)
// This "row g, columns 2t..2t+1" shape is exactly the per-register shape of
// every mma.m16n8k16 operand fragment (see mma.cuh), which is why ldmatrix
// is the loader: one instruction per 8x8 block, no shuffles.
//
// Ordering: the asm has no "memory" clobber (it would pin every surrounding
// load); writers of the tile must be separated from these loads by a barrier
// (__syncthreads, __syncwarp or cp_async_wait + barrier), which is a compiler
// fence as well.
#pragma once

#include <cstdint>

#include "device_trap.cuh"

namespace tc {

namespace detail {
__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
}  // namespace detail

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void *smem_row) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(detail::smem_u32(smem_row)));
#else
  (void)r, (void)smem_row;
  TC_DEVICE_TRAP_();  // ldmatrix needs sm_75
#endif
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const void *smem_row) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(detail::smem_u32(smem_row)));
#else
  (void)r, (void)smem_row;
  TC_DEVICE_TRAP_();
#endif
}

__device__ __forceinline__ void ldmatrix_x2(uint32_t (&r)[2], const void *smem_row) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(detail::smem_u32(smem_row)));
#else
  (void)r, (void)smem_row;
  TC_DEVICE_TRAP_();
#endif
}

__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t (&r)[2], const void *smem_row) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(detail::smem_u32(smem_row)));
#else
  (void)r, (void)smem_row;
  TC_DEVICE_TRAP_();
#endif
}

}  // namespace tc
