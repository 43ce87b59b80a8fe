// tc/sm90/mainloop.cuh - the TMA + wgmma main loop: a producer warp fills
// a ring of stages, consumer warpgroups multiply out of them.
//
// TmaWgmmaMainloop<ATile, BTile, kStages> (tc/sm90/operand_tile.cuh)
// computes a kBM x kBN block tile, kBM = ATile::kRows, kBN = BTile::kRows:
//
//   threads 0 .. 128 kConsumers - 1   consumers; warpgroup w computes rows
//                                     64 w .. 64 w + 63 of the tile with
//                                     wgmma m64 n<kBN> k16 (k8 for fp32
//                                     operands, read as tf32), its
//                                     accumulators in the wgmma layout
//                                     (tc/wgmma.cuh);
//   thread 128 kConsumers             the producer: TMA copies of A's and
//                                     B's k tiles into the stages;
//   the rest of its warp              idle (they return at once), but
//                                     where the warp copies the tiles
//                                     (produce_copies).
//
// Stage s holds k tile t (t mod kStages = s) once full[s] has completed
// phase t / kStages; the producer refills it once empty[s] has, one arrival
// per consumer warpgroup, after the wgmma that read it have retired. The
// consumers keep one wgmma group in flight: tile t's stage is released
// after tile t + 1's group is issued, and only where tile t + kStages
// refills it.
//
// Pairs (tc/cluster.cuh): the two blocks of a cluster compute tiles that
// share B's tile. Each block's producer copies its half of B's tile into
// both blocks' stages (OperandTile's kHalves, TMA multicast), so a stage's
// empty barrier takes the arrivals of both blocks' consumers (`blocks` = 2
// in init and consume). Every release is awaited by a producer, so no
// block arrives on the barriers of a peer that has already left.
//
// Shared memory (kSharedBytes, 1024-byte aligned): A's stages, B's stages,
// the barriers, then one int for the kernel (combine_parts' flag).
//
// Two policies complete the type (tc/sm90/roles.cuh):
//   Consumer  how the consumers read the operands, and where an operand's
//             prologue (a pointwise functor on its elements, `fmaxf(x, 0)`)
//             is applied: SharedOperands (wgmma reads both stages; a
//             prologue rewrites the landed stage in place, and so does an
//             operand's conversion, Converted<F>, with each element's place
//             in the operand) or RegisterA (A's fragments through
//             registers, the prologue or A's conversion there), or
//             RawRegisterA (an 8-bit A's raw bytes converted straight into
//             fragments: RawOperandTile);
//   Producer  who fills the stages: ProducerWarp (the layout above) or
//             ProducerWarpgroup (128 threads that give their registers to
//             the consumers with setmaxnreg).
//
// Element = float (tf32 wgmma, both tiles K-major): a k tile is kBK = 32
// deep, 4 wgmma k8 steps of 32 bytes, in stages of the same bytes as the
// 16-bit ones; RegisterA and the stage prologues are for 16-bit elements
// only (their fragments and packed pairs are 16-bit).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../cluster.cuh"
#include "../convert.cuh"
#include "../fragment.cuh"
#include "../mbarrier.cuh"
#include "../prologue.cuh"
#include "operand_tile.cuh"
#include "products.cuh"
#include "raw_operand_tile.cuh"
#include "roles.cuh"

