// tc/split_k.cuh - how many parts the reduction is split into.
//
// A GEMM whose output has fewer tiles than the GPU has multiprocessors
// leaves most of them idle (LLM decode shapes: M = 16 tokens, N = 4096,
// K = 4096 gives 32 tiles on 132 SMs). Splitting the k tiles among
// several blocks per output tile fills the machine; the partial sums meet
// in an fp32 workspace and a second kernel adds them and applies the
// epilogue. The rule: aim for two waves of blocks, keep at least four k
// tiles per split, and never more than 16 splits.
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

__host__ inline int choose_splits(long long tiles, long long k_tiles) {
  const long long sms = multiprocessors();
  if (tiles <= 0 || tiles >= sms || k_tiles < 8)
    return 1;
  long long splits = (2 * sms + tiles - 1) / tiles;
  splits = splits < k_tiles / 4 ? splits : k_tiles / 4;
  splits = splits < 16 ? splits : 16;
  return splits > 1 ? static_cast<int>(splits) : 1;
}

}  // namespace tc
