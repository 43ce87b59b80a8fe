// tc/staged_tile.cuh - an output tile of fp32 sums in shared memory, written
// to the output by a region's epilogue functor, eight consecutive columns
// per call: the epilogue stage shared by the sm_80 and sm_90 kernels.
//
// The tile is kBM x kBN sums at row * kPitch + column floats. Thread t of
// kThreads takes column group g = t % (kBN / 8), columns 8 g .. 8 g + 7, and
// rows t / (kBN / 8), then every kRowsPerPass-th row (kRowsPerPass =
// kThreads / (kBN / 8)): a warp reads whole rows of the tile and writes 32 x
// 8 consecutive elements of the output. Threads past kRowsPerPass * (kBN /
// 8) take no rows.
//
// An epilogue functor F (generated for a region) provides
//   void operator()(long long i, long long j, float acc) const;
//   void row(long long i, long long j0, const float (&acc)[8]) const;
// the output element (i, j) from its sum acc, and the eight elements
// (i, j0 .. j0 + 7) at once; apply_staged_tile calls them only inside the
// m x n output.
#pragma once

namespace tc {

// The tile whose first element is (row0, col0) of an m x n output; its
// rows [row_begin, row_end) only.
template <int kBM, int kBN, int kPitch, int kThreads, class F>
__device__ __forceinline__ void apply_staged_tile(const float *tile, const F &f, long long row0,
                                                  long long col0, long long m, long long n,
                                                  int thread, int row_begin = 0,
                                                  int row_end = kBM) {
  constexpr int kGroups = kBN / 8;
  constexpr int kRowsPerPass = kThreads / kGroups;
  static_assert(kBN % 8 == 0 && kRowsPerPass >= 1, "whole column groups per pass");
  if (thread >= kRowsPerPass * kGroups)
    return;
  const int g = thread % kGroups;
  const long long j0 = col0 + 8 * g;
  const int rows = static_cast<int>(m - row0 < row_end ? m - row0 : row_end);
  if (j0 + 8 <= n) {
    for (int r = row_begin + thread / kGroups; r < rows; r += kRowsPerPass) {
      const float4 *p = reinterpret_cast<const float4 *>(tile + r * kPitch + 8 * g);
      const float4 lo = p[0], hi = p[1];
      const float acc[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
      f.row(row0 + r, j0, acc);
    }
  } else if (j0 < n) {  // the output's last columns, fewer than 8
    for (int r = row_begin + thread / kGroups; r < rows; r += kRowsPerPass)
      for (int v = 0; v < static_cast<int>(n - j0); ++v)
        f(row0 + r, j0 + v, tile[r * kPitch + 8 * g + v]);
  }
}

}  // namespace tc