namespace tc {
namespace sm90 {

template <class ATile, class BTile, int kStages_, class ConsumerPolicy = SharedOperands<>,
          class ProducerPolicy = ProducerWarp>
struct TmaWgmmaMainloop {
  using A = ATile;
  using B = BTile;
  using Consumer = ConsumerPolicy;
  using Producer = ProducerPolicy;
  // The wgmma operands' element type: B's, and A's but for a raw A
  // (RawRegisterA: 8-bit elements converted into Element fragments).
  using Element = typename BTile::Element;
  using AElement = typename ATile::Element;
  static_assert(std::is_same_v<AElement, Element> ||
                    (Consumer::kRawA && sizeof(Element) == 2 && sizeof(AElement) == 1),
                "one element type, or a raw 8-bit A beside 16-bit B");
  static_assert(ATile::kK == BTile::kK, "the operands' k tiles advance together");
  static constexpr int kStages = kStages_;
  static constexpr int kBM = ATile::kRows;
  static constexpr int kBN = BTile::kRows;
  static constexpr int kBK = ATile::kK;
  static_assert(kBM % 64 == 0, "a consumer warpgroup's 64 rows each");
  static constexpr int kConsumers = kBM / 64;
  static constexpr int kConsumerThreads = 128 * kConsumers;
  static constexpr int kProducerThreads = Producer::kThreads;
  static constexpr int kThreads = kConsumerThreads + kProducerThreads;
  static_assert(!Consumer::kRegisterA || ATile::kMajor == Major::K,
                "A from registers: ldmatrix of a K-major A's rows");
  static_assert(Consumer::kRawA == is_raw_tile<ATile>, "a raw A tile is read as RawRegisterA");
  static_assert(!Consumer::kRawA || !has_prologue<typename Consumer::BPrologue>,
                "no prologue on B beside a raw A");
  static_assert(sizeof(Element) == 2 ||
                    ((!has_prologue<typename Consumer::APrologue> ||
                      std::is_same_v<typename Consumer::APrologue, RoundToTf32>) &&
                     (!has_prologue<typename Consumer::BPrologue> ||
                      std::is_same_v<typename Consumer::BPrologue, RoundToTf32>)),
                "operand prologues take 16-bit elements only (fp32 ones: the rounding to "
                "tf32)");
  // Whether the consumers apply a prologue to the landed stages of A (B):
  // not RoundToTf32 on a tile whose elements land rounded already
  // (OperandTile::kLandsRounded: a transposed copy's).
  template <class P, class Tile>
  static constexpr bool applies_to_stages =
      has_plain_prologue<P> && !(std::is_same_v<P, RoundToTf32> && Tile::kLandsRounded);
  static constexpr bool kAPrologue = applies_to_stages<typename Consumer::APrologue, ATile>;
  static constexpr bool kBPrologue = applies_to_stages<typename Consumer::BPrologue, BTile>;
  // Whether the consumers convert A's (B's) landed stages with each
  // element's place (Converted<F>, tc/sm90/roles.cuh), the functors those
  // of `Conversions`, which the kernel's operands carry.
  static constexpr bool kAConverts = is_converted<typename Consumer::APrologue>;
  static constexpr bool kBConverts = is_converted<typename Consumer::BPrologue>;
  using Conversions = typename Consumer::Conversions;
  // The k elements of one wgmma (32 bytes of a K-major row).
  static constexpr int kStepK = wgmma_step_elements<Element>;
  // (An int, so that stage offsets in elements stay 32-bit arithmetic.)
  static constexpr int kElementBytes = static_cast<int>(sizeof(Element));
  static constexpr int kAElementBytes = static_cast<int>(sizeof(AElement));
  // A stage's first element of A (B).
  __device__ __forceinline__ static AElement *a_stage(AElement *a, unsigned stage) {
    return a + stage * (ATile::kBytes / kAElementBytes);
  }
  static_assert(roles_fit_launch_registers<Producer>(kThreads, kConsumerThreads),
                "the roles' registers after setmaxnreg fit the block's at launch "
                "(tc::launch_registers)");
  static constexpr int kStageBytes = ATile::kBytes + BTile::kBytes;
  static constexpr int kPipelineBytes = kStages * kStageBytes;
  static constexpr int kSharedBytes = kPipelineBytes + 2 * kStages * 8 + 16;
  static_assert(kStages >= 2, "one stage in flight while another is read");
  static_assert(kSharedBytes <= 232448, "a block's shared memory on sm_90");
  // Blocks an SM holds: as its shared memory allows (228 KiB, of which 1
  // KiB a block is reserved), and one where the block moves registers
  // (setmaxnreg counts on all of the SM's), where two would leave a
  // consumer thread fewer registers than its accumulators (kBN / 2) and 32
  // more (256x64 tiles of two stages: 56 registers a thread, which ptxas
  // could not fit, C7602; 128x128 tiles keep 96 for their 96), and 40
  // more where the consumers convert A's fragments (a raw A, or a
  // converted one: two buffers of fragments and their rows' values;
  // 128x128 tiles spilled at 96). Each of the SM's four quarters holds
  // 16384 registers and a quarter of the warps, rounded up.
  static constexpr int kWarpsPerQuarterAtTwoBlocks = (2 * ((kThreads + 31) / 32) + 3) / 4;
  static constexpr int kRegistersAtTwoBlocks = 16384 / (32 * kWarpsPerQuarterAtTwoBlocks) / 8 * 8;
  static constexpr int kFragmentRegisters =
      Consumer::kRawA || (Consumer::kRegisterA && kAConverts) ? 40 : 0;
  static constexpr int kBlocksPerSm =
      !Producer::kMovesRegisters && 2 * (kSharedBytes + 1024) <= 233472 &&
              kRegistersAtTwoBlocks >= kBN / 2 + 32 + kFragmentRegisters
          ? 2
          : 1;

