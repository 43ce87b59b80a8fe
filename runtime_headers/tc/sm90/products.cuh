// tc/sm90/products.cuh - the operands of a GEMM kernel of the sm_90
// components: a sum of kCount products, C = A_0 B_0 + A_1 B_1 + ..., each
// product with a reduction length of its own and all of one element type
// (16-bit, or fp32 read as tf32) and one pair of operand tiles
// (OperandTile, tc/sm90/operand_tile.cuh).
//
// The kernel reduces over the products' k tiles one after the other, as
// over one concatenated K: product p's tiles are positions
// first_k_tile(p) .. first_k_tile(p) + k_tiles(p) - 1 of the reduction,
// its last tile padded with zeros (TMA's out-of-bounds fill, or the
// copying producer's). The consumers see one run of stages and need not
// know where a product ends; only the producer maps a position back to its
// product (for_each_product). A plain GEMM is the sum of one product.
#pragma once

#include <cuda.h>

namespace tc {
namespace sm90 {

// A launch's products as the caller gives them: product p reads A_p (rows
// m, pitch lda) and B_p (rows n, pitch ldb), laid out as the main loop's
// tiles say, over k elements of the reduction (k <= 0: none). In a batch
// of GEMMs (launch_batched_gemm), batch entry z reads A_p at a + z *
// batch_a and B_p at b + z * batch_b (0: every entry reads the same).
// A's elements are TA: T but for a raw 8-bit A (RawOperandTile).
template <class T, int kCount = 1, class TA = T>
struct Products {
  static_assert(kCount >= 1, "at least one product");
  static constexpr int kProducts = kCount;
  struct Operands {
    const TA *a;
    long long lda;
    const T *b;
    long long ldb;
    long long k;
    long long batch_a = 0, batch_b = 0;
  };
  Operands product[kCount];
};

// The products as the kernel reads them: each product's two tensor maps
// where `mapped` (3-D maps, one matrix deep boxes, in a batch), else the
// pointers of `products`, which the producer warp copies from.
//
// `conversions`: the functors of the operands the consumers convert
// (Conversions: the main loop's Consumer::Conversions, tc/sm90/roles.cuh),
// of the first product's operands; the others have none.
//
// kBatched: the launch computes `batches` GEMMs of one shape, stacked in
// the tile rows the schedulers see: tile row r is row r % batch_tiles_m of
// batch entry r / batch_tiles_m (batch_tiles_m: the tile rows of one
// entry, made even for schedulers that pair tile rows 2u and 2u + 1, so
// that no pair spans two entries).
template <class T, int kCount, int kBK, bool kBatched_, class Conversions, class TA = T>
struct KernelOperands {
  static constexpr bool kBatched = kBatched_;
  CUtensorMap map_a[kCount], map_b[kCount];
  Products<T, kCount, TA> products;
  Conversions conversions;
  bool mapped;
  int batch_tiles_m;

  // The batch entry of tile row `tile_m`, and the tile row within it.
  __host__ __device__ int batch_of(int &tile_m) const {
    if constexpr (!kBatched)
      return 0;
    const int batch = tile_m / batch_tiles_m;
    tile_m -= batch * batch_tiles_m;
    return batch;
  }
  // Batch entry `batch`'s coordinate in product p's maps of A and B (0 for
  // an operand every entry shares).
  __host__ __device__ int batch_a(int p, int batch) const {
    return products.product[p].batch_a != 0 ? batch : 0;
  }
  __host__ __device__ int batch_b(int p, int batch) const {
    return products.product[p].batch_b != 0 ? batch : 0;
  }

  // Product p's k tiles (a reduction of k <= 0 has none).
  __host__ __device__ long long k_tiles(int p) const {
    const long long k = products.product[p].k;
    return k > 0 ? (k + kBK - 1) / kBK : 0;
  }
  __host__ __device__ long long total_k_tiles() const {
    long long t = 0;
    for (int p = 0; p < kCount; ++p)
      t += k_tiles(p);
    return t;
  }
};

// Calls f(p, k_begin, k_tiles, offset) for each product p with tiles among
// positions begin .. begin + count - 1 of the concatenated reduction: its
// own tiles k_begin .. k_begin + k_tiles - 1, the first of them at
// position begin + offset.
template <class T, int kCount, int kBK, bool kBatched, class Conversions, class TA, class F>
__device__ __forceinline__ void for_each_product(
    const KernelOperands<T, kCount, kBK, kBatched, Conversions, TA> &operands,
                                                 long long begin, long long count, F &&f) {
  long long first = 0;  // product p's first position
#pragma unroll
  for (int p = 0; p < kCount; ++p) {
    const long long tiles = operands.k_tiles(p);
    const long long lo = begin > first ? begin : first;
    const long long hi = begin + count < first + tiles ? begin + count : first + tiles;
    if (lo < hi)
      f(p, lo - first, static_cast<int>(hi - lo), static_cast<unsigned>(lo - begin));
    first += tiles;
  }
}

}  // namespace sm90
}  // namespace tc
