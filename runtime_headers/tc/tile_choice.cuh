// tc/tile_choice.cuh - the launch-time choice between a region's kernels.
//
// On sm_90a a plain GEMM region gets up to twelve wgmma kernels
// (KernelConfig.h): 128x128x64 tiles, two blocks per SM; 128x256x64 tiles,
// one block per SM, whose tiles reuse each A element twice as often, and
// the same kernel with 224, 192 or 176 columns; 64x32x64 (or 64x64x64)
// tiles for outputs of few columns (64x32 also for small outputs of short
// reductions); and 64x128x64 tiles (one warpgroup per
// block) for outputs too small to fill the GPU, with 8 stages (one block
// per SM, or the same with 112 or 96 columns) where one round of them
// covers the output, else 4 (two); and
// 192x192x64 tiles (three warpgroups, one block per SM) where those fill
// whole rounds of SMs and 128x256 tiles do not; and the 128x128x64 tiles
// again as persistent blocks (one per SM, 4 stages, an output buffer and
// two epilogue warpgroups of their own).
//
// prefer_wide_tiles: the wide kernel wins once there are enough of its
// tiles for about two waves and enough k tiles to amortise filling its
// pipeline; below that, twice as many 128x128 blocks keep more SMs busy.
// Measured on an H200 (docs/results/bench-h200-wgmma-tiles.md, 18 shapes,
// both kernels): the rule picks the faster kernel on 16 of them and is
// within 8% on the other two.
//
// prefer_wide_tma_tiles: the same choice between the TMA kernels
// (KernelConfig::Tma), whose tile schedule splits the tiles of a last,
// partial round along k (tile_schedule.cuh), so that wave quantisation no
// longer asks for two waves of wide tiles: the wide kernel wins from half
// as many wide tiles as SMs on, except for short reductions (k < 1024) with
// more wide tiles than SMs. Measured on an H200 over the 130 paper and LLM
// shapes, the 128x256 TMA kernel against the default choice
// (docs/results/bench-h200-tma-wide-tiles.md): 0.61 to 0.90 of its time on
// the 128x128-tile shapes from 64 wide tiles on, 1.07 to 1.24 on four of
// those with k <= 768 and more than 150 wide tiles.
//
// wide_tile_width: the wide kernel's tiles 224, 192 or 176 columns wide
// instead of 256, where those fill one or two rounds of SMs with fewer
// tile columns (cuBLAS fits 144- to 320-column tiles to the output so).
// Measured on an H100 (docs/results/bench-h100-wide-widths.md), 26 shapes
// of the 128x256 kernel (24 paper shapes of poorly filled rounds), clause
// kernels of each width against the default: the rule picks the fastest
// width on 25 and is within 0.3% on the other; geometric mean of the ratio
// to cuBLAS 0.754 -> 0.844 (768 x 3072 x 2176: 72 tiles of 256 columns,
// 108 of 176, 0.0286 -> 0.0241 ms).
// From more than two rounds of 128x256 tiles, the pairs of 128x256 blocks
// (tile_schedule.cuh) were as fast or faster (3456 x 2816 x 3584).
// The fewest rounds first (fitted_tile_width), from a sweep that added
// 160- and 144-column tiles (docs/results/bench-h100-h200-narrower-widths.md,
// the 44 paper shapes of the wide kernel): with fewest columns alone those
// lost up to 13% where they took a third round (3840 x 1792 x 1920: 144
// columns in 3 rounds against 224 in 2). In the same rounds as 176 they
// were 1.028x its speed on an H200 but 0.957x on an H100, so the default
// widths stop at 176 (the tile clause has 160 and 144).
//
// narrow_tile_width: the same for the 8-stage 64-row kernel (at most one
// round of 64x128 tiles): 112 or 96 columns where more of those tiles
// still fit one round of SMs, so that more SMs share the output, for
// outputs of more than 128 columns. Measured on an H100
// (docs/results/bench-h100-narrow-widths.md), the 47 paper and LLM shapes
// of that kernel, clause kernels of each width: geometric mean of the
// ratio to cuBLAS 0.805 -> 0.854 (384 x 2304 x 2176: 0.0177 -> 0.0146 ms
// with 112 columns); at 128 columns the narrower tiles lost (3584 x 128 x
// 2304: 0.89x, A read twice), hence n > 128.
// Not where that narrower width leaves its tiles whole and 128-column tiles
// would be split into cluster parts (cluster_parts.cuh: fewer tiles than
// half the SMs, reductions of the kernel's floor of k tiles): each part's
// block then streams half of the k tiles, which the narrower width's extra
// SMs do not make up for. Measured on an H200 (2026-11-28, the 33 paper
// shapes of the 8-stage kernel, TC_FITTED_WIDTHS=0 against the fitted
// widths, docs/results/bench-h200-small-outputs.md): on the
// 5 such shapes 128 columns in cluster parts took 0.85-0.92 of the time
// (384 x 1280 x 3840: 20.3 -> 17.2 us, 60 tiles in two parts against 84
// of 96 columns whole); where both widths or neither were split, the
// fitted width was from 8% faster (512 x 1152 x 3584) to 8% slower
// (384 x 512 x 3456, both in parts), mixed cases left to it. Not measured
// on an H100. The rule asks cluster_parts_may_pay only, not whether the
// clusters fit the GPU in one wave (schedule_cluster_parts, at launch);
// and for a sum of products k is the total length, while the launcher
// counts each product's k tiles (one more at most, at the floor).
//
// prefer_fitted_tiles: 192x192 tiles (three warpgroups, 4 stages, one
// block per SM) where they cover the output in whole rounds of SMs - at
// least 80% of the rounds' tile area is output - and 128x256 tiles do not,
// for reductions of k >= 1024. cuBLAS fits its tiles to the SMs so
// (192x192 for 3456 x 1280: 126 tiles on 132 SMs, where 128x256 gives 135
// and a second round for 3 of them). Measured on an H100
// (docs/results/bench-h100-fitted-tiles.md), ratio to cuBLAS, default ->
// 192x192: 3456x1280x1280 0.56 -> 0.93, 1152x4096x2432 0.63 -> 0.96,
// 2304x2048x2560 0.63 -> 0.96, 1664x2688x3584 0.67 -> 0.98, 2944x3072x2944
// 0.78 -> 0.92; where 192x192 tiles leave a round mostly empty they lost
// (1664x2816x1792: 135 tiles, 0.59 -> 0.57; 4096^3: 1.04 -> 0.85).
//
// prefer_narrow_tiles: with fewer 128x128 tiles than SMs, twice as many
// 64x128 tiles (split along k only when even those are few: choose_splits
// with fill_divisor 2) beat the 128x128 kernel split along k
// (docs/results/bench-h200-wgmma-small.md: 59 such shapes of the paper and
// LLM sets, faster on 45).
//
// prefer_narrow_converted_tiles: kernels with an operand converted while
// copying (int8 weights; cp.async stages, split along k by split_k.cuh into
// an fp32 workspace and a second kernel): 64x128 tiles where there are
// twice as many of them as of 128x128 tiles (m > 64; n > 64, else the
// stages hold mostly zero-filled B) and at least half as many as SMs, so
// that they run unsplit - the split costs more than converting B's tile
// for 64 rows instead of 128. Measured on an H100
// (docs/results/fused-bench-h100-int8-narrow.md, the int8-weight layer):
// geometric mean of the ratio to cuBLAS plus a dequantising kernel, paper /
// squares / LLM, 0.453 / 0.416 / 0.914 -> 0.481 / 0.471 / 0.914 (512 x 4096
// x 768: 0.087 -> 0.028 ms); the 64x128 kernel for every output of fewer
// 128x128 tiles than SMs lost on the LLM set (0.767: decode shapes of 16
// to 128 rows, whose split fills the GPU).
//
// prefer_narrow_raw_fragment_tiles: the same, for a 128x128 kernel that
// converts the weights into its wgmma fragments (a transposed tile, no
// stage round trip; the 64x128 kernel still converts its stages): only for
// reductions of at most 512. On the shapes the rule above gives the 64x128
// kernel, those ran about 11% faster on it, and longer ones 5-30% faster
// on the 128x128 kernel (H100, int8-weight layer,
// docs/results/fused-bench-h100-int8-raw-fragments.md).
//
// prefer_tall_raw_fragment_tiles: the transposed tile of that kernel 256
// rows tall (wgmma m64n256k16, a producer warpgroup giving its registers
// to the consumers), where its tiles are not mostly padding (m >= 512) and
// fill at least half a round of SMs: each k step's conversion then serves
// twice the columns. Fitted to the measurement of both kernels on the
// paper, square and LLM shapes (H100, int8-weight layer vs cuBLAS +
// dequantisation: 0.792 / 0.716 / 1.479 -> 0.872 / 0.978 / 1.615;
// docs/results/fused-bench-h100-int8-tall.md); fewer or smaller tiles ran
// up to 1.9x slower on it.
//
// tall_tile_height: the tall tiles 224, 192 or 176 rows of X tall instead
// of 256 (the heights are wgmma's N, the wide kernel's widths transposed),
// where those fill one or two rounds of SMs with fewer tile rows. Measured
// on an H200 (2026-11-28, int8-weight layer, TC_FITTED_WIDTHS=0 against
// the fitted heights in one binary, two runs each in alternating order,
// docs/results/fused-bench-h200-int8-tall-heights.md): geometric mean of
// the ratio to dequantisation + cuBLAS over the paper set 0.943-0.949 ->
// 0.977-0.983, up to 1.28x on short reductions of 153 tall tiles (2304 x
// 2176 x 768: 32.6 -> 25.5 us, a second round of 21 tiles, too many for
// stream units), no shape slower by more than 2%. Without the exception
// for a thin last round, four shapes of 138 to 147 tall tiles with k >=
// 1792 (2304 x 2048 x 2560) ran 0.91-0.96x, whose last round the stream
// units share out well over a long reduction: those keep 256 (the bound
// of 24 k tiles lies between 3456 x 1280 x 1280, 1.04x with 176 rows, and
// 1152 x 3584 x 1664, 0.98x).
//
// prefer_fitted_raw_fragment_tiles: for the same layer, 192x192 transposed
// tiles (192 rows of X, three consumer warpgroups of 64 rows of W beside
// the producer warpgroup) where they cover the output in whole rounds of
// SMs - at least 80% of the rounds' tile area is output - and the 256x128
// tall tiles do not: prefer_fitted_tiles for the transposed tile, but for
// every k. Measured on an H200 (2026-11-28, the same layer, on and off in
// one binary, two runs each,
// docs/results/fused-bench-h200-int8-tall-heights.md): 1.01x to 1.28x on
// the 8 paper shapes of k >= 1024 it takes (3456 x 1280 x 1280: 33.7 ->
// 26.4 us, 126 tiles against 200 of 176 rows), 1.17x in geometric mean.
// The GEMM's bound of k >= 1024 did not hold here (2026-11-29,
// docs/results/fused-bench-h200-int8-square-heights.md): on 16 random
// shapes of k = 128 to 768 that the rule takes without it, the 192x192
// tiles were 1.05x to 1.34x faster than the tall ones, 1.22x in geometric
// mean (3968 x 1152 x 128 on the paper set: 14.9 -> 12.0 us).
//
// raw_fragment_tile_height: for the outputs left to the 128x128 transposed
// kernel of the same layer, its tiles 112, 96, 80 or 64 rows of X tall (6
// stages, one block per SM): the fewest rounds of SMs, then the fewest
// rows (fitted_tile_width over the transposed output), with
// narrow_tile_width's exception for cluster parts; where both heights run
// in parts, the shorter only where it takes as many tiles (m <= 64: the
// rows of X that wgmma would multiply as zeros drop out) or where even 8
// parts of the 128-row tiles leave SMs idle. Measured on an H200
// (2026-11-29, the same layer, one binary, two runs each, against the
// rules before, docs/results/fused-bench-h200-int8-square-heights.md):
// decode shapes 1.12x to 1.83x (16 x 28672 x 4096: 116 -> 64 us), LLM set
// 1.51 -> 1.72; on the paper shapes it takes, up to 1.17x (640 x 128 x
// 640: 5 tiles in parts -> 10; 128 x 3840 x 384: 30 whole tiles -> 60,
// 1.14x; 1152 x 384 x 512: 27 tiles -> 54, 1.13x). With both heights in
// parts and 20 or more 128-row tiles the shorter ones lost 2% to 17% (the
// first rule's run; 384 x 1280 x 3840: 30 tiles, 17.8 -> 21.4 us: each W
// tile converted for twice the blocks), hence the bound on parts. Where
// that keeps the tile count, the shortest height of as many tiles: 1.02x
// to 1.12x on 10 shapes of m = 72 to 200 (72 x 6144 x 4096: 26.9 -> 24.0
// us).
//
// prefer_deep_narrow_tiles: with at most one round of 64x128 tiles (no
// more than SMs), the 64x128 TMA kernel with 8 stages and one block per SM
// instead of 4 stages and two: the block's whole share of a short
// reduction is in flight from the start (cuBLAS picks small tiles with 10
// to 16 stages there). Measured on an H100 over the 59 paper and LLM
// shapes with fewer 128x128 tiles than SMs
// (docs/results/bench-h100-deep-narrow.md): geometric mean of the ratio to
// cuBLAS 0.816 -> 0.865; with more 64x128 tiles than SMs the 8-stage
// kernel lost (one block per SM), so those keep 4 stages.
//
// prefer_skinny_tiles: outputs of at most 64 columns (DeepBench's 7680 x
// {16, 32, 64} x 2560) get 64x32 TMA tiles (64x64 for an N-major B, whose
// stages hold 64-column panels). A 128-column tile there carries mostly
// zero-filled B rows in every stage, so few bytes of A are in flight and
// the kernel is latency-bound: on an H200, 7680 x 16 x 2560 took 37.6 us
// with 64x128 tiles, 18.3 us with 64x32 and 21.7 us with 64x64 (cuBLAS
// 15.4 us); 7680 x 64 x 2560: 26.9, 21.6 and 19.6 us
// (docs/results/bench-h200-skinny-tiles.md).
// Also outputs that one round of 64x32 tiles covers (a K-major B; the
// 64x64 tiles of an N-major B were not measured for this), for reductions
// of k <= 1024: whole small tiles on as many SMs, instead of the 8-stage
// 64x128 (or fitted-width) kernel's fewer tiles, split into cluster parts
// or left to few SMs. Measured on an H200 (2026-11-28, the previous rule
// against this one in one binary,
// docs/results/bench-h200-small-outputs.md): 1.10-1.20x on
// the five paper shapes it changes (128 x 2048 x 768: 9.9 -> 8.2 us,
// cuBLAS 7.8); an oracle over the tile-clause kernels showed the 64x32
// tiles losing from 36 k tiles on (128 x 1792 x 2304: 0.96x, 384 x 512 x
// 3456: 0.89x), hence the bound on k.
//
// prefer_persistent_tiles: the 128x128 tiles as persistent blocks
// (KernelConfig::PersistentTiles: one block per SM computing tiles b, b +
// SMs, ... in turn; its producer copies the next tile while two epilogue
// warpgroups store the last one from a buffer of their own, so that
// neither the pipeline's fill nor the epilogue stalls the tensor cores)
// for reductions of k >= 256 where there are at least as many of them as
// SMs (checked after the 192x192 and 128x256 rules: instead of the
// two-blocks-per-SM kernel), and of k >= 1024 where there are fewer but
// more than one round of 64x128 tiles (instead of those, two blocks per
// SM). Measured on an H100 (docs/results/bench-h100-persistent-tiles.md),
// the persistent kernel against the kernel each shape had: 1.07x to 1.21x
// on the 8 such paper shapes of k >= 256 (2304 x 2176 x 768: 0.0294 ->
// 0.0252 ms), 0.99x at k = 128 (two k tiles leave the epilogue little to
// overlap); 1.00x to 1.13x on the 7 benchmark shapes of fewer tiles and
// k >= 1024, the longer the reduction the more (512 x 4096 x 14336:
// 1.13x), 0.98x to 1.01x with k <= 768. Forced onto the shapes of the
// 128x256, 192x192 and 8-stage 64x128 kernels it mostly lost (0.54x to
// 0.99x; 5 of 113 shapes faster, by 1-10%).
#pragma once