  // Where a run of k tiles lies in the operands, for their conversions:
  // its tile t holds A's rows row_a .. and B's rows row_b .. of k elements
  // k0 + kBK t ..; A has m rows, B n, both k elements of the reduction.
  struct TilePlace {
    long long row_a, row_b, k0, m, n, k;
  };
  // A converted operand's tile rows: the first one's row in the operand,
  // and how many lie inside it (0 .. the tile's rows).
  struct StageRows {
    long long row0;
    int rows;
  };
  template <class Tile>
  __device__ __forceinline__ static StageRows stage_rows(long long row0, long long rows) {
    return {row0, tile_rows_inside<Tile::kRows>(rows, row0)};
  }

  // A consumer thread's accumulators: kBN / 8 blocks of the m64 n8
  // accumulator fragment.
  using Accumulators = float[kBN / 8][4];

  struct Storage {
    AElement *a;
    Element *b;
    uint64_t *full, *empty;
    int *flag;
  };

  __device__ static Storage storage(unsigned char *smem) {
    Storage s;
    s.a = reinterpret_cast<AElement *>(smem);
    s.b = reinterpret_cast<Element *>(smem + kStages * ATile::kBytes);
    s.full = reinterpret_cast<uint64_t *>(smem + kPipelineBytes);
    s.empty = s.full + kStages;
    s.flag = reinterpret_cast<int *>(s.empty + kStages);
    return s;
  }

  // One thread, before the block's first barrier; `blocks` share the
  // stages (2: a pair).
  __device__ static void init(const Storage &s, int blocks = 1) {
    for (int i = 0; i < kStages; ++i) {
      mbarrier_init(s.full + i, 1);
      mbarrier_init(s.empty + i, kConsumers * blocks);
    }
    fence_barrier_init();
  }

  // The producer thread: k tiles k_begin .. k_begin + k_tiles - 1 of A's
  // rows row_a .. and B's rows row_b ...; pair_rank 0 or 1 in a pair (its
  // half of B's tile into both blocks), else -1. `first` is the ring
  // position of the first of them: the k tiles that earlier units of a
  // persistent block passed through the stages (0 for a fresh ring).
  // kBatched: the maps are 3-D (a batch), the tiles those of matrices
  // batch_a and batch_b.
  template <bool kBatched = false>
  __device__ static void produce(const Storage &s, const CUtensorMap &map_a,
                                 const CUtensorMap &map_b, int row_a, int row_b,
                                 long long k_begin, int k_tiles, int pair_rank = -1,
                                 unsigned first = 0, int batch_a = 0, int batch_b = 0) {
    if (k_tiles <= 0)
      return;
    tma_prefetch_map(map_a);
    tma_prefetch_map(map_b);
    for (unsigned t = 0; t < static_cast<unsigned>(k_tiles); ++t) {
      const unsigned i = first + t, stage = i % kStages;
      if (i >= static_cast<unsigned>(kStages))
        mbarrier_wait(s.empty + stage, (i / kStages - 1) & 1);  // released by the consumers
      mbarrier_arrive_expect_tx(s.full + stage, kStageBytes);
      const int k0 = static_cast<int>(kBK * (k_begin + t));
      ATile::template load<kBatched>(a_stage(s.a, stage), map_a,
                                     s.full + stage, row_a, k0, -1, batch_a);
      BTile::template load<kBatched>(s.b + stage * (BTile::kBytes / kElementBytes), map_b,
                                     s.full + stage, row_b, k0, pair_rank, batch_b);
    }
  }

