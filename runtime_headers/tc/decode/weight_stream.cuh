// tc/decode/weight_stream.cuh - a linear layer with 8-bit weights at
// decoding shapes: Y = epilogue(X W'^T) for M <= 64 rows.
//
// X is fp16, M x K, row pitch ldx; W is 8-bit, N x K (K contiguous, row
// pitch ldw), and W'[n][k] = W[n][k] - z[n], the row's offset (OffsetRow:
// in exact fp16 pairs where it allows, else through fp32); a scale of the
// row belongs to the epilogue, which gets (i, j, sum) as the sm90
// components' do (sm90/epilogue.cuh). At such M the layer is bound by the
// bytes of W, which this kernel reads once, straight into registers, at
// the width of one 16-byte load per lane.
//
// Thread -> data layout of a block (4 warps, 128 output columns, M padded
// to 16 * kMTiles rows, mma.sync m16n8k16):
//   - warp w owns columns n0 + 32 w .. + 31, four mma groups of 8 columns;
//   - lane (g = lane / 4, q = lane % 4) loads, per group and 64-deep k
//     block kb, the 16 bytes W[n0 + 32 w + 8 group + g][kb + 16 q .. + 15]
//     into registers: no shared memory, no repacking of W;
//   - inside a 64-deep block, k is permuted: mma step s (of 4) takes
//     k = 16 q + 4 s + {0, 1} as lane (g, q)'s low pair and + {2, 3} as its
//     high pair, on both operands (a sum's order of terms is free);
//   - X's 128-deep chunks are staged in shared memory by cp.async (3
//     stages), the 16-byte chunk c of row r at c ^ (r % 8), and lane (g, q)
//     reads rows g and g + 8 of each 16-row tile as 16 bytes at
//     k = kb + 16 q + 8 t (t = 0, 1: steps 2t and 2t + 1), conflict-free;
//   - the sums are mma's D fragments: row 16 mt + g (+ 8), column
//     8 group + 2 q (+ 1) of the warp's 32.
//
// K is shared by the `split` blocks of a cluster (sm_90): blockIdx.x is a
// block's share of the 128-deep chunks, blockIdx.y its 128 columns. The
// shares' partial tiles meet in distributed shared memory, each block
// adding 1/split of the rows in rank order and running the epilogue on
// them: no workspace, so a CUDA graph may capture the launch.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "../cluster.cuh"
#include "../cluster_parts.cuh"
#include "../cp_async.cuh"
#include "../device_facts.cuh"
#include "../device_trap.cuh"
#include "../mma.cuh"
#include "../per_device.cuh"
#include "../raw_fragment.cuh"
#include "../shared_memory_opt_in.cuh"
#include "../tile_convert.cuh"
#include "weight_stream_grid.cuh"

namespace tc {
namespace decode {

// X's stages: 16 * kMTiles rows of 128 halves (256 bytes), chunks swizzled.
template <int kMTiles, int kDepth = kStages>
struct ActivationStages {
  static constexpr int kRows = 16 * kMTiles;
  static constexpr int kStageBytes = kRows * kChunk * 2;
  static constexpr int kBytes = kDepth * kStageBytes;

  __device__ static int offset(int row, int chunk) { return row * 256 + ((chunk ^ (row & 7)) << 4); }