#include <initializer_list>

#include "cluster_parts.cuh"  // cluster_parts_may_pay
#include "split_k.cuh"
#include "tile_schedule.cuh"  // turned_off_in_environment

namespace tc {

// The rows x cols tiles that cover an m x n output.
__host__ inline long long output_tiles(long long m, long long n, long long rows, long long cols) {
  return ((m + rows - 1) / rows) * ((n + cols - 1) / cols);
}

// The share of the tile area of whole rounds of SMs that a rows x cols
// tiling of an m x n output covers with output elements.
__host__ inline double round_fill(long long m, long long n, long long rows, long long cols) {
  const long long sms = multiprocessors();
  const long long rounds = (output_tiles(m, n, rows, cols) + sms - 1) / sms;
  return static_cast<double>(m) * static_cast<double>(n) /
         (static_cast<double>(rounds * sms) * static_cast<double>(rows * cols));
}

// Whether the 192x192 tiles may be taken (the GEMM's, and the int8 layer's
// transposed ones): not with TC_FITTED_TILES=0, for comparisons.
__host__ inline bool fitted_tiles_enabled() {
  static const bool enabled = !turned_off_in_environment("TC_FITTED_TILES");
  return enabled;
}

// Whether 192x192 tiles cover an m x n output in whole rounds of SMs (at
// least 80% of their tile area is output) where rows x cols tiles do not.
__host__ inline bool fitted_tiles_fill_better(long long m, long long n, long long rows,
                                              long long cols) {
  return fitted_tiles_enabled() && round_fill(m, n, 192, 192) >= 0.8 &&
         round_fill(m, n, rows, cols) < 0.8;
}

__host__ inline bool prefer_fitted_tiles(long long m, long long n, long long k) {
  return k >= 1024 && fitted_tiles_fill_better(m, n, 128, 256);
}

__host__ inline bool prefer_wide_tiles(long long m, long long n, long long k) {
  const long long wide_tiles = output_tiles(m, n, 128, 256);
  return m >= 1024 && k >= 512 && 5 * wide_tiles >= 9 * multiprocessors();
}

__host__ inline bool prefer_wide_tma_tiles(long long m, long long n, long long k) {
  const long long wide_tiles = output_tiles(m, n, 128, 256);
  return 2 * wide_tiles >= multiprocessors() && (k >= 1024 || wide_tiles <= multiprocessors());
}

// Whether the wide kernel may take tiles narrower than 256 columns (and
// the 8-stage 64-row kernel narrower than 128, the int8 layer's transposed
// tiles shorter than 256 and 128 rows): not with TC_FITTED_WIDTHS=0.
__host__ inline bool fitted_widths_enabled() {
  static const bool enabled = !turned_off_in_environment("TC_FITTED_WIDTHS");
  return enabled;
}

// Of the widths of tiles of `rows` rows, the one whose tiles cover an
// m x n output in the fewest rounds of SMs, and of those the narrowest,
// which has the fewest tile columns over those rounds (rounds x width).
// Fewest rounds first: a narrower tile that needs another round loses more
// to its lower reuse than it saves in columns (1920 x 4096 x 3072: 160
// columns in 3 rounds 4.7% slower than 256 in 2, H200; see
// wide_tile_width).
__host__ inline int fitted_tile_width(long long m, long long n, long long rows,
                                      std::initializer_list<int> widths) {
  const long long sms = multiprocessors();
  int best = 0;
  long long best_rounds = 0;
  for (int w : widths) {
    const long long rounds = (output_tiles(m, n, rows, w) + sms - 1) / sms;
    if (best == 0 || rounds < best_rounds || (rounds == best_rounds && w < best)) {
      best = w;
      best_rounds = rounds;
    }
  }
  return best;
}

// The width of the wide kernel's 128-row tiles, of the region's widths
// (256 first): fitted_tile_width, but 256 from more than two rounds of
// 128x256 tiles on.
__host__ inline int wide_tile_width(long long m, long long n, std::initializer_list<int> widths) {
  if (!fitted_widths_enabled() || output_tiles(m, n, 128, 256) > 2 * multiprocessors())
    return 256;
  return fitted_tile_width(m, n, 128, widths);
}

// The width of the 8-stage kernel's 64-row tiles, of the region's widths
// (128 first): fitted_tile_width for an output of more than 128 columns
// (narrower tiles would read a narrower output's A twice), else 128. Where
// one round of 64x128 tiles covers the output, that is the narrowest width
// whose tiles still fit one round - unless those tiles run whole where
// 128-column tiles would run in cluster parts (cluster_parts_may_pay with
// the kernel's floor of k tiles, cluster_parts_min_k_tiles; 0 for a kernel
// without cluster parts): then 128.
__host__ inline int narrow_tile_width(long long m, long long n, long long k,
                                      std::initializer_list<int> widths,
                                      long long cluster_parts_min_k_tiles) {
  if (!fitted_widths_enabled() || n <= 128)
    return 128;
  const int width = fitted_tile_width(m, n, 64, widths);
  const long long tiles_m = (m + 63) / 64, k_tiles = (k + 63) / 64;
  auto in_parts = [&](int w) {
    return cluster_parts_may_pay(tiles_m, (n + w - 1) / w, k_tiles, cluster_parts_min_k_tiles);
  };
  return width != 128 && in_parts(128) && !in_parts(width) ? 128 : width;
}

// Where the wide kernel is chosen (prefer_wide_tma_tiles), whether its
// tiles of `width` columns are.
__host__ inline bool prefer_wide_tma_width(long long m, long long n, long long k, int width,
                                           std::initializer_list<int> widths) {
  return prefer_wide_tma_tiles(m, n, k) && wide_tile_width(m, n, widths) == width;
}

// Checked before the others (a tall output of few columns would otherwise
// take wide tiles). tile_cols: the skinny tiles' width (32, or 64 for an
// N-major B, whose tiles keep to outputs of at most 64 columns).
__host__ inline bool prefer_skinny_tiles(long long m, long long n, long long k, int tile_cols) {
  return n <= 64 ||
         (tile_cols == 32 && k <= 1024 && output_tiles(m, n, 64, tile_cols) <= multiprocessors());
}

// batches: independent GEMMs of that shape (a batched region).
__host__ inline bool prefer_narrow_tiles(long long m, long long n, long long batches = 1) {
  return output_tiles(m, n, 128, 128) * batches < multiprocessors();
}

__host__ inline bool prefer_narrow_converted_tiles(long long m, long long n,
                                                   long long batches = 1) {
  return m > 64 && n > 64 && prefer_narrow_tiles(m, n, batches) &&
         2 * output_tiles(m, n, 64, 128) * batches >= multiprocessors();
}

__host__ inline bool prefer_narrow_raw_fragment_tiles(long long m, long long n, long long k) {
  return k <= 512 && prefer_narrow_converted_tiles(m, n);
}

__host__ inline bool prefer_tall_raw_fragment_tiles(long long m, long long n) {
  return m >= 512 && 2 * output_tiles(m, n, 256, 128) >= multiprocessors();
}

// The int8 layer's 192x192 transposed tiles: prefer_fitted_tiles over the
// tall tiles (256 rows of X by 128 of W) instead of 128x256 ones, for
// outputs the tall kernel takes, and for every k.
__host__ inline bool prefer_fitted_raw_fragment_tiles(long long m, long long n) {
  return prefer_tall_raw_fragment_tiles(m, n) && fitted_tiles_fill_better(m, n, 256, 128);
}

// The height (rows of X, wgmma's N) of the tall transposed tiles, of the
// region's heights (256 first): as wide_tile_width, over the transposed
// output (n x m, the heights as widths of 128-row tiles); but 256 where
// its kernel runs stream units (stream_units: the launcher's) and they
// would share out its last round (schedule_stream_tiles: at most an eighth
// of the SMs) of a reduction of at least 24 k tiles, which costs less there
// than the shorter tiles' lower reuse.
__host__ inline int tall_tile_height(long long m, long long n, long long k,
                                     std::initializer_list<int> heights, bool stream_units) {
  const long long sms = multiprocessors(), tall_tiles = output_tiles(m, n, 256, 128);
  if (!fitted_widths_enabled() || tall_tiles > 2 * sms)
    return 256;
  const long long k_tiles = (k + 63) / 64;
  if (stream_units && k_tiles >= 24 && stream_units_take_tail(tall_tiles, k_tiles))
    return 256;
  return fitted_tile_width(n, m, 128, heights);
}

__host__ inline bool prefer_tall_raw_fragment_height(long long m, long long n, long long k,
                                                     int height,
                                                     std::initializer_list<int> heights,
                                                     bool stream_units) {
  return prefer_tall_raw_fragment_tiles(m, n) &&
         tall_tile_height(m, n, k, heights, stream_units) == height;
}

// The height (rows of X, wgmma's N) of the 128x128 transposed tiles of
// the same layer, of the region's heights (128 first), for the outputs that
// neither the tall nor the 192x192 tiles take: as narrow_tile_width, over
// the transposed output (n x m, 128-row tiles of W, the heights as
// widths): fitted_tile_width, but 128 where 128-row tiles would run in
// cluster parts (cluster_parts_may_pay with the kernel's floor of k tiles,
// cluster_parts_min_k_tiles; 0 for a kernel without cluster parts) and the
// shorter ones whole. Where both run in parts, the shorter tiles only where
// they are as many (m fits one tile of either: rows of X that wgmma would
// multiply as zeros drop out) or where even the most parts of the 128-row
// tiles (8; fewer for short reductions, which the bound leaves aside, so
// that it errs towards 128) leave SMs idle: more tiles of X convert each W
// tile in more blocks. And 128 from more than two rounds of 128-row tiles
// on, unless the shorter tiles are as many, as wide_tile_width does (not
// measured beyond two rounds). Where the fitted height is not taken, the
// shortest height of as many tiles as 128 rows (m = 100: 112).
__host__ inline int raw_fragment_tile_height(long long m, long long n, long long k,
                                             std::initializer_list<int> heights,
                                             long long cluster_parts_min_k_tiles) {
  static const bool enabled = !turned_off_in_environment("TC_SQUARE_HEIGHTS");
  if (!fitted_widths_enabled() || !enabled)
    return 128;
  const long long sms = multiprocessors(), tiles_n = (n + 127) / 128, k_tiles = (k + 63) / 64;
  auto tiles_m = [&](int h) { return (m + h - 1) / h; };
  auto in_parts = [&](int h) {
    return cluster_parts_may_pay(tiles_m(h), tiles_n, k_tiles, cluster_parts_min_k_tiles);
  };
  const int height = fitted_tile_width(n, m, 128, heights);
  if (tiles_m(height) == tiles_m(128))
    return height;
  const long long tiles_128 = tiles_m(128) * tiles_n;
  const bool more_tiles_pay =
      tiles_128 <= 2 * sms &&
      (!in_parts(128) || (in_parts(height) && kMaxClusterParts * tiles_128 < sms));
  if (more_tiles_pay)
    return height;
  // Otherwise the shortest height that keeps the 128-row tiles' count: it
  // still drops the rows of X beyond m.
  int same_tiles = 128;
  for (int h : heights)
    if (h < same_tiles && tiles_m(h) == tiles_m(128))
      same_tiles = h;
  return same_tiles;
}

// Where the 128x128 transposed kernel would be taken (checked after the
// narrow, 192x192 and tall rules), whether its tiles of `height` rows are.
__host__ inline bool prefer_short_raw_fragment_height(long long m, long long n, long long k,
                                                      int height,
                                                      std::initializer_list<int> heights,
                                                      long long cluster_parts_min_k_tiles) {
  return raw_fragment_tile_height(m, n, k, heights, cluster_parts_min_k_tiles) == height;
}

// Whether persistent blocks are allowed: not with TC_PERSISTENT=0.
__host__ inline bool persistent_tiles_enabled() {
  static const bool enabled = !turned_off_in_environment("TC_PERSISTENT");
  return enabled;
}

__host__ inline bool prefer_persistent_tiles(long long m, long long n, long long k) {
  const long long sms = multiprocessors();
  return persistent_tiles_enabled() && output_tiles(m, n, 64, 128) > sms &&
         k >= (output_tiles(m, n, 128, 128) >= sms ? 256 : 1024);
}

// The persistent kernel whose consumers take A's prologue on wgmma's
// fragments (KernelConfig::WgmmaRegisterA): as prefer_persistent_tiles,
// but from k >= 768 where there are as many 128x128 tiles as SMs. Measured
// on an H100 (ReLU on A, against the two blocks of 128x128 tiles that
// apply it to the stages, or two blocks of 64x128 tiles where there are
// fewer): 1.16x to 1.25x at k = 768, 0.97x to 1.15x at k >= 1024 (1.04x in
// geometric mean), 0.91x to 1.07x at k <= 512.
__host__ inline bool prefer_persistent_fragment_tiles(long long m, long long n, long long k) {
  const long long sms = multiprocessors();
  return persistent_tiles_enabled() && output_tiles(m, n, 64, 128) > sms &&
         k >= (output_tiles(m, n, 128, 128) >= sms ? 768 : 1024);
}

__host__ inline bool prefer_deep_narrow_tiles(long long m, long long n, long long batches = 1) {
  return output_tiles(m, n, 64, 128) * batches <= multiprocessors();
}

// Where the 8-stage 64x128 kernel is chosen (prefer_deep_narrow_tiles),
// whether its tiles of `width` columns are.
__host__ inline bool prefer_deep_narrow_width(long long m, long long n, long long k, int width,
                                              std::initializer_list<int> widths,
                                              long long cluster_parts_min_k_tiles) {
  return prefer_deep_narrow_tiles(m, n) &&
         narrow_tile_width(m, n, k, widths, cluster_parts_min_k_tiles) == width;
}

}  // namespace tc
