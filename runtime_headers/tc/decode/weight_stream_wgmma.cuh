// tc/decode/weight_stream_wgmma.cuh - the decode component for 8-bit
// weights on wgmma (sm_90a), for 16, 32 or 64 rows of X: the block computes
// Y^T = W' X^T, so that W's 128 rows of the column block are wgmma's M (two
// consumer warpgroups of 64) and X's rows its N (kN = 16, 32 or 64), where
// the mma.sync kernels (weight_stream_tma.cuh) hold X's rows as 16-row
// m tiles. The accumulators are kN / 2 floats a thread instead of kN for the
// same 128 columns, and one wgmma does the work of kN / 2 mma.sync.
//
// Stage layout (one 128-deep chunk, 1024-byte aligned; TmaBlock's producer):
//   - W, two TMA boxes of 64 bytes x 128 rows (k 0-63, 64-127 of the
//     chunk) with the 64-byte swizzle: raw_fragment.cuh's raw k tile, of
//     which warpgroup h reads rows 64 h .. 64 h + 63.
//   - X, two boxes of 64 halves x kN rows with the 128-byte swizzle:
//     wgmma's K-major B tile (wgmma.cuh), one per 64-deep half.
//
// Thread -> data layout (threads 0 .. 255 the consumers, warpgroup h =
// thread / 128; 256 .. 287 the producer warp, of which one lane copies):
//   - A fragments: raw_fragment.cuh's (RawFragmentLayout): thread t of
//     warpgroup h converts rows 64 h + 16 (t / 32) + t % 32 / 4 (+ 8) of W,
//     k = 16 kk + 2 (t % 4) (+ 1, + 8, + 9) of each half, minus the row's
//     offset (OffsetRow);
//   - accumulators (wgmma_instructions.cuh): d[j][e] is the sum of column
//     n0 + 64 h + 16 (t / 32) + t % 32 / 4 + 8 (e / 2) and row
//     8 j + 2 (t % 4) + e % 2 of X.
// Shares of K and their reduction are the other decode kernels'
// (weight_stream_grid.cuh, add_shares).
#pragma once

#include <cuda.h>

#include "../raw_fragment.cuh"
#include "../wgmma.cuh"
#include "weight_stream_tma.cuh"

