// tc/sm80/mainloop.cuh - the mma.sync main loop: cp.async stages of both
// operands' tiles, ldmatrix fragments, mma.sync.m16n8k16 (fp16, bf16) or
// m16n8k8 (fp32 operands as tf32, each rounded to nearest) into fp32
// accumulators (sm_80 and later).
//
// Types:
//   OperandTile<T, kRows, kMajor>   an operand's tile: elements T (__half,
//       __nv_bfloat16, or float read as tf32), kRows rows of the block tile (A: m, B: n),
//       stored with k contiguous (Major::K: A[m][k], B[n][k]) or the other
//       index contiguous (Major::MN: A[k][m], B[k][n]); copied with cp.async.
//   ConvertedOperandTile<Src, T, kRows, kMajor, Convert>   the same stage
//       tile of an operand stored as Src (8-bit weights, or T itself)
//       that the region's functor Convert transforms while it is copied
//       (a prologue of the element's row or column, one not finite at 0, a
//       mask of the loops' domain, a conversion to T).
//   CpAsyncMmaMainloop<ATile, BTile, kBK, kStages, kWarpsM, kWarpsN,
//                      APrologue, BPrologue, kWarpsK>
//       kWarpsM x kWarpsN warps, each owning a (kBM / kWarpsM) x
//       (kBN / kWarpsN) part of the block tile, over k tiles of kBK; an
//       operand's prologue (tc/prologue.cuh: a functor of the element,
//       finite at 0; NoPrologue by default, on one operand at most) is
//       applied to its fragments after ldmatrix. kWarpsK > 1 (a
//       warp_split_k clause): kWarpsK such groups of warps, group z taking
//       k steps [z, z + 1) * kKSteps / kWarpsK of every k tile; their sums
//       meet in shared memory after the loop, in group 0's accumulators.
//   Product<ATile, BTile>   one product of a sum C = A_0 B_0 + A_1 B_1 +
//       ... (a GEMM is the sum of one): its operands' Arguments, its
//       reduction length, and in a batch of GEMMs its batch strides. The
//       main loop reduces over the products' k tiles one after the other,
//       as over one concatenated K: product p's tiles are positions
//       first(p) .. first(p) + tiles(p) - 1, its last padded with zeros;
//       the copiers switch operands (rebase) before their first copy of a
//       product, so the pipeline stays full across the boundary.
//
// Shared memory: kStages stages of A's tile, then kStages of B's; a stage
// is the tile as stored (kRows x kBK, or kBK x kRows), its contiguous
// extent swizzled (tc/swizzle.cuh) so that ldmatrix is conflict free.
//
// Thread -> data:
//   copies   the stage's rows (as stored) are cut into 16-byte chunks;
//            thread t copies chunk t % (chunks of a row) of rows
//            t / (chunks of a row) + r * kRowStep, kRowStep = kThreads /
//            (chunks of a row): consecutive threads read consecutive chunks
//            (tc/tile_copy.cuh, OperandCopier; the copy mode, chosen at
//            launch, says how aligned the operand is).
//   mma      warp w = z * kWarpsM * kWarpsN + wm * kWarpsN + wn (z: its
//            group of k steps); its accumulators acc[i][j][e] are
//            output rows kWM wm + 16 i + l / 4 (+ 8 for e >= 2) and columns
//            kWN wn + 8 j + 2 (l % 4) (+ 1 for odd e), lane l: the
//            m16n8 accumulator layout of mma.sync (tc/mma.cuh).
//
// The pipeline: stages 0 .. kStages - 2 are in flight before the loop; at
// k step kk of k tile t a warp loads step kk + 1's fragments (double
// buffered) and issues a share of tile t + kStages - 1's copies into the
// stage tile t - 1 left, then runs step kk's mmas. Before the tile's last
// step the block waits for tile t + 1's copies and meets at a barrier,
// after which no warp reads tile t - 1's stage again.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../cp_async.cuh"
#include "../fragment.cuh"
#include "../mma.cuh"
#include "../prologue.cuh"
#include "../split_k.cuh"
#include "../tile_convert.cuh"
#include "../tile_copy.cuh"

