// tc/tile_schedule.cuh - which output tile, and which of its k tiles, each
// block of a TMA kernel computes: whole tiles, then the last wave's tiles
// split along k and combined in the kernel (the data-parallel + split-tail
// schedule of stream-K).
//
// T output tiles on an SM count of P run in about T / P rounds of tiles per
// SM. When the last round holds only r = T mod P tiles, those r SMs take
// as long as a full round while the other P - r idle: for T = 144 on 132
// SMs, 12 SMs compute two tiles and the others one, so the kernel takes
// twice the time its work needs. Here the first T - r tiles of the grouped
// order (raster.cuh) are computed whole, one block each, and each of the
// last r tiles is split into p ~ P / r parts along k (fewer where the last
// part's adding of the others' slots would cost more: max_parts), so that
// the tail costs about 1 / p of a tile.
// With fewer tiles than SMs every tile is split, into enough parts to give
// every SM one: that fills the GPU for small outputs, as the split-K of
// split_k.cuh does, without its second kernel. (Not one part per block slot,
// SMs x blocks per SM, which measured slower: docs/design/tile-choice.md.)
// Outputs of fewer tiles than half the SMs go further on the kernels with
// cluster parts: every tile's parts one cluster, adding their tiles in
// distributed shared memory instead of the workspace below (cluster_parts.cuh).
//
// The parts of a tile meet in an fp32 workspace: each part stores its
// partial tile in its own slot, and the last part to arrive (a counter per
// split tile, zero at launch) adds all parts in part order - the result
// does not depend on which part finishes last - runs the epilogue, and sets
// the counter back to zero. The counters and slots are kept per stream
// (stream_workspace), so a launch needs no allocation or memset. Nobody
// waits for a block that may not have started, so any launch order is safe.
// A tile of two parts has one slot (combine_two_parts): the first part to
// arrive stores its partial tile there and marks it done; the second waits
// for that mark - the first is past its main loop, storing - adds the slot
// to its own sums (a + b = b + a: the same total either way) and finishes
// the tile. That halves the slots' memory and traffic against a slot per
// part. (Every part counting its arrival before storing, so that the last
// to arrive need not store its own slot, nor wait for its fence, nor read
// it back, measured slower: the parts of a tile end their main loops
// together, so the last one's own store overlapped the others' anyway, and
// the extra atomic round trip to L2 before them all lay on the critical
// path; docs/design/tile-choice.md.)
//
// Stream units (schedule_stream_tiles, kernels with one block per SM that
// loop over unit_work): with more tiles than SMs and a last round of few
// tiles, r <= P / 8 (the split tail leaves most SMs idle through a part of
// a tile), the last full round and the tail, P + r tiles, are shared by P
// blocks evenly by k tiles: block b takes k tiles [b I / P, (b + 1) I / P)
// of the I = (P + r) * k_tiles in tile order - the end of one tile, maybe
// whole tiles, then the start of another. Each block's range is at least a
// tile long, so a tile meets at most two blocks: the tile cut by the
// boundary between blocks b and b + 1 is split tile b, its part 0 in block
// b and part 1 in block b + 1, combined as above. A block runs its pieces
// ("units") last first, each with fresh stage barriers (mbarrier.cuh,
// reset_stage_barriers): every block then starts at k tile 0 of a tile and
// runs on into the end of the previous one, so that the blocks read about
// the same k tiles of A and B at the same time, as whole tiles do (first
// piece first measured slower).
//
// Only for r <= P / 8: a block's second unit costs it the first part's
// staged store and fence, the barriers' reset, a pipeline refill and the
// second part's reading of the slot, which larger tails - fewer idle SMs
// to win back - do not repay; there the split tail was faster. The
// measurements: docs/design/tile-choice.md.
//
// Pairs (kernels built for them, cluster.cuh): the schedule's units are
// then pairs of tiles (2u, n) and (2u + 1, n), which share B's tile; the
// two blocks of a unit run as a cluster on the same k tiles, and a round
// is half as many units as SMs.
#pragma once

#include <cstdlib>

#include <cuda_runtime.h>

#include "cluster.cuh"
#include "mbarrier.cuh"
#include "raster.cuh"
#include "split_k.cuh"
#include "stream_buffer.cuh"

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
__host__ __device__ inline int unit_blocks(const TileSchedule &s) { return s.pair ? 2 : 1; }

