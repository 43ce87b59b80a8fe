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

#include <cuda_runtime.h>

#include <tuple>
#include <type_traits>
#include <utility>

#include "cluster.cuh"
#include "mbarrier.cuh"
#include "raster.cuh"
#include "schedule_choice.cuh"
#include "stream_buffer.cuh"

namespace tc {

// The launch of `threads`-thread blocks with `smem_bytes` of dynamic
// shared memory on `stream`, one block per unit of schedule `s`.
__host__ inline cudaLaunchConfig_t schedule_launch_config(const TileSchedule &s, int threads,
                                                          int smem_bytes, cudaStream_t stream) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(schedule_blocks(s)));
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = static_cast<size_t>(smem_bytes);
  config.stream = stream;
  return config;
}

// Launches a TMA kernel on its schedule: a cluster of two blocks per unit
// of pairs, or of a split tile's parts (cluster_parts), else one block per
// unit. The kernel's last parameters are the schedule, the parts'
// workspace and counters; `args` points to all of them
// (cudaLaunchKernelExC's), its last three to `s`, `workspace` and
// `counters`. Should the device refuse the clusters (a GPU partition
// without room for them), the same kernel runs unclustered on whole
// tiles, which needs no workspace: the result is the same (and `s`,
// `workspace` and `counters` say so after the call). Untyped, so that the
// launchers of every kernel in a file share one copy of this host code;
// static, so that each file keeps its own: its launches of stream 0 go to
// the default stream it was compiled for (--default-stream per-thread
// makes cudaLaunchKernelExC another function).
static __host__ inline cudaError_t launch_schedule_args(const void *kernel, TileSchedule &s,
                                                        float *&workspace, int *&counters,
                                                        int threads, int smem_bytes,
                                                        cudaStream_t stream, void **args) {
  cudaLaunchConfig_t config = tc::schedule_launch_config(s, threads, smem_bytes, stream);
  cudaLaunchAttribute cluster[1];
  cluster[0].id = cudaLaunchAttributeClusterDimension;
  cluster[0].val.clusterDim.x = static_cast<unsigned>(cluster_blocks(s));
  cluster[0].val.clusterDim.y = 1;
  cluster[0].val.clusterDim.z = 1;
  config.attrs = cluster;
  config.numAttrs = 1;
  const cudaError_t status = cudaLaunchKernelExC(&config, kernel, args);
  if (status == cudaSuccess || cluster_blocks(s) == 1)
    return status;
  (void)cudaGetLastError();  // the refused launch's error, handled here
  s = whole_tiles_only((s.pair ? 2ll : 1ll) * s.tiles_m, s.tiles_n, s.k_tiles);
  workspace = nullptr;
  counters = nullptr;
  config.gridDim = dim3(static_cast<unsigned>(schedule_blocks(s)));
  cluster[0].val.clusterDim.x = 1;
  return cudaLaunchKernelExC(&config, kernel, args);
}

// The same for a typed kernel whose parameters before the last three are
// `args` (converted to the parameters' types, as cudaLaunchKernelEx
// does), the last three the schedule, workspace and counters.
template <typename... Params, typename... Args>
__host__ inline cudaError_t launch_schedule(void (*kernel)(Params...), const TileSchedule &s,
                                            float *workspace, int *counters, int threads,
                                            int smem_bytes, cudaStream_t stream,
                                            Args &&...args) {
  constexpr int kCount = static_cast<int>(sizeof...(Params));
  static_assert(kCount == static_cast<int>(sizeof...(Args)) + 3,
                "the kernel's parameters: args, then the schedule, workspace and counters");
  using Kinds = std::tuple<std::decay_t<Params>...>;
  static_assert(std::is_same_v<std::tuple_element_t<kCount - 3, Kinds>, TileSchedule> &&
                    std::is_same_v<std::tuple_element_t<kCount - 2, Kinds>, float *> &&
                    std::is_same_v<std::tuple_element_t<kCount - 1, Kinds>, int *>,
                "the kernel's last parameters: TileSchedule, float *, int *");
  return [&](Params... converted) {
    void *all[] = {&converted...};
    return tc::launch_schedule_args(reinterpret_cast<const void *>(kernel),
                                    *static_cast<TileSchedule *>(all[kCount - 3]),
                                    *static_cast<float **>(all[kCount - 2]),
                                    *static_cast<int **>(all[kCount - 1]), threads,
                                    smem_bytes, stream, all);
  }(std::forward<Args>(args)..., s, workspace, counters);
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
      tc::store_l2(slot + thread + j * kThreads, *staged(thread + j * kThreads));
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
    tc::store_l2(tile + part * kVecs + thread + j * kThreads, *staged(thread + j * kThreads));
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