namespace tc {
namespace sm80 {

// Which index of an operand is contiguous in memory: k, or its m (n).
enum class Major { K, MN };

// What a stage tile of kRows rows (A: m, B: n) by kBK k looks like, and
// how kThreads threads cut it into 16-byte chunks of T (the file's
// comment): shared by the plain and the converted operand tiles.
template <typename T, int kRows_, Major kMajor_>
struct StageGeometry {
  static_assert(sizeof(T) == 2 || std::is_same<T, float>::value,
                "16-bit operands (fp16, bf16) or fp32 ones (as tf32)");
  using Element = T;
  static constexpr int kRows = kRows_;
  static constexpr Major kMajor = kMajor_;
  static constexpr bool kKContiguous = kMajor == Major::K;

  // A stage of kBK k: its contiguous extent and its rows as stored.
  template <int kBK>
  static constexpr int contiguous() { return kKContiguous ? kBK : kRows; }
  template <int kBK>
  static constexpr int stored_rows() { return kKContiguous ? kRows : kBK; }

  template <int kBK, int kThreads>
  struct Chunks {
    static constexpr int kPerRow = contiguous<kBK>() * static_cast<int>(sizeof(T)) / 16;
    static_assert(kThreads % kPerRow == 0, "threads take whole rows of chunks");
    static constexpr int kRowStep = kThreads / kPerRow;
    static_assert(stored_rows<kBK>() % kRowStep == 0, "every thread copies as many chunks");
    static constexpr int kPerThread = stored_rows<kBK>() / kRowStep;

    // The copier (OperandCopier or ConvertingCopier: the same layout) of
    // thread `thread`'s chunks of the tile whose first row (A: m, B: n) is
    // `outer0` of the operand `args` gives, a matrix of `outer` rows (m or
    // n) and `k` columns.
    template <class Copier, class Arguments>
    __device__ __forceinline__ static Copier copier(const Arguments &args, long long outer0,
                                                    long long outer, long long k, int thread) {
      Copier c;
      c.base = args.base;
      c.ld = args.ld;
      c.k_extent = k;
      constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements a chunk
      const int row = thread / kPerRow, col = kVec * (thread % kPerRow);
      if (kKContiguous)
        c.setup(0, row, col, outer0 + row, col, outer, k);
      else
        c.setup(0, row, col, row, outer0 + col, k, outer);
      return c;
    }
  };
};

// An operand stored as the mma reads it, copied with cp.async.
template <typename T, int kRows_, Major kMajor_>
struct OperandTile : StageGeometry<T, kRows_, kMajor_> {
  using Geometry = StageGeometry<T, kRows_, kMajor_>;
  using Source = T;
  static constexpr bool kConverts = false;
  // The operand in global memory: its first element and leading dimension.
  struct Arguments {
    const T *base;
    long long ld;
  };
  // The copy mode (tc/tile_copy.cuh) the operand allows; `extent` is that
  // of its contiguous index (k, or m / n).
  __host__ static int copy_mode(const Arguments &args, long long extent) {
    return ::tc::copy_mode(args.base, args.ld, extent);
  }

  // The copier of a stage by kThreads threads (see the file's comment).
  template <int kMode, int kBK, int kThreads>
  struct Copy {
    using Layout = typename Geometry::template Chunks<kBK, kThreads>;
    static constexpr int kChunks = Layout::kPerThread;
    using Copier = OperandCopier<kMode, T, kChunks, Geometry::template contiguous<kBK>(),
                                 Geometry::kKContiguous, kBK, Layout::kRowStep>;