// Blocks per cluster of its launch: a unit's, or a split tile's parts.
__host__ inline int cluster_blocks(const TileSchedule &s) {
  return s.cluster_parts ? s.parts : unit_blocks(s);
}

__host__ inline TileSchedule whole_tiles_only(long long tiles_m, long long tiles_n,
                                              long long k_tiles) {
  return {static_cast<int>(tiles_m), static_cast<int>(tiles_n),
          static_cast<int>(tiles_m * tiles_n), 1, k_tiles, k_tiles};
}

// The last `split` tiles in `parts` parts (fewer when k is short).
__host__ inline TileSchedule split_last_tiles(long long tiles_m, long long tiles_n,
                                              long long k_tiles, long long split,
                                              long long parts) {
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
__host__ inline long long max_parts(long long k_tiles) {
  long long p = 1;
  while ((p + 1) * (p + 1) * 3 <= k_tiles && p < 16 && (p + 1) * 4 <= k_tiles)
    ++p;
  return p;
}

// The default schedule (see above).
// `round`: units that run at once (default: one per SM).
__host__ inline TileSchedule schedule_tiles(long long tiles_m, long long tiles_n,
                                            long long k_tiles, long long round = 0) {
  const long long sms = round > 0 ? round : multiprocessors();
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

// Whether the environment turns a schedule feature off: `name`=0, to
// compare the same kernels without it or to rule it out when debugging.
__host__ inline bool turned_off_in_environment(const char *name) {
  const char *value = std::getenv(name);
  return value && value[0] == '0' && value[1] == '\0';
}

// Whether stream units are allowed: not with TC_STREAM_K=0.
__host__ inline bool stream_units_enabled() {
  static const bool enabled = !turned_off_in_environment("TC_STREAM_K");
  return enabled;
}

// Whether schedule_stream_tiles shares out the last round of `tiles`
// tiles (more than SMs, a last round of at most an eighth of them).
__host__ inline bool stream_units_take_tail(long long tiles, long long k_tiles) {
  const long long sms = multiprocessors();
  const long long tail = tiles % sms;
  return stream_units_enabled() && k_tiles >= 8 && tiles > sms && tail != 0 && 8 * tail <= sms &&
         sms >= 2;
}

// The default schedule of kernels with one block per SM that run stream
// units (see above): where there are more tiles than SMs and the last
// round holds at most an eighth of them, the last full round and the tail
// shared by one block per SM; otherwise schedule_tiles.
__host__ inline TileSchedule schedule_stream_tiles(long long tiles_m, long long tiles_n,
                                                   long long k_tiles) {
  const long long sms = multiprocessors();
  const long long tiles = tiles_m * tiles_n;
  const long long tail = tiles % sms;
  if (!stream_units_take_tail(tiles, k_tiles))
    return schedule_tiles(tiles_m, tiles_n, k_tiles);
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
__host__ inline TileSchedule schedule_persistent_tiles(long long tiles_m, long long tiles_n,
                                                       long long k_tiles) {
  TileSchedule s = whole_tiles_only(tiles_m, tiles_n, k_tiles);
  const long long sms = multiprocessors();
  s.persistent_blocks = static_cast<int>(tiles_m * tiles_n < sms ? tiles_m * tiles_n : sms);
  return s;
}

// Every tile in `parts` parts: the split_k clause.
__host__ inline TileSchedule split_all_tiles(long long tiles_m, long long tiles_n,
                                             long long k_tiles, int parts) {
  return split_last_tiles(tiles_m, tiles_n, k_tiles, tiles_m * tiles_n, parts);
}

// Whether pairs are allowed: not with TC_TILE_PAIRS=0.
__host__ inline bool tile_pairs_enabled() {
  static const bool enabled = !turned_off_in_environment("TC_TILE_PAIRS");
  return enabled;
}

__host__ inline long long schedule_blocks(const TileSchedule &s);  // below

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

__host__ inline bool choose_pair(const TileSchedule &pairs, PairRule rule) {
  const long long sms = multiprocessors();
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
__host__ inline TileSchedule schedule_tile_pairs(long long tiles_m, long long tiles_n,
                                                 long long k_tiles, PairRule rule,
                                                 bool stream_units) {
  if (tile_pairs_enabled() && tiles_m % 2 == 0) {
    const long long round = multiprocessors() / 2 > 0 ? multiprocessors() / 2 : 1;
    TileSchedule pairs = schedule_tiles(tiles_m / 2, tiles_n, k_tiles, round);
    pairs.pair = 1;
    if (choose_pair(pairs, rule))
      return pairs;
  }
  return stream_units ? schedule_stream_tiles(tiles_m, tiles_n, k_tiles)
                      : schedule_tiles(tiles_m, tiles_n, k_tiles);
}

// The same units, none split (when the parts' workspace cannot be had).
__host__ inline TileSchedule without_split_tiles(const TileSchedule &s) {
  TileSchedule w = whole_tiles_only(s.tiles_m, s.tiles_n, s.k_tiles);
  w.pair = s.pair;
  return w;
}

// Split tiles (a unit of a pair: two; of stream blocks: one per boundary
// between two of them) and blocks of a schedule.
__host__ inline long long split_tiles(const TileSchedule &s) {
  if (s.stream_blocks > 0)
    return s.stream_blocks - 1;
  return (static_cast<long long>(s.tiles_m) * s.tiles_n - s.whole_tiles) * unit_blocks(s);
}

__host__ inline long long schedule_blocks(const TileSchedule &s) {
  if (s.persistent_blocks > 0)
    return s.persistent_blocks;
  return static_cast<long long>(s.whole_tiles) * unit_blocks(s) +
         (s.stream_blocks > 0 ? s.stream_blocks : split_tiles(s) * s.parts);
}

// Launches a TMA kernel on its schedule: a cluster of two blocks per unit
// of pairs, or of a split tile's parts (cluster_parts), else one block per
// unit. The kernel's last parameters are the schedule, the parts'
// workspace and counters; `args` are those before. Should the device
// refuse the clusters (a GPU partition without room for them), the same
// kernel runs unclustered on whole tiles, which needs no workspace: the
// result is the same.
template <typename... Params, typename... Args>
__host__ inline cudaError_t launch_schedule(void (*kernel)(Params...), const TileSchedule &s,
                                            float *workspace, int *counters, int threads,
                                            int smem_bytes, cudaStream_t stream,
                                            const Args &...args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(schedule_blocks(s)));
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = static_cast<size_t>(smem_bytes);
  config.stream = stream;
  cudaLaunchAttribute cluster[1];
  cluster[0].id = cudaLaunchAttributeClusterDimension;
  cluster[0].val.clusterDim.x = static_cast<unsigned>(cluster_blocks(s));
  cluster[0].val.clusterDim.y = 1;
  cluster[0].val.clusterDim.z = 1;
  config.attrs = cluster;
  config.numAttrs = 1;
  const cudaError_t status = cudaLaunchKernelEx(&config, kernel, args..., s, workspace, counters);
  if (status == cudaSuccess || cluster_blocks(s) == 1)
    return status;
  (void)cudaGetLastError();  // the refused launch's error, handled here
  const TileSchedule single =
      whole_tiles_only((s.pair ? 2ll : 1ll) * s.tiles_m, s.tiles_n, s.k_tiles);
  config.gridDim = dim3(static_cast<unsigned>(schedule_blocks(single)));
  cluster[0].val.clusterDim.x = 1;
  return cudaLaunchKernelEx(&config, kernel, args..., single, static_cast<float *>(nullptr),
                            static_cast<int *>(nullptr));
}

// The workspace of a schedule for tile_elements-element output tiles: a
// counter per split tile, zero at launch, and an fp32 slot per part of each.
__host__ inline size_t schedule_counter_bytes(const TileSchedule &s) {
  return sizeof(int) * static_cast<size_t>(split_tiles(s));
}

// Slots per split tile: one for two parts (combine_two_parts), else one per part.
__host__ __device__ inline int slots_per_split_tile(int parts) { return parts == 2 ? 1 : parts; }

__host__ inline size_t schedule_slot_bytes(const TileSchedule &s, long long tile_elements) {
  return sizeof(float) *
         static_cast<size_t>(split_tiles(s) * slots_per_split_tile(s.parts) * tile_elements);
}

// The counters and slots of a schedule, kept per (device, stream) from
// launch to launch (stream_buffer.cuh): the counters are allocated zeroed
// and the kernels leave them at zero, so a launch costs no allocation and
// no memset. False when the memory cannot be had.
__host__ inline bool stream_workspace(cudaStream_t stream, size_t counter_bytes,
                                      size_t slot_bytes, int *&counters, float *&slots) {
  counters = static_cast<int *>(stream_buffer(stream, kSplitCounters, counter_bytes, true));
  slots = static_cast<float *>(stream_buffer(stream, kSplitSlots, slot_bytes, false));
  return counters && slots;
}

// This block's tile (tile_m, tile_n), its k tiles [k_begin, k_end), and for
// a split tile its index among the split tiles and its part (else -1, 0).
// A block of a pair also gets its rank in the pair (0 for single tiles):
// its tile is the unit's first or second along the pair's direction, and
// its split tile index counts the units' tiles.
template <int kGroup>
__device__ __forceinline__ void pair_work(const TileSchedule &s, int &tile_m, int &tile_n,
                                          long long &k_begin, long long &k_end, int &split_tile,
                                          int &part, int &rank) {
  // A pair's cluster is two consecutive blocks (launch_schedule); a
  // cluster of a split tile's parts is its P consecutive blocks, each of
  // rank 0 here (its part is its cluster rank, cluster_parts.cuh).
  const int blocks = unit_blocks(s);
  rank = s.pair ? static_cast<int>(blockIdx.x) % 2 : 0;
  const int block = s.pair ? static_cast<int>(blockIdx.x) / 2 : static_cast<int>(blockIdx.x);
  int linear = block;
  split_tile = -1;
  part = 0;
  k_begin = 0;
  k_end = s.k_tiles;
  if (block >= s.whole_tiles) {
    split_tile = (block - s.whole_tiles) / s.parts;
    part = (block - s.whole_tiles) % s.parts;
    linear = s.whole_tiles + split_tile;
    k_begin = part * s.part_k_tiles;
    k_end = k_begin + s.part_k_tiles < s.k_tiles ? k_begin + s.part_k_tiles : s.k_tiles;
  }
  grouped_tile_of<kGroup>(linear, s.tiles_m, s.tiles_n, tile_m, tile_n);
  if (s.pair)
    tile_m = 2 * tile_m + rank;
  if (split_tile >= 0)
    split_tile = split_tile * blocks + rank;
}

// Unit `unit` (0, 1, ...) of this block (stream units, see above): false
// once the block has no more. Outside the stream blocks, unit 0 is
// pair_work's and there is no other.
template <int kGroup>
__device__ __forceinline__ bool unit_work(const TileSchedule &s, int unit, int &tile_m,
                                          int &tile_n, long long &k_begin, long long &k_end,
                                          int &split_tile, int &part, int &rank) {
  const long long block = blockIdx.x;
  if (s.persistent_blocks > 0) {
    const long long tile = block + static_cast<long long>(unit) * s.persistent_blocks;
    if (tile >= static_cast<long long>(s.tiles_m) * s.tiles_n)
      return false;
    rank = 0;
    split_tile = -1;
    part = 0;
    k_begin = 0;
    k_end = s.k_tiles;
    grouped_tile_of<kGroup>(static_cast<int>(tile), s.tiles_m, s.tiles_n, tile_m, tile_n);
    return true;
  }
  if (s.stream_blocks <= 0 || block < s.whole_tiles) {
    if (unit > 0)
      return false;
    pair_work<kGroup>(s, tile_m, tile_n, k_begin, k_end, split_tile, part, rank);
    return true;
  }
  rank = 0;
  const long long b = block - s.whole_tiles, blocks = s.stream_blocks;
  const long long stream_k_tiles =
      (static_cast<long long>(s.tiles_m) * s.tiles_n - s.whole_tiles) * s.k_tiles;
  const long long first = b * stream_k_tiles / blocks, end = (b + 1) * stream_k_tiles / blocks;
  // Last piece first (see above).
  const long long tile = (end - 1) / s.k_tiles - unit;  // among the stream tiles
  const long long tile_first = tile * s.k_tiles;
  if (tile < 0 || tile_first + s.k_tiles <= first)
    return false;
  k_begin = first > tile_first ? first - tile_first : 0;
  k_end = end < tile_first + s.k_tiles ? end - tile_first : s.k_tiles;
  // Cut by the boundary at the start of this block's range (part 1 of
  // split tile b - 1) or at its end (part 0 of split tile b).
  split_tile = k_begin > 0 ? static_cast<int>(b - 1) : k_end < s.k_tiles ? static_cast<int>(b) : -1;
  part = k_begin > 0 ? 1 : 0;
  grouped_tile_of<kGroup>(static_cast<int>(s.whole_tiles + tile), s.tiles_m, s.tiles_n, tile_m,
                          tile_n);
  return true;
}

// threadIdx.x, read anew in each unit of a loop over unit_work: the
// compiler cannot hoist a volatile read, so the addresses and descriptors
// derived from it are not kept live across units (hoisted, they spilled the
// 128x256 kernel's 168 registers).
__device__ __forceinline__ int unit_thread_index() {
#if defined(__CUDA_ARCH__)
  int thread;
  asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(thread));
  return thread;
#else
  return 0;
#endif
}

template <int kGroup>
__device__ __forceinline__ void block_work(const TileSchedule &s, int &tile_m, int &tile_n,
                                           long long &k_begin, long long &k_end,
                                           int &split_tile, int &part) {
  int rank;
  pair_work<kGroup>(s, tile_m, tile_n, k_begin, k_end, split_tile, part, rank);
}

// 16-byte global accesses cached in L2 only (st/ld.global.cg): the parts'
// slots are written by one SM and read by another.
__device__ __forceinline__ void store_l2(float4 *p, const float4 &v) {
#if defined(__CUDA_ARCH__)
  asm volatile("st.global.cg.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"l"(p), "f"(v.x), "f"(v.y),
               "f"(v.z), "f"(v.w)
               : "memory");
#else
  *p = v;
#endif
}

__device__ __forceinline__ float4 load_l2(const float4 *p) {
  float4 v;
#if defined(__CUDA_ARCH__)
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];\n"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p)
               : "memory");
#else
  v = *p;
#endif
  return v;
}

