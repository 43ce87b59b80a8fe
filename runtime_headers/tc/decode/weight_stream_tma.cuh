// tc/decode/weight_stream_tma.cuh - the decode component (weight_stream.cuh)
// with a TMA producer (sm_90): a producer warp keeps kDepth stages of W and
// X in flight ahead of the four consumer warps, so that a block has up to
// kDepth x 16 KiB of weights on the way instead of the one chunk that
// registers hold. The consumers' mma, conversion and the shares' reduction
// are the register kernel's.
//
// Stage layout (one 128-deep chunk, 1024-byte aligned):
//   - W, two TMA boxes of 64 bytes x 128 rows (k 0-63, 64-127 of the chunk),
//     unswizzled: box row r at byte 64 r. Lane (g, q) of warp w reads
//     row 32 w + 8 group + g at byte 16 q, the same 16 bytes the register
//     kernel loads from global memory; a phase of 8 lanes (rows g, g + 1)
//     reads 128 contiguous bytes, without conflicts.
//   - X, two boxes of 64 halves x 16 kMTiles rows with the 128-byte
//     swizzle: chunk j (16 bytes) of row r at j ^ (r % 8); lanes read rows
//     g and g + 8 as in the register kernel (chunks 2 q + t of a box), rows
//     g and g + 1 of a phase on disjoint banks.
// TMA fills rows past N or M and columns past K with zeros, so partial
// tiles need no predicates.
//
// Barriers: full[s] (the producer's arrive with the stage's bytes) and
// empty[s] (one arrival per consumer warp once its reads of the stage are
// in registers); the u-th use of stage s waits phase u / kDepth of full[s]
// (mbarrier.cuh).
//
// Threads: 0 .. 127 consumers (weight_stream.cuh's layout), 128 .. 159 the
// producer warp, of which one lane copies. The producer warp stays to the
// end: the reduction's barriers count every thread.
#pragma once

#include <cuda.h>

#include "../mbarrier.cuh"
#include "../tma.cuh"
#include "weight_stream.cuh"

namespace tc {
namespace decode {

constexpr int kTmaThreads = kThreads + 32;

template <int kMTiles, int kDepth>
struct TmaStages {
  static constexpr int kRows = 16 * kMTiles;
  // A chunk's K (kChunkK), its W (kWeightBoxes boxes of 64 bytes,
  // kChunkWeightBytes of a row) and its X (kActivationBoxes of 64 halves).
  static constexpr int kChunkK = kChunk, kActivationBoxes = 2;
  static constexpr int kWeightBoxes = 2, kChunkWeightBytes = 128;
  static constexpr int kWeightBoxBytes = kColumns * 64;
  static constexpr int kActivationBoxBytes = kRows * 128;
  static constexpr int kStageBytes =
      kWeightBoxes * kWeightBoxBytes + kActivationBoxes * kActivationBoxBytes;
  static constexpr int kConsumerWarps = kWarps;  // arrivals that empty a stage
  static constexpr int kBarrierOffset = kDepth * kStageBytes;
  // With 1024 bytes of slack to align the stages.
  static constexpr int kBytes = kBarrierOffset + 2 * kDepth * 8 + 1024;
  static_assert(kStageBytes % 1024 == 0, "stages stay 1024-byte aligned");
  static_assert(partial_tile_bytes<kMTiles>() <= kBarrierOffset, "the partial tile fits");

  // X's 16-byte chunk `chunk` (0 .. 15) of row `row`, from a stage's start.
  __device__ static int offset(int row, int chunk) {
    return 2 * kWeightBoxBytes + (chunk / 8) * kActivationBoxBytes + row * 128 +
           (((chunk % 8) ^ (row % 8)) << 4);
  }
  // Lane (g, q)'s 16 bytes of W for its group `grp`, 64-deep block b.
  __device__ static int weight_offset(int warp, int grp, int b, int g, int q) {
    return b * kWeightBoxBytes + (32 * warp + 8 * grp + g) * 64 + 16 * q;
  }
};

template <class Rows, class Epilogue>
struct WeightStreamTmaParams {
  long long m, n, k;
  Rows rows;
  Epilogue epilogue;
};

// A block of the TMA kernels: its stages (S's layout: TmaStages or
// Int4Stages, 1024-byte aligned in the dynamic shared memory) with their
// barriers, its column block n0 and its share [begin, end) of K's chunks.
// A chunk is S::kChunkK of K. Chunk c uses stage (c - begin) % kDepth in
// its (c - begin) / kDepth-th phase (mbarrier.cuh). Every thread constructs it: thread 0 initialises
// the barriers, and the block meets.
template <class S, int kDepth>
struct TmaBlock {
  unsigned char *smem;
  uint64_t *full, *empty;
  long long n0, begin, end;
  __device__ TmaBlock(unsigned char *smem_bytes, long long k)
      : smem(reinterpret_cast<unsigned char *>(
            (reinterpret_cast<uintptr_t>(smem_bytes) + 1023) / 1024 * 1024)),
        full(reinterpret_cast<uint64_t *>(smem + S::kBarrierOffset)), empty(full + kDepth),
        n0(static_cast<long long>(blockIdx.y) * kColumns) {
    const long long chunks = (k + S::kChunkK - 1) / S::kChunkK;
    begin = chunks * blockIdx.x / gridDim.x;
    end = chunks * (blockIdx.x + 1) / gridDim.x;
    if (threadIdx.x == 0) {
      for (int s = 0; s < kDepth; ++s) {
        mbarrier_init(full + s, 1);
        mbarrier_init(empty + s, S::kConsumerWarps);
      }
      fence_barrier_init();
    }
    __syncthreads();  // the barriers are initialised
  }
  __device__ int use(long long c) const { return static_cast<int>(c - begin); }
  __device__ unsigned char *stage(long long c) const {
    return smem + use(c) % kDepth * S::kStageBytes;
  }