  // Copies X[0, m) x [k0, k0 + 128) into `stage`; rows past m and columns
  // past k become zeros. `vector`: x and ldx allow 16-byte copies (cp.async);
  // else element by element, stored at once.
  __device__ static void load(unsigned char *stage, const __half *x, long long ldx, long long m,
                              long long k, long long k0, bool vector, int thread) {
#pragma unroll
    for (int i = thread; i < kRows * 16; i += kThreads) {
      const int r = i / 16, c = i % 16;
      unsigned char *dst = stage + offset(r, c);
      const long long kk = k0 + 8 * c;
      const bool inside = r < m && kk < k;
      const __half *src = x + (inside ? r * ldx + kk : 0);
      if (vector) {
        tc::cp_async_16_partial(dst, src, inside ? 2 * static_cast<int>(k - kk < 8 ? k - kk : 8) : 0);
      } else {
        __align__(16) __half v[8];
#pragma unroll
        for (int e = 0; e < 8; ++e)
          v[e] = inside && kk + e < k ? src[e] : __float2half(0.0f);
        *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(v);
      }
    }
  }
};

// 16 bytes of W, read once: not kept in L1.
__device__ __forceinline__ uint4 load_streamed(const int8_t *p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

// The 16 bytes row[kk .. kk + 15] one by one, zeros from k on: for a
// chunk past K or a row that is not 16-byte aligned.
__device__ __forceinline__ uint4 load_piece_bytes(const int8_t *row, long long kk, long long k) {
  uint32_t word[4];
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    word[e] = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i)
      if (kk + 4 * e + i < k)
        word[e] |= static_cast<uint32_t>(static_cast<uint8_t>(row[kk + 4 * e + i])) << (8 * i);
  }
  return make_uint4(word[0], word[1], word[2], word[3]);
}

// A lane's weights of one chunk: 2 blocks of 64 k x its 4 groups' rows.
struct WeightRegisters {
  uint4 w[2][kGroups];
};

// The lane's chunk from shared memory: `piece(b, grp)` is where its 16
// bytes of block b and group grp lie (the stages' layouts differ).
template <class Piece>
__device__ __forceinline__ void load_shared_weights(WeightRegisters &r, const Piece &piece) {
#pragma unroll
  for (int b = 0; b < 2; ++b)
#pragma unroll
    for (int grp = 0; grp < kGroups; ++grp)
      r.w[b][grp] = *reinterpret_cast<const uint4 *>(piece(b, grp));
}

// Loads the lane's bytes of chunk k0 (see the layout above) from its rows
// `rows[group]` (nullptr: past N, zeros). `whole`: the chunk lies inside K
// and every row is 16-byte aligned; else byte by byte, zeros past K.
__device__ __forceinline__ void load_weights(WeightRegisters &r, const int8_t *const (&rows)[kGroups],
                                             long long k, long long k0, bool whole, int q) {
#pragma unroll
  for (int b = 0; b < 2; ++b)
#pragma unroll
    for (int grp = 0; grp < kGroups; ++grp) {
      const long long kk = k0 + 64 * b + 16 * q;
      if (!rows[grp]) {
        r.w[b][grp] = make_uint4(0u, 0u, 0u, 0u);
      } else if (whole) {
        r.w[b][grp] = load_streamed(rows[grp] + kk);
      } else {
        r.w[b][grp] = load_piece_bytes(rows[grp], kk, k);
      }
    }
}

// 8 bytes of a row minus its offset, as 4 half2 (bytes 0-1 first), by the
// way `mode` says (tile_convert.cuh: offset_pairs).
template <typename Src, OffsetPairs kMode, typename F>
__device__ __forceinline__ uint4 offset_bytes(uint2 w, const OffsetRow<F> &row) {
  if constexpr (kMode == OffsetPairs::kThroughFloat) {
    uint32_t h[4];
#pragma unroll
    for (int e = 0; e < 4; ++e)
      h[e] = detail::pair_through_float<Src, __half>((e < 2 ? w.x : w.y) >> (16 * (e % 2)),
                                                     row.f);
    return make_uint4(h[0], h[1], h[2], h[3]);
  } else {
    return bytes_minus_offset<Src, kMode == OffsetPairs::kWithFraction>(w, row.bias,
                                                                         row.fraction);
  }
}

// The mma of one 128-deep chunk: X from `stage`, where XLayout::offset(row,
// chunk) places its 16-byte chunks (16 a row); W from the registers.
template <typename Src, OffsetPairs kMode, int kMTiles, class X = ActivationStages<kMTiles>,
          typename F>
__device__ __forceinline__ void multiply_chunk(float (&acc)[kMTiles][kGroups][4],
                                               const unsigned char *stage,
                                               const WeightRegisters &r,
                                               const OffsetRow<F> (&rows)[kGroups], int g, int q) {
#pragma unroll
  for (int b = 0; b < 2; ++b) {
    uint4 lo[kGroups], hi[kGroups];  // steps 0-1 and 2-3 of each group's B
#pragma unroll
    for (int grp = 0; grp < kGroups; ++grp) {
      lo[grp] = offset_bytes<Src, kMode>(make_uint2(r.w[b][grp].x, r.w[b][grp].y), rows[grp]);
      hi[grp] = offset_bytes<Src, kMode>(make_uint2(r.w[b][grp].z, r.w[b][grp].w), rows[grp]);
    }
#pragma unroll
    for (int t = 0; t < 2; ++t) {
      uint4 top[kMTiles], bottom[kMTiles];
#pragma unroll
      for (int mt = 0; mt < kMTiles; ++mt) {
        const int chunk = 8 * b + 2 * q + t;
        top[mt] = *reinterpret_cast<const uint4 *>(stage + X::offset(16 * mt + g, chunk));
        bottom[mt] = *reinterpret_cast<const uint4 *>(stage + X::offset(16 * mt + g + 8, chunk));
      }
#pragma unroll
      for (int h = 0; h < 2; ++h) {  // step s = 2 t + h
#pragma unroll
        for (int grp = 0; grp < kGroups; ++grp) {
          const uint4 &v = t == 0 ? lo[grp] : hi[grp];
          const uint32_t bf[2] = {h == 0 ? v.x : v.z, h == 0 ? v.y : v.w};
#pragma unroll
          for (int mt = 0; mt < kMTiles; ++mt) {
            const uint32_t af[4] = {h == 0 ? top[mt].x : top[mt].z,
                                    h == 0 ? bottom[mt].x : bottom[mt].z,
                                    h == 0 ? top[mt].y : top[mt].w,
                                    h == 0 ? bottom[mt].y : bottom[mt].w};
            mma_m16n8k16_f16(acc[mt][grp], af, bf);
          }
        }
      }
    }
  }
}

// offset_pairs for the whole block: the main loop's barriers must be the
// same ones in every warp, so all warps take one conversion (the last
// column block's warps past N, clamped to row N - 1, may differ from the
// others). All threads of the block call it.
template <typename F>
__device__ __forceinline__ OffsetPairs block_offset_pairs(const OffsetRow<F> (&rows)[kGroups]) {
  bool exact, integral;
  offset_classes(rows, exact, integral);
  if (!__syncthreads_and(exact))
    return OffsetPairs::kThroughFloat;
  return __syncthreads_and(integral) ? OffsetPairs::kIntegral : OffsetPairs::kWithFraction;
}

// Whether every row of a matrix at `base`, `ld` elements apart, starts on
// 16 bytes: the kernel's vector copies of X and loads of W.
template <typename T>
__host__ __device__ inline bool rows_of_16_bytes(const T *base, long long ld) {
  return reinterpret_cast<uintptr_t>(base) % 16 == 0 && ld * sizeof(T) % 16 == 0;
}

// Rows whose offset is a zero point of the row, zero[n] (the functor a
// generated launcher prints for `(W[n][k] - zero[n])`, for callers of the
// component; the 8-bit type Src is W's).
template <typename Src, typename T = float>
struct ZeroPointRows {
  struct MinusZero {
    float z;
    __device__ float operator()(float x) const { return x - z; }
  };
  const T *zero;
  __device__ OffsetRow<MinusZero> operator()(long long n) const {
    const T z = zero[n];
    return offset_row<Src>(MinusZero{static_cast<float>(z)}, z);
  }
};

// The parameters of a launch.
template <typename Src, class Rows, class Epilogue>
struct WeightStreamParams {
  long long m, n, k;
  const __half *x;
  long long ldx;
  const Src *w;
  long long ldw;
  Rows rows;  // rows(n): the OffsetRow of W's row n < N
  Epilogue epilogue;
  bool x_vector, w_vector;  // 16-byte copies of X, 16-byte loads of W
};

// The block's chunks [begin, end), streamed: X three stages ahead through
// shared memory, W kAhead chunks ahead in registers.
template <typename Src, OffsetPairs kMode, int kMTiles, int kAhead, class P, typename F>
__device__ __forceinline__ void stream_chunks(float (&acc)[kMTiles][kGroups][4], const P &p,
                                              unsigned char *smem,
                                              const int8_t *const (&wrows)[kGroups],
                                              const OffsetRow<F> (&rows)[kGroups], long long begin,
                                              long long end, int thread) {
  using X = ActivationStages<kMTiles>;
  const int lane = thread % 32, g = lane / 4, q = lane % 4;
  const auto stage = [&](long long c) { return smem + ((c - begin) % kStages) * X::kStageBytes; };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (begin + s < end)
      X::load(stage(begin + s), p.x, p.ldx, p.m, p.k, (begin + s) * kChunk, p.x_vector, thread);
    cp_async_commit();
  }
  const auto whole = [&](long long c) { return p.w_vector && (c + 1) * kChunk <= p.k; };
  // Chunk begin + j in w[j % (kAhead + 1)].
  WeightRegisters w[kAhead + 1];
#pragma unroll
  for (int a = 0; a < kAhead; ++a)
    if (begin + a < end)
      load_weights(w[a], wrows, p.k, (begin + a) * kChunk, whole(begin + a), q);
  // One chunk: wait for its X, refill the stage freed by the last one,
  // fetch chunk c + kAhead's W into `ahead_w`, multiply with `cur`.
  const auto step = [&](long long c, const WeightRegisters &cur, WeightRegisters &ahead_w) {
    cp_async_wait<kStages - 2>();
    __syncthreads();
    const long long ahead = c + kStages - 1;
    if (ahead < end)
      X::load(stage(ahead), p.x, p.ldx, p.m, p.k, ahead * kChunk, p.x_vector, thread);
    cp_async_commit();
    if (c + kAhead < end)
      load_weights(ahead_w, wrows, p.k, (c + kAhead) * kChunk, whole(c + kAhead), q);
    multiply_chunk<Src, kMode, kMTiles>(acc, stage(c), cur, rows, g, q);
  };
  for (long long c = begin; c < end; c += kAhead + 1) {
#pragma unroll
    for (int u = 0; u <= kAhead; ++u)
      if (c + u < end)
        step(c + u, w[u], w[(u + kAhead) % (kAhead + 1)]);
  }
  cp_async_wait<0>();
}

