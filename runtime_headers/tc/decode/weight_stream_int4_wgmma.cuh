// tc/decode/weight_stream_int4_wgmma.cuh - the 4-bit decode component on
// wgmma (sm_90a), for 16, 32 or 64 rows of X: Y^T = W' X^T as the 8-bit
// wgmma kernel computes it (weight_stream_wgmma.cuh: W's 128 rows of the
// column block are wgmma's M, two consumer warpgroups of 64; X's rows its
// N), W' dequantised from packed nibbles (weight_stream_int4.cuh's format,
// terms and nibble_pair) straight into wgmma's register A fragments. One
// wgmma takes all kN rows of X where the mma.sync 4-bit kernel issues one
// mma per 16, and the tensor cores run while the next fragments are
// dequantised: the mma.sync kernel's work grows with M, this one's not
// until kN.
//
// Stage layout (WgmmaStages for 4-bit weights: two 128-deep sub-chunks,
// 1024-byte aligned; TmaBlock's producer):
//   - W, two boxes of 64 bytes x 128 rows (one a sub-chunk), unswizzled:
//     row r at byte 64 r;
//   - X, four boxes of 64 halves x kN rows with the 128-byte swizzle:
//     wgmma's K-major B tile, one per 64-deep quarter of the stage.
// Thread -> data layout (threads 0 .. 255 the consumers, warpgroup h =
// thread / 128; 256 .. 287 the producer warp, of which one lane copies):
//   - A fragments (RawFragmentLayout's rows): thread t of warpgroup h holds
//     rows 64 h + 16 (t / 32) + t % 32 / 4 and + 8 of W; in step j (k 16 j
//     .. 16 j + 15 of the sub-chunk) pairs k = 16 j + 2 q + {0, 1} and
//     + 8, q = t % 4: the two nibbles of bytes 8 j + q and 8 j + q + 4 of
//     the row, byte q of its words 2 j and 2 j + 1. The thread reads its
//     rows' 64 bytes whole (four 16-byte loads a row; the four threads of
//     a row read the same bytes, a broadcast, and a phase's two rows lie
//     on disjoint banks);
//   - accumulators: finish_wgmma_columns's.
// Groups: a sub-chunk lies in one group of K (group_size a multiple of 128,
// or one group of all of K), so a thread dequantises with one zero point
// and scale a row a sub-chunk, loaded two sub-chunks ahead as the mma.sync
// kernel's (consume_int4).
#pragma once

#include <cuda.h>

#include "../raw_fragment.cuh"
#include "../wgmma.cuh"
#include "weight_stream_int4.cuh"
#include "weight_stream_wgmma.cuh"

