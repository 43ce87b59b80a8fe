// tc/tile_copy.cuh - operand tiles, global -> shared, 16-byte chunks.
//
// A block copies, for each k tile, the part of an operand its output tile
// needs: a rows x cols matrix (leading dimension ld) is read chunk by chunk,
// each chunk 8 consecutive elements along the contiguous dimension, and
// stored swizzled (swizzle.cuh). Elements outside the matrix are zero in
// shared memory, so mma tiles straddling an edge add nothing and a block
// always computes whole tiles.
//
// The generated kernel enumerates, with isl, which chunks each thread
// copies (consecutive threads take consecutive chunks: coalesced reads).
// Everything about a chunk that does not change from one k tile to the next
// (its shared-memory offset, its row pointer, the bound it never crosses) is
// computed once, before the main loop, in `OperandCopier::setup`; `issue`
// then costs a few instructions per chunk and k tile.
//
// kMode (CopyMode), chosen by the launcher at run time:
//   kElementwise   chunks copied element by element, synchronously: any
//                  alignment;
//   kPartialChunks the base pointer is 16-byte aligned and ld a multiple of
//                  8, so chunk starts are 16-byte aligned: cp.async, with a
//                  partial source size where a chunk crosses the edge;
//   kWholeChunks   moreover the contiguous extent is a multiple of 8: a
//                  chunk is wholly inside or outside, cp.async with a zero-
//                  fill predicate.
#pragma once

#include <cstdint>
#include <type_traits>
#include "cp_async.cuh"
#include "swizzle.cuh"

namespace tc {

enum CopyMode : int { kElementwise = 0, kPartialChunks = 1, kWholeChunks = 2 };

// The bounds of a thread's chunks, shared by the copiers (OperandCopier
// below, ConvertingCopier in tile_convert.cuh). A chunk is kVec elements
// along the contiguous dimension; chunk c of a thread sits kRowStep * c
// rows below its chunk 0, which is at (grow, gcol) of the rows x cols
// matrix in k tile 0.

// One bit per chunk of a thread: 32 or 64 of them (a thread of one warp
// copying a 128-row tile of 128 k holds 64 chunks).
template <int kChunks>
using chunk_mask_t = std::conditional_t<(kChunks > 32), unsigned long long, unsigned>;

// Bit c: chunk c lies inside the matrix along its non-k bound (its row, k
// contiguous; else its column, the same for all of a thread's chunks).
template <int kChunks, int kRowStep, bool kReductionContiguous>
__device__ __forceinline__ chunk_mask_t<kChunks> chunks_inside(long long grow, long long gcol,
                                                               long long rows, long long cols) {
  static_assert(kChunks <= 64, "at most 64 chunks a thread (a bit each)");
  using Mask = chunk_mask_t<kChunks>;
  Mask inside = 0;
#pragma unroll
  for (int c = 0; c < kChunks; ++c) {
    const bool in = kReductionContiguous ? grow + static_cast<long long>(c) * kRowStep < rows
                                         : gcol < cols;
    inside |= static_cast<Mask>(in) << c;
  }
  return inside;
}

// Elements of a chunk inside the non-k bound: kVec when k is contiguous
// (the row bound is chunks_inside's), else those left of the column bound.
template <int kVec, bool kReductionContiguous>
__device__ __forceinline__ int chunk_span(long long gcol, long long cols) {
  const long long cv = cols - gcol;
  return kReductionContiguous ? kVec : (cv <= 0 ? 0 : (cv >= kVec ? kVec : static_cast<int>(cv)));
}

// Elements of a chunk at k coordinate k (its column, k contiguous; else its
// row) inside the matrix, given its chunks_inside bit and chunk_span.
template <int kVec, bool kReductionContiguous>
__device__ __forceinline__ int chunk_valid(bool in_bound, int span, long long k,
                                           long long k_extent) {
  if (kReductionContiguous) {
    const long long v = k_extent - k;
    return !in_bound || v <= 0 ? 0 : (v >= kVec ? kVec : static_cast<int>(v));
  }
  return k < k_extent ? span : 0;
}

// kChunks: chunks per thread and k tile. kCols: contiguous extent of the
// shared tile (its swizzle). kReductionContiguous: the matrix is stored with
// k contiguous (rows are m or n, columns are k); otherwise rows are k.
// kBlockK: the k extent of a tile. kRowStep: the rows between a thread's
// consecutive chunks (the code generator distributes chunks cyclically, so
// chunk i sits kRowStep * i rows below chunk 0, in the same column).
//
// Only chunk 0 is stored; chunk i and k tile t are reached by constant
// strides, which keeps the per-thread state to a few registers next to the
// accumulators.
//
// kPaneled: the tile (k rows of kCols m or n elements) is stored as 64-
// column panels (tc::paneled_offset), the M/N-major layout of wgmma; only
// for 16-bit elements and !kReductionContiguous.
template <int kMode, typename T, int kChunks, int kCols, bool kReductionContiguous,
          int kBlockK, int kRowStep, bool kPaneled = false>
struct OperandCopier {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "operand tiles hold 16- or 32-bit elements");
  static_assert(!kPaneled || (sizeof(T) == 2 && !kReductionContiguous && kCols % 64 == 0),
                "paneled tiles: 16-bit elements, k rows, 64-column panels");
  static constexpr int kVec = 16 / static_cast<int>(sizeof(T)); // elements per chunk
  // Elements between consecutive rows of the stored tile (in a panel).
  static constexpr int kRowPitch = kPaneled ? 64 : kCols;
  static constexpr bool kLinearSwizzle =
      kPaneled ? kRowStep % 8 == 0 : kRowStep % swizzle_element_row_period<kCols, T>() == 0;
  __device__ __forceinline__ static constexpr int stored_offset(int row, int col) {
    if constexpr (kPaneled)
      return paneled_offset<kCols, kBlockK>(row, col);
    else
      return swizzled_element_offset<kCols, T>(row, col);
  }
  const T *base;
  long long ld, k_extent;
  const T *src0;   // chunk 0 in k tile 0
  int row0, col0;  // chunk 0 in the stage tile
  int smem0;       // its swizzled offset
  long long gk0;   // its k coordinate (column or row) in k tile 0
  long long grow0, gcol0; // its (row, column) in k tile 0, for rebase
  chunk_mask_t<kChunks> inside; // bit i: chunk i is inside along the non-k bound
  int span;        // elements of a chunk inside the non-k bound (k rows)