// W's chunks through shared memory instead (kWeightStages > 0): cp.async
// stages hold no registers, so that more bytes are in flight. A lane
// copies and reads back only its own 16-byte pieces (slot 4 b + group),
// lane-contiguous within a slot: a warp's copy or read of a slot is 512
// contiguous bytes, without conflicts and without a barrier of its own.
constexpr int kWeightStageBytes = kThreads * 8 * 16;

__device__ __forceinline__ unsigned char *weight_slot(unsigned char *stage, int warp, int lane,
                                                      int slot) {
  return stage + warp * (kWeightStageBytes / kWarps) + slot * 512 + lane * 16;
}

// Copies the lane's pieces of chunk k0 into `stage` (zeros past N and K);
// `whole` as for load_weights.
__device__ __forceinline__ void copy_weights(unsigned char *stage,
                                             const int8_t *const (&rows)[kGroups], long long k,
                                             long long k0, bool whole, int warp, int lane) {
  const int q = lane % 4;
#pragma unroll
  for (int b = 0; b < 2; ++b)
#pragma unroll
    for (int grp = 0; grp < kGroups; ++grp) {
      unsigned char *dst = weight_slot(stage, warp, lane, 4 * b + grp);
      const long long kk = k0 + 64 * b + 16 * q;
      if (!rows[grp]) {  // past N (W's base may not be aligned for cp.async)
        *reinterpret_cast<uint4 *>(dst) = make_uint4(0u, 0u, 0u, 0u);
      } else if (whole) {
        cp_async_16(dst, rows[grp] + kk, true);
      } else {
        *reinterpret_cast<uint4 *>(dst) = load_piece_bytes(rows[grp], kk, k);
      }
    }
}

