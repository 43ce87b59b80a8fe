// tc/sm90/gemm_kernel.cuh - a GEMM kernel composed of the sm_90 components:
// the tile schedule (tc/tile_schedule.cuh) gives each block an output tile
// and its k tiles, the main loop (tc/sm90/mainloop.cuh) sums them, split
// tiles' parts meet in a workspace (combine_parts), and the staged
// epilogue (tc/sm90/epilogue.cuh) hands the sums to the region's epilogue
// functor.
//
//   using Mainloop = tc::sm90::TmaWgmmaMainloop<
//       tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,    // A[m][k]
//       tc::sm90::OperandTile<__half, 128, tc::sm90::Major::MN>,   // B[k][n]
//       3>;                                                         // stages
//   tc::sm90::launch_gemm<Mainloop>(shape, A, lda, B, ldb, epilogue, stream);
//
// fp32 operands run as tf32 (wgmma m64nNk8; both tiles K-major, k tiles of
// 32; the accumulators and epilogues as above):
//
//   using Tf32 = tc::sm90::TmaWgmmaMainloop<
//       tc::sm90::OperandTile<float, 128, tc::sm90::Major::K>,     // A[m][k]
//       tc::sm90::OperandTile<float, 128, tc::sm90::Major::K>,     // B[n][k]
//       4>;
//
// or, for a sum of products A_0 B_0 + A_1 B_1 (tc/sm90/products.cuh), each
// over a reduction of its own, into one accumulator:
//
//   tc::sm90::launch_gemm<Mainloop>(m, n, tc::sm90::Products<__half, 2>{{
//       {A0, lda0, B0, ldb0, k0}, {A1, lda1, B1, ldb1, k1}}}, epilogue, stream);
//
// or, for a batch of GEMMs of one shape, entry z reading A at A + z * sa and
// B at B + z * sb (0: shared), the epilogue functor taking z first:
//
//   tc::sm90::launch_batched_gemm<Mainloop>(batches, m, n, tc::sm90::Products<__half, 1>{{
//       {A, lda, B, ldb, k, sa, sb}}}, epilogue, stream);
//
// or, for int8/uint8 weights W (N x K) beside fp16 activations X (M x K),
// Y = X f(W)^T computed transposed, Y^T = f(W) X^T, so that the weight is
// wgmma's A, converted into register fragments from the raw bytes TMA
// lands (Convert: `row(r, inside)`, each row's function of the element,
// tc/sm90/roles.cuh), the epilogue functor seeing Y's rows all the same:
//
//   using Weights = tc::sm90::TmaWgmmaMainloop<
//       tc::sm90::RawOperandTile<int8_t, 128>,                      // W[n][k]
//       tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,     // X[m][k]
//       4, tc::sm90::RawRegisterA<Convert>>;
//   tc::sm90::launch_gemm<Weights>({N, M, K}, W, ldw, X, ldx,
//       tc::sm90::TransposedOutput<Epilogue>{epilogue}, stream,
//       tc::sm90::Producer::kTma, {convert, {}});
//
// A batch is stacked in the tile rows every scheduler sees
// (KernelOperands::batch_of); its operands are read through 3-D tensor maps
// whose boxes are one matrix deep, so that no tile reads another entry.
//
// A second template argument chooses the tile scheduler
// (tc/sm90/tile_scheduler.cuh): with stream units, a block may compute
// several units of work in turn, the stages' barriers fresh for each; with
// pairs, the two blocks of a cluster share B's tile (TMA multicast, the
// stages' barriers counting both blocks' consumers); with cluster parts,
// the parts of a split tile add their tiles in distributed shared memory,
// the producer warp joining the cluster's two barriers. With
// PersistentScheduler, persistent_gemm_kernel runs instead: one block an
// SM computes whole tiles in turn, its stages one ring across them, and
// two epilogue warpgroups (BufferedEpilogue) apply each tile's epilogue
// while the consumers compute the next:
//
//   threads 0 .. C - 1        consumers (C = 128 per 64 rows of the tile)
//   threads C .. C + P - 1    the producer warp (P = 32; one thread issues
//                             TMA, or all 32 copy), or warpgroup (P = 128)
//   threads C + P ..          the epilogue threads: C, or with a producer
//                             warpgroup 128 (tc/sm90/roles.cuh)
//
// With a producer warpgroup (tc/sm90/roles.cuh), each role moves its
// registers once and runs its own loop over the block's units.
//
// Where TMA cannot map an operand (not even through an aligned copy: under
// a graph capture, say), a dimension is 2^31 - 256 or more (TMA's
// coordinates are 32-bit), or K is 0, the producer warp copies the tiles
// with ordinary loads instead (TmaWgmmaMainloop::produce_copies): slow, but
// every kernel takes every shape (but kCopiesUnmapped's exceptions), so
// that a region of these kernels needs no other. launch_gemm returns
// false, launching nothing, where the tiles number 2^31 or more, where a
// kernel that does not copy cannot map an operand, or where the launch
// fails; the caller then launches another kernel or reports it.
//
// The kernel declares no static shared memory, so that its dynamic shared
// memory starts 1024-byte aligned, as the 128-byte swizzle needs: an
// epilogue functor must not declare any either.
#pragma once

