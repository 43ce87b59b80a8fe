// tc/sm90/operand_tile.cuh - one pipeline stage's tile of a GEMM operand in
// shared memory, with its layout in the type: what TMA writes and wgmma
// reads.
//
// OperandTile<T, kRows, kMajor, kHalves, kTransposedCopy> holds kRows
// rows of the operand's free index (m for A, n for B) by kK = 128 /
// sizeof(T) of the reduction index k (one 128-byte row: 64 16-bit
// elements, or 32 fp32 ones), 128-byte swizzle; kRows a multiple of 8
// (K-major: B's fitted widths, 176 or 224) or of 64 (MN-major), and of 64
// for A, whose 64-row slices the consumer warpgroups take:
//
//   Major::K   (A stored [m][k], B stored [n][k]): row r at byte 128 r, its
//              kK k elements swizzled in 16-byte chunks (8 16-bit elements
//              or 4 fp32 ones); one TMA box of kK k x kRows rows.
//   Major::MN  (A stored [k][m], B stored [k][n]): kRows / 64 panels of
//              8 KiB; in panel p, row k holds free elements 64 p .. 64 p + 63
//              (tc::wgmma_desc_mn_major_sw128); one TMA box of 64 x 64 per
//              panel. 16-bit elements only.
//
// T = float: fp32 operands that wgmma reads as tf32 (the low 13 mantissa
// bits of each element dropped: tc/wgmma.cuh), K-major only, as PTX takes
// tf32 operands; kK = 32. The bytes of a stage, of a slice and of a k
// step, and so the descriptors, are those of the 16-bit tiles: only the
// element counts halve.
//
// kTransposedCopy (fp32, Major::K only): the operand is stored with its
// free index contiguous (A stored [k][m], B stored [k][n]) and staged
// K-major all the same, the stage's layout Major::K's above: map() maps a
// K-major copy of it made at launch (tc::tma_map_2d_transposed: a read and
// a write of the operand per launch), and copy() reads it where it lies.
// Both round each element to tf32 on the way (kLandsRounded), so that the
// consumers' RoundToTf32 has nothing left to do on such a tile. No
// batches (map_batch() says false).
//
// kHalves: the tile is copied in two halves of boxes, so that the two
// blocks of a pair (tc/cluster.cuh), which share it, each copy one half
// into both blocks' stages (TMA multicast). A K-major tile's box is then
// kRows / 2 rows high; an MN-major tile's panels split in halves as they
// are (kRows / 64 even).
//
// The stages of an operand lie kBytes apart. A warpgroup's 64 rows of the
// tile (its `slice`) start 8 KiB after the previous slice's in both
// layouts, and a k step (16 16-bit elements, 8 fp32: one wgmma) moves the
// wgmma descriptor by kStepBytes.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../operand_repack.cuh"
#include "../wgmma.cuh"

namespace tc {
namespace sm90 {

// Which index of an operand is contiguous in memory: the reduction index
// (K-major) or the free one (MN-major).
enum class Major { K, MN };

// What a tile's copy() reads (the copying producer's): the operand's tiles
// along k from (row0, k0) on, of an operand of `rows` x `k` elements (row
// pitch `ld` along the contiguous index). Made once for a run of k tiles,
// so that the copy loop keeps few 64-bit values live.
// How many of a tile's kRows rows from row0 on lie inside an operand of
// `rows` rows: 0 .. kRows.
template <int kRows>
__host__ __device__ __forceinline__ int tile_rows_inside(long long rows, long long row0) {
  const long long in = rows - row0;
  return in <= 0 ? 0 : in < kRows ? static_cast<int>(in) : kRows;
}

template <class Bits>
struct TileCopySource {
  const Bits *corner;  // element (row0, k0)
  long long ld;
  long long k_left;    // k elements from k0 to the operand's end
  int rows;            // the tile's rows inside the operand, 0 .. kRows
};
template <int kRows, bool kRowsContiguous, class Bits>
__device__ __forceinline__ TileCopySource<Bits> tile_copy_source(const Bits *base, long long rows,
                                                                 long long k, long long ld,
                                                                 long long row0, long long k0) {
  TileCopySource<Bits> src;
  src.rows = tile_rows_inside<kRows>(rows, row0);
  src.k_left = k - k0;
  src.ld = ld;
  src.corner = base + (src.rows == 0 ? 0 : kRowsContiguous ? k0 * ld + row0 : row0 * ld + k0);
  return src;
}

template <class T, int kRows_, Major kMajor_, bool kHalves_ = false,
          bool kTransposedCopy_ = false>
struct OperandTile {
  static_assert(sizeof(T) == 2 || std::is_same_v<T, float>,
                "16-bit elements (fp16, bf16), or fp32 read as tf32");
  static_assert(sizeof(T) == 2 || kMajor_ == Major::K, "tf32 wgmma reads K-major operands only");
  static_assert(kRows_ <= 256 && kRows_ % (kMajor_ == Major::K ? 8 : 64) == 0,
                "whole swizzle atoms of 8 rows (K-major) or 64-wide panels (MN-major)");
  static_assert(!kHalves_ || kRows_ % (kMajor_ == Major::K ? 16 : 128) == 0,
                "halves of whole swizzle atoms or panels");
  static_assert(!kTransposedCopy_ || (std::is_same_v<T, float> && kMajor_ == Major::K),
                "a transposed copy stages fp32 operands K-major only");
  using Element = T;
  static constexpr int kRows = kRows_;
  static constexpr Major kMajor = kMajor_;
  static constexpr int kK = 128 / static_cast<int>(sizeof(T));  // one 128-byte row
  static constexpr int kBytes = kRows * kK * static_cast<int>(sizeof(T));
  static constexpr int kSliceBytes = 64 * kK * static_cast<int>(sizeof(T));
  // One wgmma k step: 32 bytes along a K-major row, 16 rows of 128 bytes
  // of an MN-major panel.
  static constexpr int kStepBytes = kMajor == Major::K ? 32 : 16 * 128;
  // The elements of one swizzled 16-byte chunk.
  static constexpr int kChunk = 16 / static_cast<int>(sizeof(T));
  // wgmma's transpose bit for this operand.
  static constexpr int kTransposed = kMajor == Major::MN ? 1 : 0;
  static constexpr bool kHalves = kHalves_;
  // Stored with the free index contiguous, staged K-major from a
  // transposed copy.
  static constexpr bool kTransposedCopy = kTransposedCopy_;
  // The elements land in the stages rounded to tf32 (the copy made at
  // launch, or copy(), rounded them).
  static constexpr bool kLandsRounded = kTransposedCopy;
  static constexpr int kBoxInner = kMajor == Major::K ? kK : 64;
  static constexpr int kBoxOuter = kMajor == Major::K ? (kHalves ? kRows / 2 : kRows) : kK;
  // The boxes of a tile, kBoxElements elements each, consecutive in the stage.
  static constexpr int kBoxes = kMajor == Major::K ? (kHalves ? 2 : 1) : kRows / 64;
  static constexpr int kBoxElements = kBoxInner * kBoxOuter;

