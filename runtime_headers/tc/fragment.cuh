// tc/fragment.cuh - mma.m16n8k16 operand fragments from swizzled shared tiles.
//
// Every loader is one ldmatrix.  The derivation is the same each time:
//   1. mma.cuh splits the fragment into 8x8 blocks; register q of the
//      fragment is block q, in the layout "lane 4g+t holds row g, columns
//      2t, 2t+1" of that block.
//   2. ldmatrix matrix q returns exactly that register shape, either of the
//      8x8 block as stored (non-trans) or of its transpose (.trans).  So when
//      the fragment's "row" index is the tile's row index we load non-trans,
//      and when it is the tile's contiguous index we load .trans.
//   3. Lane l = 8q + r (r = l % 8) supplies the address of stored row r of
//      block q.
// Tiles are addressed through tc::swizzled_offset<kCols>, kCols = the
// tile's row length (its contiguous extent) in 16-bit elements.  The fragment
// origins must be multiples of 8 along the contiguous dimension (16-byte
// aligned rows) and should be multiples of 8 along rows (keeps every 8-row
// ldmatrix phase bank-conflict free, see swizzle.cuh); the code generator uses
// multiples of 16 for m0/k0 and of 8 for n0.
//
// The element type only matters to the mma (f16 vs bf16): loaders move raw
// 16-bit values, so `tile` is `const void *` and all offsets are in 16-bit
// elements.
#pragma once

#include <cstdint>

#include "ldmatrix.cuh"
#include "mma.cuh"
#include "swizzle.cuh"

namespace tc {

namespace detail {
template <int kCols>
__device__ __forceinline__ const void *tile_row_ptr(const void *tile, int row, int col) {
  return static_cast<const uint16_t *>(tile) + swizzled_offset<kCols>(row, col);
}
__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) & 31; }
}  // namespace detail

// A fragment (16x16 at (m0, k0)) from a tile stored [m][k] (k contiguous).
// Blocks: q = 0: (m 0-7, k 0-7), 1: (m 8-15, k 0-7), 2: (m 0-7, k 8-15),
// 3: (m 8-15, k 8-15) -> block q starts at row m0 + 8*(q & 1), col k0 + 8*(q >> 1).
// With l = 8q + r: row m0 + r + 8*(q & 1) = m0 + l % 16, col k0 + (l / 16) * 8.
// Fragment row (m) = stored row, so non-trans.
template <int kCols>
__device__ __forceinline__ void load_a_fragment_k_contiguous(uint32_t (&a)[4], const void *tile,
                                                             int m0, int k0) {
  const int l = detail::lane_id();
  tc::ldmatrix_x4(a, detail::tile_row_ptr<kCols>(tile, m0 + (l & 15), k0 + ((l >> 4) << 3)));
}

// A fragment (16x16 at (m0, k0)) from a tile stored [k][m] (m contiguous).
// Block q of A is (m-half q & 1, k-half q >> 1); stored it is rows k (k-half),
// cols m (m-half), i.e. the transpose, so .trans gives lane 4g+t the elements
// A[g][2t..2t+1] of the block.  Address of stored row r of block q:
// row k0 + 8*(q >> 1) + r, col m0 + 8*(q & 1); with l = 8q + r:
// row k0 + (l % 8) + (l / 16) * 8, col m0 + ((l / 8) % 2) * 8.
template <int kCols>
__device__ __forceinline__ void load_a_fragment_m_contiguous(uint32_t (&a)[4], const void *tile,
                                                             int m0, int k0) {
  const int l = detail::lane_id();
  tc::ldmatrix_x4_trans(a, detail::tile_row_ptr<kCols>(tile, k0 + (l & 7) + ((l >> 4) << 3),
                                                   m0 + (((l >> 3) & 1) << 3)));
}