template <typename Src, OffsetPairs kMode, int kMTiles, int kDepth, class P, typename F>
__device__ __forceinline__ void stream_chunks_shared(float (&acc)[kMTiles][kGroups][4],
                                                     const P &p, unsigned char *smem,
                                                     const int8_t *const (&wrows)[kGroups],
                                                     const OffsetRow<F> (&rows)[kGroups],
                                                     long long begin, long long end, int thread) {
  using X = ActivationStages<kMTiles, kDepth>;
  const int warp = thread / 32, lane = thread % 32, g = lane / 4, q = lane % 4;
  const auto x_stage = [&](long long c) {
    return smem + ((c - begin) % kDepth) * X::kStageBytes;
  };
  const auto w_stage = [&](long long c) {
    return smem + X::kBytes + ((c - begin) % kDepth) * kWeightStageBytes;
  };
  const auto whole = [&](long long c) { return p.w_vector && (c + 1) * kChunk <= p.k; };
  const auto copy = [&](long long c) {
    X::load(x_stage(c), p.x, p.ldx, p.m, p.k, c * kChunk, p.x_vector, thread);
    copy_weights(w_stage(c), wrows, p.k, c * kChunk, whole(c), warp, lane);
  };
#pragma unroll
  for (int s = 0; s < kDepth - 1; ++s) {
    if (begin + s < end)
      copy(begin + s);
    cp_async_commit();
  }
  for (long long c = begin; c < end; ++c) {
    cp_async_wait<kDepth - 2>();
    __syncthreads();  // chunk c landed; chunk c - 1's stages are free
    if (c + kDepth - 1 < end)
      copy(c + kDepth - 1);
    cp_async_commit();
    WeightRegisters cur;
    load_shared_weights(cur, [&](int b, int grp) {
      return weight_slot(w_stage(c), warp, lane, 4 * b + grp);
    });
    multiply_chunk<Src, kMode, kMTiles>(acc, x_stage(c), cur, rows, g, q);
  }
  cp_async_wait<0>();
}