  // The tensor map of the whole operand: `rows` x `k` elements, row pitch
  // `ld` elements along the contiguous index. An operand that TMA cannot
  // map directly is read from an aligned copy (tc::tma_map_2d_aligned), a
  // kTransposedCopy one always from its K-major copy
  // (tc::tma_map_2d_transposed); false when the copy cannot be made.
  __host__ static bool map(CUtensorMap *map, const T *base, long long rows, long long k,
                           long long ld, cudaStream_t stream, int operand,
                           const DeviceFacts &device) {
    constexpr int kBytesEach = static_cast<int>(sizeof(T));
    if constexpr (kTransposedCopy)
      return tc::tma_map_2d_transposed(map, base, rows, k, ld, kBoxInner, kBoxOuter, stream,
                                       operand, device);
    return kMajor == Major::K
               ? tc::tma_map_2d_aligned<kBytesEach>(map, base, k, rows, ld, kBoxInner, kBoxOuter,
                                                    stream, operand, device)
               : tc::tma_map_2d_aligned<kBytesEach>(map, base, rows, k, ld, kBoxInner, kBoxOuter,
                                                    stream, operand, device);
  }

  // The same for a batch of `matrices` operands, matrix z at base + z *
  // matrix_pitch elements (0: one, shared; tc::tma_map_3d_aligned). False
  // for a kTransposedCopy tile: no batches of transposed copies.
  __host__ static bool map_batch(CUtensorMap *map, const T *base, long long rows, long long k,
                                 long long ld, long long matrices, long long matrix_pitch,
                                 cudaStream_t stream, int operand, const DeviceFacts &device) {
    constexpr int kBytesEach = static_cast<int>(sizeof(T));
    if constexpr (kTransposedCopy)
      return false;
    return kMajor == Major::K
               ? tc::tma_map_3d_aligned<kBytesEach>(map, base, k, rows, ld, matrices,
                                                    matrix_pitch, kBoxInner, kBoxOuter, stream,
                                                    operand, device)
               : tc::tma_map_3d_aligned<kBytesEach>(map, base, rows, k, ld, matrices,
                                                    matrix_pitch, kBoxInner, kBoxOuter, stream,
                                                    operand, device);
  }

  // Copies the tile of rows row0 .. row0 + kRows - 1 and k0 .. k0 + kK - 1 into
  // `stage`; the bytes complete on `bar`. Elements past the operand's edge
  // arrive as zeros (TMA's out-of-bounds fill). With pair_rank 0 or 1 (a
  // kHalves tile shared by a pair), this block copies its half of the boxes
  // into both blocks' stages, at the same offsets, completing on both
  // blocks' `bar`. kBatched: `map` is map_batch's, the tile matrix
  // `batch`'s.
  template <bool kBatched = false>
  __device__ static void load(T *stage, const CUtensorMap &map, uint64_t *bar, int row0, int k0,
                              int pair_rank = -1, int batch = 0) {
#pragma unroll
    for (int b = 0; b < kBoxes; ++b) {
      const int x = kMajor == Major::K ? k0 : row0 + 64 * b;
      const int y = kMajor == Major::K ? row0 + kBoxOuter * b : k0;
      if constexpr (kHalves) {
        if (pair_rank >= 0) {
          if (b / (kBoxes / 2) == pair_rank) {
            if constexpr (kBatched)
              tc::tma_load_3d_multicast(stage + b * kBoxElements, map, bar, x, y, batch, 0x3);
            else
              tc::tma_load_2d_multicast(stage + b * kBoxElements, map, bar, x, y, 0x3);
          }
          continue;
        }
      }
      if constexpr (kBatched)
        tc::tma_load_3d(stage + b * kBoxElements, map, bar, x, y, batch);
      else
        tc::tma_load_2d(stage + b * kBoxElements, map, bar, x, y);
    }
  }

