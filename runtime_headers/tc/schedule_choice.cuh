// tc/schedule_choice.cuh - the tile schedule of a TMA kernel's launch:
// which blocks compute which tiles and k tiles (tile_schedule.cuh has the
// why and the kernels' side). Pure functions of the tiles, the k tiles and
// DeviceFacts / ChoiceOptions, for the launcher and the host tests.
#pragma once

#include "device_facts.cuh"
#include "host_device.cuh"

namespace tc {

struct TileSchedule {
  int tiles_m, tiles_n;   // output tiles
  int whole_tiles;        // the first ones of the grouped order, one block each
  int parts;              // blocks per remaining tile (1: none is split)
  long long k_tiles;      // of the reduction
  long long part_k_tiles; // per part (the last part may have fewer)
  int pair;               // 1: the units are pairs of tiles along m (sharing B's tile)
  int stream_blocks;      // > 0: the tiles after whole_tiles shared by this many
                          // blocks by k tiles (stream units, parts = 2)
  int persistent_blocks;  // > 0: all tiles whole, block b computing tiles b,
                          // b + persistent_blocks, ... in turn (persistent kernels)
  int cluster_parts;      // 1: every tile split, its parts one cluster adding their
                          // tiles through distributed shared memory (cluster_parts.cuh)
};

// Blocks per unit of the schedule.
TC_HOST_DEVICE_ inline int unit_blocks(const TileSchedule &s) { return s.pair ? 2 : 1; }

// Blocks per cluster of its launch: a unit's, or a split tile's parts.
inline int cluster_blocks(const TileSchedule &s) {
  return s.cluster_parts ? s.parts : unit_blocks(s);
}

inline TileSchedule whole_tiles_only(long long tiles_m, long long tiles_n, long long k_tiles) {
  return {static_cast<int>(tiles_m), static_cast<int>(tiles_n),
          static_cast<int>(tiles_m * tiles_n), 1, k_tiles, k_tiles, 0, 0, 0, 0};
}

// The last `split` tiles in `parts` parts (fewer when k is short).
inline TileSchedule split_last_tiles(long long tiles_m, long long tiles_n, long long k_tiles,
                                     long long split, long long parts) {
  TileSchedule s = whole_tiles_only(tiles_m, tiles_n, k_tiles);
  if (parts < 2 || split < 1 || k_tiles < 2)
    return s;
  s.part_k_tiles = (k_tiles + parts - 1) / parts;
  s.parts = static_cast<int>((k_tiles + s.part_k_tiles - 1) / s.part_k_tiles);
  if (s.parts < 2)
    return whole_tiles_only(tiles_m, tiles_n, k_tiles);
  s.whole_tiles = static_cast<int>(tiles_m * tiles_n - split);
  return s;
}

// The most parts worth splitting a tile of k_tiles k tiles into. A tile in
// p parts takes about k_tiles / p k-tile steps, then p round trips to L2
// while its last part adds the slots: with a k-tile step of about a third
// of a round trip (128x128x64 on one SM of an H100/H200), the sum is least
// near p = sqrt(k_tiles / 3). At most 16, and at least 4 k tiles a part.
inline long long max_parts(long long k_tiles) {
  long long p = 1;
  while ((p + 1) * (p + 1) * 3 <= k_tiles && p < 16 && (p + 1) * 4 <= k_tiles)
    ++p;
  return p;
}

// The default schedule (tile_schedule.cuh) where `round` units run at
// once.
inline TileSchedule schedule_tiles_in_rounds(long long tiles_m, long long tiles_n,
                                             long long k_tiles, long long round) {
  const long long sms = round > 0 ? round : 1;
  const long long tiles = tiles_m * tiles_n;
  if (k_tiles < 8)
    return whole_tiles_only(tiles_m, tiles_n, k_tiles);
  long long tail, parts;
  if (tiles < sms) {
    tail = tiles;
    parts = sms / tiles;
  } else {
    tail = tiles % sms;
    if (tail == 0)
      return whole_tiles_only(tiles_m, tiles_n, k_tiles);
    parts = sms / tail;
  }
  parts = parts < max_parts(k_tiles) ? parts : max_parts(k_tiles);
  return split_last_tiles(tiles_m, tiles_n, k_tiles, tail, parts);
}

// The default schedule (tile_schedule.cuh): one unit per SM a round.
inline TileSchedule schedule_tiles(long long tiles_m, long long tiles_n, long long k_tiles,
                                   const DeviceFacts &device) {
  return schedule_tiles_in_rounds(tiles_m, tiles_n, k_tiles, device.multiprocessors);
}

// Whether schedule_stream_tiles shares out the last round of `tiles`
// tiles (more than SMs, a last round of at most an eighth of them).
inline bool stream_units_take_tail(long long tiles, long long k_tiles, const DeviceFacts &device,
                                   const ChoiceOptions &options) {
  const long long sms = device.multiprocessors;
  const long long tail = tiles % sms;
  return options.stream_units && k_tiles >= 8 && tiles > sms && tail != 0 && 8 * tail <= sms &&
         sms >= 2;
}

// The default schedule of kernels with one block per SM that run stream
// units (tile_schedule.cuh): where there are more tiles than SMs and the last
// round holds at most an eighth of them, the last full round and the tail
// shared by one block per SM; otherwise schedule_tiles.
inline TileSchedule schedule_stream_tiles(long long tiles_m, long long tiles_n,
                                          long long k_tiles, const DeviceFacts &device,
                                          const ChoiceOptions &options) {
  const long long sms = device.multiprocessors;
  const long long tiles = tiles_m * tiles_n;
  const long long tail = tiles % sms;
  if (!stream_units_take_tail(tiles, k_tiles, device, options))
    return schedule_tiles(tiles_m, tiles_n, k_tiles, device);
  TileSchedule s = whole_tiles_only(tiles_m, tiles_n, k_tiles);
  s.whole_tiles = static_cast<int>(tiles - sms - tail);
  s.parts = 2;
  s.stream_blocks = static_cast<int>(sms);
  return s;
}

// The schedule of persistent kernels (KernelConfig::PersistentTiles): one
// block per SM (fewer for fewer tiles), each computing whole tiles of the
// grouped order b, b + P, b + 2P, ... in turn, so that the P blocks work on
// neighbouring tiles at any time, as a round of one-tile blocks does.
inline TileSchedule schedule_persistent_tiles(long long tiles_m, long long tiles_n,
                                              long long k_tiles, const DeviceFacts &device) {
  TileSchedule s = whole_tiles_only(tiles_m, tiles_n, k_tiles);
  const long long sms = device.multiprocessors;
  s.persistent_blocks = static_cast<int>(tiles_m * tiles_n < sms ? tiles_m * tiles_n : sms);
  return s;
}

// Every tile in `parts` parts: the split_k clause.
inline TileSchedule split_all_tiles(long long tiles_m, long long tiles_n, long long k_tiles,
                                    int parts) {
  return split_last_tiles(tiles_m, tiles_n, k_tiles, tiles_m * tiles_n, parts);
}

inline long long schedule_blocks(const TileSchedule &s);  // below

// Which kernels a schedule of pairs is for: each takes pairs by its own
// rule (choose_pair).
enum PairRule {
  kPairWideTiles,        // 128x256, one block per SM
  kPairTwoBlocksPerSm,   // 64x128, two blocks per SM (outputs under two rounds)
  kPairOneRound,         // 64x128, one block per SM (outputs of at most one round)
};

// Whether the units of `pairs` - a schedule of pairs of tiles (2u, n) and
// (2u + 1, n), the tile rows paired exactly - pay, by the kernel's rule
// (the measurements: docs/design/tile-choice.md):
// - kPairWideTiles: at least one and a half rounds of tiles; with fewer,
//   units of two coarsen the last round and gained nothing.
// - kPairTwoBlocksPerSm: always. These outputs keep every SM busy with two
//   blocks, and halving B's reads paid without costing elsewhere.
// - kPairOneRound: where B is the larger operand (at least as many tile
//   columns as tile rows: the pairs halve the reads of the operand that
//   dominates) and the pairs' blocks fill at least two thirds of the SMs.
//   Tall outputs (B of a few tiles, read by every block from L2) were
//   slower in pairs, and so were outputs that leave many SMs idle: a
//   cluster's two blocks then share what two blocks on separate, otherwise
//   idle SMs have each. And only for reductions of at least 12 k tiles: a
//   pair's blocks start and wait together, which a short reduction does not
//   amortise. (The floor of 12 is the cluster parts'; no benchmark shape
//   tells 9 to 25 k tiles apart.)
constexpr long long kPairOneRoundMinKTiles = 12;

inline bool choose_pair(const TileSchedule &pairs, PairRule rule, const DeviceFacts &device) {
  const long long sms = device.multiprocessors;
  const long long tiles = 2ll * pairs.tiles_m * pairs.tiles_n;
  switch (rule) {
  case kPairWideTiles:
    return 2 * tiles >= 3 * sms;
  case kPairTwoBlocksPerSm:
    return true;
  case kPairOneRound:  // tile columns >= tile rows; schedule_blocks counts both blocks of a unit
    return pairs.tiles_n >= 2 * pairs.tiles_m && 3 * schedule_blocks(pairs) >= 2 * sms &&
           pairs.k_tiles >= kPairOneRoundMinKTiles;
  }
  return false;
}

// The default schedule of a kernel built for pairs: pairs where the tile
// rows pair exactly and choose_pair takes them, half as many units per round
// as SMs; otherwise the kernel's schedule of single tiles - with stream
// units only for a kernel that loops over them (stream_units:
// KernelConfig::StreamUnits), since any other kernel computes one unit per
// block and would leave the stream blocks' other units undone.
inline TileSchedule schedule_tile_pairs(long long tiles_m, long long tiles_n, long long k_tiles,
                                        PairRule rule, bool stream_units,
                                        const DeviceFacts &device, const ChoiceOptions &options) {
  if (options.tile_pairs && tiles_m % 2 == 0) {
    const long long round = device.multiprocessors / 2 > 0 ? device.multiprocessors / 2 : 1;
    TileSchedule pairs = schedule_tiles_in_rounds(tiles_m / 2, tiles_n, k_tiles, round);
    pairs.pair = 1;
    if (choose_pair(pairs, rule, device))
      return pairs;
  }
  return stream_units ? schedule_stream_tiles(tiles_m, tiles_n, k_tiles, device, options)
                      : schedule_tiles(tiles_m, tiles_n, k_tiles, device);
}

// The same units, none split (when the parts' workspace cannot be had).
inline TileSchedule without_split_tiles(const TileSchedule &s) {
  TileSchedule w = whole_tiles_only(s.tiles_m, s.tiles_n, s.k_tiles);
  w.pair = s.pair;
  return w;
}

// Split tiles (a unit of a pair: two; of stream blocks: one per boundary
// between two of them) and blocks of a schedule.
inline long long split_tiles(const TileSchedule &s) {
  if (s.stream_blocks > 0)
    return s.stream_blocks - 1;
  return (static_cast<long long>(s.tiles_m) * s.tiles_n - s.whole_tiles) * unit_blocks(s);
}

inline long long schedule_blocks(const TileSchedule &s) {
  if (s.persistent_blocks > 0)
    return s.persistent_blocks;
  return static_cast<long long>(s.whole_tiles) * unit_blocks(s) +
         (s.stream_blocks > 0 ? s.stream_blocks : split_tiles(s) * s.parts);
}


}  // namespace tc