  // The copying producer, where no TMA map reads the operands (they lie
  // beyond TMA's 32-bit coordinates, or no aligned copy could be made): the
  // whole producer warp (`lane` 0 .. 31) copies k tiles k_begin .. k_begin +
  // k_tiles - 1 of A's rows row_a .. (A: m x k at `a`, pitch lda) and B's
  // rows row_b .. (n x k at `b`, pitch ldb) with ordinary loads
  // (OperandTile::copy), then lane 0 completes the stage's barrier: one
  // arrival and no bytes, as the consumers expect of TMA's. Slow, and only
  // for the launches TMA cannot serve.
  __device__ static void produce_copies(const Storage &s, const AElement *a, long long lda,
                                        const Element *b, long long ldb, long long m, long long n,
                                        long long k, long long row_a, long long row_b,
                                        long long k_begin, int k_tiles, int lane,
                                        unsigned first = 0) {
    const long long k0 = kBK * k_begin;
    const typename ATile::CopySource src_a = ATile::copy_source(a, m, k, lda, row_a, k0);
    const typename BTile::CopySource src_b = BTile::copy_source(b, n, k, ldb, row_b, k0);
    for (unsigned t = 0; t < static_cast<unsigned>(k_tiles); ++t) {
      const unsigned i = first + t, stage = i % kStages;
      if (i >= static_cast<unsigned>(kStages))
        mbarrier_wait(s.empty + stage, (i / kStages - 1) & 1);  // released by the consumers
      ATile::copy(a_stage(s.a, stage), src_a, static_cast<int>(t), lane);
      BTile::copy(s.b + stage * (BTile::kBytes / kElementBytes), src_b, static_cast<int>(t), lane);
      fence_proxy_async();  // wgmma reads the stage through the async proxy
      __syncwarp();
      if (lane == 0)
        mbarrier_arrive(s.full + stage);
    }
  }

  // produce() for positions k_begin .. k_begin + k_tiles - 1 of a sum of
  // products' concatenated reduction (tc/sm90/products.cuh): each
  // product's k tiles from its own tensor maps; of batch entry `batch` in
  // a batch.
  template <class Operands>
  __device__ static void produce_products(const Storage &s, const Operands &operands, int row_a,
                                          int row_b, long long k_begin, int k_tiles,
                                          int pair_rank = -1, unsigned first = 0,
                                          int batch = 0) {
    tc::sm90::for_each_product(operands, k_begin, k_tiles,
                     [&](int p, long long k0, int tiles, unsigned position) {
                       produce<Operands::kBatched>(s, operands.map_a[p], operands.map_b[p],
                                                   row_a, row_b, k0, tiles, pair_rank,
                                                   first + position, operands.batch_a(p, batch),
                                                   operands.batch_b(p, batch));
                     });
  }

  // produce_copies() for positions k_begin .. k_begin + k_tiles - 1 of the
  // products' reduction, from their pointers (A_p: m rows, B_p: n rows), of
  // batch entry `batch` in a batch.
  template <class Operands>
  __device__ static void copy_products(const Storage &s, const Operands &operands, long long m,
                                       long long n, long long row_a, long long row_b,
                                       long long k_begin, int k_tiles, int lane, unsigned first,
                                       int batch = 0) {
    tc::sm90::for_each_product(operands, k_begin, k_tiles,
                               [&](int p, long long k0, int tiles, unsigned position) {
      const auto &o = operands.products.product[p];
      produce_copies(s, o.a + batch * o.batch_a, o.lda, o.b + batch * o.batch_b, o.ldb, m, n,
                     o.k, row_a, row_b, k0, tiles, lane, first + position);
    });
  }

  // A consumer thread (0 .. kConsumerThreads - 1): adds the k_tiles tiles'
  // products to `acc`, releasing stages in the `blocks` blocks that share
  // them; `first` as for produce(). With `refilled`, later units refill
  // every stage: each is released, the last once its wgmma have retired.
  // Every wgmma has retired on return. Converted operands: the functors
  // `conversions`, the tiles' `place`. (One loop with the release under a
  // condition measured 3% faster than the first tile peeled with unsigned
  // indices: docs/results/sm90-components-h200.md.)
  __device__ static void consume(const Storage &s, Accumulators &acc, int k_tiles, int thread,
                                 int blocks = 1, unsigned first = 0, bool refilled = false,
                                 const Conversions &conversions = {},
                                 const TilePlace &place = {}) {
    if constexpr (Consumer::kRawA)
      consume_raw_a(s, acc, k_tiles, thread, blocks, first, refilled, conversions.a, place);
    else if constexpr (Consumer::kRegisterA)
      consume_register_a(s, acc, k_tiles, thread, blocks, first, refilled, conversions, place);
    else
      consume_shared(s, acc, k_tiles, thread, blocks, first, refilled, conversions, place);
  }