    __device__ __forceinline__ static Copier setup(const Arguments &args, long long outer0,
                                                   long long outer, long long k, int thread) {
      return Layout::template copier<Copier>(args, outer0, outer, k, thread);
    }
    // Chunk i of k tile t into the stage at `stage`.
    __device__ __forceinline__ static void issue(const Copier &c, int i, T *stage, int t,
                                                 const Arguments &) {
      c.issue(i, stage, t);
    }
  };
};

// An operand stored as Src (8-bit weights, or the mma's own type) that
// Convert turns into T on its way to shared memory (tc/tile_convert.cuh,
// ConvertingCopier: synchronous loads, f in fp32, one 16-byte store a
// chunk): `float Convert::operator()(float element, long long outer)`, its
// row (A) or column (B), or where the operand is masked by the loops'
// domain (`static constexpr bool kMasked = true`), `operator()(float, long
// long outer, long long k)` and `bool needs(long long outer, long long k)`
// (the elements the loops read; no other is loaded). Elements outside the
// matrix are exact zeros, not f(0): a zero point or 1 / x make f(0)
// nonzero, and padded products must add nothing. The stage is the same as
// OperandTile's.
template <typename Src, typename T, int kRows_, Major kMajor_, class Convert>
struct ConvertedOperandTile : StageGeometry<T, kRows_, kMajor_> {
  using Geometry = StageGeometry<T, kRows_, kMajor_>;
  using Source = Src;
  using Conversion = Convert;
  static constexpr bool kConverts = true;
  static constexpr bool kMasked = conversion_takes_k<Convert>;
  struct Arguments {
    const Src *base;
    long long ld;
    Convert convert;
  };
  __host__ static int copy_mode(const Arguments &args, long long extent) {
    return convert_copy_mode<T>(args.base, args.ld, extent);
  }

  template <int kMode, int kBK, int kThreads>
  struct Copy {
    using Layout = typename Geometry::template Chunks<kBK, kThreads>;
    static constexpr int kChunks = Layout::kPerThread;
    struct Needs {
      const Convert &convert;
      __device__ __forceinline__ bool operator()(long long outer, long long k) const {
        return convert.needs(outer, k);
      }
    };
    using Copier = ConvertingCopier<kMode, Src, T, kChunks, Geometry::template contiguous<kBK>(),
                                    Geometry::kKContiguous, kBK, Layout::kRowStep>;

