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
#include <type_traits>

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

// The lanes as 32-bit words, built in registers.
template <int V, class T, int W = V * static_cast<int>(sizeof(T)) / 4>
__device__ __forceinline__ void lane_words(const T (&lanes)[V], uint32_t (&words)[W]) {
  if constexpr (sizeof(T) == 8) {  // a double (or 64-bit integer): two words, low first
#pragma unroll
    for (int i = 0; i < V; ++i) {
      uint64_t bits;
      __builtin_memcpy(&bits, &lanes[i], 8);
      words[2 * i] = static_cast<uint32_t>(bits);
      words[2 * i + 1] = static_cast<uint32_t>(bits >> 32);
    }
  } else {
    static_assert(4 % sizeof(T) == 0, "elements of 1, 2, 4 or 8 bytes");
    constexpr int kPerWord = 4 / static_cast<int>(sizeof(T));
    using Bits = std::conditional_t<sizeof(T) == 1, uint8_t,
                                    std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>>;
#pragma unroll
    for (int i = 0; i < W; ++i) {
      uint32_t word = 0;
#pragma unroll
      for (int e = 0; e < kPerWord; ++e) {
        Bits bits;
        __builtin_memcpy(&bits, &lanes[kPerWord * i + e], sizeof(T));
        word |= static_cast<uint32_t>(bits) << (8 * sizeof(T) * e);
      }
      words[i] = word;
    }
  }
}

// store_lanes's contract, with the vector store written as one st.global
// of the lanes packed into 32-bit words. The epilogue functors of the
// sm_90 components use it: there, with the output pointer reached through
// the functor, the compiler split store_lanes' 16-byte store into four
// 4-byte ones (docs/results/sm90-components-h200.md). The generated text
// kernels keep store_lanes, whose registers fit the smallest tiles (this
// form spilled 8 bytes in a 32x64 cp.async kernel).
template <int V, class T>
__device__ __forceinline__ void store_lane_words(T *p, const T (&lanes)[V]) {
  constexpr int kBytes = V * static_cast<int>(sizeof(T));
  static_assert(kBytes == 16 || kBytes == 8 || kBytes == 4, "a 4-, 8- or 16-byte vector");
  if (reinterpret_cast<uintptr_t>(p) % kBytes != 0) {
#pragma unroll
    for (int v = 0; v < V; ++v)
      p[v] = lanes[v];
    return;
  }
  uint32_t w[kBytes / 4];
  lane_words(lanes, w);
  // One st.global of the whole vector (the outputs are in global memory).
  // A plain uint4 assignment can reach PTX as four 4-byte stores where the
  // compiler does not see the pointer's alignment.
  const auto g = __cvta_generic_to_global(p);
  if constexpr (kBytes == 16)
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(g), "r"(w[0]), "r"(w[1]),
                 "r"(w[2]), "r"(w[3])
                 : "memory");
  else if constexpr (kBytes == 8)
    asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(g), "r"(w[0]), "r"(w[1]) : "memory");
  else
    asm volatile("st.global.b32 [%0], %1;" ::"l"(g), "r"(w[0]) : "memory");
}

}  // namespace tc
