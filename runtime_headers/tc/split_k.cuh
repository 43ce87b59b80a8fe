// tc/split_k.cuh - how many parts the reduction is split into.
//
// A GEMM whose output has fewer tiles than the GPU has multiprocessors
// leaves most of them idle (LLM decode shapes: M = 16 tokens, N = 4096,
// K = 4096 gives 32 tiles on 132 SMs). Splitting the k tiles among
// several blocks per output tile fills the machine; the partial sums meet
// in an fp32 workspace and a second kernel adds them and applies the
// epilogue. The rule: aim for two waves of blocks, keep at least four k
// tiles per split, and never more than 16 splits; split only outputs with
// fewer tiles than the GPU has SMs (half as many for the 64x128 wgmma
// kernel, see choose_splits).
//
// Intra-block split-K (`warp_split_k(P)`) splits each k tile among P warp
// groups of one block instead; their partial sums meet in shared memory
// through the two helpers at the end.
#pragma once

#include <cuda_runtime.h>

namespace tc {

__host__ inline int multiprocessors() {
  static const int count = [] {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    return sms > 0 ? sms : 1;
  }();
  return count;
}

// fill_divisor: split only outputs with fewer tiles than sms / fill_divisor.
// The mma.sync kernels split below one tile per SM (1); the 64x128 wgmma
// kernel, which fills an SM with less work, only below half of that (2):
// its unsplit kernel measured faster from there on
// (docs/design/tile-choice.md).
__host__ inline int choose_splits(long long tiles, long long k_tiles, int fill_divisor = 1) {
  const long long sms = multiprocessors();
  if (tiles <= 0 || tiles * fill_divisor >= sms || k_tiles < 8)
    return 1;
  long long splits = (2 * sms + tiles - 1) / tiles;
  splits = splits < k_tiles / 4 ? splits : k_tiles / 4;
  splits = splits < 16 ? splits : 16;
  return splits > 1 ? static_cast<int>(splits) : 1;
}

// A thread's accumulator fragment (the four fp32 values of one m16n8 mma
// tile) to and from its slot of the partial sums: one 16-byte access, and
// consecutive lanes take consecutive slots, so a warp touches 512
// contiguous bytes.
__device__ __forceinline__ void store_partial(float4 *slot, const float (&acc)[4]) {
  *slot = make_float4(acc[0], acc[1], acc[2], acc[3]);
}

__device__ __forceinline__ void add_partial(float (&acc)[4], const float4 *slot) {
  const float4 p = *slot;
  acc[0] += p.x;
  acc[1] += p.y;
  acc[2] += p.z;
  acc[3] += p.w;
}

}  // namespace tc
