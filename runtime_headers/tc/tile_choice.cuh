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
// two epilogue warpgroups of their own). The int8 layer's kernels have
// rules of their own (the *_converted_* and *_raw_fragment_* ones).
//
// The launcher asks choose_kernel (kernel_choice.cuh) for the first kernel,
// in the order of alternativeKernels (KernelConfig.cpp), whose predicate
// below holds. Each is a pure function of the shape, the device's SM count
// (DeviceFacts) and the switches (ChoiceOptions), which launch_facts.cuh
// reads for a launch.
// Most weigh the same trade: larger tiles reuse each operand element more,
// but fewer tiles leave SMs idle in the last round, so they count tiles
// against rounds of SMs. The rules are fitted to measurements on H100 and
// H200 GPUs; those, and the alternatives that lost, are in
// docs/design/tile-choice.md, a section per function.
#pragma once

#include "cluster_parts_choice.cuh"  // cluster_parts_may_pay, kMaxClusterParts
#include "device_facts.cuh"
#include "schedule_choice.cuh"        // stream_units_take_tail

namespace tc {

// The sizes along one dimension of a kind of tile a region has kernels for,
// the widest (its base kernel's) first: {256, 224, 192, 176}; 0 ends them.
constexpr int kMaxTileSizes = 8;
struct TileSizes {
  int values[kMaxTileSizes] = {};
};

// The rows x cols tiles that cover an m x n output.
inline long long output_tiles(long long m, long long n, long long rows, long long cols) {
  return ((m + rows - 1) / rows) * ((n + cols - 1) / cols);
}

// The share of the tile area of whole rounds of SMs that a rows x cols
// tiling of an m x n output covers with output elements.
inline double round_fill(long long m, long long n, long long rows, long long cols,
                         const DeviceFacts &device) {
  const long long sms = device.multiprocessors;
  const long long rounds = (output_tiles(m, n, rows, cols) + sms - 1) / sms;
  return static_cast<double>(m) * static_cast<double>(n) /
         (static_cast<double>(rounds * sms) * static_cast<double>(rows * cols));
}

// Whether 192x192 tiles cover an m x n output in whole rounds of SMs (at
// least 80% of their tile area is output) where rows x cols tiles do not;
// never with options.fitted_tiles off.
inline bool fitted_tiles_fill_better(long long m, long long n, long long rows, long long cols,
                                     const DeviceFacts &device, const ChoiceOptions &options) {
  return options.fitted_tiles && round_fill(m, n, 192, 192, device) >= 0.8 &&
         round_fill(m, n, rows, cols, device) < 0.8;
}

// 192x192 tiles where they fill whole rounds of SMs and 128x256 tiles do
// not, as cuBLAS fits its tiles to the SMs; from k >= 1024 (measured there
// only). Where they leave a round mostly empty they lose.
inline bool prefer_fitted_tiles(long long m, long long n, long long k, const DeviceFacts &device,
                                const ChoiceOptions &options) {
  return k >= 1024 && fitted_tiles_fill_better(m, n, 128, 256, device, options);
}

// The cp.async kernels: the wide kernel wins once there are enough of its
// tiles for about two waves and enough k tiles to amortise filling its
// pipeline; below that, twice as many 128x128 blocks keep more SMs busy.
inline bool prefer_wide_tiles(long long m, long long n, long long k, const DeviceFacts &device) {
  const long long wide_tiles = output_tiles(m, n, 128, 256);
  return m >= 1024 && k >= 512 && 5 * wide_tiles >= 9 * device.multiprocessors;
}

// The same choice between the TMA kernels, whose tile schedule splits a
// last, partial round along k (tile_schedule.cuh), so that wave
// quantisation no longer asks for two waves of wide tiles: from half as
// many wide tiles as SMs on, except short reductions (k < 1024) with more
// wide tiles than SMs, where it measured slower.
inline bool prefer_wide_tma_tiles(long long m, long long n, long long k,
                                  const DeviceFacts &device) {
  const long long sms = device.multiprocessors, wide_tiles = output_tiles(m, n, 128, 256);
  return 2 * wide_tiles >= sms && (k >= 1024 || wide_tiles <= sms);
}

// Of the widths of tiles of `rows` rows, the one whose tiles cover an
// m x n output in the fewest rounds of SMs, and of those the narrowest,
// which has the fewest tile columns over those rounds (rounds x width).
// Fewest rounds first: a narrower tile that needs another round loses more
// to its lower reuse than it saves in columns.
inline int fitted_tile_width(long long m, long long n, long long rows, const TileSizes &widths,
                             const DeviceFacts &device) {
  const long long sms = device.multiprocessors;
  int best = 0;
  long long best_rounds = 0;
  for (int w : widths.values) {
    if (w <= 0)
      break;
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
// 128x256 tiles on, where pairs of 128x256 blocks were as fast or faster.
// The region's widths stop at 176: narrower ones won on an H200 and lost
// on an H100 (the tile clause has them). 256 with options.fitted_widths off.
inline int wide_tile_width(long long m, long long n, const TileSizes &widths,
                           const DeviceFacts &device, const ChoiceOptions &options) {
  if (!options.fitted_widths || output_tiles(m, n, 128, 256) > 2 * device.multiprocessors)
    return 256;
  return fitted_tile_width(m, n, 128, widths, device);
}

// The width of the 8-stage kernel's 64-row tiles, of the region's widths
// (128 first): fitted_tile_width for an output of more than 128 columns
// (narrower tiles would read a narrower output's A twice), else 128. Where
// one round of 64x128 tiles covers the output, that is the narrowest width
// whose tiles still fit one round - unless those tiles run whole where
// 128-column tiles would run in cluster parts (cluster_parts_may_pay with
// the kernel's floor of k tiles, cluster_parts_min_k_tiles; 0 for a kernel
// without cluster parts): then 128. 128 with options.fitted_widths off.
inline int narrow_tile_width(long long m, long long n, long long k, const TileSizes &widths,
                             long long cluster_parts_min_k_tiles, const DeviceFacts &device,
                             const ChoiceOptions &options) {
  if (!options.fitted_widths || n <= 128)
    return 128;
  const int width = fitted_tile_width(m, n, 64, widths, device);
  const long long tiles_m = (m + 63) / 64, k_tiles = (k + 63) / 64;
  auto in_parts = [&](int w) {
    return cluster_parts_may_pay(tiles_m, (n + w - 1) / w, k_tiles, cluster_parts_min_k_tiles,
                                 device, options);
  };
  return width != 128 && in_parts(128) && !in_parts(width) ? 128 : width;
}

// Where the wide kernel is chosen (prefer_wide_tma_tiles), whether its
// tiles of `width` columns are.
inline bool prefer_wide_tma_width(long long m, long long n, long long k, int width,
                                  const TileSizes &widths, const DeviceFacts &device,
                                  const ChoiceOptions &options) {
  return prefer_wide_tma_tiles(m, n, k, device) &&
         wide_tile_width(m, n, widths, device, options) == width;
}

// Checked before the others (a tall output of few columns would otherwise
// take wide tiles). tile_cols: the skinny tiles' width (32, or 64 for an
// N-major B, whose tiles keep to outputs of at most 64 columns).
// A 128-column tile over at most 64 columns of output carries mostly
// zero-filled B rows in every stage, so few bytes of A are in flight and
// the kernel is latency-bound. Also outputs that one round of 64x32 tiles
// covers: whole small tiles on as many SMs beat fewer tiles split into
// cluster parts or left to few SMs, up to k = 1024 (from 36 k tiles on
// they lost).
inline bool prefer_skinny_tiles(long long m, long long n, long long k, int tile_cols,
                                const DeviceFacts &device) {
  return n <= 64 || (tile_cols == 32 && k <= 1024 &&
                     output_tiles(m, n, 64, tile_cols) <= device.multiprocessors);
}

// With fewer 128x128 tiles than SMs, twice as many 64x128 tiles (split
// along k only when even those are few: fill_divisor 2) beat the 128x128
// kernel split along k. batches: independent GEMMs of that shape (a
// batched region).
inline bool prefer_narrow_tiles(long long m, long long n, long long batches,
                                const DeviceFacts &device) {
  return output_tiles(m, n, 128, 128) * batches < device.multiprocessors;
}

// An operand converted while copying (int8 weights, cp.async stages):
// 64x128 tiles where at least half as many as SMs run unsplit - the split
// (a workspace and a second kernel) costs more than converting B's tile
// for 64 rows instead of 128. Not for m or n <= 64 (stages of mostly
// zero-filled rows), nor for all few-tile outputs: decode shapes of 16 to
// 128 rows ran faster split.
inline bool prefer_narrow_converted_tiles(long long m, long long n, long long batches,
                                          const DeviceFacts &device) {
  return m > 64 && n > 64 && prefer_narrow_tiles(m, n, batches, device) &&
         2 * output_tiles(m, n, 64, 128) * batches >= device.multiprocessors;
}

// The same beside the 128x128 kernel that converts the weights into its
// wgmma fragments (no stage round trip): only for k <= 512, beyond which
// that kernel ran faster.
inline bool prefer_narrow_raw_fragment_tiles(long long m, long long n, long long k,
                                             const DeviceFacts &device) {
  return k <= 512 && prefer_narrow_converted_tiles(m, n, 1, device);
}

// The transposed tile 256 rows tall (m64n256k16 beside a producer
// warpgroup that gives the consumers its registers): each k step's
// conversion serves twice the columns, where the tiles are not mostly
// padding (m >= 512) and fill at least half a round of SMs.
inline bool prefer_tall_raw_fragment_tiles(long long m, long long n,
                                           const DeviceFacts &device) {
  return m >= 512 && 2 * output_tiles(m, n, 256, 128) >= device.multiprocessors;
}

// The int8 layer's 192x192 transposed tiles: prefer_fitted_tiles over the
// tall tiles (256 rows of X by 128 of W) instead of 128x256 ones, for
// outputs the tall kernel takes, and for every k (short reductions gained
// here too, unlike the GEMM's).
inline bool prefer_fitted_raw_fragment_tiles(long long m, long long n, const DeviceFacts &device,
                                             const ChoiceOptions &options) {
  return prefer_tall_raw_fragment_tiles(m, n, device) &&
         fitted_tiles_fill_better(m, n, 256, 128, device, options);
}

// The height (rows of X, wgmma's N) of the tall transposed tiles, of the
// region's heights (256 first): as wide_tile_width, over the transposed
// output (n x m, the heights as widths of 128-row tiles); but 256 where
// its kernel runs stream units (stream_units: the launcher's) and they
// would share out its last round (schedule_stream_tiles: at most an eighth
// of the SMs) of a reduction of at least 24 k tiles, which costs less there
// than the shorter tiles' lower reuse (docs/design/tile-choice.md). 256
// with options.fitted_widths off.
inline int tall_tile_height(long long m, long long n, long long k, const TileSizes &heights,
                            bool stream_units, const DeviceFacts &device,
                            const ChoiceOptions &options) {
  const long long sms = device.multiprocessors, tall_tiles = output_tiles(m, n, 256, 128);
  if (!options.fitted_widths || tall_tiles > 2 * sms)
    return 256;
  const long long k_tiles = (k + 63) / 64;
  if (stream_units && k_tiles >= 24 && stream_units_take_tail(tall_tiles, k_tiles, device, options))
    return 256;
  return fitted_tile_width(n, m, 128, heights, device);
}

inline bool prefer_tall_raw_fragment_height(long long m, long long n, long long k, int height,
                                            const TileSizes &heights, bool stream_units,
                                            const DeviceFacts &device,
                                            const ChoiceOptions &options) {
  return prefer_tall_raw_fragment_tiles(m, n, device) &&
         tall_tile_height(m, n, k, heights, stream_units, device, options) == height;
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
// shortest height of as many tiles as 128 rows (m = 100: 112). The bound on
// parts: shorter tiles in parts lost where each W tile was converted for
// twice the blocks (docs/design/tile-choice.md). 128 with
// options.fitted_widths or options.square_heights off.
inline int raw_fragment_tile_height(long long m, long long n, long long k,
                                    const TileSizes &heights, long long cluster_parts_min_k_tiles,
                                    const DeviceFacts &device, const ChoiceOptions &options) {
  if (!options.fitted_widths || !options.square_heights)
    return 128;
  const long long sms = device.multiprocessors, tiles_n = (n + 127) / 128,
                  k_tiles = (k + 63) / 64;
  auto tiles_m = [&](int h) { return (m + h - 1) / h; };
  auto in_parts = [&](int h) {
    return cluster_parts_may_pay(tiles_m(h), tiles_n, k_tiles, cluster_parts_min_k_tiles, device,
                                 options);
  };
  const int height = fitted_tile_width(n, m, 128, heights, device);
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
  for (int h : heights.values)
    if (h > 0 && h < same_tiles && tiles_m(h) == tiles_m(128))
      same_tiles = h;
  return same_tiles;
}

// Where the 128x128 transposed kernel would be taken (checked after the
// narrow, 192x192 and tall rules), whether its tiles of `height` rows are.
inline bool prefer_short_raw_fragment_height(long long m, long long n, long long k, int height,
                                             const TileSizes &heights,
                                             long long cluster_parts_min_k_tiles,
                                             const DeviceFacts &device,
                                             const ChoiceOptions &options) {
  return raw_fragment_tile_height(m, n, k, heights, cluster_parts_min_k_tiles, device, options) ==
         height;
}

// The 128x128 tiles as persistent blocks: the producer copies the next
// tile while the epilogue warpgroups store the last, so that neither the
// pipeline's fill nor the epilogue stalls the tensor cores. That pays from
// k >= 256 with at least as many tiles as SMs (at k = 128 there is too
// little to overlap), and from k >= 1024 with fewer, more than one round
// of 64x128 tiles. Asked after the 192x192 and 128x256 rules: on their
// shapes it mostly lost. Never with options.persistent_tiles off.
inline bool prefer_persistent_tiles(long long m, long long n, long long k,
                                    const DeviceFacts &device, const ChoiceOptions &options) {
  const long long sms = device.multiprocessors;
  return options.persistent_tiles && output_tiles(m, n, 64, 128) > sms &&
         k >= (output_tiles(m, n, 128, 128) >= sms ? 256 : 1024);
}

// The persistent kernel whose consumers take A's prologue on wgmma's
// fragments (KernelConfig::WgmmaRegisterA): as prefer_persistent_tiles,
// but from k >= 768 where there are as many 128x128 tiles as SMs: at
// k <= 512 it was no faster than the kernels that apply the prologue to
// the stages.
inline bool prefer_persistent_fragment_tiles(long long m, long long n, long long k,
                                             const DeviceFacts &device,
                                             const ChoiceOptions &options) {
  const long long sms = device.multiprocessors;
  return options.persistent_tiles && output_tiles(m, n, 64, 128) > sms &&
         k >= (output_tiles(m, n, 128, 128) >= sms ? 768 : 1024);
}

// At most one round of 64x128 tiles: 8 stages and one block per SM instead
// of 4 and two, so that a block's whole share of a short reduction is in
// flight from the start (cuBLAS picks small tiles with 10 to 16 stages
// there). With more tiles than SMs the 8-stage kernel lost.
inline bool prefer_deep_narrow_tiles(long long m, long long n, long long batches,
                                     const DeviceFacts &device) {
  return output_tiles(m, n, 64, 128) * batches <= device.multiprocessors;
}

// Where the 8-stage 64x128 kernel is chosen (prefer_deep_narrow_tiles),
// whether its tiles of `width` columns are.
inline bool prefer_deep_narrow_width(long long m, long long n, long long k, int width,
                                     const TileSizes &widths, long long cluster_parts_min_k_tiles,
                                     const DeviceFacts &device, const ChoiceOptions &options) {
  return prefer_deep_narrow_tiles(m, n, 1, device) &&
         narrow_tile_width(m, n, k, widths, cluster_parts_min_k_tiles, device, options) == width;
}

}  // namespace tc