 private:
  // consume() where wgmma reads both operands from the stages.
  __device__ __forceinline__ static void consume_shared(const Storage &s, Accumulators &acc, int k_tiles,
                                        int thread, int blocks, unsigned first, bool refilled,
                                        const Conversions &conversions, const TilePlace &place) {
    const uint64_t desc_a = ATile::descriptor(s.a, thread / 128);
    const uint64_t desc_b = BTile::descriptor(s.b);
    for (int t = 0; t < k_tiles; ++t) {
      const unsigned i = first + t, stage = i % kStages;
      mbarrier_wait(s.full + stage, (i / kStages) & 1);  // the tile has landed
      if constexpr (kAPrologue || kBPrologue || kAConverts || kBConverts)
        apply_stage_prologues<kAPrologue || kAConverts>(s, stage, thread, conversions, place, t);
      warpgroup_arrive(acc);
#pragma unroll
      for (int step = 0; step < kBK / kStepK; ++step)
        wgmma_k_step<Element, ATile::kTransposed, BTile::kTransposed, kBN>(
            acc, ATile::advance(desc_a, stage, step), BTile::advance(desc_b, stage, step));
      wgmma_commit();
      wgmma_wait<1>(acc);  // tile t - 1's group has retired
      release_previous(s, i, t, k_tiles, thread, blocks, refilled);
    }
    drain(s, acc, k_tiles, thread, blocks, first, refilled);
  }

  // After tile t's (ring position i's) wait for all but its own group:
  // tile t - 1's stage, whose wgmma have retired, where a producer refills
  // it (every stage with `refilled`).
  __device__ __forceinline__ static void release_previous(const Storage &s, unsigned i, int t, int k_tiles,
                                          int thread, int blocks, bool refilled) {
    if (t > 0 && (refilled || t - 1 + kStages < k_tiles))
      release_stage_in_cluster(s.empty + (i - 1) % kStages, thread, blocks);
  }

  // After the last tile: every wgmma retired, and with `refilled` the last
  // stage released too.
  __device__ __forceinline__ static void drain(const Storage &s, Accumulators &acc, int k_tiles, int thread,
                               int blocks, unsigned first, bool refilled) {
    wgmma_wait<0>(acc);
    if (refilled && k_tiles > 0)
      release_stage_in_cluster(s.empty + (first + k_tiles - 1) % kStages, thread, blocks);
  }

  // Chunks of 16 bytes a thread loads before converting them
  // (apply_prologue_to_tile): 2 where registers are short (two blocks an
  // SM, or eight chunks or more a thread: 4 made ptxas spill), else 4.
  template <int kElements, int kThreadCount>
  __host__ __device__ static constexpr int prologue_batch() {
    return kBlocksPerSm >= 2 || kElements / 8 / kThreadCount >= 8 ? 2 : 4;
  }

  // SharedOperands' prologues (or conversions) on the landed `stage`, tile
  // t of `place`, in place: each
  // warpgroup A's 64 rows that its own wgmma read (its slice), all
  // consumers B's tile, which every warpgroup reads; then the writes are
  // published to the async proxy (wgmma's) and the warpgroup (with B's
  // prologue: all consumers) meets before its wgmma. The previous tile's
  // wgmma, on another stage, still run meanwhile.
  // (kOnA: A's too; RegisterA applies A's in registers, B's here.)
  template <bool kOnA>
  __device__ static void apply_stage_prologues(const Storage &s, unsigned stage, int thread,
                                               const Conversions &conversions = {},
                                               const TilePlace &place = {}, int t = 0) {
    using PA = typename Consumer::APrologue;
    using PB = typename Consumer::BPrologue;
    const int warpgroup = thread / 128;
    // Tile t's first k, and the k elements of it inside the operand.
    const long long k0 = place.k0 + static_cast<long long>(kBK) * t, k_in = place.k - k0;
    const int k_end = k_in <= 0 ? 0 : k_in < kBK ? static_cast<int>(k_in) : kBK;
    if constexpr (kOnA) {
      constexpr int kSlice = ATile::kSliceBytes / kElementBytes;
      Element *a = a_stage(s.a, stage);
      if constexpr (kAConverts)
        convert_stage<ATile, kSlice, 128>(a, kSlice * warpgroup, thread % 128, conversions.a,
                                          stage_rows<ATile>(place.row_a, place.m), k0, k_end);
      else
        apply_prologue_to_tile<Element, kSlice, 128, prologue_batch<kSlice, 128>()>(
            a + kSlice * warpgroup, thread % 128, PA());
    }
    constexpr int kElementsB = BTile::kBytes / kElementBytes;
    if constexpr (kBConverts)
      convert_stage<BTile, kElementsB, kConsumerThreads>(s.b + stage * kElementsB, 0, thread,
                                                         conversions.b,
                                                         stage_rows<BTile>(place.row_b, place.n),
                                                         k0, k_end);
    else if constexpr (kBPrologue)
      apply_prologue_to_tile<Element, kElementsB, kConsumerThreads,
                             prologue_batch<kElementsB, kConsumerThreads>()>(
          s.b + stage * kElementsB, thread, PB());
    fence_proxy_async();  // the wgmma read the stage through the async proxy
    if constexpr (kBPrologue || kBConverts)
      consumer_sync<kConsumerThreads>();
    else
      warpgroup_sync(warpgroup);
  }