    __device__ __forceinline__ static Copier setup(const Arguments &args, long long outer0,
                                                   long long outer, long long k, int thread) {
      return Layout::template copier<Copier>(args, outer0, outer, k, thread);
    }
    // Chunk i of k tile t into the stage at `stage`, converted. (The
    // functor is read from the kernel's parameters, not held in registers.)
    __device__ __forceinline__ static void issue(Copier &c, int i, T *stage, int t,
                                                 const Arguments &args) {
      if constexpr (kMasked)
        c.issue(i, stage, t, args.convert, Needs{args.convert});
      else
        c.issue(i, stage, t, args.convert);
    }
  };
};

// One product of a sum (the file's comment): A_p (rows m) and B_p (rows
// n) as their tiles' Arguments, over k elements of the reduction (k <= 0:
// none); in a batch of GEMMs, entry z reads A_p at a.base + z * batch_a and
// B_p at b.base + z * batch_b (0: every entry reads the same).
template <class ATile, class BTile>
struct Product {
  typename ATile::Arguments a;
  typename BTile::Arguments b;
  long long k;
  long long batch_a = 0, batch_b = 0;
};

template <class ATile, class BTile, int kBK_, int kStages_, int kWarpsM, int kWarpsN,
          class APrologue = NoPrologue, class BPrologue = NoPrologue, int kWarpsK = 1>
struct CpAsyncMmaMainloop {
  using A = ATile;
  using PrologueA = APrologue;
  using PrologueB = BPrologue;
  using B = BTile;
  using Product = tc::sm80::Product<ATile, BTile>;
  using Element = typename ATile::Element;
  static_assert(std::is_same<Element, typename BTile::Element>::value, "one operand type");
  static constexpr int kBM = ATile::kRows, kBN = BTile::kRows, kBK = kBK_, kStages = kStages_;
  // A group of warps covers the block tile; kWarpsK groups share k.
  static constexpr int kGroupWarps = kWarpsM * kWarpsN, kGroupThreads = 32 * kGroupWarps;
  static constexpr int kThreads = kGroupThreads * kWarpsK;
  static constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
  static constexpr bool kTf32 = std::is_same<Element, float>::value;
  static constexpr int kMmaK = kTf32 ? 8 : 16;  // m16n8k8 (tf32) or m16n8k16
  static constexpr int kMTiles = kWM / 16, kNTiles = kWN / 8, kKSteps = kBK / kMmaK;
  static_assert(kWarpsK >= 1 && kKSteps % kWarpsK == 0, "each group as many k steps");
  static constexpr int kGroupSteps = kKSteps / kWarpsK;  // a group's k steps of a tile
  static_assert(kWM % 16 == 0 && kWN % 16 == 0, "whole m16n8k16 tiles, in pairs along n");
  // An operand's prologue: the zero padding past K becomes f(0), which
  // the other operand's zeros keep out of the products.
  static constexpr bool kPrologueA = !std::is_same<APrologue, NoPrologue>::value,
                        kPrologueB = !std::is_same<BPrologue, NoPrologue>::value;
  static_assert(!(kPrologueA && kPrologueB), "a prologue on one operand at most");
  static_assert(!kTf32 || !(kPrologueA || kPrologueB), "tf32 fragments are rounded as loaded");
  // A converted operand's copies hold its chunks in registers from load to
  // store (synchronous copies).
  static constexpr bool kConverts = ATile::kConverts || BTile::kConverts;
  // Registers converted within the k steps (a prologue's fragments, a
  // converted operand's chunks): then one fragment buffer, and a tile's
  // copies issued at once at its first step, not in shares between steps
  // (otherwise ptxas spilled).
  static constexpr bool kConvertingSteps = kConverts || kPrologueA || kPrologueB;
  // Fragments double-buffered (step kk's in buffer kk % 2, loaded during
  // step kk - 1) with an even number of k steps and four warps or more;
  // else loaded just before their mmas: with fewer warps each thread holds
  // more copy addresses beside the accumulators.
  // Not for tf32 fragments loaded element by element (an M- or N-major
  // operand), whose addresses beside two buffers spilled, nor in copy mode
  // kPartialChunks beside a 64x64 warp tile's accumulators: its copiers
  // keep each chunk's span and bounds live, and two buffers spilled.
  template <int kMode>
  __host__ __device__ static constexpr bool double_buffered() {
    return kGroupSteps % 2 == 0 && kThreads >= 128 && !kConvertingSteps &&
           !(kTf32 && !(ATile::kKContiguous && BTile::kKContiguous)) &&
           (kMode != kPartialChunks || kMTiles * kNTiles < 32);
  }
  static_assert(kBK % kMmaK == 0, "whole k steps");
  static_assert(kStages >= 2, "a stage in flight while another is read");
  static constexpr int kStageA = kBM * kBK, kStageB = kBN * kBK;  // elements
  static constexpr int kPipelineBytes = kStages * (kStageA + kStageB) * static_cast<int>(sizeof(Element));
  // Groups 1 .. kWarpsK - 1's sums, after the loop, in the stages' memory.
  static constexpr int kPartialBytes = (kWarpsK - 1) * kBM * kBN * 4;

  // (tf32: ldmatrix where k is contiguous, else element loads; each
  // element rounded to tf32, tc/fragment.cuh.)
  template <FragmentLayout kLayout, int kCols, int kTiles>
  using Fragments =
      typename std::conditional<kTf32, FragmentLoaderTf32<kLayout, kCols, kTiles, kGroupSteps>,
                                FragmentLoader<kLayout, kCols, kTiles, kGroupSteps>>::type;
  using FragmentsA = Fragments<ATile::kKContiguous ? FragmentLayout::AKContiguous
                                                   : FragmentLayout::AMContiguous,
                               ATile::template contiguous<kBK>(), kMTiles>;
  using FragmentsB = Fragments<BTile::kKContiguous ? FragmentLayout::BKContiguous
                                                   : FragmentLayout::BNContiguous,
                               BTile::template contiguous<kBK>(), kNTiles / 2>;
  using Accumulators = float[kMTiles][kNTiles][4];