// The chunks of a block, by the path of W: registers kAhead chunks ahead,
// or kWeightStages cp.async stages.
template <typename Src, OffsetPairs kMode, int kMTiles, int kAhead, int kWeightStages, class P,
          typename F>
__device__ __forceinline__ void stream_block(float (&acc)[kMTiles][kGroups][4], const P &p,
                                             unsigned char *smem,
                                             const int8_t *const (&wrows)[kGroups],
                                             const OffsetRow<F> (&rows)[kGroups], long long begin,
                                             long long end, int thread) {
  if constexpr (kWeightStages > 0)
    stream_chunks_shared<Src, kMode, kMTiles, kWeightStages>(acc, p, smem, wrows, rows, begin,
                                                             end, thread);
  else
    stream_chunks<Src, kMode, kMTiles, kAhead>(acc, p, smem, wrows, rows, begin, end, thread);
}

// The shares' partial tiles of a column block added in distributed shared
// memory: `part` (16 kMTiles x 132 floats, row i's column c at i * 132 + c)
// holds this block's sums, and each block of the cluster finishes 1/split
// of the rows, its threads `consumer` (kConsumers of them, the first of the
// block) storing them through the epilogue. Every thread of the block calls
// it (cluster barriers).
template <int kMTiles, int kConsumers, class Epilogue>
__device__ __forceinline__ void add_shares(const float *part, long long m, long long n,
                                           const Epilogue &epilogue, long long n0, int thread,
                                           bool consumer) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int kRows = 16 * kMTiles, kPitch = kColumns + 4;
  const int split = gridDim.x, share = blockIdx.x;
  cluster_sync();
  // This block's rows of the sum: [share R / split, (share + 1) R / split),
  // 16 runs of 8 columns each, the shares added in rank order.
  const int row_begin = kRows * share / split, row_end = kRows * (share + 1) / split;
  for (int slot = thread; consumer && slot < (row_end - row_begin) * 16; slot += kConsumers) {
    const int r = row_begin + slot / 16, c = 8 * (slot % 16);
    float sum[8] = {};
    for (int s = 0; s < split; ++s) {
      const float4 lo = load_shared_cluster4(part + r * kPitch + c, s);
      const float4 hi = load_shared_cluster4(part + r * kPitch + c + 4, s);
      sum[0] += lo.x, sum[1] += lo.y, sum[2] += lo.z, sum[3] += lo.w;
      sum[4] += hi.x, sum[5] += hi.y, sum[6] += hi.z, sum[7] += hi.w;
    }
    const long long j0 = n0 + c;
    if (r >= m || j0 >= n)
      continue;
    if (j0 + 8 <= n) {
      epilogue.row(r, j0, sum);
    } else {
      for (int v = 0; j0 + v < n; ++v)
        epilogue(r, j0 + v, sum[v]);
    }
  }
  cluster_sync();  // no block leaves while another reads its partial tile