  // A converted operand's landed elements first ... of `tile` (a stage
  // of Tile), kElements of them, in place: thread `lane` of kThreads takes
  // every kThreads-th 16-byte chunk (consecutive lanes, consecutive
  // chunks), one chunk at a time and two elements at once (a whole chunk
  // in registers, or several, spilled around the calls of a division's
  // slow path at two blocks an SM). The element at (r, c) of the stage
  // (Tile::place) is row at.row0 + r and k index k0 + c of the operand:
  // f(x, row[, k]) where r < at.rows and c < k_end, an exact 0 elsewhere,
  // where f is not called (it may read values by the row; TMA's zero
  // fill would be f(0): 1 / 0 is inf, and a zero point makes it nonzero).
  template <class Tile, int kElements, int kThreads, class F>
  __device__ __forceinline__ static void convert_stage(Element *tile, int first, int lane,
                                                       const F &f, const StageRows &at,
                                                       long long k0, int k_end) {
    static_assert(sizeof(Element) == 2, "converted operands are 16-bit");
    constexpr int kChunks = kElements / 8;
    constexpr int kRounds = (kChunks + kThreads - 1) / kThreads;
    uint4 *chunks = reinterpret_cast<uint4 *>(tile + first) + lane;
#pragma unroll 1
    for (int round = 0; round < kRounds; ++round) {
      const int chunk = round * kThreads + lane;
      if (kChunks % kThreads != 0 && chunk >= kChunks)
        break;
      int r, c;
      Tile::place(first + 8 * chunk, r, c);
      // K-major: one row, k from c on; MN-major: one k, rows from r on.
      constexpr bool kAlongK = Tile::kMajor == Major::K;
      const long long row = at.row0 + r;
      uint32_t *words = reinterpret_cast<uint32_t *>(chunks + round * kThreads);
#pragma unroll 1
      for (int w = 0; w < 4; ++w) {
        uint32_t bits = words[w];
        Element e[2];
        memcpy(e, &bits, 4);
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int j = 2 * w + h;
          const int rj = kAlongK ? r : r + j, cj = kAlongK ? c + j : c;
          float y = 0.0f;
          if (rj < at.rows && cj < k_end) {
            if constexpr (conversion_takes_k<F>)
              y = f(to_float(e[h]), row + (rj - r), k0 + cj);
            else
              y = f(to_float(e[h]), row + (rj - r));
          }
          e[h] = from_float<Element>(y);
        }
        memcpy(&bits, e, 4);
        words[w] = bits;
      }
    }
  }

  // RegisterA: each warp's 16 rows of A, one fragment a 32-byte k step (16
  // 16-bit elements, 8 fp32 ones: ldmatrix from the swizzled stage, viewed
  // as 16-bit elements, FragmentLayout::AKContiguous), the prologue applied
  // to them (fp32: rounded to tf32), wgmma with A from registers; B's
  // prologue, if any, on its landed stage as SharedOperands applies it.
  static constexpr int kSteps = kBK / kStepK;
  using AFragments = uint32_t[kSteps][4];
  using ALoader =
      FragmentLoader<FragmentLayout::AKContiguous, kBK * kElementBytes / 2, 1, kSteps>;

