// tc/kernel_choice.cuh - which of a region's kernels a launch runs.
//
// A region's launcher lists its further kernels as candidates, in the
// order of alternativeKernels (KernelConfig.cpp), each with the rule of
// tile_choice.cuh that takes it and that rule's arguments; choose_kernel
// returns the kernel a tuning table (tuned_choice.cuh) gives for the
// launch's GPU and shape, else the first candidate whose rule holds, or -1
// for the launcher's own kernel. A pure function of its arguments, so
// that the whole choice runs on the host in the tests, at any SM count.
#pragma once

#include "device_facts.cuh"
#include "tile_choice.cuh"
#include "tuned_choice.cuh"

namespace tc {

// The rules of tile_choice.cuh a candidate can be taken by.
enum class KernelRule {
  SkinnyTiles,             // prefer_skinny_tiles; size: the tiles' columns
  FittedTiles,             // prefer_fitted_tiles
  WideTiles,               // prefer_wide_tiles (cp.async)
  WideTmaTiles,            // prefer_wide_tma_tiles
  WideTmaWidth,            // prefer_wide_tma_width; size of sizes
  DeepNarrowTiles,         // prefer_deep_narrow_tiles
  DeepNarrowWidth,         // prefer_deep_narrow_width; size of sizes, min_k_tiles
  PersistentTiles,         // prefer_persistent_tiles
  PersistentFragmentTiles, // prefer_persistent_fragment_tiles
  NarrowTiles,             // prefer_narrow_tiles
  NarrowConvertedTiles,    // prefer_narrow_converted_tiles
  NarrowRawFragmentTiles,  // prefer_narrow_raw_fragment_tiles
  TallRawFragmentTiles,    // prefer_tall_raw_fragment_tiles
  TallRawFragmentHeight,   // prefer_tall_raw_fragment_height; size of sizes, stream_units
  FittedRawFragmentTiles,  // prefer_fitted_raw_fragment_tiles
  ShortRawFragmentHeight,  // prefer_short_raw_fragment_height; size of sizes, min_k_tiles
};

// A further kernel of a region and the rule that takes it.
struct KernelCandidate {
  KernelRule rule;
  int size = 0;         // its tile's width (height) among `sizes`, or the skinny tiles' columns
  TileSizes sizes = {}; // the region's widths (heights) of such tiles
  long long arg = 0;    // cluster_parts_min_k_tiles, or 1 where the tall kernel runs stream units
};

// The rows the rules of the TMA kernels see for `batches` outputs of m
// rows: the entries' rows stacked, as tc::sm90::launch_batched_gemm's
// schedulers stack their tiles, each entry's rounded up to 64 (the
// shortest tile; taller ones round further, which this leaves out).
inline long long stacked_rows(long long m, long long batches) {
  if (batches <= 1)
    return m;
  const long long rows = (m + 63) / 64 * 64;
  return rows <= (1ll << 52) / batches ? rows * batches : (1ll << 52);
}

// Whether candidate `c` is taken for an m x n output of a length-k
// reduction, `batches` of them (batched regions: the narrow rules count
// the tiles of all; the TMA kernels' rules see the entries stacked,
// stacked_rows).
inline bool kernel_rule_holds(const KernelCandidate &c, long long m, long long n, long long k,
                              long long batches, const DeviceFacts &device,
                              const ChoiceOptions &options) {
  const long long rows = stacked_rows(m, batches);
  switch (c.rule) {
  case KernelRule::SkinnyTiles:
    return prefer_skinny_tiles(rows, n, k, c.size, device);
  case KernelRule::FittedTiles:
    return prefer_fitted_tiles(rows, n, k, device, options);
  case KernelRule::WideTiles:
    return prefer_wide_tiles(m, n, k, device);
  case KernelRule::WideTmaTiles:
    return prefer_wide_tma_tiles(rows, n, k, device);
  case KernelRule::WideTmaWidth:
    return prefer_wide_tma_width(rows, n, k, c.size, c.sizes, device, options);
  case KernelRule::DeepNarrowTiles:
    return prefer_deep_narrow_tiles(m, n, batches, device);
  case KernelRule::DeepNarrowWidth:
    return prefer_deep_narrow_width(rows, n, k, c.size, c.sizes, c.arg, device, options);
  case KernelRule::PersistentTiles:
    return prefer_persistent_tiles(rows, n, k, device, options);
  case KernelRule::PersistentFragmentTiles:
    return prefer_persistent_fragment_tiles(rows, n, k, device, options);
  case KernelRule::NarrowTiles:
    return prefer_narrow_tiles(m, n, batches, device);
  case KernelRule::NarrowConvertedTiles:
    return prefer_narrow_converted_tiles(m, n, batches, device);
  case KernelRule::NarrowRawFragmentTiles:
    return prefer_narrow_raw_fragment_tiles(m, n, k, device);
  case KernelRule::TallRawFragmentTiles:
    return prefer_tall_raw_fragment_tiles(m, n, device);
  case KernelRule::TallRawFragmentHeight:
    return prefer_tall_raw_fragment_height(m, n, k, c.size, c.sizes, c.arg != 0, device, options);
  case KernelRule::FittedRawFragmentTiles:
    return prefer_fitted_raw_fragment_tiles(m, n, device, options);
  case KernelRule::ShortRawFragmentHeight:
    return prefer_short_raw_fragment_height(m, n, k, c.size, c.sizes, c.arg, device, options);
  }
  return false;
}

// Whether an fp32 region whose operands are stored M- or N-major runs its
// wgmma kernels, which read each such operand from a K-major copy made at
// the launch (tc/sm90/operand_tile.cuh, tma_map_2d_transposed), rather
// than its mma.sync kernels, which read the operands as stored. The copy
// reads and writes the operand once more; it pays where the product reads
// it at least twice: where the output has more than one 128-row tile for
// a copied B (m > 128), more than one 128-column tile for a copied A.
// Measured on an H100: docs/results/tf32-components-2026-12-06.md.
inline bool prefer_transposed_copies(long long m, long long n, bool copies_a, bool copies_b) {
  return (!copies_a || n > 128) && (!copies_b || m > 128);
}

// The index of the candidate to run, of `count`, or -1: the launcher's own
// kernel. The one options.kernel names (a tuning run's); else the entry
// of the `tuned_count` of `tuned` for the GPU (device.name) and shape, for
// one unbatched output with every feature on; else the first candidate
// taken for the shape.
inline int choose_kernel(long long m, long long n, long long k, long long batches,
                         const KernelCandidate *candidates, int count, const TunedKernel *tuned,
                         int tuned_count, const DeviceFacts &device,
                         const ChoiceOptions &options) {
  if (options.kernel >= -1 && options.kernel < count)
    return options.kernel;
  if (batches == 1 && all_features_on(options)) {
    const int t = tuned_kernel(tuned, tuned_count, device.name, m, n, k);
    if (t >= -1 && t < count)
      return t;
  }
  for (int i = 0; i < count; ++i)
    if (kernel_rule_holds(candidates[i], m, n, k, batches, device, options))
      return i;
  return -1;
}

inline int choose_kernel(long long m, long long n, long long k, long long batches,
                         const KernelCandidate *candidates, int count, const DeviceFacts &device,
                         const ChoiceOptions &options) {
  return choose_kernel(m, n, k, batches, candidates, count, nullptr, 0, device, options);
}

template <int kCount>
inline int choose_kernel(long long m, long long n, long long k, long long batches,
                         const KernelCandidate (&candidates)[kCount], const DeviceFacts &device,
                         const ChoiceOptions &options) {
  return choose_kernel(m, n, k, batches, candidates, kCount, device, options);
}

template <int kCount, int kTuned>
inline int choose_kernel(long long m, long long n, long long k, long long batches,
                         const KernelCandidate (&candidates)[kCount],
                         const TunedKernel (&tuned)[kTuned], const DeviceFacts &device,
                         const ChoiceOptions &options) {
  return choose_kernel(m, n, k, batches, candidates, kCount, tuned, kTuned, device, options);
}

}  // namespace tc