// The vectors a thread loads from a slot at once: the largest divisor of
// its kOwn vectors up to 16 (16 of 32 for a 128x256 tile, 12 of 24 for
// 128x192), so that the batches cover them exactly.
__host__ __device__ constexpr int load_batch(int own) {
  int batch = own < 16 ? own : 16;
  while (own % batch)
    --batch;
  return batch;
}

// Float4 vector v of a staged tile of kCols-float rows, row pitch kPitch
// floats, in row-major order.
template <int kCols, int kPitch>
__device__ __forceinline__ float4 *staged_vector(float *stage, int v) {
  return reinterpret_cast<float4 *>(stage + v / (kCols / 4) * kPitch + v % (kCols / 4) * 4);
}

// combine_parts for a tile of two parts, one slot (see the top of the
// file). Counter: 0 at launch; the first arrival makes it 1 and its mark,
// once the slot is stored, adds 1; the second arrival adds 1, so the slot
// is complete once the counter reads 3. The second sets it back to 0.
template <int kRows, int kCols, int kPitch, int kThreads>
__device__ __forceinline__ bool combine_two_parts(float *stage, float *workspace, int *counters,
                                                  int split_tile, int *flag, int thread) {
  static_assert(kCols % 4 == 0 && kPitch % 4 == 0, "float4 rows");
  constexpr int kVecs = kRows * kCols / 4;
  static_assert(kVecs % kThreads == 0, "every thread owns as many vectors");
  constexpr int kOwn = kVecs / kThreads;
  constexpr int kBatch = load_batch(kOwn);
  float4 *slot = reinterpret_cast<float4 *>(workspace) + static_cast<long long>(split_tile) * kVecs;
  auto staged = [&](int v) { return staged_vector<kCols, kPitch>(stage, v); };
  int *counter = counters + split_tile;
  if (thread == 0)
    *flag = atomicAdd(counter, 1) == 0;
  consumer_sync<kThreads>();
  const bool first = *flag;
  consumer_sync<kThreads>();  // everyone has read the flag before it is reused
  if (first) {  // store, then mark
#pragma unroll
    for (int j = 0; j < kOwn; ++j)
      store_l2(slot + thread + j * kThreads, *staged(thread + j * kThreads));
    __threadfence();  // the slot is visible before the mark
    consumer_sync<kThreads>();
    if (thread == 0)
      atomicAdd(counter, 1);
    return false;
  }
  if (thread == 0) {
    while (*static_cast<volatile int *>(counter) != 3) {
    }
    *counter = 0;  // for the next launch: both parts have counted
  }
  consumer_sync<kThreads>();
  __threadfence();  // the slot is read after the mark
#pragma unroll 1
  for (int b = 0; b < kOwn; b += kBatch) {
    float4 v[kBatch];
#pragma unroll
    for (int j = 0; j < kBatch; ++j)
      v[j] = load_l2(slot + thread + (b + j) * kThreads);
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      float4 *sum = staged(thread + (b + j) * kThreads);
      sum->x += v[j].x;
      sum->y += v[j].y;
      sum->z += v[j].z;
      sum->w += v[j].w;
    }
  }
  consumer_sync<kThreads>();
  return true;
}

