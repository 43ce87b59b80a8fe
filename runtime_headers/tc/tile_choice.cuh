// tc/tile_choice.cuh - the launch-time choice between a region's kernels.
//
// On sm_90a a plain GEMM region gets two wgmma kernels (KernelConfig.h):
// 128x128x64 tiles, two blocks per SM, and 128x256x64 tiles, one block per
// SM, whose tiles reuse each A element twice as often. The wide kernel wins
// once there are enough of its tiles for about two waves and enough k tiles
// to amortise filling its pipeline; below that, twice as many 128x128
// blocks keep more SMs busy. Measured on an H200 (docs/results/
// bench-h200-wgmma.md: 18 shapes, both kernels): the rule below picks the
// faster kernel on 15 of them and is within 8% on the rest.
#pragma once

#include "split_k.cuh"

namespace tc {

__host__ inline bool prefer_wide_tiles(long long m, long long n, long long k) {
  const long long wide_tiles = ((m + 127) / 128) * ((n + 255) / 256);
  return m >= 1024 && k >= 512 && 5 * wide_tiles >= 9 * multiprocessors();
}

}  // namespace tc
