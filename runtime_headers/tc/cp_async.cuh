// tc/cp_async.cuh - asynchronous global->shared copies (sm_80+ cp.async).
//
// Thread/element layout: none is imposed here.  Each calling thread moves one
// 16-byte chunk; the generated kernels give consecutive threads consecutive
// chunks of a tile row, so 8 threads cover one 128-byte global segment
// (coalesced) and, through tc::swizzled_offset, 8 distinct bank groups of one
// 128-byte shared line (conflict free; see swizzle.cuh).
//
// Ordering: cp.async writes are only guaranteed visible to the issuing thread
// after cp_async_wait<N>() retires its group; other threads must additionally
// pass a barrier (__syncthreads / named barrier) before reading the data.
#pragma once

#include <cstdint>

#include "device_trap.cuh"

namespace tc {

// 16-byte copy, bypassing L1 (.cg).  When !valid the source size is 0: the 16
// destination bytes are zero-filled and gmem_src is NOT dereferenced, but it
// must still be a well-formed global address (callers pass a clamped pointer,
// e.g. the tensor base).  Both addresses must be 16-byte aligned.
__device__ __forceinline__ void cp_async_16(void *smem_dst, const void *gmem_src, bool valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
  const uint32_t src_size = valid ? 16u : 0u;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
               :
               : "r"(dst), "l"(__cvta_generic_to_global(gmem_src)), "r"(src_size)
               : "memory");
#else
  (void)smem_dst, (void)gmem_src, (void)valid;
  TC_DEVICE_TRAP_();  // cp.async needs sm_80
#endif
}

// A whole 16-byte chunk, or 16 zero bytes when `ignore_src` (the source is
// then not read). The predicate form costs no address arithmetic, unlike a
// register source size.
__device__ __forceinline__ void cp_async_16_or_zero(void *smem_dst, const void *gmem_src,
                                                    bool ignore_src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n"
               " cp.async.cg.shared.global [%0], [%1], 16, p;\n}\n"
               :
               : "r"(dst), "l"(__cvta_generic_to_global(gmem_src)), "r"((int)ignore_src)
               : "memory");
#else
  (void)smem_dst, (void)gmem_src, (void)ignore_src;
  TC_DEVICE_TRAP_();  // cp.async needs sm_80
#endif
}

// Copies the first `src_bytes` (0..16) bytes of a 16-byte chunk and zero-fills
// the rest: a partial tile edge costs no extra branch. The source must still be
// 16-byte aligned (the chunk's start), even when fewer bytes are read.
__device__ __forceinline__ void cp_async_16_partial(void *smem_dst, const void *gmem_src,
                                                    int src_bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
               :
               : "r"(dst), "l"(__cvta_generic_to_global(gmem_src)), "r"(src_bytes)
               : "memory");
#else
  (void)smem_dst, (void)gmem_src, (void)src_bytes;
  TC_DEVICE_TRAP_();  // cp.async needs sm_80
#endif
}

// Close the current group of cp.async operations issued by this thread.
__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#else
  TC_DEVICE_TRAP_();
#endif
}

// Block until at most N of this thread's committed groups are still pending.
// The "memory" clobber keeps the compiler from hoisting shared loads above it.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  static_assert(N >= 0, "tc::cp_async_wait: N must be non-negative");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#else
  TC_DEVICE_TRAP_();
#endif
}

// Synchronous one-element fallback for tiles whose global rows are not 16-byte
// aligned.  Stores *gmem_src, or a zero value when !valid (gmem_src is then
// not dereferenced).  T{} is value-initialisation: all-zero bits for the
// arithmetic types and for __half / __nv_bfloat16 (defaulted constructors).
template <typename T>
__device__ __forceinline__ void copy_element_to_shared(T *smem_dst, const T *gmem_src, bool valid) {
  *smem_dst = valid ? *gmem_src : T{};
}

}  // namespace tc
