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
// kernel, see choose_splits in split_choice.cuh).
//
// Intra-block split-K (`warp_split_k(P)`) splits each k tile among P warp
// groups of one block instead; their partial sums meet in shared memory
// through the two helpers at the end.
#pragma once

#include <cuda_runtime.h>

#include "split_choice.cuh"

namespace tc {

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
