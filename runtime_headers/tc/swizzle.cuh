// tc/swizzle.cuh - XOR swizzle for shared-memory tiles of 16-bit elements.
//
// Storage model
// -------------
// A tile is a row-major array of rows of kCols 16-bit elements (kCols a power
// of two, >= 16).  Memory is handled in 16-byte chunks of 8 elements, which is
// the unit of both cp.async (16-byte form) and ldmatrix (one 8x8 row = 16 B).
// The linear chunk index of element (row, col) is
//
//     L = row * (kCols / 8) + col / 8
//
// and the chunk is stored at physical chunk index swizzle_chunk(L).  The
// element keeps its position (col % 8) inside the chunk, so every 16-byte
// chunk stays contiguous and 16-byte aligned (the tile base must be 128-byte
// aligned for the bank argument below and at least 16-byte aligned for
// cp.async/ldmatrix).
//
// The function
// ------------
//     line = L >> 3                       (which 128-byte line: 8 chunks)
//     phys = L ^ ((line ^ (line >> 3)) & 7)
//
// Only the low three bits of L (the chunk's slot inside its 128-byte line) are
// changed, and they are XORed with a value that depends only on `line`, so the
// map is a bijection inside every aligned group of 8 chunks (and therefore on
// any tile whose size is a multiple of 128 bytes).  A 128-byte line covers all
// 32 four-byte banks exactly once, so "conflict free" below means: the 8
// chunks touched by one 8-address phase land in 8 distinct slots.
//
// Why it is conflict free (tile base 128-byte aligned, cpr = kCols / 8)
// ---------------------------------------------------------------------
//  * cp.async stores: 8 threads writing 8 consecutive linear chunks of an
//    aligned group share one `line`, so they are XORed with one constant:
//    a permutation of the 8 slots.
//  * ldmatrix reads: one 8x8 matrix = 8 consecutive rows (row0 % 8 == 0, which
//    all tc loaders guarantee) at one logical chunk c.
//      cpr = 2  (kCols  16): 4 rows per line; the 8 rows occupy lines j, j+1
//               (j even).  Inside a line the 4 rows hit slots {0,2,4,6}+(c&1);
//               line j+1 is XORed with a value whose bit 0 differs, so it hits
//               the other parity: 8 distinct slots.
//      cpr = 4  (kCols  32): 2 rows per line, lines j..j+3 (j % 4 == 0) hit
//               slots {0,4}+c; their XOR values have 4 distinct low-2-bit
//               patterns, which spreads them over all 8 slots.
//      cpr = 8  (kCols  64): one row per line; slot = c ^ (row & 7) ^ const,
//               distinct for 8 consecutive rows.
//      cpr = 16 (kCols 128): line = 2*row + c/8.  (line & 7) alone repeats
//               after 4 rows (rows r and r+4 would collide); the (line >> 3)
//               term is r/4 there and breaks exactly that tie.
//      cpr = 32 (kCols 256): line = 4*row + c/8; (line & 7) gives bit 2 from
//               row & 1 and (line >> 3) gives row/2 in the low 2 bits: 8
//               distinct slots.
//    (For line < 8, i.e. the first 1 KiB, this is the classic L ^ ((L>>3)&7)
//    "Swizzle<3,3,3>" on chunks; the extra line>>3 term only matters for rows
//    wider than 128 bytes, where the classic form is 2-/4-way conflicted.)
//
// All functions are __host__ __device__ constexpr so host code (tests, the
// code generator's own checks) can evaluate exactly the same mapping.
#pragma once

namespace tc {

// Physical chunk index of linear 16-byte chunk `linear_chunk` (>= 0).
__host__ __device__ __forceinline__ constexpr int swizzle_chunk(int linear_chunk) {
  return linear_chunk ^ (((linear_chunk >> 3) ^ (linear_chunk >> 6)) & 7);
}

// Element offset (in 16-bit elements) of logical element (row, col) of a tile
// with kCols elements per row.  col may be any non-negative value; its
// position inside its 8-element chunk is preserved.
// Rows of 128 bytes or more (cpr >= 8) permute the 8 chunk slots of each
// 128-byte line by row % 8: ldmatrix's 8 consecutive rows at one logical
// chunk land in 8 distinct slots, and consecutive chunks of one row stay a
// permutation of a line. Narrower rows use the classic L ^ ((L >> 3) & 7)
// (see above). Both forms are invariant under moving 8 (cpr >= 8), 16
// (cpr = 4) or 32 (cpr = 2) rows: offset(row + d, col) = offset(row, col) +
// d * kCols, which lets a thread step through its chunks by a constant.
template <int kCols>
__host__ __device__ __forceinline__ constexpr int swizzled_offset(int row, int col) {
  static_assert(kCols >= 16 && (kCols & (kCols - 1)) == 0,
                "tc::swizzled_offset: kCols must be a power of two >= 16");
  constexpr int cpr = kCols / 8;
  const int chunk = col >> 3;
  if constexpr (cpr >= 8) {
    return ((row * cpr + (chunk ^ (row & 7))) << 3) | (col & 7);
  } else {
    const int linear = row * cpr + chunk;
    return ((linear ^ ((linear >> 3) & 7)) << 3) | (col & 7);
  }
}

// Rows a thread may step by while offsets stay linear (see above).
template <int kCols>
__host__ __device__ constexpr int swizzle_row_period() {
  return kCols / 8 >= 8 ? 8 : 64 / (kCols / 8);
}

// wgmma's M- (N-) major tiles (wgmma.cuh): a tile of kRows rows of kCols
// elements (kCols a multiple of 64) is stored as kCols / 64 panels, panel p
// holding columns 64 p .. 64 p + 63 of every row as a kRows x 64 tile of
// its own (128-byte rows, the swizzle above). Moving 8 rows moves every
// offset by 8 * 64 elements.
template <int kCols, int kRows>
__host__ __device__ __forceinline__ constexpr int paneled_offset(int row, int col) {
  static_assert(kCols % 64 == 0, "tc::paneled_offset: panels are 64 elements wide");
  return (col >> 6) * (kRows * 64) + swizzled_offset<64>(row, col & 63);
}

// The same layout for tiles of 32-bit elements (tf32 operands): a row of
// kCols floats is a row of 2 * kCols 16-bit halves.
template <int kCols, typename T>
__host__ __device__ __forceinline__ constexpr int swizzled_element_offset(int row, int col) {
  if constexpr (sizeof(T) == 4)
    return swizzled_offset<2 * kCols>(row, 2 * col) / 2;
  else
    return swizzled_offset<kCols>(row, col);
}

template <int kCols, typename T>
__host__ __device__ constexpr int swizzle_element_row_period() {
  return swizzle_row_period<(sizeof(T) == 4 ? 2 * kCols : kCols)>();
}

}  // namespace tc