  __device__ __forceinline__ static void mma(float (&d)[4], const uint32_t (&a)[4],
                                             const uint32_t (&b)[2]) {
    if constexpr (kTf32)
      mma_m16n8k8_tf32(d, a, b);
    else if constexpr (std::is_same<Element, __half>::value)
      mma_m16n8k16_f16(d, a, b);
    else
      mma_m16n8k16_bf16(d, a, b);
  }

  // Product p's k tiles.
  __host__ __device__ static constexpr long long k_tiles_of(long long k) {
    return k > 0 ? (k + kBK - 1) / kBK : 0;
  }

  // The block tile at (row0, col0) of the m x n output of batch entry
  // `batch`, over positions k_begin .. k_begin + k_tiles - 1 of the
  // products' concatenated k tiles (the file's comment), each operand as
  // its Product gives it, into acc (zero on entry). Leaves no copy in
  // flight. (`products` is the kernel's parameter: indexed by constants
  // only, it is read where it is, not copied.)
  template <int kMode, int kCount>
  __device__ static void run(Accumulators &acc, Element *smem,
                             const Product (&products)[kCount], long long batch, long long m,
                             long long n, long long row0, long long col0, int k_begin,
                             int k_tiles, int thread) {
    static_assert(kCount == 1 || !kConverts, "a sum of products of operands as stored");
    constexpr bool kDoubleBuffered = double_buffered<kMode>();
    using CopyA = typename ATile::template Copy<kMode, kBK, kThreads>;
    using CopyB = typename BTile::template Copy<kMode, kBK, kThreads>;
    // The copiers read product p at the batch entry: their chunks shifted
    // by the entry's offset, their base (the address an empty chunk
    // names) left at the kernel's parameter, which costs no register.
    auto to_entry = [&](auto &copier, long long batch_stride) {
      copier.src0 += batch * batch_stride;
    };
    typename CopyA::Copier copy_a = CopyA::setup(products[0].a, row0, m, products[0].k, thread);
    typename CopyB::Copier copy_b = CopyB::setup(products[0].b, col0, n, products[0].k, thread);
    to_entry(copy_a, products[0].batch_a);
    to_entry(copy_b, products[0].batch_b);
    // Before position t's copies: where t is `next` (this block's first
    // position, then each later product's first), the copiers switch to
    // t's product (not for product 0, whose copiers are set up). Only
    // `next` stays live between tiles.
    int next = k_begin;
    auto rebase = [&](int t) {
      if constexpr (kCount > 1) {
        if (t != next)
          return;
        next = -1;
        long long first = 0;
#pragma unroll
        for (int p = 0; p < kCount; ++p) {
          const long long tiles = k_tiles_of(products[p].k);
          if (p > 0 && first <= t && t < first + tiles) {
            copy_a.rebase(products[p].a.base, products[p].a.ld, products[p].k, first);
            copy_b.rebase(products[p].b.base, products[p].b.ld, products[p].k, first);
            to_entry(copy_a, products[p].batch_a);
            to_entry(copy_b, products[p].batch_b);
          }
          if (next < 0 && first > t && tiles > 0)
            next = static_cast<int>(first);
          first += tiles;
        }
      }
    };
    Element *stages_a = smem, *stages_b = smem + kStages * kStageA;
    const int warp = group_warp(thread), group = kWarpsK > 1 ? thread / kGroupThreads : 0;
    FragmentsA frag_a;
    FragmentsB frag_b;
    frag_a.setup(kWM * (warp / kWarpsN), group * kGroupSteps);
    frag_b.setup(kWN * (warp % kWarpsN), group * kGroupSteps);

    // Tile t's chunks c with c % kShares == share, into stage s: k step kk
    // < kShares issues share kk; the last share's step commits them.
    // (Synchronous loads all at once stall once, their latencies overlapped.)
    constexpr int kShares = kGroupSteps > 1 && !kConvertingSteps ? kGroupSteps - 1 : 1;
    auto issue = [&](int share, int s, int t) {
      if (share == 0)
        rebase(t);
#pragma unroll
      for (int c = share; c < CopyA::kChunks; c += kShares)
        CopyA::issue(copy_a, c, stages_a + s * kStageA, t, products[0].a);
#pragma unroll
      for (int c = share; c < CopyB::kChunks; c += kShares)
        CopyB::issue(copy_b, c, stages_b + s * kStageB, t, products[0].b);
    };
    constexpr int kBuffers = kDoubleBuffered ? 2 : 1;
    uint32_t fa[kBuffers][kMTiles][4], fb[kBuffers][kNTiles][2];
    auto load = [&](int buffer, int s, int kk) {
#pragma unroll
      for (int i = 0; i < kMTiles; ++i) {
        frag_a.load(fa[buffer][i], stages_a + s * kStageA, i, kk);
        if constexpr (kPrologueA)
          apply_prologue<Element>(fa[buffer][i], APrologue{});
      }
#pragma unroll
      for (int j = 0; j < kNTiles / 2; ++j) {
        frag_b.load(fb[buffer][2 * j], fb[buffer][2 * j + 1], stages_b + s * kStageB, j, kk);
        if constexpr (kPrologueB) {
          apply_prologue<Element>(fb[buffer][2 * j], BPrologue{});
          apply_prologue<Element>(fb[buffer][2 * j + 1], BPrologue{});
        }
      }
    };

#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < k_tiles)
#pragma unroll
        for (int share = 0; share < kShares; ++share)
          issue(share, s, k_begin + s);
      cp_async_commit();
    }
    cp_async_wait<kStages - 2>();
    __syncthreads();
    if (kDoubleBuffered)
      load(0, 0, 0);
    int read = 0, write = kStages - 1;
    // Tile t's k steps (the group's); with kCopies, tile t + kStages - 1's
    // copies too (the last kStages - 1 tiles have none: a loop of their own).
    // Tile t + 1 has landed, and no warp reads tile t - 1's stage: at tile
    // t's last step, before its fragments (double-buffered: the next
    // tile's first), or after them.
    auto next_stage = [&] {
      cp_async_wait<kStages - 2>();
      __syncthreads();
      read = read + 1 == kStages ? 0 : read + 1;
    };
    auto tile = [&](auto copies, int t) {
      constexpr bool kCopies = decltype(copies)::value;
#pragma unroll
      for (int kk = 0; kk < kGroupSteps; ++kk) {
        if (kDoubleBuffered) {
          if (kk == kGroupSteps - 1)
            next_stage();
          load((kk + 1) % 2, read, (kk + 1) % kGroupSteps);
        } else if (!kConverts) {
          load(0, read, kk);
        }
        if (kk < kShares) {  // (the copies' shares)
          if (kCopies)
            issue(kk, write, k_begin + t + kStages - 1);
          if (kk == kShares - 1) {
            cp_async_commit();
            write = write + 1 == kStages ? 0 : write + 1;
          }
        }
        // (Converted chunks are stored before the fragments are loaded:
        // both are not live at once.)
        if (kConverts)
          load(0, read, kk);
        const int buffer = kDoubleBuffered ? kk % 2 : 0;
#pragma unroll
        for (int i = 0; i < kMTiles; ++i)
#pragma unroll
          for (int j = 0; j < kNTiles; ++j)
            mma(acc[i][j], fa[buffer][i], fb[buffer][j]);
        if (!kDoubleBuffered && kk == kGroupSteps - 1)
          next_stage();
      }
    };
    int t = 0;
    for (; t < k_tiles - (kStages - 1); ++t)
      tile(std::true_type{}, t);
    for (; t < k_tiles; ++t)
      tile(std::false_type{}, t);
    cp_async_wait<0>();
    if constexpr (kWarpsK > 1)
      add_groups(acc, smem, thread);
  }