#else
  (void)part, (void)m, (void)n, (void)epilogue, (void)n0, (void)thread, (void)consumer;
  TC_DEVICE_TRAP_();  // a split needs clusters (sm_90)
#endif
}

// The end of a block's column block: with one share of K (gridDim.x 1) the
// epilogue from the sums in registers; else the shares' partial tiles are
// added in distributed shared memory (add_shares; `part_bytes`: room for
// the partial tile, whose earlier reads and copies are all done). Every
// thread of the block calls it (barriers); `consumer`: the thread holds
// sums, the first kThreads threads of the block.
template <int kMTiles, class Epilogue>
__device__ __forceinline__ void finish_columns(const float (&acc)[kMTiles][kGroups][4],
                                               long long m, long long n,
                                               const Epilogue &epilogue, unsigned char *part_bytes,
                                               long long n0, int thread, bool consumer) {
  const int warp = thread / 32, lane = thread % 32, g = lane / 4, q = lane % 4;
  if (gridDim.x == 1) {  // the sums are whole: the epilogue from registers
    if (!consumer)
      return;
#pragma unroll
    for (int mt = 0; mt < kMTiles; ++mt)
#pragma unroll
      for (int grp = 0; grp < kGroups; ++grp)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const long long i = 16 * mt + g + 8 * (e / 2);
          const long long j = n0 + 32 * warp + 8 * grp + 2 * q + e % 2;
          if (i < m && j < n)
            epilogue(i, j, acc[mt][grp][e]);
        }
    return;
  }
  constexpr int kPitch = kColumns + 4;
  float *part = reinterpret_cast<float *>(part_bytes);
  __syncthreads();
  if (consumer) {
#pragma unroll
    for (int mt = 0; mt < kMTiles; ++mt)
#pragma unroll
      for (int grp = 0; grp < kGroups; ++grp)
#pragma unroll
        for (int h = 0; h < 2; ++h)
          *reinterpret_cast<float2 *>(part + (16 * mt + g + 8 * h) * kPitch + 32 * warp +
                                      8 * grp + 2 * q) =
              make_float2(acc[mt][grp][2 * h], acc[mt][grp][2 * h + 1]);
  }
  add_shares<kMTiles, kThreads>(part, m, n, epilogue, n0, thread, consumer);
}

// The bytes finish_columns needs for the partial tile.
template <int kMTiles>
__host__ __device__ constexpr int partial_tile_bytes() {
  return 16 * kMTiles * (kColumns + 4) * 4;
}

