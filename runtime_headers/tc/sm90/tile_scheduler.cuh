// tc/sm90/tile_scheduler.cuh - tile schedulers of tc/sm90/gemm_kernel.cuh:
// how a launch's blocks share the output tiles. Each block computes units
// of work, a unit being a whole tile or a range of k tiles of one (a part
// of a split tile); the schedules and their measurements are in
// tc/tile_schedule.cuh, tc/schedule_choice.cuh and tc/cluster_parts.cuh.
//
//   TilesScheduler         one unit a block (block_work): whole tiles, and
//                          split tiles where there are few of them
//                          (schedule_tiles)
//   StreamUnitsScheduler   one block an SM for the last round of tiles where
//                          it is nearly empty, each block taking several
//                          units in turn (unit_work, schedule_stream_tiles)
//   PairsScheduler<R, U>   pairs of tiles (2u, n), (2u + 1, n) sharing B's
//                          tile, one cluster of two blocks each, where rule
//                          R takes them (schedule_tile_pairs); otherwise
//                          single tiles, with stream units if U
//   PersistentScheduler    one block an SM, computing whole tiles in turn
//                          (schedule_persistent_tiles), each tile's epilogue
//                          in warpgroups of its own under the next tile's
//                          main loop
//   SplitScheduler<P>      the split_k(P) clause: every tile in P parts
//                          (fewer where K is short: whole k tiles a
//                          part), the last part of a tile adding the
//                          others' from a workspace (split_all_tiles)
//   ClusterPartsScheduler<F, S>
//                          outputs of fewer tiles than half the SMs and at
//                          least F k tiles: every tile split into parts, one
//                          cluster each, adding their partial tiles in
//                          distributed shared memory (schedule_cluster_parts);
//                          otherwise scheduler S's schedule
//
// A scheduler's traits tell the kernel what its schedules may hold: kUnits
// (several units a block), kPairs (clusters of two blocks sharing stages),
// kClusterParts (clusters of a split tile's parts), kPersistent (the
// persistent kernel, with epilogue warpgroups). schedule() is a host
// function of the tiles, the device's facts and, for cluster parts, the
// capacity of the kernel's clusters, which it asks of `capacity` (a
// callable measuring it once a device) only where the rule may take them.
#pragma once

#include "../cluster_parts_choice.cuh"
#include "../launch_facts.cuh"
#include "../schedule_choice.cuh"

namespace tc {
namespace sm90 {

// What a scheduler's schedules may hold: the kernel's compile-time switches.
template <bool kUnits_, bool kPairs_ = false, bool kClusterParts_ = false,
          bool kPersistent_ = false>
struct ScheduleTraits {
  static constexpr bool kUnits = kUnits_, kPairs = kPairs_, kClusterParts = kClusterParts_,
                        kPersistent = kPersistent_;
};

struct TilesScheduler : ScheduleTraits<false> {
  template <class Capacity>
  __host__ static TileSchedule schedule(long long tiles_m, long long tiles_n, long long k_tiles,
                                        const LaunchFacts &facts, const Capacity &) {
    return schedule_tiles(tiles_m, tiles_n, k_tiles, facts.device);
  }
};

struct StreamUnitsScheduler : ScheduleTraits<true> {
  template <class Capacity>
  __host__ static TileSchedule schedule(long long tiles_m, long long tiles_n, long long k_tiles,
                                        const LaunchFacts &facts, const Capacity &) {
    return schedule_stream_tiles(tiles_m, tiles_n, k_tiles, facts.device, facts.options);
  }
};

template <PairRule kRule, bool kStreamUnits = false>
struct PairsScheduler : ScheduleTraits<kStreamUnits, true> {
  template <class Capacity>
  __host__ static TileSchedule schedule(long long tiles_m, long long tiles_n, long long k_tiles,
                                        const LaunchFacts &facts, const Capacity &) {
    return schedule_tile_pairs(tiles_m, tiles_n, k_tiles, kRule, kStreamUnits, facts.device,
                               facts.options);
  }
};

struct PersistentScheduler : ScheduleTraits<true, false, false, true> {
  template <class Capacity>
  __host__ static TileSchedule schedule(long long tiles_m, long long tiles_n, long long k_tiles,
                                        const LaunchFacts &facts, const Capacity &) {
    return schedule_persistent_tiles(tiles_m, tiles_n, k_tiles, facts.device);
  }
};

template <int kParts>
struct SplitScheduler : ScheduleTraits<false> {
  static_assert(kParts >= 1, "one part or more a tile");
  template <class Capacity>
  __host__ static TileSchedule schedule(long long tiles_m, long long tiles_n, long long k_tiles,
                                        const LaunchFacts &, const Capacity &) {
    return split_all_tiles(tiles_m, tiles_n, k_tiles, kParts);
  }
};

template <int kMinKTiles, class Otherwise = TilesScheduler>
struct ClusterPartsScheduler : ScheduleTraits<Otherwise::kUnits, Otherwise::kPairs, true> {
  static_assert(!Otherwise::kClusterParts && !Otherwise::kPersistent,
                "cluster parts before a schedule of tiles, pairs or stream units");
  template <class Capacity>
  __host__ static TileSchedule schedule(long long tiles_m, long long tiles_n, long long k_tiles,
                                        const LaunchFacts &facts, const Capacity &capacity) {
    TileSchedule s;
    if (cluster_parts_may_pay(tiles_m, tiles_n, k_tiles, kMinKTiles, facts.device,
                              facts.options) &&
        schedule_cluster_parts(tiles_m, tiles_n, k_tiles, kMinKTiles, capacity(), facts.device,
                               facts.options, s))
      return s;
    return Otherwise::schedule(tiles_m, tiles_n, k_tiles, facts, capacity);
  }
};

}  // namespace sm90
}  // namespace tc