// A part of a split tile, after its kThreads consumer threads have put its
// kRows x kCols partial sums into `stage` (row pitch kPitch floats): stores
// them in the part's slot of the tile's workspace, and returns true for the
// last part to arrive, with the tile's total in `stage` (the others return
// false: their work is done). `flag` is an int of shared memory.
//
// The last part adds the slots in part order, its own slot too - the same
// total whichever part arrives last - and resets the tile's counter. Thread t owns the float4 vectors t,
// t + kThreads, ... of the tile and loads kBatch of them from a slot at
// once, so that each slot costs about one round trip to L2 (kOwn / kBatch
// for the widest tiles), not one per vector; the running sum stays in
// `stage`, which keeps the registers to the kBatch loads.
template <int kRows, int kCols, int kPitch, int kThreads>
__device__ __forceinline__ bool combine_parts(float *stage, float *workspace, int *counters,
                                              int split_tile, int part, int parts, int *flag,
                                              int thread) {
  static_assert(kCols % 4 == 0 && kPitch % 4 == 0, "float4 rows");
  constexpr int kVecs = kRows * kCols / 4;
  static_assert(kVecs % kThreads == 0, "every thread owns as many vectors");
  constexpr int kOwn = kVecs / kThreads;
  constexpr int kBatch = load_batch(kOwn);
  if (parts == 2)
    return combine_two_parts<kRows, kCols, kPitch, kThreads>(stage, workspace, counters,
                                                             split_tile, flag, thread);
  float4 *tile = reinterpret_cast<float4 *>(workspace) +
                 static_cast<long long>(split_tile) * parts * kVecs;
  auto staged = [&](int v) { return staged_vector<kCols, kPitch>(stage, v); };
#pragma unroll
  for (int j = 0; j < kOwn; ++j)
    store_l2(tile + part * kVecs + thread + j * kThreads, *staged(thread + j * kThreads));
  __threadfence();  // the slot is visible before the count
  consumer_sync<kThreads>();
  if (thread == 0) {
    const bool last = atomicAdd(counters + split_tile, 1) == parts - 1;
    if (last)
      counters[split_tile] = 0;  // for the next launch: every part has counted
    *flag = last;
  }
  consumer_sync<kThreads>();
  if (!*flag)
    return false;
  __threadfence();  // the other parts' slots are read after their counts
#pragma unroll 1
  for (int b = 0; b < kOwn; b += kBatch) {
#pragma unroll 1
    for (int p = 0; p < parts; ++p) {
      float4 v[kBatch];
#pragma unroll
      for (int j = 0; j < kBatch; ++j)
        v[j] = load_l2(tile + p * kVecs + thread + (b + j) * kThreads);
#pragma unroll
      for (int j = 0; j < kBatch; ++j) {
        float4 *sum = staged(thread + (b + j) * kThreads);
        if (p == 0) {
          *sum = v[j];
        } else {
          sum->x += v[j].x;
          sum->y += v[j].y;
          sum->z += v[j].z;
          sum->w += v[j].w;
        }
      }
    }
  }
  consumer_sync<kThreads>();
  return true;
}

}  // namespace tc
