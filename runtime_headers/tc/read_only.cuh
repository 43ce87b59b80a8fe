// tc/read_only.cuh - reads of the arrays a region never writes.
//
// tc::read_only(x) returns the element x, loaded through the read-only data
// path (ld.global.nc, __ldg) where CUDA has that load for its type. The
// generated epilogue functors hold the region's pointers as struct
// members, where nvcc ignores __restrict__: their loads were ordinary ones,
// which the compiler keeps behind every store of an epilogue row (the
// stored array may be the one read) and which the text kernels, with the
// pointers as __restrict__ kernel parameters, did not have. (The operand
// conversions' reads stay ordinary: their loops store no global memory.)
//
// tc-rewrite prints a read this way only for an array no statement of the
// region writes, in the kernels that run once the launcher's overlap test
// (tc/alias_check.cuh) found the arrays apart or the pointers are
// __restrict__: nothing writes the element while the kernel runs, which is
// what the non-coherent load needs. The serial kernel reads as written.
//
// Device code; each thread reads its own elements (no layout involved).
#pragma once

#include <type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace tc {

// The element types __ldg has an overload for (CUDA's sm_32_intrinsics.h,
// cuda_fp16.h, cuda_bf16.h).
template <class T>
inline constexpr bool kHasReadOnlyLoad =
    std::is_same_v<T, char> || std::is_same_v<T, signed char> ||
    std::is_same_v<T, unsigned char> || std::is_same_v<T, short> ||
    std::is_same_v<T, unsigned short> || std::is_same_v<T, int> ||
    std::is_same_v<T, unsigned int> || std::is_same_v<T, long> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> ||
    std::is_same_v<T, unsigned long long> || std::is_same_v<T, float> ||
    std::is_same_v<T, double> || std::is_same_v<T, __half> ||
    std::is_same_v<T, __nv_bfloat16>;

template <class T>
__device__ __forceinline__ std::remove_cv_t<T> read_only(T &x) {
  using E = std::remove_cv_t<T>;
  if constexpr (kHasReadOnlyLoad<E> && !std::is_volatile_v<T>)
    return __ldg(const_cast<const E *>(&x));
  else
    return x;
}

}  // namespace tc