namespace tc {
namespace decode {

// A consumer thread's zero points and scales of sub-chunk `sub` (128 k) for
// its two rows; zero past the block's sub-chunks (before `end`) or K.
template <class Params>
__device__ __forceinline__ void load_row_groups(NibbleGroup (&groups)[2], const Params &p,
                                                const long long (&rows)[2], long long sub,
                                                long long end, int subs_per_group) {
  const bool inside = sub < end && kChunk * sub < p.k;
  // Sub-chunks fit 32 bits (K < 2^31): a 32-bit division.
  const long long group = static_cast<uint32_t>(sub) / static_cast<uint32_t>(subs_per_group);
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    groups[i] = {__float2half(0.0f), __float2half(0.0f)};
    if (inside)
      groups[i] = p.groups(rows[i], group);
  }
}

// One 128-deep sub-chunk b of a stage, as two halves of four wgmma k steps:
// each half's A fragments dequantised into a[half] while the other half's
// wgmma run. A fragment buffer is written again only once the wgmma that
// read it are done: in sub-chunk 1 the wait for all but the last group
// (sub-chunk 0 follows the stage's wait for all).
template <bool kSigned, int kN, class S>
__device__ __forceinline__ void multiply_sub_chunk_wgmma(float (&acc)[kN / 8][4],
                                                         uint32_t (&a)[2][4][4],
                                                         const unsigned char *stage, int b,
                                                         const NibbleTerms (&terms)[2],
                                                         int row, int q) {
  // Rows row and row + 8 of the box, 64 bytes each: words 0 .. 15.
  uint4 w[2][4];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int piece = 0; piece < 4; ++piece) {
      w[i][piece] = *reinterpret_cast<const uint4 *>(stage + b * S::kWeightBoxBytes +
                                                     (row + 8 * i) * 64 + 16 * piece);
      if (kSigned) {
        w[i][piece].x ^= 0x88888888u, w[i][piece].y ^= 0x88888888u;
        w[i][piece].z ^= 0x88888888u, w[i][piece].w ^= 0x88888888u;
      }
    }
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    if (b > 0) {
      wgmma_wait<1>(acc);  // the group that read a[half] (two groups back) is done
      fence_fragments(a[half]);
    }
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
      const int j = 4 * half + kk;  // step j: words 2 j, 2 j + 1 of each row
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const uint4 &v = w[i][j / 2];
        const uint32_t lo = j % 2 == 0 ? v.x : v.z, hi = j % 2 == 0 ? v.y : v.w;
        // a0, a1: rows row, row + 8 at k 2 q, 2 q + 1; a2, a3: at + 8.
        a[half][kk][i] = nibble_pair(lo, lo >> 4, q, terms[i]);
        a[half][kk][2 + i] = nibble_pair(hi, hi >> 4, q, terms[i]);
      }
    }
    const uint64_t desc = wgmma_desc_k_major_sw128(stage + S::kWeightBoxes * S::kWeightBoxBytes +
                                                   (2 * b + half) * S::kActivationBoxBytes);
    warpgroup_arrive(acc);
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
      wgmma_m64k16_rs<__half, 0, kN>(acc, a[half][kk], wgmma_desc_advance(desc, 32 * kk));
    wgmma_commit();
  }
}

// A consumer thread's share of the block: stage by stage, its two
// sub-chunks, the stage released once the wgmma that read its X are done.
// Each sub-chunk's zero points and scales are read two sub-chunks ahead
// (two sets of registers, each used, then loaded again).
template <bool kSigned, int kN, class S, class Params, class Block>
__device__ __forceinline__ void consume_int4_wgmma(float (&acc)[kN / 8][4], const Params &p,
                                                   const Block &block, int thread) {
  const int half_group = thread / 128, t = thread % 128, lane = thread % 32, q = lane % 4;
  const int row = 64 * half_group + RawFragmentLayout::row(t, 0);
  long long rows[2];
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const long long r = block.n0 + row + 8 * i;
    rows[i] = r < p.n ? r : p.n - 1;
  }
  const int subs_per_group = static_cast<int>(p.group_size / kChunk);
  const long long end = 2 * block.end;
  NibbleGroup even[2], odd[2];
  load_row_groups(even, p, rows, 2 * block.begin, end, subs_per_group);
  load_row_groups(odd, p, rows, 2 * block.begin + 1, end, subs_per_group);
  uint32_t a[2][4][4];
  for (long long c = block.begin; c < block.end; ++c) {
    const unsigned char *stage = block.acquire(c);
    NibbleTerms terms[2];
    group_terms<kSigned>(terms, even);
    load_row_groups(even, p, rows, 2 * c + 2, end, subs_per_group);
    multiply_sub_chunk_wgmma<kSigned, kN, S>(acc, a, stage, 0, terms, row, q);
    group_terms<kSigned>(terms, odd);
    load_row_groups(odd, p, rows, 2 * c + 3, end, subs_per_group);
    multiply_sub_chunk_wgmma<kSigned, kN, S>(acc, a, stage, 1, terms, row, q);
    wgmma_wait<0>(acc);
    fence_fragments(a[0]);
    fence_fragments(a[1]);
    block.release(c, lane);
  }
}

