// tc/tile_copy.cuh - one 16-byte chunk of an operand tile, global -> shared.
//
// The generated kernels copy operand tiles chunk by chunk: the chunk at
// (row, col .. col+7) of a rows x cols matrix with leading dimension ld.
// Elements outside the matrix are zero in shared memory, so mma tiles that
// straddle the matrix edge add nothing, and a block can always compute
// whole tiles.
//
// kAligned: the launcher checked that the base pointer is 16-byte aligned
// and ld is a multiple of 8 elements, so every chunk start is 16-byte
// aligned and cp.async (with a partial source size at the right edge) is
// legal. Otherwise the chunk is copied element by element, synchronously.
#pragma once

#include <cstdint>
#include "cp_async.cuh"

namespace tc {

template <bool kAligned, typename T>
__device__ __forceinline__ void copy_chunk(T *smem_dst, const T *src, long long row,
                                           long long col, long long rows,
                                           long long cols, long long ld) {
  static_assert(sizeof(T) == 2, "operand tiles hold 16-bit elements");
  long long valid = row < rows ? cols - col : 0;
  valid = valid < 0 ? 0 : (valid > 8 ? 8 : valid);
  const T *chunk = src + row * ld + col;
  if constexpr (kAligned) {
    // With nothing to read, point at the (valid, aligned) base instead.
    cp_async_16_partial(smem_dst, valid > 0 ? static_cast<const void *>(chunk)
                                            : static_cast<const void *>(src),
                        static_cast<int>(valid) * 2);
  } else {
    const uint16_t *g = reinterpret_cast<const uint16_t *>(chunk);
    uint16_t *s = reinterpret_cast<uint16_t *>(smem_dst);
#pragma unroll
    for (int e = 0; e < 8; ++e)
      s[e] = e < valid ? g[e] : uint16_t(0);
  }
}

// Host side: may the operand take the cp.async path?
template <typename T>
__host__ __forceinline__ bool chunk_aligned(const T *base, long long ld) {
  return reinterpret_cast<uintptr_t>(base) % 16 == 0 && ld % 8 == 0;
}

}  // namespace tc