namespace tc {
namespace decode {

constexpr int kWgmmaConsumers = 256, kWgmmaThreads = kWgmmaConsumers + 32;

// A stage of the wgmma kernels: W's 128 bytes of each of the block's rows
// (two boxes of 64 bytes) and X's k of them, kWeightsPerByte weights a
// byte: 128 k for 8-bit weights, 256 for 4-bit (four boxes of X).
template <int kN, int kDepth, int kWeightsPerByte = 1>
struct WgmmaStages {
  static_assert(kN == 16 || kN == 32 || kN == 64, "wgmma's N: 16, 32 or 64 rows of X");
  static_assert(kWeightsPerByte == 1 || kWeightsPerByte == 2, "8-bit or 4-bit weights");
  static constexpr int kRows = kN;
  static constexpr int kChunkK = kChunk * kWeightsPerByte, kActivationBoxes = 2 * kWeightsPerByte;
  static constexpr int kWeightBoxes = 2, kChunkWeightBytes = 128;
  static constexpr int kWeightBoxBytes = kColumns * 64;
  static constexpr int kActivationBoxBytes = kRows * 128;
  static constexpr int kStageBytes =
      kWeightBoxes * kWeightBoxBytes + kActivationBoxes * kActivationBoxBytes;
  static constexpr int kConsumerWarps = kWgmmaConsumers / 32;
  static constexpr int kBarrierOffset = kDepth * kStageBytes;
  static constexpr int kBytes = kBarrierOffset + 2 * kDepth * 8 + 1024;
  static_assert(kStageBytes % 1024 == 0, "stages stay 1024-byte aligned");
  static_assert(partial_tile_bytes<kN / 16>() <= kBarrierOffset, "the partial tile fits");
};

// The two rows of W a consumer thread converts, and how the block converts.
template <typename F>
struct WgmmaRows {
  OffsetRow<F> rows[2];
  OffsetPairs pairs;
};

// A consumer warpgroup's chunks: per 64-deep half, its A fragments
// converted from the raw W tile while the previous half's wgmma run, then
// four wgmma against X's half. A stage is released once its wgmma are done.
template <typename Src, int kN, int kDepth, typename F>
__device__ __forceinline__ void consume_chunks_wgmma(
    float (&acc)[kN / 8][4], const TmaBlock<WgmmaStages<kN, kDepth>, kDepth> &block,
    const WgmmaRows<F> &rows, long long k, int thread) {
  using S = WgmmaStages<kN, kDepth>;
  const int half_group = thread / 128, t = thread % 128, lane = thread % 32;
  for (long long c = block.begin; c < block.end; ++c) {
    const unsigned char *stage = block.acquire(c);
    uint32_t a[2][4][4];
#pragma unroll
    for (int b = 0; b < 2; ++b) {
      const unsigned char *raw = stage + b * S::kWeightBoxBytes + half_group * 64 * 64;
      load_raw_fragments<Src, __half>(a[b], raw, t, rows.rows, rows.pairs,
                                      k - (c * kChunk + 64 * b));
      const uint64_t desc =
          tc::wgmma_desc_k_major_sw128(stage + 2 * S::kWeightBoxBytes + b * S::kActivationBoxBytes);
      warpgroup_arrive(acc);
#pragma unroll
      for (int kk = 0; kk < 4; ++kk)
        wgmma_m64k16_rs<__half, 0, kN>(acc, a[b][kk], wgmma_desc_advance(desc, 32 * kk));
      wgmma_commit();
    }
    wgmma_wait<0>(acc);
    fence_fragments(a[0]);
    fence_fragments(a[1]);
    block.release(c, lane);
  }
}

// The end of a wgmma kernel's column block (finish_columns's, for the
// accumulators of consume_chunks_wgmma's layout): column n0 + 64 h + 16 w
// + g (+ 8) and row 8 j + 2 q (+ 1) of X in d[j][e]. Every thread of the
// block calls it; `consumer`: one of the kWgmmaConsumers threads.
template <int kN, class Epilogue>
__device__ __forceinline__ void finish_wgmma_columns(const float (&acc)[kN / 8][4], long long m,
                                                     long long n, const Epilogue &epilogue,
                                                     unsigned char *part_bytes, long long n0,
                                                     int thread, bool consumer) {
  const int t = consumer ? thread % 128 : thread % 32, half_group = consumer ? thread / 128 : 0;
  const int warp = t / 32, lane = thread % 32, g = lane / 4, q = lane % 4;
  const int column = 64 * half_group + 16 * warp + g;
  if (gridDim.x == 1) {
    if (consumer)
#pragma unroll
      for (int j = 0; j < kN / 8; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const long long i = 8 * j + 2 * q + e % 2, col = n0 + column + 8 * (e / 2);
          if (i < m && col < n)
            epilogue(i, col, acc[j][e]);
        }
    return;
  }
  constexpr int kPitch = kColumns + 4;
  float *part = reinterpret_cast<float *>(part_bytes);
  __syncthreads();  // every stage is read
  if (consumer)
#pragma unroll
    for (int j = 0; j < kN / 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        part[(8 * j + 2 * q + e % 2) * kPitch + column + 8 * (e / 2)] = acc[j][e];
  add_shares<kN / 16, kWgmmaConsumers>(part, m, n, epilogue, n0, thread, consumer);
}

template <typename Src, int kN, int kDepth, class Rows, class Epilogue>
__global__ void __launch_bounds__(kWgmmaThreads)
    weight_stream_wgmma_kernel(const WeightStreamTmaParams<Rows, Epilogue> p,
                               const __grid_constant__ CUtensorMap map_w,
                               const __grid_constant__ CUtensorMap map_x) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using S = WgmmaStages<kN, kDepth>;
  extern __shared__ __align__(1024) unsigned char smem_bytes[];
  const TmaBlock<S, kDepth> block(smem_bytes, p.k);
  const int thread = threadIdx.x, lane = thread % 32;
  const bool consumer = thread < kWgmmaConsumers;
  // The first stages are on the way while the rows' offsets load.
  const long long first_end = block.end < block.begin + kDepth ? block.end : block.begin + kDepth;
  if (thread == kWgmmaConsumers)
    block.produce(map_w, map_x, block.begin, first_end);
  __syncwarp();

  // The thread's two rows (the producer warp's: warp 0's, for the vote).
  const int t = consumer ? thread : thread % 32;
  const int half_group = consumer ? thread / 128 : 0;
  const auto offset_of = [&](int i) {
    const long long row = block.n0 + 64 * half_group + RawFragmentLayout::row(t % 128, i);
    return p.rows(row < p.n ? row : p.n - 1);
  };
  WgmmaRows<decltype(offset_of(0).f)> rows{{offset_of(0), offset_of(1)}, OffsetPairs::kThroughFloat};
  bool exact, integral;
  offset_classes(rows.rows, exact, integral);
  if (__syncthreads_and(exact))
    rows.pairs = __syncthreads_and(integral) ? OffsetPairs::kIntegral : OffsetPairs::kWithFraction;

  float acc[kN / 8][4] = {};
  if (!consumer) {
    if (lane == 0)
      block.produce(map_w, map_x, first_end, block.end);
    __syncwarp();
  } else {
    consume_chunks_wgmma<Src, kN, kDepth>(acc, block, rows, p.k, thread);
  }

  finish_wgmma_columns<kN>(acc, p.m, p.n, p.epilogue, block.smem, block.n0, thread, consumer);
#else
  (void)p, (void)map_w, (void)map_x;
  TC_DEVICE_TRAP_();  // wgmma needs sm_90a
#endif
}

// Launches the layer (M <= kN) as launch_weight_stream_tma does, on
// wgmma (launch_tma_layer says where it declines). The caller's code must
// be built for sm_90a: built for sm_90 without the `a` features, the
// kernel traps.
template <int kN, int kDepth, typename Src, class Rows, class Epilogue>
__host__ bool launch_weight_stream_wgmma(long long m, long long n, long long k, const __half *x,
                                         long long ldx, const Src *w, long long ldw,
                                         const Rows &rows, const Epilogue &epilogue,
                                         const DeviceFacts &device, cudaStream_t stream,
                                         int split = 0) {
  return launch_tma_layer<weight_stream_wgmma_kernel<Src, kN, kDepth, Rows, Epilogue>, kN / 16,
                          kWgmmaThreads, WgmmaStages<kN, kDepth>::kBytes, true>(
      m, n, k, x, ldx, w, ldw, rows, epilogue, device, stream, split);
}

}  // namespace decode
}  // namespace tc