  // Tile t of consume_register_a into fragment buffer kBuffer (t's parity),
  // whose registers the group of tile t - 2 read until its wait;
  // load_a(fragments, stage, t) fills them from the landed stage.
  template <int kBuffer, class LoadA>
  __device__ static void register_a_tile(const Storage &s, Accumulators &acc,
                                         AFragments (&frags)[2], const LoadA &load_a,
                                         uint64_t desc_b, int t, int k_tiles, int thread,
                                         int blocks, unsigned first, bool refilled) {
    const unsigned i = first + t, stage = i % kStages;
    mbarrier_wait(s.full + stage, (i / kStages) & 1);  // the tile has landed
    if constexpr (kBPrologue)
      apply_stage_prologues<false>(s, stage, thread);
    load_a(frags[kBuffer], stage, t);
    warpgroup_arrive(acc);
#pragma unroll
    for (int step = 0; step < kSteps; ++step)
      wgmma_k_step_rs<Element, BTile::kTransposed, kBN>(acc, frags[kBuffer][step],
                                                        BTile::advance(desc_b, stage, step));
    wgmma_commit();
    wgmma_wait<1>(acc);                  // tile t - 1's group has retired
    fence_fragments(frags[1 - kBuffer]);  // which read the other buffer until here
    release_previous(s, i, t, k_tiles, thread, blocks, refilled);
  }

  // consume() with A from registers. The loop runs whole pairs of tiles,
  // each buffer by name, and a last tile of even parity after it: with a
  // guarded second half, ptxas serialised the wgmma (C7513, a path that
  // reloads a buffer its group still reads).
  // A converted A (Converted<F>): each fragment element by its row, an
  // exact 0 past the operand's rows or its reduction (place), where f is
  // not called. A thread's two rows (RawFragmentLayout's) are fixed, so
  // only k varies along the tiles.
  __device__ static void consume_register_a(const Storage &s, Accumulators &acc, int k_tiles,
                                            int thread, int blocks, unsigned first,
                                            bool refilled, const Conversions &conversions,
                                            const TilePlace &place) {
    using PA = typename Consumer::APrologue;
    ALoader loader;
    loader.setup(16 * (thread / 32));  // the warp's rows of the block tile
    const long long row0 = place.row_a + RawFragmentLayout::row(thread, 0);
    const bool inside[2] = {row0 < place.m, row0 + 8 < place.m};
    const auto fragments = [&](const auto &rows) {
      register_a_tiles(s, acc, k_tiles, thread, blocks, first, refilled,
                       [&](AFragments &frags, unsigned stage, int t) {
                         const uint16_t *a =
                             reinterpret_cast<const uint16_t *>(a_stage(s.a, stage));
                         const long long k_in =
                             place.k - place.k0 - static_cast<long long>(kBK) * t;
                         [[maybe_unused]] const int k_end =
                             k_in < kBK ? static_cast<int>(k_in) : kBK;
#pragma unroll
                         for (int step = 0; step < kSteps; ++step) {
                           loader.load(frags[step], a, 0, step);
                           if constexpr (kAConverts)
                             convert_fragment(frags[step], rows, inside, step, k_end, thread % 4);
                           else if constexpr (kAPrologue)
                             apply_prologue<Element>(frags[step], PA());
                         }
                       });
    };
    if constexpr (!kAConverts) {
      fragments(0);
    } else if constexpr (conversion_binds_rows<typename Conversions::A>) {
      // Each row's values loaded once.
      using Row = decltype(conversions.a.row(0ll, true));
      const Row rows[2] = {conversions.a.row(row0, inside[0]),
                           conversions.a.row(row0 + 8, inside[1])};
      fragments(rows);
    } else {
      // (Rows past the operand call f on its last row, whose value the
      // mask then drops: no branch around the call.)
      const auto &f = conversions.a;
      const long long last = place.m - 1;
      const long long row[2] = {inside[0] ? row0 : last, inside[1] ? row0 + 8 : last};
      const auto by_row = [&](float x, int i) { return f(x, row[i]); };
      using Row = decltype(by_row);
      struct BoundRow {
        const Row *f;
        int i;
        __device__ float operator()(float x) const { return (*f)(x, i); }
      };
      const BoundRow rows[2] = {{&by_row, 0}, {&by_row, 1}};
      fragments(rows);
    }
  }

