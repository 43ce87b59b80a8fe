// tc/sm90/epilogue.cuh - the staged epilogue: the consumers' accumulators
// go to shared memory, then the region's epilogue functor writes the
// output tile from there, eight consecutive columns per thread.
//
// StagedEpilogue<kBM, kBN, kThreads, kApplyThreads, kTransposed>:
//   stage()  thread t of warp w = t / 32 holds, in the wgmma accumulator
//            layout, rows 16 w + t % 32 / 4 (+ 8) and columns 8 c + 2 (t % 4)
//            (+ 1) of the tile; they land at row * kPitch + column floats.
//   apply()  the region's epilogue functor writes the tile, eight
//            consecutive columns per call (tc/staged_tile.cuh, which
//            gives the threads' rows; kBN = 192: 256 threads, 24 groups).
//
// kTransposed: the kernel computed the output's tile transposed (C^T = B^T
// A^T, a raw weight as wgmma's A: TransposedOutput below), and stage()
// writes element (row, column) of its tile at column * kPitch + row, so
// that the staged tile is the output's, kBN x kBM, and apply() runs on it
// as on any other (kPitch = kBM + 4: a warp's 32 scalar stores, 8 rows by
// 4 column pairs, fall on distinct banks).
//
// A functor declares no __shared__ memory (tc/sm90/gemm_kernel.cuh).
#pragma once

#include <cstdint>

#include "../batch_entry.cuh"
#include "../convert.cuh"
#include "../mbarrier.cuh"
#include "../lane_store.cuh"  // for the functors' row stores
#include "../staged_tile.cuh"

namespace tc {
namespace sm90 {

// kThreads stage (the consumers), kApplyThreads apply.
template <int kBM, int kBN, int kThreads, int kApplyThreads = kThreads, bool kTransposed = false>
struct StagedEpilogue {
  // The staged tile: the output's rows and columns.
  static constexpr int kRows = kTransposed ? kBN : kBM;
  static constexpr int kCols = kTransposed ? kBM : kBN;
  // +8 floats: the float2 stores of a warp's 8 rows fall on distinct banks
  // (transposed: +4, see above).
  static constexpr int kPitch = kTransposed ? kBM + 4 : kBN + 8;
  static constexpr int kBytes = kRows * kPitch * 4;
  static constexpr int kGroups = kCols / 8;
  static constexpr int kRowsPerPass = kApplyThreads / kGroups;
  static_assert(kCols % 8 == 0 && kRowsPerPass >= 1, "whole column groups per pass");
  static_assert(kBM == kThreads / 2, "a warp stages 16 rows");

  __device__ static void stage(float *tile, const float (&acc)[kBN / 8][4], int thread) {
    const int row = 16 * (thread / 32) + thread % 32 / 4, col = 2 * (thread % 4);
#pragma unroll
    for (int c = 0; c < kBN / 8; ++c)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        if constexpr (kTransposed) {
          tile[(col + 8 * c) * kPitch + row + 8 * h] = acc[c][2 * h];
          tile[(col + 8 * c + 1) * kPitch + row + 8 * h] = acc[c][2 * h + 1];
        } else {
          *reinterpret_cast<float2 *>(tile + (row + 8 * h) * kPitch + col + 8 * c) =
              make_float2(acc[c][2 * h], acc[c][2 * h + 1]);
        }
      }
  }