  // Where element (row r, k index c) of the tile lies in a stage, in
  // elements: TMA's 128-byte swizzle moves 16-byte chunk q of the stage's
  // 128-byte line l to chunk q ^ (l % 8). K-major: line r holds the row's
  // kK k elements, kChunk a chunk; MN-major: line c of panel r / 64 holds
  // its 64 rows.
  __host__ __device__ static constexpr int offset(int r, int c) {
    return kMajor == Major::K
               ? r * kK + (((c / kChunk) ^ (r % 8)) * kChunk) + c % kChunk
               : (r / 64) * 64 * kK + c * 64 + ((((r % 64) / 8) ^ (c % 8)) * 8) + r % 8;
  }

  // The inverse of offset(): the element (row r, k index c) at position p
  // of a stage, in elements. A 16-byte chunk (p a multiple of kChunk)
  // holds kChunk elements of one row along k (K-major) or of one k along
  // the rows (MN-major) from its first element's place on.
  __host__ __device__ static constexpr void place(int p, int &r, int &c) {
    if (kMajor == Major::K) {
      r = p / kK;
      c = ((((p % kK) / kChunk) ^ (r % 8)) * kChunk) + p % kChunk;
    } else {
      c = (p % (64 * kK)) / 64;
      r = (p / (64 * kK)) * 64 + ((((p % 64) / 8) ^ (c % 8)) * 8) + p % 8;
    }
  }

  // What copy() reads (TileCopySource) at `base`.
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
  static constexpr bool kRowsContiguous = kMajor == Major::MN || kTransposedCopy;
  using CopySource = TileCopySource<Bits>;
  __device__ static CopySource copy_source(const T *base, long long rows, long long k,
                                           long long ld, long long row0, long long k0) {
    return tile_copy_source<kRows, kRowsContiguous>(reinterpret_cast<const Bits *>(base), rows,
                                                    k, ld, row0, k0);
  }

  // The tile load() copies, its k tile `t` after the source's corner,
  // copied instead by the 32 lanes of a warp (`lane`) with ordinary loads,
  // zeros past the edge: the copying producer's
  // (TmaWgmmaMainloop::produce_copies), for operands no TMA map reads.
  // Consecutive lanes read consecutive elements of the contiguous index
  // (moved as raw 16- or 32-bit words; a kLandsRounded tile's rounded to
  // tf32): k of a K-major operand, the free index of an MN-major or
  // kTransposedCopy one (element (row, kk) at base[kk * ld + row]; the
  // latter stored at the K-major offsets). The caller publishes the stores
  // to wgmma (fence_proxy_async) and completes the stage's barrier.
  __device__ static void copy(T *stage, const CopySource &src, int t, int lane) {
    constexpr int kInner = kRowsContiguous ? kRows : kK;
    const long long k_in = src.k_left - static_cast<long long>(kK) * t;
    const int c_end = k_in <= 0 ? 0 : k_in < kK ? static_cast<int>(k_in) : kK;
    const int r_end = c_end == 0 ? 0 : src.rows;
    const Bits *corner =
        src.corner + static_cast<long long>(kK) * t * (kRowsContiguous ? src.ld : 1);
    Bits *dst = reinterpret_cast<Bits *>(stage);
    for (int e = lane; e < kRows * kK; e += 32) {
      const int inner = e % kInner, outer = e / kInner;
      const int r = kRowsContiguous ? inner : outer, c = kRowsContiguous ? outer : inner;
      Bits v = 0;
      if (r < r_end && c < c_end) {
        v = corner[static_cast<long long>(outer) * src.ld + inner];
        if constexpr (kLandsRounded)
          v = to_tf32(v);
      }
      dst[offset(r, c)] = v;
    }
  }

  // The wgmma descriptor of slice `slice` of stage 0 (`stages` is the first
  // stage); advance() moves it to another stage and k step.
  __device__ static uint64_t descriptor(const T *stages, int slice = 0) {
    const T *p = stages + slice * (kSliceBytes / static_cast<int>(sizeof(T)));
    return kMajor == Major::K ? tc::wgmma_desc_k_major_sw128(p)
                              : tc::wgmma_desc_mn_major_sw128(p, kSliceBytes);
  }
  __device__ static uint64_t advance(uint64_t desc, int stage, int step) {
    return wgmma_desc_advance(desc, stage * kBytes + step * kStepBytes);
  }
};

}  // namespace sm90
}  // namespace tc