#include <cuda_runtime.h>

#include "../cluster_parts.cuh"
#include "../launch_facts.cuh"
#include "../shared_memory_opt_in.cuh"
#include "../tile_schedule.cuh"
#include "epilogue.cuh"
#include "mainloop.cuh"
#include "products.cuh"
#include "tile_scheduler.cuh"

namespace tc {
namespace sm90 {

// The output's extents, and the reduction's: a sum of products' whole
// length (the kernels read each product's own from KernelOperands,
// tc/sm90/products.cuh).
struct GemmShape {
  long long m, n, k;
};

// The kernel operands of `Mainloop`'s tiles for kCount products, of one
// GEMM or (kBatched) of a batch of them.
template <class Mainloop, int kCount, bool kBatched = false>
using MainloopOperands = KernelOperands<typename Mainloop::Element, kCount, Mainloop::kBK,
                                        kBatched, typename Mainloop::Conversions,
                                        typename Mainloop::AElement>;

// Calls apply(f): the epilogue functor as the epilogue component takes it,
// of (row, column, sum); in a batch, `epilogue` at entry `batch`.
template <class Operands, class Epilogue, class Apply>
__device__ __forceinline__ void at_batch_entry(const Epilogue &epilogue, int batch,
                                               Apply &&apply) {
  if constexpr (Operands::kBatched)
    apply(BatchEntryEpilogue<Epilogue>{epilogue, batch});
  else
    apply(epilogue);
}

// How a launch's producer fills the stages: TMA where it can map the
// operands (else the copying producer, kCopiesUnmapped); TMA only (else
// the launch fails: for tests that TMA maps what it should); or always
// the copying producer (to test it).
enum class Producer { kTma, kTmaOnly, kCopies };

// Whether the kernel's producer warp copies the tiles of operands TMA
// cannot map: all but those whose producer warpgroup keeps fewer than
// kCopyingProducerRegisters (setmaxnreg) outside the persistent kernel,
// where the copy loop spilled (40, and 56 beside a converted A); their
// launch fails instead.
inline constexpr int kCopyingProducerRegisters = 64;
template <class Mainloop, class Scheduler>
inline constexpr bool kCopiesUnmapped =
    Scheduler::kPersistent || !Mainloop::Producer::kMovesRegisters ||
    Mainloop::Producer::kProducerRegisters >= kCopyingProducerRegisters;

// One unit of work of a block: the tile (tile_m, tile_n), its k tiles
// [k_begin, k_end), and for a part of a split tile, the tile's index among
// the split tiles and the part (else -1).
// In a pair, its rank there (0 or 1).
struct Unit {
  int tile_m, tile_n, split_tile, part, rank;
  long long k_begin, k_end;
};

// Which threads run a call of gemm_unit: any (each takes its role's
// share), or only those of one role (a kernel whose roles move registers
// runs each role on a path of its own).
enum class Role { kAny, kProducer, kConsumer };

// Thread `thread`'s share of one unit: the producer's copies, or the
// consumers' main loop and epilogue.
template <class Mainloop, class Scheduler, Role kRole = Role::kAny, class Epilogue,
          class Operands>
__device__ __forceinline__ void gemm_unit(const typename Mainloop::Storage &s,
                                          unsigned char *smem, const GemmShape &shape,
                                          const Operands &operands,
                                          const TileSchedule &schedule, float *workspace,
                                          int *counters, const Epilogue &epilogue,
                                          const Unit &u, int thread) {
  constexpr int kBM = Mainloop::kBM, kBN = Mainloop::kBN;
  using Output = OutputOf<Epilogue>;
  using Stage = StagedEpilogue<kBM, kBN, Mainloop::kConsumerThreads, Mainloop::kConsumerThreads,
                               Output::kTransposed>;
  static_assert(Stage::kBytes <= Mainloop::kPipelineBytes, "the output tile fits in the stages");
  const long long k_stop = operands.total_k_tiles();
  const int k_tiles = static_cast<int>((u.k_end < k_stop ? u.k_end : k_stop) - u.k_begin);
  const bool parts_in_cluster = Scheduler::kClusterParts && schedule.cluster_parts;
  int tile_m = u.tile_m;
  const int batch = operands.batch_of(tile_m);
  if (kRole == Role::kProducer ||
      (kRole == Role::kAny && thread >= Mainloop::kConsumerThreads)) {
    const int lane = thread - Mainloop::kConsumerThreads;
    if (kCopiesUnmapped<Mainloop, Scheduler> && !operands.mapped) {
      // The warp copies the tiles; a pair's blocks each their own whole B
      // tile (its stages' barriers still count both blocks' consumers).
      if (lane < 32)
        Mainloop::copy_products(s, operands, shape.m, shape.n,
                                static_cast<long long>(kBM) * tile_m,
                                static_cast<long long>(kBN) * u.tile_n, u.k_begin, k_tiles, lane,
                                0, batch);
    } else if (lane == 0) {
      Mainloop::produce_products(s, operands, kBM * tile_m, kBN * u.tile_n, u.k_begin, k_tiles,
                                 Scheduler::kPairs && schedule.pair ? u.rank : -1, 0, batch);
    }
    if (parts_in_cluster)
      producer_parts_in_cluster();  // (the whole warp)
    return;
  }
  typename Mainloop::Accumulators acc = {};
  Mainloop::consume(s, acc, k_tiles, thread, Scheduler::kPairs ? unit_blocks(schedule) : 1, 0,
                    false, operands.conversions,
                    {static_cast<long long>(kBM) * tile_m, static_cast<long long>(kBN) * u.tile_n,
                     static_cast<long long>(Mainloop::kBK) * u.k_begin, shape.m, shape.n,
                     shape.k});

  float *tile = reinterpret_cast<float *>(smem);
  consumer_sync<Mainloop::kConsumerThreads>();  // the stages become the output tile
  Stage::stage(tile, acc, thread);
  consumer_sync<Mainloop::kConsumerThreads>();
  int row_begin = 0, row_end = Stage::kRows;  // the staged rows this block finishes
  if (parts_in_cluster)
    add_parts_in_cluster<Stage::kRows, Stage::kCols, Stage::kPitch, Mainloop::kConsumerThreads>(
        tile, u.part, schedule.parts, thread, row_begin, row_end);
  else if (u.split_tile >= 0 &&
           !combine_parts<Stage::kRows, Stage::kCols, Stage::kPitch, Mainloop::kConsumerThreads>(
               tile, workspace, counters, u.split_tile, u.part, schedule.parts, s.flag, thread))
    return;  // another part of this tile finishes it
  at_batch_entry<Operands>(Output::functor(epilogue), batch, [&](const auto &f) {
    Stage::apply(tile, f, static_cast<long long>(kBM) * tile_m,
                 static_cast<long long>(kBN) * u.tile_n, shape.m, shape.n, thread, row_begin,
                 row_end);
  });
}

// The block's units of work in turn (one, or a scheduler's several), the
// threads of kRole.
template <class Mainloop, class Scheduler, Role kRole, class Operands, class Epilogue>
__device__ __forceinline__ void gemm_units(const typename Mainloop::Storage &s,
                                           unsigned char *smem, const GemmShape &shape,
                                           const Operands &operands, const Epilogue &epilogue,
                                           const TileSchedule &schedule, float *workspace,
                                           int *counters, int blocks) {
  Unit u;
  if constexpr (!Scheduler::kUnits) {
    pair_work<8>(schedule, u.tile_m, u.tile_n, u.k_begin, u.k_end, u.split_tile, u.part, u.rank);
    gemm_unit<Mainloop, Scheduler, kRole>(s, smem, shape, operands, schedule, workspace,
                                          counters, epilogue, u, threadIdx.x);
  } else {
    for (int unit = 0; unit_work<8>(schedule, unit, u.tile_m, u.tile_n, u.k_begin, u.k_end,
                                    u.split_tile, u.part, u.rank);
         ++unit) {
      if (unit > 0)  // the previous unit's stages are idle: fresh barriers
        reset_stage_barriers<Mainloop::kStages>(s.full, s.empty, Mainloop::kConsumers * blocks);
      // The thread index read anew in each unit, so that what derives from
      // it is not kept live across units (tc/tile_schedule.cuh).
      gemm_unit<Mainloop, Scheduler, kRole>(s, smem, shape, operands, schedule, workspace,
                                            counters, epilogue, u, unit_thread_index());
    }
  }
}

// The kernel's parameters end in the schedule's, as tc::launch_schedule
// passes them.
template <class Mainloop, class Epilogue, class Scheduler, class Operands>
__global__ void __launch_bounds__(Mainloop::kThreads, Mainloop::kBlocksPerSm)
    gemm_kernel(const GemmShape shape, const __grid_constant__ Operands operands,
                const Epilogue epilogue, const TileSchedule schedule,
                float *__restrict__ workspace, int *__restrict__ counters) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const typename Mainloop::Storage s = Mainloop::storage(smem);
  const int blocks = Scheduler::kPairs ? unit_blocks(schedule) : 1;  // sharing the stages
  if (threadIdx.x == 0)
    Mainloop::init(s, blocks);
  if (blocks > 1)
    cluster_sync();  // both blocks' barriers are ready before either copies into them
  else
    __syncthreads();
  using Producer = typename Mainloop::Producer;
  if constexpr (!Producer::kMovesRegisters) {
    gemm_units<Mainloop, Scheduler, Role::kAny>(s, smem, shape, operands, epilogue, schedule,
                                                workspace, counters, blocks);
  } else if (threadIdx.x >= Mainloop::kConsumerThreads) {  // (whole warpgroups)
    Producer::enter_producer();
    gemm_units<Mainloop, Scheduler, Role::kProducer>(s, smem, shape, operands, epilogue,
                                                     schedule, workspace, counters, blocks);
  } else {
    Producer::enter_consumer();
    gemm_units<Mainloop, Scheduler, Role::kConsumer>(s, smem, shape, operands, epilogue,
                                                     schedule, workspace, counters, blocks);
  }
}

// The persistent kernel's shared memory: the main loop's, then the
// epilogue's buffer and barriers (of a transposed tile, kTransposed).
template <class Mainloop, bool kTransposed = false>
struct PersistentLayout {
  // As many epilogue threads as consumers, or the producer policy's.
  static constexpr int kEpilogueThreads = Mainloop::Producer::kEpilogueThreads > 0
                                              ? Mainloop::Producer::kEpilogueThreads
                                              : Mainloop::kConsumerThreads;
  using Buffer = BufferedEpilogue<Mainloop::kBM, Mainloop::kBN, Mainloop::kConsumerThreads,
                                  kEpilogueThreads, kTransposed>;
  static constexpr int kThreads = Mainloop::kThreads + kEpilogueThreads;
  static_assert(roles_fit_launch_registers<typename Mainloop::Producer>(
                    kThreads, Mainloop::kConsumerThreads, kEpilogueThreads),
                "the roles' registers after setmaxnreg fit the block's at launch "
                "(tc::launch_registers)");
  static constexpr int kBufferOffset = (Mainloop::kSharedBytes + 15) / 16 * 16;
  static constexpr int kSharedBytes = kBufferOffset + Buffer::kBytes;
  static_assert(kSharedBytes <= 232448, "a block's shared memory on sm_90");
};

// A persistent block's tiles in turn: tile b + u P of the grouped order for
// block b's u-th (P blocks, schedule_persistent_tiles), each with all k
// tiles (`k_tiles`, of all products), so that tile u's first k tile is the
// ring's u k_tiles-th; in a batch, with its entry.
template <class Mainloop, class Operands>
struct PersistentTiles {
  const TileSchedule &schedule;
  const Operands &operands;
  int k_tiles, unit = -1, tile_m = 0, tile_n = 0, batch = 0;
  __device__ PersistentTiles(const TileSchedule &s, const Operands &o)
      : schedule(s),
        operands(o),
        k_tiles(static_cast<int>(o.total_k_tiles() < s.k_tiles ? o.total_k_tiles()
                                                                : s.k_tiles)) {}
  __device__ bool next() {
    const long long tile =
        blockIdx.x + static_cast<long long>(++unit) * schedule.persistent_blocks;
    if (tile >= static_cast<long long>(schedule.tiles_m) * schedule.tiles_n)
      return false;
    grouped_tile_of<8>(static_cast<int>(tile), schedule.tiles_m, schedule.tiles_n, tile_m,
                       tile_n);
    batch = operands.batch_of(tile_m);
    return true;
  }
  __device__ unsigned first() const { return static_cast<unsigned>(unit) * k_tiles; }
  __device__ long long row0() const { return static_cast<long long>(Mainloop::kBM) * tile_m; }
  __device__ long long col0() const { return static_cast<long long>(Mainloop::kBN) * tile_n; }
};

template <class Mainloop, class Epilogue, class Operands>
__global__ void __launch_bounds__(PersistentLayout<Mainloop>::kThreads, 1)
    persistent_gemm_kernel(const GemmShape shape, const __grid_constant__ Operands operands,
                           const Epilogue epilogue, const TileSchedule schedule,
                           float *__restrict__, int *__restrict__) {
  using Output = OutputOf<Epilogue>;
  using Layout = PersistentLayout<Mainloop, Output::kTransposed>;
  using Buffer = typename Layout::Buffer;
  constexpr int kConsumerThreads = Mainloop::kConsumerThreads;
  extern __shared__ __align__(1024) unsigned char smem[];
  const typename Mainloop::Storage s = Mainloop::storage(smem);
  const typename Buffer::Storage buffer = Buffer::storage(smem + Layout::kBufferOffset);
  if (threadIdx.x == 0) {
    Mainloop::init(s);
    Buffer::init(buffer);
    fence_barrier_init();
  }
  __syncthreads();
  // Each role loops over the block's tiles on its own: one loop with the
  // roles inside had ptxas serialise the consumers' wgmma (C7515), and one
  // through a lambda spilled at the 96 registers of 544 threads.
  const int thread = threadIdx.x;
  using Producer = typename Mainloop::Producer;
  constexpr int kEpilogueThread0 = kConsumerThreads + Mainloop::kProducerThreads;
  PersistentTiles<Mainloop, Operands> tiles(schedule, operands);
  if (thread >= kEpilogueThread0) {
    Producer::enter_epilogue();
    while (tiles.next())
      at_batch_entry<Operands>(Output::functor(epilogue), tiles.batch, [&](const auto &f) {
        Buffer::apply(buffer, f, tiles.row0(), tiles.col0(), shape.m, shape.n, tiles.unit,
                      thread - kEpilogueThread0);
      });
  } else if (thread >= kConsumerThreads) {
    Producer::enter_producer();
    const int lane = thread - kConsumerThreads;
    if constexpr (Mainloop::kProducerThreads > 32)
      if (lane >= 32)
        return;  // (a producer warpgroup's other warps)
    if (!operands.mapped) {  // the warp copies the tiles
      while (tiles.next())
        Mainloop::copy_products(s, operands, shape.m, shape.n, tiles.row0(), tiles.col0(), 0,
                                tiles.k_tiles, lane, tiles.first(), tiles.batch);
    } else if (lane == 0) {
      while (tiles.next())
        Mainloop::produce_products(s, operands, static_cast<int>(tiles.row0()),
                                   static_cast<int>(tiles.col0()), 0, tiles.k_tiles, -1,
                                   tiles.first(), tiles.batch);
    }
  } else {
    Producer::enter_consumer();
    while (tiles.next()) {
      typename Mainloop::Accumulators acc = {};
      Mainloop::consume(s, acc, tiles.k_tiles, thread, 1, tiles.first(), true,
                        operands.conversions,
                        {tiles.row0(), tiles.col0(), 0, shape.m, shape.n, shape.k});
      Buffer::stage(buffer, acc, tiles.unit, thread);
    }
  }
}

// A launch's kernel for a scheduler: persistent_gemm_kernel for
// PersistentScheduler, else gemm_kernel.
template <class Mainloop, class Epilogue, class Scheduler, class Operands,
          bool = Scheduler::kPersistent>
struct GemmKernel {
  static constexpr auto function = gemm_kernel<Mainloop, Epilogue, Scheduler, Operands>;
  static constexpr int kThreads = Mainloop::kThreads, kSharedBytes = Mainloop::kSharedBytes;
};

template <class Mainloop, class Epilogue, class Scheduler, class Operands>
struct GemmKernel<Mainloop, Epilogue, Scheduler, Operands, true> {
  using Layout = PersistentLayout<Mainloop, OutputOf<Epilogue>::kTransposed>;
  static constexpr auto function = persistent_gemm_kernel<Mainloop, Epilogue, Operands>;
  static constexpr int kThreads = Layout::kThreads, kSharedBytes = Layout::kSharedBytes;
};

// What the launch of a GEMM kernel needs of it, without its types, so
// that the launchers of every kernel share one copy of launch_gemm_tiles.
struct GemmLaunch {
  const void *kernel;
  int threads, smem_bytes;
  bool clustered;             // Scheduler::kPairs || kClusterParts: launch_schedule_args
  long long tile_elements;    // kBM * kBN: a split tile's slot
  SharedMemoryOptIn *opt_in;  // the kernel's own
  ClusterCapacities *capacities;
  TileSchedule (*schedule)(long long tiles_m, long long tiles_n, long long k_tiles,
                           const LaunchFacts &, const ClusterCapacityQuery &);  // Scheduler's
};

// Launches `launch`'s kernel on `tiles_m` x `tiles_n` tiles of `k_tiles` k
// tiles, on its scheduler's schedule; `shape`, `operands` and `epilogue`
// point to its first three arguments. False where it cannot. Static, as
// tc::launch_schedule_args is: each file's launches of stream 0 go to its
// own default stream.
static __host__ inline bool launch_gemm_tiles(const GemmLaunch &launch, long long tiles_m,
                                              long long tiles_n, long long k_tiles,
                                              const LaunchFacts &facts, cudaStream_t stream,
                                              void *shape, void *operands, void *epilogue) {
  if (launch.opt_in->apply(launch.smem_bytes, launch.kernel) != cudaSuccess)
    return false;
  const ClusterCapacityQuery capacity = {launch.capacities, facts.device.ordinal, launch.kernel,
                                         launch.threads, launch.smem_bytes};
  TileSchedule schedule = launch.schedule(tiles_m, tiles_n, k_tiles, facts, capacity);
  float *workspace = nullptr;
  int *counters = nullptr;
  // The parts' counters and slots, kept per stream (the counters left at
  // zero); without the memory, whole tiles. (Cluster parts need none.)
  if (!schedule.cluster_parts && tc::split_tiles(schedule) > 0 &&
      !tc::stream_workspace(stream, tc::schedule_counter_bytes(schedule),
                            tc::schedule_slot_bytes(schedule, launch.tile_elements), counters,
                            workspace))
    schedule = tc::without_split_tiles(schedule);
  void *args[] = {shape, operands, epilogue, &schedule, &workspace, &counters};
  // The launch's own status, not the thread's last error, which may be an
  // earlier one.
  cudaError_t status;
  if (launch.clustered) {
    status = tc::launch_schedule_args(launch.kernel, schedule, workspace, counters,
                                      launch.threads, launch.smem_bytes, stream, args);
  } else {
    const cudaLaunchConfig_t config =
        tc::schedule_launch_config(schedule, launch.threads, launch.smem_bytes, stream);
    status = cudaLaunchKernelExC(&config, launch.kernel, args);
  }
  if (status != cudaSuccess)
    (void)cudaGetLastError();  // handled here: the caller launches another kernel or reports
  return status == cudaSuccess;
}

// Launches the kernel of Mainloop and Scheduler for `batches` GEMMs of the
// sum of `products` (tc/sm90/products.cuh) into m x n outputs, on `stream`
// (kBatched false: one, `batches` 1): product p's A_p is read as
// Mainloop's A tile says (rows m, pitch lda), B_p likewise (rows n, pitch
// ldb). False where it cannot (see above); true with nothing to do for an
// empty output.
template <class Mainloop, class Scheduler, bool kBatched, int kCount, class Epilogue>
__host__ bool launch_gemm_batches(long long batches, long long m, long long n,
                                  const Products<typename Mainloop::Element, kCount,
                                                 typename Mainloop::AElement> &products_in,
                                  const Epilogue &epilogue, cudaStream_t stream,
                                  Producer producer,
                                  const typename Mainloop::Conversions &conversions) {
  using ATile = typename Mainloop::A;
  using BTile = typename Mainloop::B;
  using Operands = MainloopOperands<Mainloop, kCount, kBatched>;
  constexpr int kBM = Mainloop::kBM, kBN = Mainloop::kBN;
  if (m < 1 || n < 1 || batches < 1)
    return true;
  // (The conversions apply to one product's operands, unbatched: their
  // functors know neither the product nor the batch entry.)
  static_assert(!(Mainloop::kAConverts || Mainloop::kBConverts) || (kCount == 1 && !kBatched),
                "converted operands in one product of one GEMM");
  Operands operands = {};
  operands.products = products_in;
  operands.conversions = conversions;
  long long k_total = 0;
  for (auto &p : operands.products.product) {
    p.k = p.k < 0 ? 0 : p.k;  // an empty reduction (a loop from k0 to k1 < k0 too)
    k_total += p.k;
  }
  const GemmShape shape{m, n, k_total};
  const LaunchFacts facts = launch_facts();
  // Each product's maps, the aligned copies of its operands in buffers of
  // their own; a product of no k tiles needs none.
  constexpr long long kMaxExtent = (1ll << 31) - 256;
  bool mapped = producer != Producer::kCopies && k_total >= 1 && m < kMaxExtent &&
                n < kMaxExtent;
  for (int p = 0; p < kCount && mapped; ++p) {
    const auto &o = operands.products.product[p];
    if constexpr (kBatched)
      mapped = o.k == 0 ||
               (o.k < kMaxExtent &&
                ATile::map_batch(&operands.map_a[p], o.a, m, o.k, o.lda, batches, o.batch_a,
                                 stream, 2 * p, facts.device) &&
                BTile::map_batch(&operands.map_b[p], o.b, n, o.k, o.ldb, batches, o.batch_b,
                                 stream, 2 * p + 1, facts.device));
    else
      mapped = o.k == 0 ||
               (o.k < kMaxExtent &&
                ATile::map(&operands.map_a[p], o.a, m, o.k, o.lda, stream, 2 * p, facts.device) &&
                BTile::map(&operands.map_b[p], o.b, n, o.k, o.ldb, stream, 2 * p + 1,
                           facts.device));
  }
  // The tile rows of one batch entry (even where pairs may take rows 2u and
  // 2u + 1), all entries' stacked for the schedulers.
  long long tiles_m = (m + kBM - 1) / kBM;
  const long long tiles_n = (n + kBN - 1) / kBN;
  if constexpr (kBatched) {
    if (Scheduler::kPairs && batches > 1)
      tiles_m += tiles_m % 2;
    // (The entries' tiles are counted in ints.)
    if (tiles_m * tiles_n >= (1ll << 31) || batches >= (1ll << 31) / (tiles_m * tiles_n))
      return false;
    operands.batch_tiles_m = static_cast<int>(tiles_m);
    tiles_m *= batches;
  }
  // Unmapped, the producer warp copies the tiles instead (and for K = 0
  // there is nothing to copy); the tile counts are ints.
  if ((!mapped && (producer == Producer::kTmaOnly || !kCopiesUnmapped<Mainloop, Scheduler>)) ||
      tiles_m * tiles_n >= (1ll << 31))
    return false;
  operands.mapped = mapped;
  using Kernel = GemmKernel<Mainloop, Epilogue, Scheduler, Operands>;
  static SharedMemoryOptIn opt_in;  // (before the clusters' capacity is measured)
  static ClusterCapacities capacities;  // measured once a device, where asked for
  const GemmLaunch launch = {reinterpret_cast<const void *>(Kernel::function),
                             Kernel::kThreads,
                             Kernel::kSharedBytes,
                             Scheduler::kPairs || Scheduler::kClusterParts,
                             static_cast<long long>(kBM) * kBN,
                             &opt_in,
                             &capacities,
                             &Scheduler::template schedule<ClusterCapacityQuery>};
  return tc::sm90::launch_gemm_tiles(launch, tiles_m, tiles_n, operands.total_k_tiles(), facts,
                                     stream, const_cast<GemmShape *>(&shape), &operands,
                                     const_cast<Epilogue *>(&epilogue));
}

// Launches the kernel of Mainloop and Scheduler for the sum of `products`
// into an m x n output (launch_gemm_batches).
template <class Mainloop, class Scheduler = TilesScheduler, int kCount, class Epilogue>
__host__ bool launch_gemm(long long m, long long n,
                          const Products<typename Mainloop::Element, kCount> &products,
                          const Epilogue &epilogue, cudaStream_t stream,
                          Producer producer = Producer::kTma) {
  static_assert(!(Mainloop::kAConverts || Mainloop::kBConverts),
                "converted operands take their functors: launch_gemm(shape, a, lda, b, ldb, "
                "epilogue, stream, producer, conversions)");
  return launch_gemm_batches<Mainloop, Scheduler, false>(1, m, n, products, epilogue, stream,
                                                         producer, {});
}

// The same for `batches` GEMMs: entry z of product p reads A_p at a + z *
// batch_a, B_p at b + z * batch_b (Products), and `epilogue` takes the
// entry first (BatchEntryEpilogue, tc/sm90/epilogue.cuh). TMA reads each
// operand through a 3-D map, in place where its pitches are multiples of
// 16 bytes, else from an aligned copy of all its matrices.
template <class Mainloop, class Scheduler = TilesScheduler, int kCount, class Epilogue>
__host__ bool launch_batched_gemm(long long batches, long long m, long long n,
                                  const Products<typename Mainloop::Element, kCount> &products,
                                  const Epilogue &epilogue, cudaStream_t stream,
                                  Producer producer = Producer::kTma) {
  return launch_gemm_batches<Mainloop, Scheduler, true>(batches, m, n, products, epilogue,
                                                        stream, producer, {});
}

// The same for one product: A (rows m, pitch lda) times B (rows n, pitch
// ldb) over shape.k, its converted operands (Converted<F>, tc/sm90/roles.cuh)
// by the functors of `conversions`:
//
//   tc::sm90::launch_gemm<Mainloop>(shape, A, lda, B, ldb, epilogue, stream,
//                                   tc::sm90::Producer::kTma, {reciprocal_a{}, {}});
template <class Mainloop, class Scheduler = TilesScheduler, class Epilogue>
__host__ bool launch_gemm(const GemmShape &shape, const typename Mainloop::AElement *a,
                          long long lda, const typename Mainloop::Element *b, long long ldb,
                          const Epilogue &epilogue, cudaStream_t stream,
                          Producer producer = Producer::kTma,
                          const typename Mainloop::Conversions &conversions = {}) {
  return launch_gemm_batches<Mainloop, Scheduler, false>(
      1, shape.m, shape.n,
      Products<typename Mainloop::Element, 1, typename Mainloop::AElement>{
          {{a, lda, b, ldb, shape.k}}},
      epilogue, stream, producer, conversions);
}

}  // namespace sm90
}  // namespace tc