// kMinBlocks: the blocks an SM the registers are fitted for. One (104 to 134
// registers a thread) is what the launchers measured take; two (at most 96,
// a few spilled) ran 16 rows up to 1.26x faster in a rough timing
// (docs/results/int4-wgmma-h100-2026-12-08.md) and waits for the benchmark.
template <bool kSigned, int kN, int kDepth, int kMinBlocks, class Groups, class Epilogue>
__global__ void __launch_bounds__(kWgmmaThreads, kMinBlocks)
    weight_stream_int4_wgmma_kernel(const WeightStreamInt4Params<Groups, Epilogue> p,
                                    const __grid_constant__ CUtensorMap map_w,
                                    const __grid_constant__ CUtensorMap map_x) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using S = WgmmaStages<kN, kDepth, 2>;
  extern __shared__ __align__(1024) unsigned char smem_bytes[];
  const TmaBlock<S, kDepth> block(smem_bytes, p.k);
  const int thread = threadIdx.x, lane = thread % 32;
  const bool consumer = thread < kWgmmaConsumers;
  float acc[kN / 8][4] = {};
  if (!consumer) {
    if (lane == 0)
      block.produce(map_w, map_x, block.begin, block.end);
    __syncwarp();  // (finish_wgmma_columns's barriers)
  } else {
    consume_int4_wgmma<kSigned, kN, S>(acc, p, block, thread);
  }
  finish_wgmma_columns<kN>(acc, p.m, p.n, p.epilogue, block.smem, block.n0, thread, consumer);
#else
  (void)p, (void)map_w, (void)map_x;
  TC_DEVICE_TRAP_();  // wgmma needs sm_90a
#endif
}

// The group size the wgmma kernel takes (nibble_group_size's, of whole
// sub-chunks: nibble_groups_whole_sub_chunks; one group of all of K as
// kChunk ceil(K / kChunk)), or 0.
__host__ inline long long nibble_wgmma_group_size(long long k, long long group_size) {
  group_size = nibble_group_size(k, group_size);
  if (!group_size || !nibble_groups_whole_sub_chunks(k, group_size))
    return 0;
  return group_size >= k ? kChunk * ((k + kChunk - 1) / kChunk) : group_size;
}

// Launches the layer (M <= kN) as launch_weight_stream_int4 does, on wgmma.
// False, launching nothing, where it declines (as there, and where the
// groups are not whole sub-chunks: nibble_wgmma_group_size). The caller's
// code must be built for sm_90a: built for sm_90 without the `a`
// features, the kernel traps.
template <bool kSigned, int kN, int kDepth, int kMinBlocks = 1, class Groups, class Epilogue>
__host__ bool launch_weight_stream_int4_wgmma(long long m, long long n, long long k,
                                              const __half *x, long long ldx, const uint8_t *w,
                                              long long ldw, long long group_size,
                                              const Groups &groups, const Epilogue &epilogue,
                                              const DeviceFacts &device, cudaStream_t stream,
                                              int split = 0) {
  if (m < 1 || n < 1)
    return true;
  const long long w_row = (k + 1) / 2;
  CUtensorMap map_w, map_x;
  group_size = nibble_wgmma_group_size(k, group_size);
  if (!group_size || !tiles_take<kN / 16>(m, n, k, ldx, ldw, w_row) ||
      !map_layer<kN / 16>(map_w, map_x, w, w_row, ldw, n, x, ldx, m, k))
    return false;
  using S = WgmmaStages<kN, kDepth, 2>;
  const WeightStreamInt4Params<Groups, Epilogue> p{m, n, k, group_size, groups, epilogue};
  return launch_column_blocks<
      weight_stream_int4_wgmma_kernel<kSigned, kN, kDepth, kMinBlocks, Groups, Epilogue>,
      kWgmmaThreads, S::kBytes, true, S::kChunkK>(m, n, k, device, stream, split, p, map_w, map_x);
}

}  // namespace decode
}  // namespace tc
