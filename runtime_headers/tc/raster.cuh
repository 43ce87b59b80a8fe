// tc/raster.cuh - the order in which blocks visit output tiles.
//
// With the natural order (blockIdx.x along n), the blocks resident at one
// time cover a few tile rows and every tile column: they stream all of B
// through L2 while reusing little of it. Grouped rasterization walks
// `kGroup` tile rows column by column instead, so that concurrently running
// blocks share both their A rows and their B columns in L2.
#pragma once

namespace tc {

// Maps tile `linear` of the grouped order over tiles_m x tiles_n tiles to
// its (m, n) tile: a bijection on [0, tiles_m * tiles_n), for any shape.
// grouped_tile does it for the launch's (blockIdx.x, blockIdx.y) over a
// gridDim.x x gridDim.y grid of (n, m) tiles.
template <int kGroup>
__device__ __forceinline__ void grouped_tile_of(int linear, int tiles_m, int tiles_n, int &tile_m,
                                                int &tile_n) {
  const int per_group = kGroup * tiles_n;
  const int first_m = linear / per_group * kGroup;
  const int rows = tiles_m - first_m < kGroup ? tiles_m - first_m : kGroup;
  const int in_group = linear % per_group;
  tile_m = first_m + in_group % rows;
  tile_n = in_group / rows;
}

template <int kGroup>
__device__ __forceinline__ void grouped_tile(int &tile_m, int &tile_n) {
  grouped_tile_of<kGroup>(blockIdx.y * gridDim.x + blockIdx.x, gridDim.y, gridDim.x, tile_m, tile_n);
}

}  // namespace tc
