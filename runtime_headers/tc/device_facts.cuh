// tc/device_facts.cuh - the inputs of the launch-time choices besides the
// shape: facts about the device a launch runs on, and the switches that
// turn features off. Plain values, so that every choice (tile_choice.cuh,
// kernel_choice.cuh, schedule_choice.cuh, cluster_parts_choice.cuh,
// split_choice.cuh) is a pure function of its arguments, testable on the
// host at any SM count. launch_facts.cuh fills them in for a launch.
#pragma once

namespace tc {

// ChoiceOptions::kernel and tuned_kernel (tuned_choice.cuh): no kernel
// named, the rules choose.
constexpr int kNotTuned = -2;

// What the choices need to know about the device.
struct DeviceFacts {
  int multiprocessors = 1;  // SMs: a round of one block per SM
  int ordinal = 0;          // the device's: what launchers keep measurements by
  const char *name = "";    // cudaDeviceProp::name, where asked (tc::named): what tuning tables are keyed by
};

// Features a choice may take; each is on unless turned off (for
// comparisons, or to rule one out when debugging: with TC_DEBUG_SWITCHES,
// launch_facts.cuh reads them from the environment).
struct ChoiceOptions {
  bool fitted_tiles = true;    // the 192x192 tiles (TC_FITTED_TILES)
  bool fitted_widths = true;   // the narrower widths and shorter heights (TC_FITTED_WIDTHS)
  bool square_heights = true;  // the int8 layer's shorter 128-wide tiles (TC_SQUARE_HEIGHTS)
  bool persistent_tiles = true;  // persistent blocks (TC_PERSISTENT)
  bool cluster_parts = true;   // split tiles' parts as clusters (TC_CLUSTER_PARTS)
  bool stream_units = true;    // a thin last round shared by all SMs (TC_STREAM_K)
  bool tile_pairs = true;      // pairs of tiles sharing B's tile (TC_TILE_PAIRS)
  bool decode_kernels = true;  // the weight-only layers' decode kernels (TC_DECODE)
  // The candidate to run whatever the shape, -1 the launcher's own kernel;
  // kNotTuned (-2): choose. Set by tuning harnesses (TC_TUNING,
  // launch_facts.cuh), which time each kernel in turn.
  int kernel = kNotTuned;
};

// Whether every feature is on: a tuning table, measured with all of them,
// is not taken where one is turned off.
inline bool all_features_on(const ChoiceOptions &o) {
  return o.fitted_tiles && o.fitted_widths && o.square_heights && o.persistent_tiles &&
         o.cluster_parts && o.stream_units && o.tile_pairs && o.decode_kernels;
}

}  // namespace tc
