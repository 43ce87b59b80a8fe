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
// A second template argument chooses the tile scheduler (below): with
// StreamUnitsScheduler, a block may compute several units of work in turn,
// the stages' barriers fresh for each.
//
// launch_gemm returns false, launching nothing, where TMA cannot map an
// operand (not even through an aligned copy), a dimension is 2^31 - 256 or
// more (TMA's coordinates are 32-bit), or K is 0; also where the launch
// fails. The caller then computes the output another way.
//
// The kernel declares no static shared memory, so that its dynamic shared
// memory starts 1024-byte aligned, as the 128-byte swizzle needs: an
// epilogue functor must not declare any either.
#pragma once

#include <cuda_runtime.h>

#include "../launch_facts.cuh"
#include "../shared_memory_opt_in.cuh"
#include "../tile_schedule.cuh"
#include "epilogue.cuh"
#include "mainloop.cuh"

namespace tc {
namespace sm90 {

struct GemmShape {
  long long m, n, k;
};

// Blocks of `Mainloop` an SM holds (its shared memory only: 228 KiB, of
// which 1 KiB a block is reserved).
template <class Mainloop>
constexpr int blocks_per_sm() {
  return 2 * (Mainloop::kSharedBytes + 1024) <= 233472 ? 2 : 1;
}

// Tile schedulers (tc/tile_schedule.cuh): how a launch's blocks share the
// output tiles. Each block computes units of work, a unit being a whole
// tile or a range of k tiles of one (a part of a split tile).
//
//   TilesScheduler        one unit a block (block_work): whole tiles, and
//                         split tiles where there are few of them
//                         (schedule_tiles)
//   StreamUnitsScheduler  one block an SM for the last round of tiles where
//                         it is nearly empty, each block taking several
//                         units in turn (unit_work, schedule_stream_tiles)
struct TilesScheduler {
  static constexpr bool kUnits = false;
  __host__ static TileSchedule schedule(long long tiles_m, long long tiles_n, long long k_tiles,
                                        const LaunchFacts &facts) {
    return schedule_tiles(tiles_m, tiles_n, k_tiles, facts.device);
  }
};

struct StreamUnitsScheduler {
  static constexpr bool kUnits = true;
  __host__ static TileSchedule schedule(long long tiles_m, long long tiles_n, long long k_tiles,
                                        const LaunchFacts &facts) {
    return schedule_stream_tiles(tiles_m, tiles_n, k_tiles, facts.device, facts.options);
  }
};

// One unit of work of a block: the tile (tile_m, tile_n), its k tiles
// [k_begin, k_end), and for a part of a split tile, the tile's index among
// the split tiles and the part (else -1).
struct Unit {
  int tile_m, tile_n, split_tile, part;
  long long k_begin, k_end;
};

// Thread `thread`'s share of one unit: the producer's copies, or the
// consumers' main loop and epilogue.
template <class Mainloop, class Epilogue>
__device__ __forceinline__ void gemm_unit(const typename Mainloop::Storage &s,
                                          unsigned char *smem, const GemmShape &shape,
                                          const CUtensorMap &map_a, const CUtensorMap &map_b,
                                          const TileSchedule &schedule, float *workspace,
                                          int *counters, const Epilogue &epilogue,
                                          const Unit &u, int thread) {
  constexpr int kBM = Mainloop::kBM, kBN = Mainloop::kBN;
  using Stage = StagedEpilogue<kBM, kBN, Mainloop::kConsumerThreads>;
  static_assert(Stage::kBytes <= Mainloop::kPipelineBytes, "the output tile fits in the stages");
  const long long k_stop = (shape.k + Mainloop::kBK - 1) / Mainloop::kBK;
  const int k_tiles = static_cast<int>((u.k_end < k_stop ? u.k_end : k_stop) - u.k_begin);
  if (thread >= Mainloop::kConsumerThreads) {
    if (thread == Mainloop::kConsumerThreads)
      Mainloop::produce(s, map_a, map_b, kBM * u.tile_m, kBN * u.tile_n, u.k_begin, k_tiles);
    return;
  }
  typename Mainloop::Accumulators acc = {};
  Mainloop::consume(s, acc, k_tiles, thread);

  float *tile = reinterpret_cast<float *>(smem);
  consumer_sync<Mainloop::kConsumerThreads>();  // the stages become the output tile
  Stage::stage(tile, acc, thread);
  consumer_sync<Mainloop::kConsumerThreads>();
  if (u.split_tile >= 0 &&
      !combine_parts<kBM, kBN, Stage::kPitch, Mainloop::kConsumerThreads>(
          tile, workspace, counters, u.split_tile, u.part, schedule.parts, s.flag, thread))
    return;  // another part of this tile finishes it
  Stage::apply(tile, epilogue, static_cast<long long>(kBM) * u.tile_m,
               static_cast<long long>(kBN) * u.tile_n, shape.m, shape.n, thread);
}

template <class Mainloop, class Epilogue, class Scheduler>
__global__ void __launch_bounds__(Mainloop::kThreads, blocks_per_sm<Mainloop>())
    gemm_kernel(const GemmShape shape, const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b, const TileSchedule schedule,
                float *__restrict__ workspace, int *__restrict__ counters,
                const Epilogue epilogue) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const typename Mainloop::Storage s = Mainloop::storage(smem);
  if (threadIdx.x == 0)
    Mainloop::init(s);
  __syncthreads();
  Unit u;
  if constexpr (!Scheduler::kUnits) {
    block_work<8>(schedule, u.tile_m, u.tile_n, u.k_begin, u.k_end, u.split_tile, u.part);
    gemm_unit<Mainloop>(s, smem, shape, map_a, map_b, schedule, workspace, counters, epilogue, u,
                        threadIdx.x);
  } else {
    int rank;  // of a pair of tiles: none here
    for (int unit = 0; unit_work<8>(schedule, unit, u.tile_m, u.tile_n, u.k_begin, u.k_end,
                                    u.split_tile, u.part, rank);
         ++unit) {
      if (unit > 0)  // the previous unit's stages are idle: fresh barriers
        reset_stage_barriers<Mainloop::kStages>(s.full, s.empty, Mainloop::kConsumers);
      // The thread index read anew in each unit, so that what derives from
      // it is not kept live across units (tc/tile_schedule.cuh).
      gemm_unit<Mainloop>(s, smem, shape, map_a, map_b, schedule, workspace, counters, epilogue,
                          u, unit_thread_index());
    }
  }
}

// Launches gemm_kernel<Mainloop, Epilogue, Scheduler> over `shape` on `stream`: A is
// read as Mainloop's A tile says (rows m, pitch lda), B likewise (rows n,
// pitch ldb). False where it cannot (see above); true with nothing to do
// for an empty output.
template <class Mainloop, class Scheduler = TilesScheduler, class Epilogue>
__host__ bool launch_gemm(const GemmShape &shape, const typename Mainloop::Element *a,
                          long long lda, const typename Mainloop::Element *b, long long ldb,
                          const Epilogue &epilogue, cudaStream_t stream) {
  using ATile = typename Mainloop::A;
  using BTile = typename Mainloop::B;
  if (shape.m < 1 || shape.n < 1)
    return true;
  constexpr long long kMaxExtent = (1ll << 31) - 256;
  if (shape.k < 1 || shape.m >= kMaxExtent || shape.n >= kMaxExtent || shape.k >= kMaxExtent)
    return false;
  const LaunchFacts facts = launch_facts();
  CUtensorMap map_a, map_b;
  if (!ATile::map(&map_a, a, shape.m, shape.k, lda, stream, 0, facts.device) ||
      !BTile::map(&map_b, b, shape.n, shape.k, ldb, stream, 1, facts.device))
    return false;
  constexpr int kBM = Mainloop::kBM, kBN = Mainloop::kBN;
  TileSchedule schedule =
      Scheduler::schedule((shape.m + kBM - 1) / kBM, (shape.n + kBN - 1) / kBN,
                          (shape.k + Mainloop::kBK - 1) / Mainloop::kBK, facts);
  float *workspace = nullptr;
  int *counters = nullptr;
  // The parts' counters and slots, kept per stream (the counters left at
  // zero); without the memory, whole tiles.
  if (split_tiles(schedule) > 0 &&
      !stream_workspace(stream, schedule_counter_bytes(schedule),
                        schedule_slot_bytes(schedule, kBM * kBN), counters, workspace))
    schedule = without_split_tiles(schedule);
  static SharedMemoryOptIn opt_in;
  if (opt_in.apply(Mainloop::kSharedBytes, gemm_kernel<Mainloop, Epilogue, Scheduler>) !=
      cudaSuccess)
    return false;
  gemm_kernel<Mainloop, Epilogue, Scheduler>
      <<<static_cast<unsigned>(schedule_blocks(schedule)), Mainloop::kThreads,
         Mainloop::kSharedBytes, stream>>>(shape, map_a, map_b, schedule, workspace, counters,
                                           epilogue);
  return cudaPeekAtLastError() == cudaSuccess;
}

}  // namespace sm90
}  // namespace tc