  // Thread `thread`'s warp within its group (the threads' index only:
  // nothing to compute without groups).
  __device__ __forceinline__ static int group_warp(int thread) {
    return kWarpsK > 1 ? thread / 32 % kGroupWarps : thread / 32;
  }

  // Whether thread `thread`'s accumulators hold the block's sums (group 0's).
  __device__ __forceinline__ static bool holds_sums(int thread) {
    return kWarpsK == 1 || thread < kGroupThreads;
  }

  // Groups 1 .. kWarpsK - 1 store their accumulators in the stages' memory
  // (slot ((z - 1) * kMTiles * kNTiles + i * kNTiles + j) * kGroupThreads +
  // the thread's index in its group, 16 bytes each: a warp's 32 accesses
  // are contiguous); group 0 adds them in group order.
  __device__ static void add_groups(Accumulators &acc, Element *smem, int thread) {
    float4 *partial = reinterpret_cast<float4 *>(smem);
    const int group = thread / kGroupThreads, lane = thread % kGroupThreads;
    auto slot = [&](int z, int i, int j) {
      return partial + ((z - 1) * kMTiles * kNTiles + i * kNTiles + j) * kGroupThreads + lane;
    };
    __syncthreads();  // no warp reads the stages again
    if (group > 0)
#pragma unroll
      for (int i = 0; i < kMTiles; ++i)
#pragma unroll
        for (int j = 0; j < kNTiles; ++j)
          store_partial(slot(group, i, j), acc[i][j]);
    __syncthreads();
    if (group == 0)
      for (int z = 1; z < kWarpsK; ++z)
#pragma unroll
        for (int i = 0; i < kMTiles; ++i)
#pragma unroll
          for (int j = 0; j < kNTiles; ++j)
            add_partial(acc[i][j], slot(z, i, j));
    __syncthreads();  // the memory is the epilogue's again
  }

