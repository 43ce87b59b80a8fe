// tc/decode/weight_stream_int4.cuh - the decode component for 4-bit
// weights (TMA stages on sm_90, cp.async stages on sm_80): Y = epilogue(X W'^T), W'[n][k] = (w[n][k] - z[n][G]) *
// s[n][G] for the group G = k / group_size of K, w[n][k] the nibble
// W[n][k / 2] >> 4 (k % 2) & 15 (unsigned, 0..15) or that nibble as a
// two's complement value (signed, -8..7): two weights a byte, the even k
// in the low nibble, as int4 checkpoints store them and as the loops of
// issue 51 write them.
//
// The producer, stages, shares and reduction are weight_stream_tma.cuh's;
// a 128-deep sub-chunk of W is one TMA box of 64 bytes x 128 rows, and a
// stage holds two (Int4Stages): 128 bytes of each row, as the 8-bit
// kernel's stages. Thread -> data layout in a sub-chunk (4 consumer warps,
// 128 columns, mma.sync m16n8k16):
//   - lane (g, q) of warp w reads row 32 w + 8 group + g at byte 16 q of
//     the sub-chunk's box: its 32 weights k = 32 q .. 32 q + 31 of the
//     sub-chunk, all in one group where group_size is a multiple of 32, so
//     that the lane dequantises them with one zero and one scale per row;
//   - mma step s (of 8) takes k = 32 q + 4 s + {0, 1} as lane (g, q)'s low
//     pair and + {2, 3} as its high pair (bytes 2 s and 2 s + 1 of its 16),
//     on both operands;
//   - X (two 128-byte swizzled boxes a sub-chunk, weight_stream_tma.cuh):
//     lane (g, q) reads rows g and g + 8 at k = 32 q + 8 t (t = 0 .. 3: steps 2 t and
//     2 t + 1), 16 bytes each; lanes q and q + 2 of a phase meet on a bank
//     (a two-way conflict on X's small tile, not on W's).
// A nibble becomes an exact fp16 integer through the exponent of 1024
// (0x6400 | n is 1024 + n); (n - z) s is one fp16 fma, n s + (-z s), with
// -z s rounded once a sub-chunk: fp16 rounding, as int4 kernels commonly
// dequantise before the mma. Each sub-chunk's zero points and scales are
// loaded two sub-chunks ahead of their use, and turned into terms only
// there.
#pragma once

#include "weight_stream_tma.cuh"

namespace tc {
namespace decode {

// A row's zero point and scale in one group, as loaded: the kernel reads
// them chunks ahead and only turns them into its terms where it uses them,
// so that nothing waits on the loads before then.
struct NibbleGroup {
  __half zero, scale;
};

// Groups of rows whose zero points and scales are matrices N x groups
// (row n's of group G at n * ld + G), fp16: what a generated launcher
// prints for `(w - zero[n][k / g]) * scale[n][k / g]`, for callers of the
// component.
struct GroupScales {
  const __half *zero, *scale;
  long long ld;
  __device__ NibbleGroup operator()(long long n, long long group) const {
    return {zero[n * ld + group], scale[n * ld + group]};
  }
};

// A stage holds kBoxes sub-chunks of 128 k: per sub-chunk one TMA box of W
// (64 bytes x 128 rows) and two of X (64 halves each). Two sub-chunks (the
// default) put 128 bytes of each row of W in a stage, as the 8-bit kernel's
// chunks do: twice the weights in flight a block of one sub-chunk's stages.
template <int kMTiles, int kDepth, int kBoxes = 2>
struct Int4Stages {
  static_assert(kBoxes == 1 || kBoxes == 2, "one or two sub-chunks a stage");
  static constexpr int kRows = 16 * kMTiles;
  static constexpr int kChunkK = kChunk * kBoxes, kActivationBoxes = 2 * kBoxes;
  // A sub-chunk is one box of W: kWeightBoxes sub-chunks a stage.
  static constexpr int kWeightBoxes = kBoxes, kChunkWeightBytes = 64 * kBoxes;
  static constexpr int kWeightBoxBytes = kColumns * 64;
  static constexpr int kActivationBoxBytes = kRows * 128;
  static constexpr int kStageBytes =
      kWeightBoxes * kWeightBoxBytes + kActivationBoxes * kActivationBoxBytes;
  static constexpr int kConsumerWarps = kWarps;
  static constexpr int kBarrierOffset = kDepth * kStageBytes;
  static constexpr int kBytes = kBarrierOffset + 2 * kDepth * 8 + 1024;
  static_assert(kStageBytes % 1024 == 0, "stages stay 1024-byte aligned");
  static_assert(partial_tile_bytes<kMTiles>() <= kBarrierOffset, "the partial tile fits");

