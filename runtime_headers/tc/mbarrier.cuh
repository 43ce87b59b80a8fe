// tc/mbarrier.cuh - shared-memory barriers with transaction counts and
// named barriers (sm_90): the handshake of a warp-specialised main loop.
//
// Stage protocol (the generated TMA kernels, tma.cuh)
// ---------------------------------------------------
// Each of the S operand stages has two barriers in shared memory:
//   full[s]   count 1: the producer's arrive_expect_tx(bytes of the stage);
//             the phase completes when the TMA copies have delivered that
//             many bytes;
//   empty[s]  count = consumer warpgroups: one thread of each warpgroup
//             arrives once that warpgroup's wgmma no longer read the stage.
// The u-th use (u = 0, 1, ...) of stage s = u mod S waits for phase
// floor(u / S) of full[s] (parity floor(u / S) mod 2); the producer refills
// the stage for use u >= S after phase floor(u / S) - 1 of empty[s].
// A barrier's parity wait returns once the phase with that parity has
// completed, so neither side needs a counter beyond its own loop index.
//
// Named barriers: barrier 0 is __syncthreads(); the consumer warpgroups
// synchronise among themselves with barrier 1 (consumer_sync), which the
// producer warp, gone after its last copy, does not join; consumer
// warpgroup g alone with barrier 2 + g (warpgroup_sync).
#pragma once

#include <cstdint>

#include "device_trap.cuh"

namespace tc {

__device__ __forceinline__ uint32_t shared_address(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarrier_init(uint64_t *bar, int count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(count)
               : "memory");
#else
  (void)bar, (void)count;
  TC_DEVICE_TRAP_();  // mbarrier transaction counts need sm_90
#endif
}

// Ends a barrier's life: required before its memory is initialised again.
__device__ __forceinline__ void mbarrier_inval(uint64_t *bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(shared_address(bar)) : "memory");
#else
  (void)bar;
  TC_DEVICE_TRAP_();
#endif
}

// After the initialisation, before the barrier that publishes it: the TMA
// unit (async proxy) completes transactions on these barriers.
__device__ __forceinline__ void fence_barrier_init() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

// Between two units of work of one block (tile_schedule.cuh, unit_work):
// every copy of the previous unit has landed and been consumed, so the
// whole block meets, thread 0 gives each stage fresh barriers - phases
// from 0 again, which the next unit's waits count from - and the block
// meets again before anyone uses them.
template <int kStages>
__device__ __forceinline__ void reset_stage_barriers(uint64_t *full, uint64_t *empty,
                                                     int empty_arrivals) {
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      mbarrier_inval(full + s);
      mbarrier_init(full + s, 1);
      mbarrier_inval(empty + s);
      mbarrier_init(empty + s, empty_arrivals);
    }
    fence_barrier_init();
  }
  __syncthreads();
}

// Arrives (count 1) and announces `bytes` of copies that complete the phase.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t *bar, uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   shared_address(bar)),
               "r"(bytes)
               : "memory");
#else
  (void)bar, (void)bytes;
  TC_DEVICE_TRAP_();
#endif
}

__device__ __forceinline__ void mbarrier_arrive(uint64_t *bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(bar))
               : "memory");
#else
  (void)bar;
  TC_DEVICE_TRAP_();
#endif
}

// Blocks until the phase of parity `parity` (0 or 1) has completed.
__device__ __forceinline__ void mbarrier_wait(uint64_t *bar, int parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t addr = shared_address(bar);
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "  selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(addr), "r"(parity)
        : "memory");
  } while (!done);
#else
  (void)bar, (void)parity;
  TC_DEVICE_TRAP_();
#endif
}

// One thread of each consumer warpgroup releases a stage: its wgmma_wait
// has retired the groups that read it (the warpgroup's instructions are
// collective, so one thread's wait covers the warpgroup's reads).
__device__ __forceinline__ void release_stage(uint64_t *empty_bar, int thread) {
  if (thread % 128 == 0)
    mbarrier_arrive(empty_bar);
}

// Barrier 1 over the kThreads consumer threads (warps 0 .. kThreads/32 - 1).
template <int kThreads>
__device__ __forceinline__ void consumer_sync() {
  static_assert(kThreads % 32 == 0, "named barriers count whole warps");
  asm volatile("bar.sync 1, %0;\n" ::"n"(kThreads) : "memory");
}

// Barrier 2 + warpgroup over that consumer warpgroup's 128 threads: e.g.
// its writes to a stage, each followed by fence_proxy_async(), precede the
// wgmma that any of its warps issues after it (the instruction is
// collective, so it may read rows that another warp wrote).
__device__ __forceinline__ void warpgroup_sync(int warpgroup) {
#if defined(__CUDA_ARCH__)
  // Immediate barrier numbers: with a register operand ptxas reserves all
  // 16 of the block's barriers.
  switch (warpgroup) {
  case 0: asm volatile("bar.sync 2, 128;\n" ::: "memory"); break;
  case 1: asm volatile("bar.sync 3, 128;\n" ::: "memory"); break;
  case 2: asm volatile("bar.sync 4, 128;\n" ::: "memory"); break;
  default: asm volatile("bar.sync 5, 128;\n" ::: "memory"); break;
  }
#else
  (void)warpgroup;
#endif
}

}  // namespace tc
