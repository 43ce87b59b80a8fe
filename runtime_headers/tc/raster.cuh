// tc/raster.cuh - the order in which blocks visit output tiles.
//
// With the natural order (blockIdx.x along n), the blocks resident at one
// time cover a few tile rows and every tile column: they stream all of B
// through L2 while reusing little of it. Grouped rasterization walks
// `kGroup` tile rows column by column instead, so that concurrently running
// blocks share both their A rows and their B columns in L2.
#pragma once

namespace tc {

// Maps the launch's (blockIdx.x, blockIdx.y) over a gridDim.x x gridDim.y
// grid of (n, m) tiles to the tile this block computes. A bijection on the
// grid, for any grid shape.
template <int kGroup>
__device__ __forceinline__ void grouped_tile(int &tile_m, int &tile_n) {
  const int tiles_n = gridDim.x, tiles_m = gridDim.y;
  const int linear = blockIdx.y * tiles_n + blockIdx.x;
  const int per_group = kGroup * tiles_n;
  const int first_m = linear / per_group * kGroup;
  const int rows = tiles_m - first_m < kGroup ? tiles_m - first_m : kGroup;
  const int in_group = linear % per_group;
  tile_m = first_m + in_group % rows;
  tile_n = in_group / rows;
}

}  // namespace tc