// B fragment (16(k) x 8(n) at (k0, n0)) from a tile stored [n][k] (k contiguous).
// b[q] = B[2t + 8q .. +1][g] = stored[n0 + g][k0 + 8q + 2t ..]: the stored
// block (rows n0..n0+7, cols k0+8q..) read non-trans.  Lanes 0-15 matter:
// row n0 + l % 8, col k0 + ((l / 8) % 2) * 8; lanes 16-31 repeat 0-15.
template <int kCols>
__device__ __forceinline__ void load_b_fragment_k_contiguous(uint32_t (&b)[2], const void *tile,
                                                             int n0, int k0) {
  const int l = detail::lane_id();
  ldmatrix_x2(b, detail::tile_row_ptr<kCols>(tile, n0 + (l & 7), k0 + (((l >> 3) & 1) << 3)));
}

// B fragment (16(k) x 8(n) at (k0, n0)) from a tile stored [k][n] (n contiguous).
// b[q] = B[2t + 8q .. +1][g] = stored[k0 + 8q + 2t ..][n0 + g]: the transpose
// of stored block (rows k0+8q..+7, cols n0..n0+7), so .trans.  Lanes 0-15:
// row k0 + l % 16, col n0; lanes 16-31 repeat 0-15.
template <int kCols>
__device__ __forceinline__ void load_b_fragment_n_contiguous(uint32_t (&b)[2], const void *tile,
                                                             int n0, int k0) {
  const int l = detail::lane_id();
  ldmatrix_x2_trans(b, detail::tile_row_ptr<kCols>(tile, k0 + (l & 15), n0));
}

// Two B fragments, n tiles n0 (b0) and n0 + 8 (b1), same k0, from [n][k].
// Matrices: 0 = b0[0], 1 = b0[1], 2 = b1[0], 3 = b1[1]; matrix q is stored
// rows n0 + 8*(q >> 1) .., col k0 + 8*(q & 1).  Lane l = 8q + r:
// row n0 + (l % 8) + (l / 16) * 8, col k0 + ((l / 8) % 2) * 8.
template <int kCols>
__device__ __forceinline__ void load_b_fragment_pair_k_contiguous(uint32_t (&b0)[2],
                                                                  uint32_t (&b1)[2],
                                                                  const void *tile, int n0,
                                                                  int k0) {
  const int l = detail::lane_id();
  uint32_t r[4];
  tc::ldmatrix_x4(r, detail::tile_row_ptr<kCols>(tile, n0 + (l & 7) + ((l >> 4) << 3),
                                             k0 + (((l >> 3) & 1) << 3)));
  b0[0] = r[0];
  b0[1] = r[1];
  b1[0] = r[2];
  b1[1] = r[3];
}

// Two B fragments, n tiles n0 (b0) and n0 + 8 (b1), same k0, from [k][n].
// Matrix q (transposed) is stored rows k0 + 8*(q & 1) .., col n0 + 8*(q >> 1).
// Lane l = 8q + r: row k0 + l % 16, col n0 + (l / 16) * 8.
template <int kCols>
__device__ __forceinline__ void load_b_fragment_pair_n_contiguous(uint32_t (&b0)[2],
                                                                  uint32_t (&b1)[2],
                                                                  const void *tile, int n0,
                                                                  int k0) {
  const int l = detail::lane_id();
  uint32_t r[4];
  tc::ldmatrix_x4_trans(r, detail::tile_row_ptr<kCols>(tile, k0 + (l & 15), n0 + ((l >> 4) << 3)));
  b0[0] = r[0];
  b0[1] = r[1];
  b1[0] = r[2];
  b1[1] = r[3];
}

// ---------------------------------------------------------------------------
// Fragment loaders with precomputed addresses.
//
// A warp loads the same fragments (tile j of its warp tile, k step kk) from
// every pipeline stage, so each lane's ldmatrix address depends on the stage
// only by a constant. `FragmentLoader` computes the lane's swizzled offsets
// once, before the main loop; a load is then one add and one ldmatrix.
// The lane -> (row, col) maps are those of the loaders above.
enum class FragmentLayout {
  AKContiguous,  // A stored [m][k]: x4, 16x16 at (m0 + 16 j, 16 kk)
  AMContiguous,  // A stored [k][m]: x4.trans
  BKContiguous,  // B stored [n][k]: x4, two n8 tiles at n0 + 16 j
  BNContiguous   // B stored [k][n]: x4.trans, two n8 tiles
};