template <typename Src, int kMTiles, int kAhead, int kWeightStages, class Rows, class Epilogue>
__global__ void __launch_bounds__(kThreads)
    weight_stream_kernel(const WeightStreamParams<Src, Rows, Epilogue> p) {
  using X = ActivationStages<kMTiles>;
  extern __shared__ __align__(16) unsigned char smem[];
  const int thread = threadIdx.x, warp = thread / 32, lane = thread % 32, g = lane / 4;
  const int split = gridDim.x, share = blockIdx.x;
  const long long n0 = static_cast<long long>(blockIdx.y) * kColumns;
  const long long chunks = (p.k + kChunk - 1) / kChunk;
  const long long begin = chunks * share / split, end = chunks * (share + 1) / split;

  // This lane's W rows and their offsets.
  static_assert(kGroups == 4, "the rows below");
  const auto row_of = [&](int grp) { return n0 + 32 * warp + 8 * grp + g; };
  const int8_t *wrows[kGroups];
#pragma unroll
  for (int grp = 0; grp < kGroups; ++grp)
    wrows[grp] = row_of(grp) < p.n ? reinterpret_cast<const int8_t *>(p.w + row_of(grp) * p.ldw)
                                   : nullptr;
  const auto offset_of = [&](int grp) { return p.rows(row_of(grp) < p.n ? row_of(grp) : p.n - 1); };
  const decltype(offset_of(0)) rows[kGroups] = {offset_of(0), offset_of(1), offset_of(2),
                                                offset_of(3)};
  static_assert(partial_tile_bytes<kMTiles>() <= X::kBytes, "the partial tile fits the stages");
  float acc[kMTiles][kGroups][4] = {};
  switch (block_offset_pairs(rows)) {
  case OffsetPairs::kIntegral:
    stream_block<Src, OffsetPairs::kIntegral, kMTiles, kAhead, kWeightStages>(acc, p, smem, wrows, rows, begin, end,
                                                        thread);
    break;
  case OffsetPairs::kWithFraction:
    stream_block<Src, OffsetPairs::kWithFraction, kMTiles, kAhead, kWeightStages>(acc, p, smem, wrows, rows, begin,
                                                            end, thread);
    break;
  default:
    stream_block<Src, OffsetPairs::kThroughFloat, kMTiles, kAhead, kWeightStages>(acc, p, smem, wrows, rows, begin,
                                                            end, thread);
  }

  finish_columns<kMTiles>(acc, p.m, p.n, p.epilogue, smem, n0, thread, true);
}

// What launch_weight_stream_tiles measures once per device.
struct WeightStreamOccupancy {
  int blocks_per_sm = 1;
  bool sm90 = false;         // the kernel's code is for sm_90 or later
  ClusterCapacity clusters;  // all 0: no clusters
};

// The kernel's shared memory for kMTiles.
template <int kMTiles, int kWeightStages = 0>
constexpr int weight_stream_shared_bytes() {
  return kWeightStages > 0
             ? kWeightStages * (ActivationStages<kMTiles>::kStageBytes + kWeightStageBytes)
             : ActivationStages<kMTiles>::kBytes;
}

// Once per device: the blocks of kKernel an SM holds, and the clusters of
// each size that run at once (none where the kernel was not built for
// sm_90 or later); its shared memory opted in first. False where that
// failed (an error pending from before is left as it is).
template <auto kKernel, int kBlockThreads, int kBytes>
__host__ bool column_block_occupancy(const DeviceFacts &device, WeightStreamOccupancy &out) {
  static SharedMemoryOptIn opt_in;  // (before the occupancy is measured)
  // An error pending from before is the caller's: left as it is, and the
  // region's other kernels (which report it) run instead.
  if (cudaPeekAtLastError() != cudaSuccess)
    return false;
  if (kBytes > 48 * 1024 && opt_in.apply(kBytes, kKernel) != cudaSuccess) {
    (void)cudaGetLastError();  // this function's error, handled by declining
    return false;
  }
  static PerDevice<WeightStreamOccupancy> occupancies;
  out = occupancies.get(device.ordinal, [&] {
    WeightStreamOccupancy o;
    cudaFuncAttributes a{};
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o.blocks_per_sm, kKernel, kBlockThreads,
                                                      kBytes) != cudaSuccess)
      o.blocks_per_sm = 1;
    // Built for sm_90 (the PTX, not only the binary: sm_80 PTX compiled for
    // a Hopper at load time has no distributed shared memory code).
    o.sm90 = cudaFuncGetAttributes(&a, kKernel) == cudaSuccess && a.ptxVersion >= 90 &&
             a.binaryVersion >= 90;
    if (o.sm90)
      o.clusters = tc::cluster_capacity(kKernel, kBlockThreads, kBytes);
    (void)cudaGetLastError();  // the queries' errors (no pending one: above)
    return o;
  });
  return true;
}