  // X's 16-byte chunk `chunk` (0 .. 16 kBoxes - 1) of row `row`, from a
  // stage's start.
  __device__ static int offset(int row, int chunk) {
    return kWeightBoxes * kWeightBoxBytes + (chunk / 8) * kActivationBoxBytes + row * 128 +
           (((chunk % 8) ^ (row % 8)) << 4);
  }
  // Lane (g, q)'s 16 bytes of W for its group `grp` in sub-chunk b.
  __device__ static int weight_offset(int warp, int grp, int b, int g, int q) {
    return b * kWeightBoxBytes + (32 * warp + 8 * grp + g) * 64 + 16 * q;
  }
};

// What the consumers multiply a group's nibbles by: (n - z) s as one fma,
// n s + (-z s), the second term rounded to fp16 once a chunk.
struct NibbleTerms {
  __half2 scale, bias;
};

// Byte j (0 .. 3) of `w` as the fp16 pair (low nibble, high nibble) times
// the group's scale plus its bias. `w4` is w >> 4: one prmt puts the low
// nibble's byte at byte 0 and the high nibble's at byte 2, one lop3 masks
// them into the mantissas of 1024 (0x6400 | n is 1024 + n).
__device__ __forceinline__ uint32_t nibble_pair(uint32_t w, uint32_t w4, int j,
                                                const NibbleTerms &terms) {
  const uint32_t y = __byte_perm(w, w4, j | (4 + j) << 8);
  const uint32_t v = (y & 0x000F000Fu) | 0x64006400u;
  __half2 h = *reinterpret_cast<const __half2 *>(&v);
  h = __hsub2(h, __half2half2(__ushort_as_half(0x6400)));  // (1024 + n) - 1024: n, exact
  h = __hfma2(h, terms.scale, terms.bias);
  return *reinterpret_cast<const uint32_t *>(&h);
}

// The mma of one 128-deep sub-chunk b of a stage: X from the stage, the
// lane's 16 bytes of W (per group of columns) dequantised with its groups'
// scale and bias.
template <int kMTiles, class S>
__device__ __forceinline__ void multiply_chunk_int4(float (&acc)[kMTiles][kGroups][4],
                                                    const unsigned char *stage,
                                                    const uint4 (&w)[kGroups],
                                                    const NibbleTerms (&terms)[kGroups], int b,
                                                    int g, int q) {
#pragma unroll
  for (int t = 0; t < 4; ++t) {  // steps 2 t, 2 t + 1: bytes 4 t .. 4 t + 3, word t
    uint4 top[kMTiles], bottom[kMTiles];
#pragma unroll
    for (int mt = 0; mt < kMTiles; ++mt) {
      const int chunk = 16 * b + 4 * q + t;
      top[mt] = *reinterpret_cast<const uint4 *>(stage + S::offset(16 * mt + g, chunk));
      bottom[mt] = *reinterpret_cast<const uint4 *>(stage + S::offset(16 * mt + g + 8, chunk));
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {  // step s = 2 t + h: bytes 2 s, 2 s + 1 (of word t: 2 h, 2 h + 1)
#pragma unroll
      for (int grp = 0; grp < kGroups; ++grp) {
        const uint32_t word = t == 0 ? w[grp].x : t == 1 ? w[grp].y : t == 2 ? w[grp].z : w[grp].w;
        const uint32_t bf[2] = {nibble_pair(word, word >> 4, 2 * h, terms[grp]),
                                nibble_pair(word, word >> 4, 2 * h + 1, terms[grp])};
#pragma unroll
        for (int mt = 0; mt < kMTiles; ++mt) {
          const uint32_t af[4] = {h == 0 ? top[mt].x : top[mt].z, h == 0 ? bottom[mt].x : bottom[mt].z,
                                  h == 0 ? top[mt].y : top[mt].w, h == 0 ? bottom[mt].y : bottom[mt].w};
          mma_m16n8k16_f16(acc[mt][grp], af, bf);
        }
      }
    }
  }
}

template <class Groups, class Epilogue>
struct WeightStreamInt4Params {
  long long m, n, k, group_size;
  Groups groups;
  Epilogue epilogue;
};

// A consumer lane's zero points and scales for sub-chunk c (128 k), per
// group of its warp's columns: the lane's weights k0 .. k0 + 31 of the
// sub-chunk lie in one group of K (group_size a multiple of 32), the unit
// 4 c + q of 32 weights. Zero past the block's sub-chunks (before `end`)
// or K (those nibbles are zeros, their X too).
template <class Params, class Block>
__device__ __forceinline__ void load_groups(NibbleGroup (&groups)[kGroups], const Params &p,
                                            const Block &block, long long c, long long end,
                                            int warp, int g, int q, int units_per_group) {
  const long long unit = 4 * c + q;
  const bool inside = c < end && 32 * unit < p.k;
  // Units fit 32 bits (the launcher takes K < 2^36): a 32-bit division.
  const long long group = static_cast<uint32_t>(unit) / static_cast<uint32_t>(units_per_group);
#pragma unroll
  for (int grp = 0; grp < kGroups; ++grp) {
    const long long row = block.n0 + 32 * warp + 8 * grp + g;
    groups[grp] = {__float2half(0.0f), __float2half(0.0f)};
    if (inside)
      groups[grp] = p.groups(row < p.n ? row : p.n - 1, group);
  }
}

// The terms of loaded groups: scale s and bias -z s (two's complement
// nibbles are xored with 8 by the consumers: (n ^ 8) - 8, so z + 8).
template <bool kSigned, int kCount>
__device__ __forceinline__ void group_terms(NibbleTerms (&terms)[kCount],
                                            const NibbleGroup (&groups)[kCount]) {
#pragma unroll
  for (int grp = 0; grp < kCount; ++grp) {
    __half2 zero = __half2half2(groups[grp].zero);
    const __half2 scale = __half2half2(groups[grp].scale);
    if (kSigned)
      zero = __hadd2(zero, __float2half2_rn(8.0f));
    terms[grp] = {scale, __hneg2(__hmul2(zero, scale))};
  }
}

// A consumer warp's sub-chunk `sub` (of stage sub / kWeightBoxes): its W from
// the stage, dequantised with `groups`. The stage is waited for at its
// first sub-chunk and released after its last.
template <bool kSigned, int kMTiles, class S, class Block>
__device__ __forceinline__ void consume_chunk_int4(float (&acc)[kMTiles][kGroups][4],
                                                   const Block &block, long long sub,
                                                   const NibbleGroup (&groups)[kGroups],
                                                   int warp, int lane) {
  const int g = lane / 4, q = lane % 4;
  const long long c = sub / S::kWeightBoxes;
  const int b = static_cast<int>(sub % S::kWeightBoxes);
  const unsigned char *stage = b == 0 ? block.acquire(c) : block.stage(c);
  uint4 w[kGroups];
#pragma unroll
  for (int grp = 0; grp < kGroups; ++grp) {
    w[grp] = *reinterpret_cast<const uint4 *>(stage + S::weight_offset(warp, grp, b, g, q));
    if (kSigned) {
      w[grp].x ^= 0x88888888u, w[grp].y ^= 0x88888888u;
      w[grp].z ^= 0x88888888u, w[grp].w ^= 0x88888888u;
    }
  }
  NibbleTerms terms[kGroups];
  group_terms<kSigned>(terms, groups);
  multiply_chunk_int4<kMTiles, S>(acc, stage, w, terms, b, g, q);
  if (b == S::kWeightBoxes - 1)
    block.release(c, lane);
}

// A consumer warp's sub-chunks of the block (Block: TmaBlock or CopyBlock,
// its chunks [begin, end) of S::kChunkK). Each sub-chunk's zero points and
// scales are read two sub-chunks ahead, so that their loads overlap two
// sub-chunks' multiplies instead of stalling each one: two sets of
// registers, each used, then loaded again for the sub-chunk two further
// (no register copies, which would wait on the loads).
template <bool kSigned, int kMTiles, class S, class Params, class Block>
__device__ __forceinline__ void consume_int4(float (&acc)[kMTiles][kGroups][4], const Params &p,
                                             const Block &block, int warp, int lane) {
  const int g = lane / 4, q = lane % 4;
  const int units_per_group = static_cast<int>(p.group_size / 32);
  const long long begin = block.begin * S::kWeightBoxes, end = block.end * S::kWeightBoxes;
  NibbleGroup even[kGroups], odd[kGroups];
  load_groups(even, p, block, begin, end, warp, g, q, units_per_group);
  load_groups(odd, p, block, begin + 1, end, warp, g, q, units_per_group);
  for (long long c = begin; c < end; c += 2) {
    consume_chunk_int4<kSigned, kMTiles, S>(acc, block, c, even, warp, lane);
    load_groups(even, p, block, c + 2, end, warp, g, q, units_per_group);
    if (c + 1 < end) {
      consume_chunk_int4<kSigned, kMTiles, S>(acc, block, c + 1, odd, warp, lane);
      load_groups(odd, p, block, c + 3, end, warp, g, q, units_per_group);
    }
  }
}

template <bool kSigned, int kMTiles, int kDepth, int kBoxes, class Groups, class Epilogue>
__global__ void __launch_bounds__(kTmaThreads)
    weight_stream_int4_kernel(const WeightStreamInt4Params<Groups, Epilogue> p,
                              const __grid_constant__ CUtensorMap map_w,
                              const __grid_constant__ CUtensorMap map_x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using S = Int4Stages<kMTiles, kDepth, kBoxes>;
  extern __shared__ __align__(1024) unsigned char smem_bytes[];
  const TmaBlock<S, kDepth> block(smem_bytes, p.k);
  const int thread = threadIdx.x, warp = thread / 32, lane = thread % 32;
  const bool consumer = warp < kWarps;
  float acc[kMTiles][kGroups][4] = {};
  if (!consumer) {
    if (lane == 0)
      block.produce(map_w, map_x, block.begin, block.end);
    __syncwarp();  // (finish_columns' barriers)
  } else {
    consume_int4<kSigned, kMTiles, S>(acc, p, block, warp, lane);
  }
  finish_columns<kMTiles>(acc, p.m, p.n, p.epilogue, block.smem, block.n0, thread, consumer);
#else
  (void)p, (void)map_w, (void)map_x;
  TC_DEVICE_TRAP_();  // TMA needs sm_90
#endif
}

// The operands of the cp.async kernel (sm_80): X fp16, ldx halves apart,
// and W's rows of w_row bytes, ldw apart, both 16-byte aligned.
struct NibbleOperands {
  const __half *x;
  long long ldx;
  const uint8_t *w;
  long long ldw, w_row;
};

// A block of the cp.async kernel: its stages (S's layout, as the TMA
// kernel's) filled by all of its threads, kDepth - 1 chunks ahead, with
// the interface of TmaBlock that consume_int4 uses. acquire(c) waits for
// chunk c, meets the block (so that every thread is done with chunk
// c - 1's stage) and starts chunk c + kDepth - 1 into that stage; release
// has nothing to do.
template <class S, int kDepth>
struct CopyBlock {
  static_assert(kDepth >= 2, "a stage in flight while another is read");
  unsigned char *smem;
  NibbleOperands o;
  long long m, n, k, n0, begin, end;
  __device__ CopyBlock(unsigned char *smem_bytes, const NibbleOperands &operands, long long m_,
                       long long n_, long long k_)
      : smem(reinterpret_cast<unsigned char *>(
            (reinterpret_cast<uintptr_t>(smem_bytes) + 1023) / 1024 * 1024)),
        o(operands), m(m_), n(n_), k(k_), n0(static_cast<long long>(blockIdx.y) * kColumns) {
    const long long chunks = (k + S::kChunkK - 1) / S::kChunkK;
    begin = chunks * blockIdx.x / gridDim.x;
    end = chunks * (blockIdx.x + 1) / gridDim.x;
#pragma unroll
    for (int s = 0; s < kDepth - 1; ++s) {
      if (begin + s < end)
        copy(begin + s);
      cp_async_commit();
    }
  }
  __device__ unsigned char *stage(long long c) const {
    return smem + static_cast<int>((c - begin) % kDepth) * S::kStageBytes;
  }
  // Chunk c into its stage: W's 128 rows of S::kChunkWeightBytes (zeros
  // past N and past the row's bytes), X's rows of S::kChunkK halves (zeros
  // past M and K). Thread i copies 16-byte pieces i, i + kThreads, ...,
  // W's in the order (box, row, piece): the 8 threads of a phase write 128
  // contiguous bytes of one box (the boxes lie 8 KiB apart, on the same banks).
  __device__ void copy(long long c) const {
    unsigned char *dst = stage(c);
    for (int i = threadIdx.x; i < S::kWeightBoxes * kColumns * 4; i += kThreads) {
      const int b = i / (4 * kColumns), r = (i / 4) % kColumns, piece = i % 4;
      const long long row = n0 + r, byte = c * S::kChunkWeightBytes + 64 * b + 16 * piece;
      const long long left = row < n ? o.w_row - byte : 0;
      const int bytes = left <= 0 ? 0 : left >= 16 ? 16 : static_cast<int>(left);
      cp_async_16_partial(dst + S::weight_offset(r / 32, (r / 8) % 4, b, r % 8, piece),
                          bytes ? o.w + row * o.ldw + byte : o.w, bytes);
    }
    constexpr int kXPieces = S::kChunkK / 8;
    for (int i = threadIdx.x; i < S::kRows * kXPieces; i += kThreads) {
      const int r = i / kXPieces, piece = i % kXPieces;
      const long long kk = c * S::kChunkK + 8 * piece;
      const long long left = r < m ? k - kk : 0;
      const int bytes = left <= 0 ? 0 : left >= 8 ? 16 : 2 * static_cast<int>(left);
      cp_async_16_partial(dst + S::offset(r, piece), bytes ? o.x + r * o.ldx + kk : o.x, bytes);
    }
  }
  __device__ const unsigned char *acquire(long long c) const {
    cp_async_wait<kDepth - 2>();
    __syncthreads();
    if (c + kDepth - 1 < end)
      copy(c + kDepth - 1);
    cp_async_commit();
    return stage(c);
  }
  __device__ void release(long long, int) const {}
};

// The 4-bit layer with cp.async stages (sm_80 and later): four warps that
// copy and multiply, the TMA kernel's stages, consumers and reduction.
template <bool kSigned, int kMTiles, int kDepth, int kBoxes, class Groups, class Epilogue>
__global__ void __launch_bounds__(kThreads)
    weight_stream_int4_copy_kernel(const WeightStreamInt4Params<Groups, Epilogue> p,
                                   const NibbleOperands operands) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using S = Int4Stages<kMTiles, kDepth, kBoxes>;
  extern __shared__ __align__(1024) unsigned char smem_bytes[];
  const CopyBlock<S, kDepth> block(smem_bytes, operands, p.m, p.n, p.k);
  const int thread = threadIdx.x, warp = thread / 32, lane = thread % 32;
  float acc[kMTiles][kGroups][4] = {};
  consume_int4<kSigned, kMTiles, S>(acc, p, block, warp, lane);
  cp_async_wait<0>();  // (empty groups: nothing is copied past the share)
  finish_columns<kMTiles>(acc, p.m, p.n, p.epilogue, block.smem, block.n0, thread, true);
#else
  (void)p, (void)operands;
  TC_DEVICE_TRAP_();  // cp.async needs sm_80
#endif
}

// The group size a launcher passes its kernel, or 0 where the kernels do
// not take it (not a multiple of 32, or K too large for their 32-bit
// division): a group of all of K and more is one group, its size clamped
// to K's 32-weight units.
__host__ inline long long nibble_group_size(long long k, long long group_size) {
  const long long k_units = (k + 31) / 32;
  if (group_size > 32 * k_units && group_size % 32 == 0)
    group_size = 32 * k_units;
  return group_size < 32 || group_size % 32 != 0 || k >= (1LL << 36) ? 0 : group_size;
}

// Launches the layer: X fp16 M x K (pitch ldx), W the packed nibbles, N rows
// of ldw bytes (at least (K + 1) / 2), `groups(n, G)` row n's zero point and
// scale in group G = k / group_size (a multiple of 32). False, launching
// nothing, where TMA cannot map an operand (bases or pitches not 16-byte
// aligned), the group size is not a multiple of 32, the kernel was not
// built for sm_90, or the launch failed.
template <bool kSigned, int kMTiles, int kDepth, int kBoxes = 2, class Groups, class Epilogue>
__host__ bool launch_weight_stream_int4(long long m, long long n, long long k, const __half *x,
                                        long long ldx, const uint8_t *w, long long ldw,
                                        long long group_size, const Groups &groups,
                                        const Epilogue &epilogue, const DeviceFacts &device,
                                        cudaStream_t stream, int split = 0) {
  if (m < 1 || n < 1)
    return true;
  const long long w_row = (k + 1) / 2;
  CUtensorMap map_w, map_x;
  group_size = nibble_group_size(k, group_size);
  if (!group_size || !tiles_take<kMTiles>(m, n, k, ldx, ldw, w_row) ||
      !map_layer<kMTiles>(map_w, map_x, w, w_row, ldw, n, x, ldx, m, k))
    return false;
  using S = Int4Stages<kMTiles, kDepth, kBoxes>;
  const WeightStreamInt4Params<Groups, Epilogue> p{m, n, k, group_size, groups, epilogue};
  return launch_column_blocks<
      weight_stream_int4_kernel<kSigned, kMTiles, kDepth, kBoxes, Groups, Epilogue>, kTmaThreads,
      S::kBytes, true, S::kChunkK>(m, n, k, device, stream, split, p, map_w, map_x);
}

// The same layer on the cp.async kernel (sm_80 and later; on sm_80 one
// block a column block, as splits need clusters). False, launching
// nothing, where X's or W's rows are not 16-byte aligned, the group size
// is not taken, or the launch failed.
template <bool kSigned, int kMTiles, int kDepth, int kBoxes = 2, class Groups, class Epilogue>
__host__ bool launch_weight_stream_int4_copy(long long m, long long n, long long k,
                                             const __half *x, long long ldx, const uint8_t *w,
                                             long long ldw, long long group_size,
                                             const Groups &groups, const Epilogue &epilogue,
                                             const DeviceFacts &device, cudaStream_t stream,
                                             int split = 0) {
  if (m < 1 || n < 1)
    return true;
  const long long w_row = (k + 1) / 2;
  group_size = nibble_group_size(k, group_size);
  if (!group_size || !tiles_take<kMTiles>(m, n, k, ldx, ldw, w_row) ||
      !rows_of_16_bytes(x, ldx) || !rows_of_16_bytes(w, ldw))
    return false;
  using S = Int4Stages<kMTiles, kDepth, kBoxes>;
  const WeightStreamInt4Params<Groups, Epilogue> p{m, n, k, group_size, groups, epilogue};
  const NibbleOperands operands{x, ldx, w, ldw, w_row};
  return launch_column_blocks<
      weight_stream_int4_copy_kernel<kSigned, kMTiles, kDepth, kBoxes, Groups, Epilogue>,
      kThreads, S::kBytes, false, S::kChunkK>(m, n, k, device, stream, split, p, operands);
}

}  // namespace decode
}  // namespace tc