template <FragmentLayout kLayout, int kCols, int kTiles, int kSteps>
struct FragmentLoader {
  // Tile j moves the warp-tile coordinate by 16 and step kk moves k by 16:
  // one of them moves the stored row (A [m][k], B [n][k]: j; the transposed
  // layouts: kk). A move of 16 rows adds 16 * kCols to every swizzled
  // offset when the swizzle repeats every 16 rows, so only the other
  // coordinate's offsets are kept in registers.
  static constexpr bool kOuterIsRow =
      kLayout == FragmentLayout::AKContiguous || kLayout == FragmentLayout::BKContiguous;
  static constexpr bool kLinear = 16 % swizzle_row_period<kCols>() == 0;
  static constexpr int kRows = kLinear ? 1 : (kOuterIsRow ? kTiles : kSteps);
  static constexpr int kCols_ = kOuterIsRow ? kSteps : kTiles;
  int offset[kRows][kCols_];

  // outer0: the warp tile's first row (A: m) or column (B: n) in the tile;
  // step0: the first of the kSteps k steps the warp loads (intra-block
  // split-K gives each warp group its own share of a tile's k steps).
  __device__ __forceinline__ void setup(int outer0, int step0 = 0) {
    const int l = detail::lane_id();
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int c = 0; c < kCols_; ++c) {
        const int j = kOuterIsRow ? r : c, kk = kOuterIsRow ? c : r;
        const int o = outer0 + 16 * j, k0 = 16 * (step0 + kk);
        int row = 0, col = 0;
        if (kLayout == FragmentLayout::AKContiguous) {
          row = o + (l & 15);
          col = k0 + ((l >> 4) << 3);
        } else if (kLayout == FragmentLayout::AMContiguous) {
          row = k0 + (l & 7) + ((l >> 4) << 3);
          col = o + (((l >> 3) & 1) << 3);
        } else if (kLayout == FragmentLayout::BKContiguous) {
          row = o + (l & 7) + ((l >> 4) << 3);
          col = k0 + (((l >> 3) & 1) << 3);
        } else {
          row = k0 + (l & 15);
          col = o + ((l >> 4) << 3);
        }
        offset[r][c] = swizzled_offset<kCols>(row, col);
      }
  }

  template <typename T>
  __device__ __forceinline__ const T *address(const T *stage, int j, int kk) const {
    const int row_step = kOuterIsRow ? j : kk; // coordinate that moves rows
    const int other = kOuterIsRow ? kk : j;
    if (kLinear)
      return stage + offset[0][other] + row_step * 16 * kCols;
    return stage + offset[row_step][other];
  }

  // A fragment (AKContiguous, AMContiguous).
  template <typename T>
  __device__ __forceinline__ void load(uint32_t (&a)[4], const T *stage, int j, int kk) const {
    if (kLayout == FragmentLayout::AMContiguous)
      tc::ldmatrix_x4_trans(a, address(stage, j, kk));
    else
      tc::ldmatrix_x4(a, address(stage, j, kk));
  }

  // Two B fragments, n tiles 2j and 2j + 1 (BKContiguous, BNContiguous).
  template <typename T>
  __device__ __forceinline__ void load(uint32_t (&b0)[2], uint32_t (&b1)[2], const T *stage,
                                       int j, int kk) const {
    uint32_t r[4];
    if (kLayout == FragmentLayout::BNContiguous)
      tc::ldmatrix_x4_trans(r, address(stage, j, kk));
    else
      tc::ldmatrix_x4(r, address(stage, j, kk));
    b0[0] = r[0];
    b0[1] = r[1];
    b1[0] = r[2];
    b1[1] = r[3];
  }
};

