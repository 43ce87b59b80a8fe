// tc/tile_convert.cuh - operand tiles converted while they are copied.
//
// An operand stored in another type than the mma's (int8/uint8 weights of a
// weight-only quantized layer), or transformed by a prologue that needs the
// element's row or column (a per-channel zero point or scale), is converted
// on its way to shared memory: each thread loads a chunk into registers,
// applies the prologue f(x, outer) in fp32 (x the element, outer its row of
// a k-contiguous operand or its column otherwise, i.e. its m or n) and
// stores the chunk in the mma type with one 16-byte st.shared at the offset
// OperandCopier (tile_copy.cuh) would use. The fragment loaders
// (fragment.cuh) then read the tile as if it had been copied, and shared
// memory holds the transformed operand: each element is converted once per
// block, not once per warp that reads it.
//
// Thread -> element layout: that of OperandCopier. A chunk is kVec = 16 /
// sizeof(Dst) consecutive elements along the contiguous dimension (8 fp16
// values from 8 bytes of int8); chunk i of a thread lies kRowStep * i rows
// below its chunk 0, and k tile t kBlockK further along k.
//
// Elements outside the matrix are stored as exact zeros, not f(0): a zero
// point makes f(0) nonzero, and padded products must add nothing.
//
// The loads are synchronous (the data passes through registers). They run
// in the main loop's copy steps, S - 1 tiles ahead of use like cp.async,
// and their stores precede the barrier that publishes the stage (the
// cp.async wait), so no extra barrier is needed.
//
// kMode (CopyMode, shared with the other operand's copier): kElementwise
// loads elements one by one (any alignment); otherwise chunk starts are
// aligned to the chunk's source bytes (convert_copy_mode) and a chunk that
// lies wholly inside the matrix is one vector load.
#pragma once

#include <cstdint>
#include <cstring>
#include "convert.cuh"
#include "swizzle.cuh"
#include "tile_copy.cuh"

namespace tc {

// Loads kBytes (4, 8, 16 or 32) from a kBytes-aligned global address.
template <int kBytes, typename Src>
__device__ __forceinline__ void load_chunk(Src *x, const Src *p) {
  if constexpr (kBytes == 4) {
    const uint32_t v = *reinterpret_cast<const uint32_t *>(p);
    memcpy(x, &v, 4);
  } else if constexpr (kBytes == 8) {
    const uint2 v = *reinterpret_cast<const uint2 *>(p);
    memcpy(x, &v, 8);
  } else if constexpr (kBytes == 16) {
    const uint4 v = *reinterpret_cast<const uint4 *>(p);
    memcpy(x, &v, 16);
  } else {
    static_assert(kBytes == 32, "a chunk is 4 to 32 bytes");
    const uint4 v0 = reinterpret_cast<const uint4 *>(p)[0];
    const uint4 v1 = reinterpret_cast<const uint4 *>(p)[1];
    memcpy(x, &v0, 16);
    memcpy(reinterpret_cast<unsigned char *>(x) + 16, &v1, 16);
  }
}

// Template parameters as for OperandCopier, with Src the stored type and
// Dst the mma type (the shared tile's).
template <int kMode, typename Src, typename Dst, int kChunks, int kCols,
          bool kReductionContiguous, int kBlockK, int kRowStep>
struct ConvertingCopier {
  static_assert(sizeof(Dst) == 2 || sizeof(Dst) == 4, "shared tiles hold 16- or 32-bit elements");
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Dst));
  static constexpr int kSrcBytes = kVec * static_cast<int>(sizeof(Src));
  static constexpr bool kLinearSwizzle =
      kRowStep % swizzle_element_row_period<kCols, Dst>() == 0;
  const Src *base;
  long long ld, k_extent;
  long long grow0, gcol0;   // chunk 0 in k tile 0
  long long outer_extent;   // the non-k bound: rows (k contiguous) or columns
  int row0, col0, smem0;    // chunk 0 in the stage tile, its swizzled offset

  __device__ __forceinline__ void setup(int i, int row, int col, long long grow,
                                        long long gcol, long long rows, long long cols) {
    if (i != 0)
      return;  // the other chunks follow from chunk 0 (kRowStep)
    row0 = row;
    col0 = col;
    smem0 = swizzled_element_offset<kCols, Dst>(row, col);
    grow0 = grow;
    gcol0 = gcol;
    outer_extent = kReductionContiguous ? rows : cols;
  }

  // Converts chunk i of k tile t into the stage at `stage_base`; f(float
  // element, long long outer) -> float is the prologue (identity for a bare
  // conversion).
  template <typename F>
  __device__ __forceinline__ void issue(int i, Dst *stage_base, int t, F f) const {
    const long long grow = grow0 + static_cast<long long>(i) * kRowStep +
                           (kReductionContiguous ? 0 : static_cast<long long>(t) * kBlockK);
    const long long gcol = gcol0 + (kReductionContiguous ? static_cast<long long>(t) * kBlockK : 0);
    const long long row_bound = kReductionContiguous ? outer_extent : k_extent;
    const long long col_bound = kReductionContiguous ? k_extent : outer_extent;
    const long long cv = col_bound - gcol;
    const int valid = grow >= row_bound || cv <= 0 ? 0 : (cv >= kVec ? kVec : static_cast<int>(cv));
    Src x[kVec];
    if (valid == kVec && kMode != kElementwise) {
      load_chunk<kSrcBytes>(x, base + grow * ld + gcol);
    } else if (valid > 0) {
      const Src *p = base + grow * ld + gcol;
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        if (e < valid)
          x[e] = p[e];
    }
    Dst y[kVec];
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      y[e] = from_float<Dst>(e < valid ? f(to_float(x[e]), kReductionContiguous ? grow : gcol + e)
                                       : 0.0f);
    const int offset = kLinearSwizzle
                           ? smem0 + i * kRowStep * kCols
                           : swizzled_element_offset<kCols, Dst>(row0 + i * kRowStep, col0);
    uint4 packed;
    memcpy(&packed, y, 16);
    *reinterpret_cast<uint4 *>(stage_base + offset) = packed;
  }
};

// Host side: the copy mode a converted operand allows (the chunk's source
// bytes aligned for one vector load; see CopyMode).
template <typename Dst, typename Src>
__host__ __forceinline__ int convert_copy_mode(const Src *base, long long ld,
                                               long long contiguous_extent) {
  const long long vec = 16 / static_cast<long long>(sizeof(Dst));
  if (reinterpret_cast<uintptr_t>(base) % (vec * sizeof(Src)) != 0 || ld % vec != 0)
    return kElementwise;
  return contiguous_extent % vec == 0 ? kWholeChunks : kPartialChunks;
}

}  // namespace tc
