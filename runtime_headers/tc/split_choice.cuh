// tc/split_choice.cuh - how many parts the cp.async kernels split the
// reduction into (split_k.cuh has the why and the kernels' side).
#pragma once

#include "device_facts.cuh"

namespace tc {

// Aim for two waves of blocks, at least four k tiles per split, at most 16
// splits. fill_divisor: split only outputs with fewer tiles than
// sms / fill_divisor. The mma.sync kernels split below one tile per SM
// (1); the 64x128 wgmma kernel, which fills an SM with less work, only
// below half of that (2): its unsplit kernel measured faster from there on
// (docs/design/tile-choice.md).
inline int choose_splits(long long tiles, long long k_tiles, const DeviceFacts &device,
                         int fill_divisor = 1) {
  const long long sms = device.multiprocessors;
  if (tiles <= 0 || tiles * fill_divisor >= sms || k_tiles < 8)
    return 1;
  long long splits = (2 * sms + tiles - 1) / tiles;
  splits = splits < k_tiles / 4 ? splits : k_tiles / 4;
  splits = splits < 16 ? splits : 16;
  return splits > 1 ? static_cast<int>(splits) : 1;
}

}  // namespace tc
