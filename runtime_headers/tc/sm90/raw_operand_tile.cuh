// tc/sm90/raw_operand_tile.cuh - one pipeline stage's tile of an 8-bit
// operand (int8/uint8 weights) as TMA lands it: raw bytes, which the
// consumers convert into wgmma's register A fragments themselves
// (RawRegisterA, tc/sm90/roles.cuh; the conversions of tc/raw_fragment.cuh).
//
// RawOperandTile<Src, kRows> holds kRows rows of the operand's free index by
// kK = 64 k elements, one 64-byte row each, K-major only (the operand
// stored [rows][k]), with TMA's 64-byte swizzle: 16-byte chunk j of row r
// lies at chunk j ^ (r / 2 % 4) of the row (RawFragmentLayout::offset), so
// that a warp's 2-byte fragment loads (8 rows, 4 pairs each) fall in
// distinct banks. kRows a multiple of 64: the consumer warpgroups take 64
// rows each, as wgmma's M.
//
// Nothing reads the tile through a wgmma descriptor, so it has none; its k
// tile is as deep as a 16-bit operand tile's (64), so both operands' k
// tiles advance together.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../raw_fragment.cuh"
#include "../tma.cuh"
#include "operand_tile.cuh"

namespace tc {
namespace sm90 {

template <class Src, int kRows_>
struct RawOperandTile {
  static_assert(sizeof(Src) == 1 && std::is_integral_v<Src>, "8-bit integer elements");
  static_assert(kRows_ % 64 == 0 && kRows_ <= 256, "64 rows a consumer warpgroup");
  using Element = Src;
  static constexpr int kRows = kRows_;
  static constexpr Major kMajor = Major::K;
  static constexpr int kK = 64;
  static constexpr int kBytes = kRows * kK;
  static constexpr int kSliceBytes = 64 * kK;
  static constexpr bool kHalves = false;
  static constexpr bool kTransposedCopy = false;
  static constexpr bool kLandsRounded = false;
  static constexpr bool kRaw = true;

  // The tensor map of the whole operand: `rows` x `k` bytes, row pitch `ld`.
  // False where TMA cannot read it in place (base or pitch not 16-byte
  // aligned): the launch then copies the tiles with the producer warp.
  __host__ static bool map(CUtensorMap *map, const Src *base, long long rows, long long k,
                           long long ld, cudaStream_t, int, const DeviceFacts &) {
    return tc::tma_map_2d_bytes(map, base, k, rows, ld, kK, kRows, true);
  }
  // No batches of raw operands.
  __host__ static bool map_batch(CUtensorMap *, const Src *, long long, long long, long long,
                                 long long, long long, cudaStream_t, int, const DeviceFacts &) {
    return false;
  }

  // Rows row0 .. row0 + kRows - 1, k0 .. k0 + 63, into `stage`, completing on
  // `bar`; bytes past the operand's edge arrive as zeros.
  template <bool kBatched = false>
  __device__ static void load(Src *stage, const CUtensorMap &map, uint64_t *bar, int row0, int k0,
                              int = -1, int = 0) {
    static_assert(!kBatched, "no batches of raw operands");
    tc::tma_load_2d(stage, map, bar, k0, row0);
  }

  // Where byte (row r, k index c) lies in a stage.
  __host__ __device__ static constexpr int offset(int r, int c) {
    return RawFragmentLayout::offset(r, c);
  }

  // What copy() reads (TileCopySource, tc/sm90/operand_tile.cuh).
  using CopySource = TileCopySource<Src>;
  __device__ static CopySource copy_source(const Src *base, long long rows, long long k,
                                           long long ld, long long row0, long long k0) {
    return tile_copy_source<kRows, false>(base, rows, k, ld, row0, k0);
  }

  // The tile load() copies, k tile `t` after the source's corner, by the
  // 32 lanes of a warp with byte loads (consecutive lanes, consecutive k),
  // zeros past the edge: the copying producer's, for operands TMA cannot
  // map. The caller publishes the stores and completes the stage's barrier.
  __device__ static void copy(Src *stage, const CopySource &src, int t, int lane) {
    const long long k_in = src.k_left - static_cast<long long>(kK) * t;
    const int c_end = k_in <= 0 ? 0 : k_in < kK ? static_cast<int>(k_in) : kK;
    const int r_end = c_end == 0 ? 0 : src.rows;
    const Src *corner = src.corner + static_cast<long long>(kK) * t;
    for (int e = lane; e < kRows * kK; e += 32) {
      const int r = e / kK, c = e % kK;
      stage[offset(r, c)] = r < r_end && c < c_end ? corner[r * src.ld + c] : Src(0);
    }
  }
};

template <class Tile>
inline constexpr bool is_raw_tile = false;
template <class Src, int kRows>
inline constexpr bool is_raw_tile<RawOperandTile<Src, kRows>> = true;

}  // namespace sm90
}  // namespace tc