  // Thread `thread`'s acc[0][0][0] in the block tile (the file's comment).
  __device__ __forceinline__ static int accumulator_row(int thread) {
    return kWM * (group_warp(thread) / kWarpsN) + thread % 32 / 4;
  }
  __device__ __forceinline__ static int accumulator_col(int thread) {
    return kWN * (thread / 32 % kWarpsN) + 2 * (thread % 4);
  }

  // f(row, column, value) for each accumulator of thread `thread` inside
  // the m x n output (the block tile at row0, col0), in the layout of the
  // file's comment: the epilogue from registers, where the output tile
  // does not fit in the stages' memory.
  template <class F>
  __device__ static void for_each_accumulator(const Accumulators &acc, long long row0,
                                              long long col0, long long m, long long n,
                                              int thread, const F &f) {
    const long long row = row0 + accumulator_row(thread), col = col0 + accumulator_col(thread);
#pragma unroll
    for (int i = 0; i < kMTiles; ++i)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const long long r = row + 16 * i + 8 * h;
        if (r >= m)
          continue;
#pragma unroll
        for (int j = 0; j < kNTiles; ++j)
#pragma unroll
          for (int e = 0; e < 2; ++e)
            if (col + 8 * j + e < n)
              f(r, col + 8 * j + e, acc[i][j][2 * h + e]);
      }
  }

  // The accumulators of thread `thread` into the kBM x kBN tile of floats
  // at `tile` (row pitch kPitch), in the layout of the file's comment.
  template <int kPitch>
  __device__ static void stage(float *tile, const Accumulators &acc, int thread) {
    const int row = accumulator_row(thread), col = accumulator_col(thread);
#pragma unroll
    for (int i = 0; i < kMTiles; ++i)
#pragma unroll
      for (int j = 0; j < kNTiles; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h)
          *reinterpret_cast<float2 *>(tile + (row + 16 * i + 8 * h) * kPitch + col + 8 * j) =
              make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
  }
};

}  // namespace sm80
}  // namespace tc