  // The kernel's tile whose first element is (row0, col0) of its M x N
  // product (transposed: the output's (col0, row0) of N x M); the staged
  // tile's rows [row_begin, row_end) only (a part of a tile split in a
  // cluster finishes some of its rows, tc/cluster_parts.cuh).
  template <class F>
  __device__ static void apply(const float *tile, const F &f, long long row0, long long col0,
                               long long m, long long n, int thread, int row_begin = 0,
                               int row_end = kRows) {
    if constexpr (kTransposed)
      apply_staged_tile<kRows, kCols, kPitch, kApplyThreads>(tile, f, col0, row0, n, m, thread,
                                                             row_begin, row_end);
    else
      apply_staged_tile<kRows, kCols, kPitch, kApplyThreads>(tile, f, row0, col0, m, n, thread,
                                                             row_begin, row_end);
  }
};

// The region's epilogue functor F, of the output C, for a kernel that
// computes C^T (its A the region's B, its B the region's A): the kernel's
// element (r, c) is the output's (c, r). The staged epilogues transpose the
// tile in shared memory (StagedEpilogue's kTransposed), so F sees the
// output's rows as ever.
template <class F>
struct TransposedOutput {
  F f;
};
template <class E>
struct OutputOf {
  static constexpr bool kTransposed = false;
  __device__ static const E &functor(const E &e) { return e; }
};
template <class F>
struct OutputOf<TransposedOutput<F>> {
  static constexpr bool kTransposed = true;
  __device__ static const F &functor(const TransposedOutput<F> &e) { return e.f; }
};

// The staged epilogue in warpgroups of its own (persistent blocks,
// tc/sm90/gemm_kernel.cuh): the consumers stage each tile in a buffer that
// is the epilogue's alone and go on to the next tile's main loop while
// kThreads epilogue threads apply it, with the layouts of StagedEpilogue
// (consumer thread t stages, epilogue thread t applies).
//
//   full   completes once every consumer thread has staged its part
//   empty  completes once every epilogue thread has applied its part
//
// A block's tile u (0, 1, ...) is in the buffer once full has completed
// phase u % 2; the consumers stage tile u > 0 once empty has completed
// phase (u - 1) % 2. With kApplyThreads epilogue threads (fewer than the
// consumers where a producer warpgroup takes their registers), epilogue
// thread t applies StagedEpilogue's share of thread t of kApplyThreads.
template <int kBM, int kBN, int kThreads, int kApplyThreads = kThreads, bool kTransposed = false>
struct BufferedEpilogue {
  using Stage = StagedEpilogue<kBM, kBN, kThreads, kApplyThreads, kTransposed>;
  static constexpr int kBytes = Stage::kBytes + 16;  // the tile, then the two barriers

  struct Storage {
    float *tile;
    uint64_t *full, *empty;
  };

  // `p`: 16-byte aligned shared memory of kBytes.
  __device__ static Storage storage(unsigned char *p) {
    Storage b;
    b.tile = reinterpret_cast<float *>(p);
    b.full = reinterpret_cast<uint64_t *>(p + Stage::kBytes);
    b.empty = b.full + 1;
    return b;
  }

  // One thread, before the block's first barrier.
  __device__ static void init(const Storage &b) {
    mbarrier_init(b.full, kThreads);
    mbarrier_init(b.empty, kApplyThreads);
  }

  // Consumer thread `thread`: tile `unit`'s sums into the buffer.
  __device__ static void stage(const Storage &b, const float (&acc)[kBN / 8][4], int unit,
                               int thread) {
    if (unit > 0)
      mbarrier_wait(b.empty, (unit - 1) & 1);  // the previous tile has left the buffer
    Stage::stage(b.tile, acc, thread);
    mbarrier_arrive(b.full);
  }

  // Epilogue thread `thread`: tile `unit`, whose first element is (row0,
  // col0) of an M x N output, from the buffer through f.
  template <class F>
  __device__ static void apply(const Storage &b, const F &f, long long row0, long long col0,
                               long long m, long long n, int unit, int thread) {
    mbarrier_wait(b.full, unit & 1);  // the consumers have staged it
    Stage::apply(b.tile, f, row0, col0, m, n, thread);
    mbarrier_arrive(b.empty);
  }
};

// (A batch's functor at one entry: tc/batch_entry.cuh.)
using ::tc::BatchEntryEpilogue;

// The plain epilogue functor: C[i][j] = acc, rounded to T, row pitch ldc;
// eight elements with one 16-byte store where the row is aligned to it.
template <class T>
struct StoreEpilogue {
  T *c;
  long long ldc;
  __device__ void operator()(long long i, long long j, float acc) const {
    c[i * ldc + j] = from_float<T>(acc);
  }
  __device__ void row(long long i, long long j0, const float (&acc)[8]) const {
    constexpr int kLanes = 16 / sizeof(T);  // of one 16-byte store
    static_assert(8 % kLanes == 0, "16-bit or 32-bit elements");
#pragma unroll
    for (int h = 0; h < 8 / kLanes; ++h) {
      T lanes[kLanes];
#pragma unroll
      for (int v = 0; v < kLanes; ++v)
        lanes[v] = from_float<T>(acc[h * kLanes + v]);
      store_lane_words<kLanes>(c + i * ldc + j0 + h * kLanes, lanes);
    }
  }
};

}  // namespace sm90
}  // namespace tc