// Launches kKernel(args...) over the column blocks of an M x N x K layer,
// each K split over the blocks of a cluster by weight_stream_grid (or by
// `split` > 0, the caller's: tests, benchmarks), with kBlockThreads threads
// and kBytes of shared memory a block, K in chunks of kChunkK. False where the launch failed
// (its error cleared, or an error pending from before, left as it is), or
// where kSm90Only and the kernel was not built for sm_90.
template <auto kKernel, int kBlockThreads, int kBytes, bool kSm90Only, int kChunkK = kChunk,
          class... Args>
__host__ bool launch_column_blocks(long long m, long long n, long long k,
                                   const DeviceFacts &device, cudaStream_t stream, int split,
                                   const Args &...args) {
  WeightStreamOccupancy occupancy;
  if (!column_block_occupancy<kKernel, kBlockThreads, kBytes>(device, occupancy) ||
      (kSm90Only && !occupancy.sm90))
    return false;
  WeightStreamGrid grid = weight_stream_grid(m, n, k, device.multiprocessors,
                                             occupancy.blocks_per_sm, occupancy.clusters, kChunkK);
  if (split > 0)  // the caller's, within the kernel's limits
    grid.split = split <= kMaxSplit && (occupancy.clusters.clusters[split] > 0 || split == 1)
                     ? split
                     : 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(grid.split), static_cast<unsigned>(grid.column_blocks));
  config.blockDim = dim3(kBlockThreads);
  config.dynamicSmemBytes = kBytes;
  config.stream = stream;
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = static_cast<unsigned>(grid.split);
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  if (grid.split > 1) {
    config.attrs = &cluster;
    config.numAttrs = 1;
  }
  cudaError_t status = cudaLaunchKernelEx(&config, kKernel, args...);
  if (status != cudaSuccess && grid.split > 1) {  // no room for the clusters: one block a column block
    (void)cudaGetLastError();
    config.gridDim.x = 1;
    config.numAttrs = 0;
    status = cudaLaunchKernelEx(&config, kKernel, args...);
  }
  if (status != cudaSuccess)
    (void)cudaGetLastError();  // declined: the region's other kernels run
  return status == cudaSuccess;
}

// Whether a launcher of kMTiles row tiles takes an M x N x K layer whose
// X rows are ldx halves apart and W's rows, of w_row bytes, ldw bytes apart.
template <int kMTiles>
__host__ inline bool tiles_take(long long m, long long n, long long k, long long ldx,
                                long long ldw, long long w_row) {
  return m <= 16 * kMTiles && weight_stream_fits(m, n, k) && ldx >= k && ldw >= w_row;
}

// Launches the layer on `stream`: `rows(n)` gives W's row n's OffsetRow,
// `epilogue` stores output element (i, j) from its sum (and eight of a row
// at once). False where this kernel cannot take it (M > 64, too many
// columns) or the launch failed; true with nothing to do for an empty
// output.
template <int kMTiles, int kAhead = 1, int kWeightStages = 0, typename Src, class Rows,
          class Epilogue>
__host__ bool launch_weight_stream_tiles(long long m, long long n, long long k, const __half *x,
                                         long long ldx, const Src *w, long long ldw,
                                         const Rows &rows, const Epilogue &epilogue,
                                         const DeviceFacts &device, cudaStream_t stream,
                                         int split = 0) {
  static_assert(sizeof(Src) == 1 && std::is_integral<Src>::value, "8-bit weights");
  if (m < 1 || n < 1)
    return true;
  if (!tiles_take<kMTiles>(m, n, k, ldx, ldw, k))
    return false;
  using Params = WeightStreamParams<Src, Rows, Epilogue>;
  const Params p{m,
                 n,
                 k,
                 x,
                 ldx,
                 w,
                 ldw,
                 rows,
                 epilogue,
                 rows_of_16_bytes(x, ldx),
                 rows_of_16_bytes(w, ldw)};
  return launch_column_blocks<weight_stream_kernel<Src, kMTiles, kAhead, kWeightStages, Rows, Epilogue>,
                              kThreads, weight_stream_shared_bytes<kMTiles, kWeightStages>(),
                              false>(
      m, n, k, device, stream, split, p);
}

}  // namespace decode
}  // namespace tc
