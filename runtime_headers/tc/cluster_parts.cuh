// tc/cluster_parts.cuh - the parts of a split tile as one cluster, adding
// their partial tiles through distributed shared memory (sm_90).
//
// Few-tile outputs split every tile along k into P parts (2..8) so that
// the blocks fill the SMs. combine_parts (tile_schedule.cuh) meets the
// parts in L2: each stores its fp32 tile in a slot, fences and counts, and
// the last reads the others' slots and runs the epilogue alone. Here the
// P blocks of a tile are launched as one cluster (schedule_cluster_parts,
// launch_schedule) and keep their partial tiles in their own shared
// memory, where the output tile is staged anyway: each part adds rows
// [part * R / P, (part + 1) * R / P) of all P tiles, in part order (the same
// bits on every run), and runs the epilogue on those rows: no fp32 round
// trip through L2 and no lone last part adding all the slots
// (docs/design/tile-choice.md has the measurements).
//
// Protocol: two cluster barriers (barrier.cluster), which every thread of
// the cluster's blocks takes: once all parts have staged their tiles, and
// once all have read the others', so that no block leaves while another
// reads its memory. The producer warp takes both too
// (producer_parts_in_cluster) once its copies are issued. (One-thread
// mbarrier arrivals at cluster scope instead, release and acquire, with a
// cluster fence, measured slower.)
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "cluster.cuh"
#include "cluster_parts_choice.cuh"
#include "device_trap.cuh"
#include "per_device.cuh"
#include "tile_schedule.cuh"

namespace tc {

// 16 bytes at `p`'s offset in the shared memory of cluster block `rank`.
__device__ __forceinline__ float4 load_shared_cluster4(const float *p, int rank) {
  float4 v;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "{\n"
      "  .reg .b32 remote;\n"
      "  mapa.shared::cluster.u32 remote, %4, %5;\n"
      "  ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [remote];\n"
      "}\n"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "r"(shared_address(p)), "r"(rank)
      : "memory");
#else
  (void)p, (void)rank;
  v = make_float4(0.f, 0.f, 0.f, 0.f);
  TC_DEVICE_TRAP_();
#endif
  return v;
}

// Called by the kThreads consumer threads of every part (cluster rank =
// part) once the block's kRows x kCols tile is staged in `stage` (row pitch
// kPitch floats) and the consumers met (consumer_sync): adds this part's
// rows of all parts' tiles into its own `stage`, which then holds the sums
// of rows [row_begin, row_end), for its epilogue. Returns once every part
// has read this block's tile.
template <int kRows, int kCols, int kPitch, int kThreads>
__device__ __forceinline__ void add_parts_in_cluster(float *stage, int part, int parts,
                                                     int thread, int &row_begin, int &row_end) {
  static_assert(kCols % 4 == 0 && kPitch % 4 == 0, "float4 rows");
  cluster_sync();  // every part's tile is staged
  row_begin = part * kRows / parts;
  row_end = (part + 1) * kRows / parts;
  constexpr int kVectors = kCols / 4;  // float4s a row
  for (int i = row_begin * kVectors + thread; i < row_end * kVectors; i += kThreads) {
    float *p = stage + (i / kVectors) * kPitch + (i % kVectors) * 4;
    float4 sum = load_shared_cluster4(p, 0);
    for (int q = 1; q < parts; ++q) {
      const float4 v = load_shared_cluster4(p, q);
      sum.x += v.x;
      sum.y += v.y;
      sum.z += v.z;
      sum.w += v.w;
    }
    *reinterpret_cast<float4 *>(p) = sum;  // rows no other part reads
  }
  cluster_sync();  // every part has read the others' tiles; the sums are in place
}

// The producer's share of add_parts_in_cluster: its two cluster barriers.
// (The warp meets first: one lane issued the copies, and barrier.cluster's
// .aligned form wants the whole warp converged.)
__device__ __forceinline__ void producer_parts_in_cluster() {
  __syncwarp();
  cluster_sync();
  cluster_sync();
}

// The clusters of 2..8 blocks of `kernel` that can run at once
// (cudaOccupancyMaxActiveClusters), measured once per launcher. Untyped,
// so that the launchers of every kernel share one copy of this host code.
__host__ inline ClusterCapacity cluster_capacity(const void *kernel, int threads, int smem_bytes) {
  ClusterCapacity c;
  for (int blocks = 2; blocks <= kMaxClusterParts; ++blocks) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(blocks) * 16);
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = static_cast<size_t>(smem_bytes);
    cudaLaunchAttribute cluster[1];
    cluster[0].id = cudaLaunchAttributeClusterDimension;
    cluster[0].val.clusterDim.x = static_cast<unsigned>(blocks);
    cluster[0].val.clusterDim.y = 1;
    cluster[0].val.clusterDim.z = 1;
    config.attrs = cluster;
    config.numAttrs = 1;
    int n = 0;
    if (cudaOccupancyMaxActiveClusters(&n, kernel, &config) != cudaSuccess) {
      (void)cudaGetLastError();
      n = 0;
    }
    c.clusters[blocks] = n;
  }
  return c;
}

template <typename... Params>
__host__ inline ClusterCapacity cluster_capacity(void (*kernel)(Params...), int threads,
                                                 int smem_bytes) {
  return tc::cluster_capacity(reinterpret_cast<const void *>(kernel), threads, smem_bytes);
}

// A launcher's cluster_capacity per device, each measured once: another
// device (cudaSetDevice between launches) may fit other clusters.
using ClusterCapacities = PerDevice<ClusterCapacity>;

// The capacity of `kernel`'s clusters on device `ordinal`, the current one.
__host__ inline ClusterCapacity cluster_capacity_on(ClusterCapacities &capacities, int ordinal,
                                                    const void *kernel, int threads,
                                                    int smem_bytes) {
  return capacities.get(ordinal, [&] { return tc::cluster_capacity(kernel, threads, smem_bytes); });
}

template <typename... Params>
__host__ inline ClusterCapacity cluster_capacity_on(ClusterCapacities &capacities, int ordinal,
                                                    void (*kernel)(Params...), int threads,
                                                    int smem_bytes) {
  return tc::cluster_capacity_on(capacities, ordinal, reinterpret_cast<const void *>(kernel),
                                 threads, smem_bytes);
}

// What a scheduler asks the capacity of a launch's clusters of (its
// schedule()'s `capacity`): one type for every kernel, measured at most
// once a device.
struct ClusterCapacityQuery {
  ClusterCapacities *capacities;
  int ordinal;
  const void *kernel;
  int threads, smem_bytes;
  __host__ ClusterCapacity operator()() const {
    return tc::cluster_capacity_on(*capacities, ordinal, kernel, threads, smem_bytes);
  }
};

}  // namespace tc