  // Chunk i of this thread is at (row, col) of the stage tile and at
  // (grow, gcol) of the rows x cols matrix in k tile 0. Everything the
  // main loop needs per chunk is derived here, so that `issue` keeps few
  // values live next to the accumulators (the partial and element-wise
  // modes included).
  __device__ __forceinline__ void setup(int i, int row, int col, long long grow,
                                        long long gcol, long long rows, long long cols) {
    if (i != 0)
      return;  // the other chunks follow from chunk 0 (kRowStep)
    inside = chunks_inside<kChunks, kRowStep, kReductionContiguous>(grow, gcol, rows, cols);
    span = chunk_span<kVec, kReductionContiguous>(gcol, cols);
    row0 = row;
    col0 = col;
    smem0 = stored_offset(row, col);
    gk0 = kReductionContiguous ? gcol : grow;
    grow0 = grow;
    gcol0 = gcol;
    src0 = base + grow * ld + gcol;
  }

  // A sum of matmuls: from k tile `first_tile` on, copy another product's
  // operand (same rows, its own leading dimension and k extent), whose k
  // tile 0 is that tile. Issued once per product and block, before the
  // first copy of its tiles; copies already in flight are unaffected.
  __device__ __forceinline__ void rebase(const T *base_, long long ld_, long long k_extent_,
                                         long long first_tile) {
    const long long shift = first_tile * kBlockK;
    base = base_;
    ld = ld_;
    k_extent = k_extent_;
    gk0 = (kReductionContiguous ? gcol0 : grow0) - shift;
    src0 = base_ + grow0 * ld_ + gcol0 - (kReductionContiguous ? shift : shift * ld_);
  }

  // Copies chunk i of k tile t into the stage at `stage_base`.
  __device__ __forceinline__ void issue(int i, T *stage_base, int t) const {
    // The chunk's k coordinate: its column (k contiguous) or its row.
    const long long k = gk0 + static_cast<long long>(t) * kBlockK +
                        (kReductionContiguous ? 0 : static_cast<long long>(i) * kRowStep);
    const bool in_bound = (inside >> i) & 1u;
    const T *p = kReductionContiguous
                     ? src0 + (static_cast<long long>(i) * kRowStep) * ld +
                           static_cast<long long>(t) * kBlockK
                     : src0 + (static_cast<long long>(i) * kRowStep +
                               static_cast<long long>(t) * kBlockK) * ld;
    const int offset = kLinearSwizzle ? smem0 + i * kRowStep * kRowPitch
                                      : stored_offset(row0 + i * kRowStep, col0);
    T *dst = stage_base + offset;
    if constexpr (kMode == kWholeChunks) {
      // Chunks are wholly inside or outside: one k test per k tile (shared
      // by all chunks of a row-major tile) and a precomputed row bit.
      const bool in = in_bound && k < k_extent;
      tc::cp_async_16_or_zero(dst, in ? static_cast<const void *>(p)
                                  : static_cast<const void *>(base),
                          !in);
      return;
    }
    // chunk_valid, spelled out: as a call, ptxas allocates the cp.async
    // kernels' registers differently (measured with -Xptxas -v).
    int valid;
    if (kReductionContiguous) {
      const long long v = k_extent - k;
      valid = !in_bound || v <= 0 ? 0 : (v >= kVec ? kVec : static_cast<int>(v));
    } else {
      valid = k < k_extent ? span : 0;
    }
    if constexpr (kMode == kPartialChunks) {
      // With nothing to read, point at the (valid, aligned) base instead.
      tc::cp_async_16_partial(dst, valid > 0 ? static_cast<const void *>(p)
                                         : static_cast<const void *>(base),
                          valid * static_cast<int>(sizeof(T)));
    } else {
      using Bits = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
      const Bits *g = reinterpret_cast<const Bits *>(p);
      Bits *s = reinterpret_cast<Bits *>(dst);
      // The slow path: one load in flight, so that it needs no more
      // registers than the fast one.
#pragma unroll 1
      for (int e = 0; e < kVec; ++e)
        s[e] = e < valid ? g[e] : Bits(0);
    }
  }
};

// Host side: the fastest copy mode an operand allows (see CopyMode).
template <typename T>
__host__ __forceinline__ int copy_mode(const T *base, long long ld, long long contiguous_extent) {
  const long long vec = 16 / static_cast<long long>(sizeof(T));
  if (reinterpret_cast<uintptr_t>(base) % 16 != 0 || ld % vec != 0)
    return kElementwise;
  return contiguous_extent % vec == 0 ? kWholeChunks : kPartialChunks;
}

}  // namespace tc