// ---------------------------------------------------------------------------
// tf32 fragments (m16n8k8) from tiles of fp32 elements.
//
// ldmatrix moves 8x8 matrices of 16-bit elements: an 8 x 4 block of floats
// is such a matrix, and lane 4g + t receives float (g, t) of it, which is
// the mma's a/b element for the k-contiguous layouts. The transposed
// layouts (A stored [k][m], B stored [k][n]) have no 32-bit ldmatrix.trans:
// their elements are read one by one. Every element is rounded to tf32.
template <FragmentLayout kLayout, int kCols, int kTiles, int kSteps>
struct FragmentLoaderTf32 {
  static constexpr bool kMatrixLoads =
      kLayout == FragmentLayout::AKContiguous || kLayout == FragmentLayout::BKContiguous;
  // Tile j is 16 rows below tile 0: offsets linear in j when the swizzle
  // repeats every 16 rows (fewer registers next to the accumulators).
  static constexpr bool kLinear =
      kMatrixLoads && 16 % swizzle_element_row_period<kCols, float>() == 0;
  static constexpr int kStored = kMatrixLoads && !kLinear ? kTiles : 1;
  int offset[kSteps][kStored];
  int outer0;
  int k_first;  // the first k of the warp's share of a tile (element loads)

  // step0: the first of the kSteps k steps the warp loads (see above).
  __device__ __forceinline__ void setup(int outer, int step0 = 0) {
    outer0 = outer;
    k_first = 8 * step0;
    if (!kMatrixLoads)
      return;
    const int l = detail::lane_id(), q = l >> 3, r = l & 7;
#pragma unroll
    for (int kk = 0; kk < kSteps; ++kk)
#pragma unroll
      for (int j = 0; j < kStored; ++j) {
        const int o = outer + 16 * j, k0 = 8 * (step0 + kk);
        // A: matrices (m 0-7, k 0-3), (m 8-15, k 0-3), (m 0-7, k 4-7), (m 8-15, k 4-7).
        // B: (n 0-7, k 0-3), (n 0-7, k 4-7), (n 8-15, k 0-3), (n 8-15, k 4-7).
        const int row = kLayout == FragmentLayout::AKContiguous ? o + r + 8 * (q & 1)
                                                                : o + r + 8 * (q >> 1);
        const int col = kLayout == FragmentLayout::AKContiguous ? k0 + 4 * (q >> 1)
                                                                : k0 + 4 * (q & 1);
        offset[kk][j] = swizzled_element_offset<kCols, float>(row, col);
      }
  }

  __device__ __forceinline__ const float *address(const float *stage, int j, int kk) const {
    return kLinear ? stage + offset[kk][0] + j * 16 * kCols : stage + offset[kk][kLinear ? 0 : j];
  }

  __device__ __forceinline__ static uint32_t element(const float *stage, int row, int col) {
    return to_tf32(__float_as_uint(stage[swizzled_element_offset<kCols, float>(row, col)]));
  }

  __device__ __forceinline__ void load(uint32_t (&a)[4], const float *stage, int j, int kk) const {
    if constexpr (kMatrixLoads) {
      tc::ldmatrix_x4(a, address(stage, j, kk));
#pragma unroll
      for (int e = 0; e < 4; ++e)
        a[e] = to_tf32(a[e]);
    } else {
      const int l = detail::lane_id(), g = l >> 2, t = l & 3;
      const int m = outer0 + 16 * j + g, k = k_first + 8 * kk + t;
      a[0] = element(stage, k, m);
      a[1] = element(stage, k, m + 8);
      a[2] = element(stage, k + 4, m);
      a[3] = element(stage, k + 4, m + 8);
    }
  }

  __device__ __forceinline__ void load(uint32_t (&b0)[2], uint32_t (&b1)[2], const float *stage,
                                       int j, int kk) const {
    if constexpr (kMatrixLoads) {
      uint32_t r[4];
      tc::ldmatrix_x4(r, address(stage, j, kk));
      b0[0] = to_tf32(r[0]);
      b0[1] = to_tf32(r[1]);
      b1[0] = to_tf32(r[2]);
      b1[1] = to_tf32(r[3]);
    } else {
      const int l = detail::lane_id(), g = l >> 2, t = l & 3;
      const int n = outer0 + 16 * j + g, k = k_first + 8 * kk + t;
      b0[0] = element(stage, k, n);
      b0[1] = element(stage, k + 4, n);
      b1[0] = element(stage, k, n + 8);
      b1[1] = element(stage, k + 4, n + 8);
    }
  }
};

}  // namespace tc
