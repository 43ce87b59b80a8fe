// tc/cluster_parts_choice.cuh - whether a few-tile output splits every tile
// into parts run as one cluster, and into how many (cluster_parts.cuh has
// the why and the kernels' side). Pure functions of the tiles, DeviceFacts,
// ChoiceOptions and the clusters' capacity, which the launcher measures.
#pragma once

#include "device_facts.cuh"
#include "schedule_choice.cuh"

namespace tc {

// The most parts a tile is split into: a portable cluster's blocks.
constexpr int kMaxClusterParts = 8;

// Clusters of 2..8 blocks of a kernel that can run at once
// (cluster_capacity in cluster_parts.cuh).
struct ClusterCapacity {
  int clusters[kMaxClusterParts + 1] = {};  // by blocks per cluster; 0: none
};

// Whether an output may take cluster parts (schedule_cluster_parts), before
// the clusters' capacity is asked for: fewer tiles than half the SMs and
// reductions of at least min_k_tiles k tiles (the kernel's: below them the
// parts' two cluster barriers and the adding cost more than the shorter
// main loops win; the floors are measured, docs/design/tile-choice.md).
// min_k_tiles 0: a kernel without cluster parts (the tile rules'
// argument), never.
inline bool cluster_parts_may_pay(long long tiles_m, long long tiles_n, long long k_tiles,
                                  long long min_k_tiles, const DeviceFacts &device,
                                  const ChoiceOptions &options) {
  return options.cluster_parts && min_k_tiles > 0 &&
         2 * tiles_m * tiles_n < device.multiprocessors && k_tiles >= min_k_tiles;
}

// A schedule of every tile split into P parts, each tile one cluster: for
// outputs that cluster_parts_may_pay, the P (2..8) with the most blocks
// whose clusters all run at once (one wave) and parts of at least two k
// tiles. False: keep `s`.
inline bool schedule_cluster_parts(long long tiles_m, long long tiles_n, long long k_tiles,
                                   long long min_k_tiles, const ClusterCapacity &capacity,
                                   const DeviceFacts &device, const ChoiceOptions &options,
                                   TileSchedule &s) {
  if (!cluster_parts_may_pay(tiles_m, tiles_n, k_tiles, min_k_tiles, device, options))
    return false;
  const long long tiles = tiles_m * tiles_n;
  int best = 0;
  for (int p = 2; p <= kMaxClusterParts; ++p) {
    const long long part_k = (k_tiles + p - 1) / p;
    if ((k_tiles + part_k - 1) / part_k != p || part_k < 2 || tiles > capacity.clusters[p])
      continue;
    best = p;  // (more parts: more blocks at once)
  }
  if (best == 0)
    return false;
  s = whole_tiles_only(tiles_m, tiles_n, k_tiles);
  s.whole_tiles = 0;
  s.parts = best;
  s.part_k_tiles = (k_tiles + best - 1) / best;
  s.cluster_parts = 1;
  return true;
}

}  // namespace tc
