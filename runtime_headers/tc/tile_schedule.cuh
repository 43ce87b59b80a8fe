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
// last r tiles is split into p ~ P / r parts along k (at least 4 k tiles
// each, at most 16 parts), so that the tail costs about 1 / p of a tile.
// With fewer tiles than SMs every tile is split, into enough parts to give
// every SM one: that fills the GPU for small outputs, as the split-K of
// split_k.cuh does, without its second kernel. (Not one part per block slot:
// the last part of a tile adds the others' slots after its own k tiles, one
// L2 round trip per part, so that parts beyond one per SM add more to that
// serial step than they take off the main loop.)
//
// The parts of a tile meet in an fp32 workspace: each part stores its
// partial tile in its own slot, and the last part to arrive (a counter per
// split tile, zero at launch) adds all parts in part order - the result
// does not depend on which part finishes last - and runs the epilogue.
// Nobody waits for another block, so any launch order is safe.
#pragma once

#include <cuda_runtime.h>

#include "mbarrier.cuh"
#include "raster.cuh"
#include "split_k.cuh"

namespace tc {

struct TileSchedule {
  int tiles_m, tiles_n;   // output tiles
  int whole_tiles;        // the first ones of the grouped order, one block each
  int parts;              // blocks per remaining tile (1: none is split)
  long long k_tiles;      // of the reduction
  long long part_k_tiles; // per part (the last part may have fewer)
};

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

// The default schedule (see above).
__host__ inline TileSchedule schedule_tiles(long long tiles_m, long long tiles_n,
                                            long long k_tiles) {
  const long long sms = multiprocessors();
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
  parts = parts < k_tiles / 4 ? parts : k_tiles / 4;
  parts = parts < 16 ? parts : 16;
  return split_last_tiles(tiles_m, tiles_n, k_tiles, tail, parts);
}

// Every tile in `parts` parts: the split_k clause.
__host__ inline TileSchedule split_all_tiles(long long tiles_m, long long tiles_n,
                                             long long k_tiles, int parts) {
  return split_last_tiles(tiles_m, tiles_n, k_tiles, tiles_m * tiles_n, parts);
}

__host__ inline long long split_tiles(const TileSchedule &s) {
  return static_cast<long long>(s.tiles_m) * s.tiles_n - s.whole_tiles;
}

__host__ inline long long schedule_blocks(const TileSchedule &s) {
  return s.whole_tiles + split_tiles(s) * s.parts;
}

// Bytes of the workspace of a schedule for kTileElements-element output
// tiles: one fp32 slot per part of each split tile, then a counter per split
// tile, which must be zero at launch.
__host__ inline size_t schedule_workspace_bytes(const TileSchedule &s, long long tile_elements) {
  return sizeof(float) * static_cast<size_t>(split_tiles(s) * s.parts * tile_elements) +
         sizeof(int) * static_cast<size_t>(split_tiles(s));
}

// This block's tile (tile_m, tile_n), its k tiles [k_begin, k_end), and for
// a split tile its index among the split tiles and its part (else -1, 0).
template <int kGroup>
__device__ __forceinline__ void block_work(const TileSchedule &s, int &tile_m, int &tile_n,
                                           long long &k_begin, long long &k_end,
                                           int &split_tile, int &part) {
  const int block = blockIdx.x;
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

// A part of a split tile, after its kThreads consumer threads have put its
// kRows x kCols partial sums into `stage` (row pitch kPitch floats): stores
// them in the part's slot of the tile's workspace, and returns true for the
// last part to arrive, with the tile's total in `stage` (the others return
// false: their work is done). `flag` is an int of shared memory.
//
// Thread t owns the float4 vectors t, t + kThreads, ... of the tile; the last
// part loads them kBatch at a time from every slot, all loads of a slot in
// flight together, so that the combination costs about kOwn / kBatch round
// trips to L2 per part rather than one per vector and part (kBatch bounds
// the registers it takes).
template <int kRows, int kCols, int kPitch, int kThreads>
__device__ __forceinline__ bool combine_parts(float *stage, float *workspace, int *counters,
                                              int split_tile, int part, int parts, int *flag,
                                              int thread) {
  static_assert(kCols % 4 == 0 && kPitch % 4 == 0, "float4 rows");
  constexpr int kVecs = kRows * kCols / 4, kVecsPerRow = kCols / 4;
  static_assert(kVecs % kThreads == 0, "every thread owns as many vectors");
  constexpr int kOwn = kVecs / kThreads;
  constexpr int kBatch = kOwn < 8 ? kOwn : 8;
  static_assert(kOwn % kBatch == 0, "whole batches");
  float4 *tile = reinterpret_cast<float4 *>(workspace) +
                 static_cast<long long>(split_tile) * parts * kVecs;
  auto staged = [&](int v) {
    return reinterpret_cast<float4 *>(stage + v / kVecsPerRow * kPitch + v % kVecsPerRow * 4);
  };
#pragma unroll
  for (int j = 0; j < kOwn; ++j)
    store_l2(tile + part * kVecs + thread + j * kThreads, *staged(thread + j * kThreads));
  __threadfence();  // the slot is visible before the count
  consumer_sync<kThreads>();
  if (thread == 0)
    *flag = atomicAdd(counters + split_tile, 1) == parts - 1;
  consumer_sync<kThreads>();
  if (!*flag)
    return false;
  __threadfence();  // the other parts' slots are read after their counts
  // Parts in order, this part's own sum in its place: the same total
  // whichever part arrives last.
#pragma unroll 1
  for (int b = 0; b < kOwn; b += kBatch) {
    float4 sum[kBatch];
#pragma unroll
    for (int j = 0; j < kBatch; ++j)
      sum[j] = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll 1
    for (int p = 0; p < parts; ++p) {
      float4 v[kBatch];
#pragma unroll
      for (int j = 0; j < kBatch; ++j) {
        const int vec = thread + (b + j) * kThreads;
        v[j] = p == part ? *staged(vec) : load_l2(tile + p * kVecs + vec);
      }
#pragma unroll
      for (int j = 0; j < kBatch; ++j) {
        sum[j].x += v[j].x;
        sum[j].y += v[j].y;
        sum[j].z += v[j].z;
        sum[j].w += v[j].w;
      }
    }
#pragma unroll
    for (int j = 0; j < kBatch; ++j)
      *staged(thread + (b + j) * kThreads) = sum[j];
  }
  consumer_sync<kThreads>();
  return true;
}

}  // namespace tc