  // The producer's lane: chunks [from, to) into their stages, each stage
  // refilled once every consumer warp released its previous chunk.
  __device__ void produce(const CUtensorMap &map_w, const CUtensorMap &map_x, long long from,
                          long long to) const {
    for (long long c = from; c < to; ++c) {
      const int u = use(c), s = u % kDepth;
      if (u >= kDepth)
        mbarrier_wait(empty + s, (u / kDepth - 1) & 1);
      unsigned char *dst = stage(c);
      mbarrier_arrive_expect_tx(full + s, S::kStageBytes);
      const int k0 = static_cast<int>(c * S::kChunkK),
                w0 = static_cast<int>(c * S::kChunkWeightBytes);
#pragma unroll
      for (int b = 0; b < S::kWeightBoxes; ++b)
        tc::tma_load_2d(dst + b * S::kWeightBoxBytes, map_w, full + s, w0 + 64 * b,
                    static_cast<int>(n0));
      unsigned char *x_stage = dst + S::kWeightBoxes * S::kWeightBoxBytes;
#pragma unroll
      for (int b = 0; b < S::kActivationBoxes; ++b)
        tc::tma_load_2d(x_stage + b * S::kActivationBoxBytes, map_x, full + s, k0 + 64 * b, 0);
    }
  }
  // A consumer warp: chunk c's stage once its copies have landed.
  __device__ const unsigned char *acquire(long long c) const {
    mbarrier_wait(full + use(c) % kDepth, (use(c) / kDepth) & 1);
    return stage(c);
  }
  // A consumer warp is done reading chunk c's stage (its reads are in
  // registers): one arrival of the warp.
  __device__ void release(long long c, int lane) const {
    __syncwarp();
    if (lane == 0)
      mbarrier_arrive(empty + use(c) % kDepth);
  }
};

// A consumer warp's chunks of the block.
template <typename Src, OffsetPairs kMode, int kMTiles, int kDepth, typename F>
__device__ __forceinline__ void consume_chunks(float (&acc)[kMTiles][kGroups][4],
                                               const TmaBlock<TmaStages<kMTiles, kDepth>, kDepth> &block,
                                               const OffsetRow<F> (&rows)[kGroups], int thread) {
  using S = TmaStages<kMTiles, kDepth>;
  const int warp = thread / 32, lane = thread % 32, g = lane / 4, q = lane % 4;
  for (long long c = block.begin; c < block.end; ++c) {
    const unsigned char *stage = block.acquire(c);
    WeightRegisters cur;
    load_shared_weights(cur,
                        [&](int b, int grp) { return stage + S::weight_offset(warp, grp, b, g, q); });
    multiply_chunk<Src, kMode, kMTiles, S>(acc, stage, cur, rows, g, q);
    block.release(c, lane);
  }
}

template <typename Src, int kMTiles, int kDepth, class Rows, class Epilogue>
__global__ void __launch_bounds__(kTmaThreads)
    weight_stream_tma_kernel(const WeightStreamTmaParams<Rows, Epilogue> p,
                             const __grid_constant__ CUtensorMap map_w,
                             const __grid_constant__ CUtensorMap map_x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using S = TmaStages<kMTiles, kDepth>;
  extern __shared__ __align__(1024) unsigned char smem_bytes[];
  const TmaBlock<S, kDepth> block(smem_bytes, p.k);
  const int thread = threadIdx.x, warp = thread / 32, lane = thread % 32, g = lane / 4;
  const bool consumer = warp < kWarps;
  // The first stages are copied at once: their bytes are on the way while
  // the block reads its rows' offsets (global loads) and votes.
  const long long first_end = block.end < block.begin + kDepth ? block.end : block.begin + kDepth;
  if (thread == kThreads)
    block.produce(map_w, map_x, block.begin, first_end);
  __syncwarp();  // the producer warp converged again before the barriers below

  // The lane's rows' offsets; the producer warp votes with warp 0's rows,
  // which leaves the block's choice of conversion as the consumers' own.
  const int row_warp = consumer ? warp : 0;
  const auto offset_of = [&](int grp) {
    const long long row = block.n0 + 32 * row_warp + 8 * grp + g;
    return p.rows(row < p.n ? row : p.n - 1);
  };
  const decltype(offset_of(0)) rows[kGroups] = {offset_of(0), offset_of(1), offset_of(2),
                                                offset_of(3)};
  const OffsetPairs mode = block_offset_pairs(rows);
  float acc[kMTiles][kGroups][4] = {};
  if (!consumer) {
    if (lane == 0)
      block.produce(map_w, map_x, first_end, block.end);
    __syncwarp();  // (finish_columns' barriers)
  } else if (mode == OffsetPairs::kIntegral) {
    consume_chunks<Src, OffsetPairs::kIntegral>(acc, block, rows, thread);
  } else if (mode == OffsetPairs::kWithFraction) {
    consume_chunks<Src, OffsetPairs::kWithFraction>(acc, block, rows, thread);
  } else {
    consume_chunks<Src, OffsetPairs::kThroughFloat>(acc, block, rows, thread);
  }
  finish_columns<kMTiles>(acc, p.m, p.n, p.epilogue, block.smem, block.n0, thread, consumer);
#else
  (void)p, (void)map_w, (void)map_x;
  TC_DEVICE_TRAP_();  // TMA needs sm_90
#endif
}

// The TMA kernels' maps of a layer: W's N rows of w_row bytes, ldw apart,
// in boxes of 64 bytes x 128 rows (unswizzled, or with the 64-byte swizzle
// where swizzle_w); X's M rows of K halves, ldx apart, in boxes of 64
// halves x 16 kMTiles rows. False where TMA cannot map them (tma.cuh) or
// its 32-bit coordinates do not reach N or K (a chunk's last box of X
// starts up to 192 halves past its first).
template <int kMTiles>
__host__ inline bool map_layer(CUtensorMap &map_w, CUtensorMap &map_x, const void *w,
                               long long w_row, long long ldw, long long n, const __half *x,
                               long long ldx, long long m, long long k, bool swizzle_w = false) {
  return n < (1ll << 31) - kColumns && k < (1ll << 31) - 2 * kChunk &&
         tma_map_2d_bytes(&map_w, w, w_row, n, ldw, 64, kColumns, swizzle_w) &&
         tma_map_2d(&map_x, x, k, m, ldx, 64, 16 * kMTiles);
}

// Launches an 8-bit layer on a TMA kernel (kKernel, taking
// WeightStreamTmaParams and the two maps) of kMTiles row tiles, kThreads_
// threads and kBytes of shared memory, W's boxes swizzled where kSwizzleW.
// False, launching nothing, where TMA cannot map an operand (base or row
// pitch not 16-byte aligned, N of 2^31 - 128 or more, K of 2^31 - 256 or
// more, no driver entry point), where the kernel cannot take the layer or was not built for
// sm_90, or where the launch failed.
template <auto kKernel, int kMTiles, int kThreads_, int kBytes, bool kSwizzleW, typename Src,
          class Rows, class Epilogue>
__host__ bool launch_tma_layer(long long m, long long n, long long k, const __half *x,
                               long long ldx, const Src *w, long long ldw, const Rows &rows,
                               const Epilogue &epilogue, const DeviceFacts &device,
                               cudaStream_t stream, int split) {
  static_assert(sizeof(Src) == 1 && std::is_integral<Src>::value, "8-bit weights");
  if (m < 1 || n < 1)
    return true;
  CUtensorMap map_w, map_x;
  if (!tiles_take<kMTiles>(m, n, k, ldx, ldw, k) ||
      !map_layer<kMTiles>(map_w, map_x, w, k, ldw, n, x, ldx, m, k, kSwizzleW))
    return false;
  const WeightStreamTmaParams<Rows, Epilogue> p{m, n, k, rows, epilogue};
  return launch_column_blocks<kKernel, kThreads_, kBytes, true>(m, n, k, device, stream, split, p,
                                                                map_w, map_x);
}

// Launches the layer as launch_weight_stream_tiles does, W and X copied by
// TMA into kDepth stages (launch_tma_layer says where it declines).
template <int kMTiles, int kDepth, typename Src, class Rows, class Epilogue>
__host__ bool launch_weight_stream_tma(long long m, long long n, long long k, const __half *x,
                                       long long ldx, const Src *w, long long ldw,
                                       const Rows &rows, const Epilogue &epilogue,
                                       const DeviceFacts &device, cudaStream_t stream,
                                       int split = 0) {
  return launch_tma_layer<weight_stream_tma_kernel<Src, kMTiles, kDepth, Rows, Epilogue>, kMTiles,
                          kTmaThreads, TmaStages<kMTiles, kDepth>::kBytes, false>(
      m, n, k, x, ldx, w, ldw, rows, epilogue, device, stream, split);
}

}  // namespace decode
}  // namespace tc