  // Fragment `a` of k step `step` (wgmma's A layout: register r holds row
  // 8 (r % 2) of the thread's pair, k 16 step + 2 quad + 8 (r / 2) and the
  // next) through its row's function rows[r % 2].
  template <class Row>
  __device__ __forceinline__ static void convert_fragment(uint32_t (&a)[4], const Row (&rows)[2],
                                                          const bool (&inside)[2], int step,
                                                          int k_end, int quad) {
    const int k_left = k_end - 2 * quad;
    static_assert(sizeof(Element) == 2, "16-bit fragments");
    // Every element goes through its row's function and a mask keeps the
    // ones inside: a branch there put the fragments' writes on a divergent
    // path, and ptxas serialised the wgmma that read them (C7520).
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      Element e[2];
      memcpy(e, &a[r], 4);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        // (k_end is less the thread's first k: k_left.)
        const uint32_t keep =
            inside[r % 2] & (16 * step + 8 * (r / 2) + h < k_left) ? 0xffffffffu : 0u;
        e[h] = from_float<Element>(
            __uint_as_float(__float_as_uint(rows[r % 2](to_float(e[h]))) & keep));
      }
      memcpy(&a[r], e, 4);
    }
  }

  // The k tiles of a register-A consume(), in pairs of fragment buffers.
  template <class LoadA>
  __device__ __forceinline__ static void register_a_tiles(const Storage &s, Accumulators &acc,
                                                          int k_tiles, int thread, int blocks,
                                                          unsigned first, bool refilled,
                                                          const LoadA &load_a) {
    const uint64_t desc_b = BTile::descriptor(s.b);
    AFragments frags[2];
    int t = 0;
    for (; t + 1 < k_tiles; t += 2) {
      register_a_tile<0>(s, acc, frags, load_a, desc_b, t, k_tiles, thread, blocks, first,
                         refilled);
      register_a_tile<1>(s, acc, frags, load_a, desc_b, t + 1, k_tiles, thread, blocks, first,
                         refilled);
    }
    if (t < k_tiles)
      register_a_tile<0>(s, acc, frags, load_a, desc_b, t, k_tiles, thread, blocks, first,
                         refilled);
    drain(s, acc, k_tiles, thread, blocks, first, refilled);
  }

  // RawRegisterA: the thread's two rows of A (RawFragmentLayout) take
  // their functors once, then each k tile's fragments convert from the
  // raw stage; elements past the reduction (place.k) are exact zeros. Offset
  // rows convert as the warp's offsets allow (offset_pairs: all 32 lanes
  // call it), in fp16 pairs with a version for integer offsets where the
  // registers allow (not beside a producer warpgroup, whose consumers hold
  // wide tiles).
  template <class Convert>
  __device__ static void consume_raw_a(const Storage &s, Accumulators &acc, int k_tiles,
                                       int thread, int blocks, unsigned first, bool refilled,
                                       const Convert &convert, const TilePlace &place) {
    const long long r0 = place.row_a + RawFragmentLayout::row(thread, 0);
    const long long r1 = place.row_a + RawFragmentLayout::row(thread, 1);
    using Row = decltype(convert.row(0ll, true));
    const Row rows[2] = {convert.row(r0, r0 < place.m), convert.row(r1, r1 < place.m)};
    const unsigned char *raw = reinterpret_cast<const unsigned char *>(s.a);
    const auto k_valid = [&](int t) { return place.k - place.k0 - static_cast<long long>(kBK) * t; };
    if constexpr (is_offset_row<Row>) {
      static_assert(std::is_same_v<Element, __half>, "offset rows convert into fp16");
      const OffsetPairs pairs = offset_pairs(rows);
      register_a_tiles(s, acc, k_tiles, thread, blocks, first, refilled,
                       [&](AFragments &frags, unsigned stage, int t) {
                         load_raw_fragments<AElement, Element, !Producer::kMovesRegisters>(
                             frags, raw + stage * ATile::kBytes, thread, rows, pairs, k_valid(t));
                       });
    } else {
      register_a_tiles(s, acc, k_tiles, thread, blocks, first, refilled,
                       [&](AFragments &frags, unsigned stage, int t) {
                         load_raw_fragments<AElement, Element>(
                             frags, raw + stage * ATile::kBytes, thread, rows, k_valid(t));
                       });
    }
  }
};

}  // namespace sm90
}  // namespace tc
