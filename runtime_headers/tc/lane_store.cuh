// tc/lane_store.cuh - one vector store of V consecutive output elements.
//
// The staged epilogue (KernelEmitter) gives each thread V consecutive
// elements of a row of the output tile: lane v of a thread's local array
// holds element (m, n0 + v) of a row that is contiguous in memory. Where
// &out[m][n0] is aligned to V * sizeof(T) bytes (checked per vector at run
// time), store_lanes writes all V with one 16-, 8- or 4-byte store, so that
// a warp writes 32 * V consecutive elements with one instruction; otherwise
// it stores them one by one.
#pragma once

#include <cstdint>

namespace tc {

// Stores lanes[0 .. V-1] to p[0 .. V-1]: one V * sizeof(T)-byte store where
// p is aligned to that, else element by element.
template <int V, class T>
__device__ __forceinline__ void store_lanes(T *p, const T (&lanes)[V]) {
  constexpr int kBytes = V * static_cast<int>(sizeof(T));
  static_assert(kBytes == 16 || kBytes == 8 || kBytes == 4, "a 4-, 8- or 16-byte vector");
  if (reinterpret_cast<uintptr_t>(p) % kBytes != 0) {
#pragma unroll
    for (int v = 0; v < V; ++v)
      p[v] = lanes[v];
  } else if constexpr (kBytes == 16) {
    uint4 w;
    __builtin_memcpy(&w, lanes, 16);
    *reinterpret_cast<uint4 *>(p) = w;
  } else if constexpr (kBytes == 8) {
    uint2 w;
    __builtin_memcpy(&w, lanes, 8);
    *reinterpret_cast<uint2 *>(p) = w;
  } else {
    uint32_t w;
    __builtin_memcpy(&w, lanes, 4);
    *reinterpret_cast<uint32_t *>(p) = w;
  }
}

}  // namespace tc
