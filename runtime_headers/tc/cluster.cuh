// tc/cluster.cuh - pairs of blocks that share an operand tile (thread-block
// clusters, sm_90).
//
// The blocks of output tiles (m, n) and (m + 1, n) need the same tile of B.
// Launched as a cluster of two, each copies half of that tile with a TMA
// multicast into both blocks' stages (tma.cuh, tma_load_tile), so the pair
// reads it from L2 once instead of twice: for 128x256 tiles each block
// then reads 256 operand rows per k tile instead of 384.
//
// Stage protocol of a pair (extends mbarrier.cuh): a block's full[s]
// expects the whole stage's bytes, its own copies' and the peer's
// multicast half alike. A producer overwrites stage s in both blocks, so
// empty[s] counts the consumer warpgroups of both: each warpgroup releases
// a stage on its own block's barrier and on the peer's
// (release_stage_in_cluster). The peer's copies may complete bytes on
// full[s] before this block's producer announced them; the transaction
// count goes negative meanwhile, and the phase still completes only after
// the announcing arrival.
//
// Exit: a block must not leave while its peer can still reach its shared
// memory. The consumers release only the stages that a producer refills
// (the generated loop stops releasing S tiles before the end), so every
// remote arrival is awaited by a producer, and every multicast copy by the
// consumers it lands at: both blocks are still running when they happen.
//
// The arrival counts and releases follow the schedule's unit, not the
// hardware cluster (tc::unit_blocks: 2 for a pair, else 1): a cluster of a
// split tile's parts (cluster_parts.cuh) shares no stages, so each of its
// blocks counts and releases its own only, as a launch without a cluster
// (a cluster of one block) does; neither multicasts a copy.
#pragma once

#include <cstdint>

#include "device_trap.cuh"
#include "mbarrier.cuh"

namespace tc {

// This block's rank in its cluster, and the cluster's blocks.
__device__ __forceinline__ int cluster_rank() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return static_cast<int>(rank);
#else
  return 0;
#endif
}

__device__ __forceinline__ int cluster_blocks() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint32_t blocks;
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(blocks));
  return static_cast<int>(blocks);
#else
  return 1;
#endif
}

// All threads of all blocks of the cluster: what each block wrote to its
// shared memory before (the barriers' initialisation) is visible to the
// others after.
__device__ __forceinline__ void cluster_sync() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release.aligned;\n"
               "barrier.cluster.wait.acquire.aligned;\n" ::
                   : "memory");
#else
  __syncthreads();
#endif
}

// Arrives (count 1) on the mbarrier at `bar`'s offset in the shared memory
// of the cluster's block `rank` (this block's own included). With the
// arrive's default semantics (release at CTA scope), as for a local
// arrival: what it orders is the arriving warpgroup's wgmma_wait, not
// memory this thread wrote. (An explicit .release.cluster arrive made the
// kernels much slower: docs/design/kernel-config.md.)
__device__ __forceinline__ void mbarrier_arrive_in_block(uint64_t *bar, int rank) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "{\n"
      "  .reg .b32 remote;\n"
      "  mapa.shared::cluster.u32 remote, %0, %1;\n"
      "  mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(shared_address(bar)),
      "r"(rank)
      : "memory");
#else
  (void)bar, (void)rank;
  TC_DEVICE_TRAP_();  // clusters need sm_90
#endif
}

// One thread of each consumer warpgroup releases a stage in the `blocks`
// blocks of the cluster that share it (ranks 0 .. blocks - 1; the two of a
// pair): a producer of any of them may refill it (see above). A cluster
// whose blocks do not share stages (the parts of a split tile,
// cluster_parts.cuh) passes 1: each block's stages are its own.
__device__ __forceinline__ void release_stage_in_cluster(uint64_t *empty_bar, int thread,
                                                         int blocks) {
  if (thread % 128 == 0) {
    if (blocks == 1) {
      mbarrier_arrive(empty_bar);
      return;
    }
    for (int rank = 0; rank < blocks; ++rank)
      mbarrier_arrive_in_block(empty_bar, rank);
  }
}

}  // namespace tc
