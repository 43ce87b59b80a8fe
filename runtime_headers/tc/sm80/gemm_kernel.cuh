// tc/sm80/gemm_kernel.cuh - the GEMM kernel of the mma.sync components: a
// region's kernel for sm_80 and later, composed of the main loop
// (tc/sm80/mainloop.cuh), the staged epilogue (tc/staged_tile.cuh; from
// registers where the output tile does not fit in the stages) with the
// region's epilogue functor, and a grouped raster over the output's tiles
// (tc/raster.cuh), k split over blocks where the tiles alone leave SMs idle.
//
//   using Mainloop = tc::sm80::CpAsyncMmaMainloop<
//       tc::sm80::OperandTile<__half, 128, tc::sm80::Major::K>,    // A[m][k]
//       tc::sm80::OperandTile<__half, 128, tc::sm80::Major::MN>,   // B[k][n]
//       64, 3, 2, 2>;                       // k tile, stages, warps along m, n
//   tc::Status s = tc::sm80::launch_gemm<Mainloop>({m, n, k}, A, lda, B, ldb,
//                                                  epilogue, stream);
//
// A converted operand (ConvertedOperandTile) is given as its Arguments,
// {pointer, leading dimension, functor}, and so then is the other:
//   launch_gemm<Mainloop>({m, n, k}, {X, ldx}, {W, ldw, convert_w}, epilogue, stream);
//
// A sum of products, A_0 B_0 + A_1 B_1 + ... (each with its own k), and a
// batch of GEMMs of one shape take each product's Arguments and k (and
// batch strides: tc::sm80::Product, tc/sm80/mainloop.cuh):
//   launch_gemm<Mainloop>(m, n, {{{A0, lda0}, {B0, ldb0}, k0},
//                                {{A1, lda1}, {B1, ldb1}, k1}}, epilogue, stream);
//   launch_batched_gemm<Mainloop>(batches, m, n, {{{A, lda}, {B, ldb}, k, sa, sb}},
//                                 batch_epilogue, stream);
//
// One block a tile: blockIdx.x is the tile (grouped by 8 rows of tiles, for
// L2 reuse; in a batch, entry-major), blockIdx.y the part of k (split-K).
// With one part the block applies the epilogue functor; with several, each
// part stores its sums in a workspace of batches x splits x m x n floats
// and reduce_parts_kernel adds them in part order and applies the functor.
//
// The operands may have any alignment: the launch chooses the copy mode
// (tc/tile_copy.cuh) that all allow, one instantiation each.
#pragma once

#include <cuda_runtime.h>

#include "../batch_entry.cuh"
#include "../lane_store.cuh"
#include "../launch_facts.cuh"
#include "../raster.cuh"
#include "../shared_memory_opt_in.cuh"
#include "../split_choice.cuh"
#include "../staged_tile.cuh"
#include "../status.cuh"
#include "mainloop.cuh"

namespace tc {
namespace sm80 {

struct GemmShape {
  long long m, n, k;
};

// The part of k of each block: blocks of part p reduce over k tiles
// [p * part_tiles, (p + 1) * part_tiles) of the k_tiles.
struct KParts {
  int parts;
  int part_tiles;
  int k_tiles;
};

// Writes a part's sums into its slice of the workspace (an m x n matrix).
struct PartSums {
  float *sums;
  long long n;
  __device__ void operator()(long long i, long long j, float acc) const { sums[i * n + j] = acc; }
  __device__ void row(long long i, long long j0, const float (&acc)[8]) const {
    // Two 16-byte stores where aligned (tc/lane_store.cuh).
    float *p = sums + i * n + j0;
    store_lane_words<4>(p, *reinterpret_cast<const float(*)[4]>(&acc[0]));
    store_lane_words<4>(p + 4, *reinterpret_cast<const float(*)[4]>(&acc[4]));
  }
};

// The epilogue: the output tile staged in the stages' memory, then eight
// columns a thread through the functor's row() (tc/staged_tile.cuh), where
// the tile fits there; else each thread's accumulators straight from
// registers through operator() (more shared memory would cost blocks per
// SM, and on sm_86/89 a 128 x 256 fp32 tile does not fit at all).
// (The stages' memory holds, one after the other, the pipeline, the warp
// groups' partial sums, and the output tile.)
template <class Mainloop>
struct GemmKernel {
  static constexpr int kPitch = Mainloop::kBN + 8;  // float2 stores of 8 rows: distinct banks
  static constexpr int kTileBytes = Mainloop::kBM * kPitch * 4;
  static constexpr int kSharedBytes = Mainloop::kPipelineBytes > Mainloop::kPartialBytes
                                          ? Mainloop::kPipelineBytes
                                          : Mainloop::kPartialBytes;
  static constexpr bool kStagedEpilogue = kTileBytes <= kSharedBytes;
};

// The products of a launch (a GEMM: one), as the kernel takes them.
template <class Mainloop, int kCount>
struct Products {
  static_assert(kCount >= 1, "at least one product");
  typename Mainloop::Product product[kCount];
};

// kBatched: blockIdx.x counts batch entries' tiles, entry-major.
template <class Mainloop, int kMode, int kCount, bool kBatched, class Epilogue>
__global__ void __launch_bounds__(Mainloop::kThreads)
    gemm_kernel(long long m, long long n,
                const __grid_constant__ Products<Mainloop, kCount> products, Epilogue epilogue,
                KParts parts, int tiles_m, int tiles_n, float *__restrict__ workspace) {
  extern __shared__ __align__(128) unsigned char smem[];
  constexpr int kBM = Mainloop::kBM, kBN = Mainloop::kBN;
  // The batch entry (0 for one GEMM), recomputed where used: not a
  // register held through the main loop.
  auto batch_entry = [&]() -> int {
    if constexpr (!kBatched)
      return 0;
    // (blockIdx.x read anew: the compiler would keep the first quotient.)
    unsigned block;
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(block));
    return static_cast<int>(block) / (tiles_m * tiles_n);
  };
  int tile_m, tile_n;
  grouped_tile_of<8>(static_cast<int>(blockIdx.x) - batch_entry() * tiles_m * tiles_n, tiles_m,
                     tiles_n, tile_m, tile_n);
  const int part = static_cast<int>(blockIdx.y);
  const int k_begin = part * parts.part_tiles;
  const int rest = parts.k_tiles - k_begin;
  const int k_tiles = rest < parts.part_tiles ? rest : parts.part_tiles;
  const long long row0 = static_cast<long long>(kBM) * tile_m,
                  col0 = static_cast<long long>(kBN) * tile_n;
  const int thread = static_cast<int>(threadIdx.x);
  typename Mainloop::Accumulators acc = {};
  Mainloop::template run<kMode>(acc, reinterpret_cast<typename Mainloop::Element *>(smem),
                                products.product, batch_entry(), m, n, row0, col0, k_begin,
                                k_tiles, thread);
  constexpr bool kStaged = GemmKernel<Mainloop>::kStagedEpilogue;
  constexpr int kPitch = GemmKernel<Mainloop>::kPitch;
  float *tile_sums = reinterpret_cast<float *>(smem);
  // (With groups of warps over k, group 0's threads hold the sums.)
  const bool holds_sums = Mainloop::holds_sums(thread);
  if constexpr (kStaged) {
    __syncthreads();  // the stages become the output tile
    if (holds_sums)
      Mainloop::template stage<kPitch>(tile_sums, acc, thread);
    __syncthreads();
  }
  // The sums into the functor (a batch's at this entry), or with k in
  // parts into this part's slice of the workspace.
  auto write = [&](const auto &f) {
    if constexpr (kStaged)
      apply_staged_tile<kBM, kBN, kPitch, Mainloop::kThreads>(tile_sums, f, row0, col0, m, n,
                                                              thread);
    else if (holds_sums)
      Mainloop::for_each_accumulator(acc, row0, col0, m, n, thread, f);
  };
  if (parts.parts > 1) {
    const long long slice = static_cast<long long>(batch_entry()) * parts.parts + part;
    write(PartSums{workspace + slice * m * n, n});
  } else if constexpr (kBatched) {
    write(BatchEntryEpilogue<Epilogue>{epilogue, batch_entry()});
  } else {
    write(epilogue);
  }
}

// Output element i of the `batches` m x n outputs (one thread each): the
// parts' sums, in part order, through the epilogue functor.
template <bool kBatched, class Epilogue>
__global__ void __launch_bounds__(256)
    reduce_parts_kernel(long long m, long long n, long long batches, int parts,
                        const float *__restrict__ workspace, Epilogue epilogue) {
  const long long elements = m * n;
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= batches * elements)
    return;
  const long long batch = i / elements, e = i - batch * elements;
  const float *sums = workspace + batch * parts * elements + e;
  float sum = 0.0f;
  for (int p = 0; p < parts; ++p)
    sum += sums[p * elements];
  if constexpr (kBatched)
    epilogue(batch, e / n, e % n, sum);
  else
    epilogue(e / n, e % n, sum);
}

// The parts of k for `tiles` output tiles over k_tiles k tiles: `parts`
// where given (a split_k clause; at most one a k tile), else
// tc::choose_splits. The parts are then as few as cover k with as many
// tiles each.
__host__ inline KParts choose_k_parts(long long tiles, long long k_tiles, int parts,
                                      const DeviceFacts &device) {
  long long p = parts > 0 ? parts : choose_splits(tiles, k_tiles, device);
  p = p < 65535 ? p : 65535;
  p = p < k_tiles ? p : (k_tiles > 1 ? k_tiles : 1);
  const long long per = k_tiles > 0 ? (k_tiles + p - 1) / p : 1;
  p = k_tiles > 0 ? (k_tiles + per - 1) / per : 1;
  return KParts{static_cast<int>(p), static_cast<int>(per), static_cast<int>(k_tiles)};
}

// The copy mode (tc/tile_copy.cuh) an operand allows at every batch entry
// (entry z is aligned as entries 0 and 1 both are); `extent` is that of
// its contiguous index.
template <class Tile>
__host__ int entries_copy_mode(typename Tile::Arguments args, long long extent,
                               long long batches, long long batch_stride) {
  const int mode = Tile::copy_mode(args, extent);
  if (batches < 2 || batch_stride == 0)
    return mode;
  args.base += batch_stride;
  const int next = Tile::copy_mode(args, extent);
  return next < mode ? next : mode;
}

// The copy mode that all products' operands allow, at every batch entry.
template <class Mainloop, int kCount>
__host__ int products_copy_mode(const Products<Mainloop, kCount> &products, long long batches,
                                long long m, long long n) {
  using ATile = typename Mainloop::A;
  using BTile = typename Mainloop::B;
  int mode = kWholeChunks;
  for (const auto &p : products.product) {
    if (Mainloop::k_tiles_of(p.k) == 0)
      continue;  // (an empty product's operands are never read)
    const int a = entries_copy_mode<ATile>(p.a, ATile::kKContiguous ? p.k : m, batches, p.batch_a);
    const int b = entries_copy_mode<BTile>(p.b, BTile::kKContiguous ? p.k : n, batches, p.batch_b);
    mode = a < mode ? a : mode;
    mode = b < mode ? b : mode;
  }
  return mode;
}

// A launch's list of products as the kernel takes them.
template <class Mainloop, int kCount>
__host__ Products<Mainloop, kCount> products_of(
    const typename Mainloop::Product (&list)[kCount]) {
  Products<Mainloop, kCount> all;
  for (int p = 0; p < kCount; ++p)
    all.product[p] = list[p];
  return all;
}

// Launches Mainloop's kernel for `batches` m x n outputs (kBatched false:
// one) of the products' sums, `epilogue` writing each element from its
// sum; `parts` splits k (0: chosen here). Success also for an empty
// output; GridTooLarge where the tiles or k tiles pass a 32-bit count;
// LaunchFailed where CUDA refuses (cudaGetLastError says why).
template <class Mainloop, bool kBatched, int kCount, class Epilogue>
__host__ Status launch_products(long long batches, long long m, long long n,
                                const Products<Mainloop, kCount> &products,
                                const Epilogue &epilogue, cudaStream_t stream, int parts) {
  constexpr int kBM = Mainloop::kBM, kBN = Mainloop::kBN;
  if (m < 1 || n < 1 || batches < 1)
    return Status::Success;
  const long long tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
  long long k_tiles = 0;
  for (const auto &p : products.product)
    k_tiles += Mainloop::k_tiles_of(p.k);
  constexpr long long kIntMax = 2147483647LL;
  // (The raster counts a group's tiles, 8 rows of them, in an int; the
  // grid's x the entries' tiles.)
  if (tiles_m > kIntMax / tiles_n || tiles_n > kIntMax / 8 ||
      tiles_m * tiles_n > kIntMax / batches || k_tiles > kIntMax - Mainloop::kStages)
    return Status::GridTooLarge;
  const long long tiles = tiles_m * tiles_n * batches;
  const KParts split = choose_k_parts(tiles, k_tiles, parts, launch_facts().device);
  const int mode = products_copy_mode(products, batches, m, n);
  constexpr int kBytes = GemmKernel<Mainloop>::kSharedBytes;
  constexpr auto whole = gemm_kernel<Mainloop, kWholeChunks, kCount, kBatched, Epilogue>;
  constexpr auto partial = gemm_kernel<Mainloop, kPartialChunks, kCount, kBatched, Epilogue>;
  constexpr auto elementwise = gemm_kernel<Mainloop, kElementwise, kCount, kBatched, Epilogue>;
  static SharedMemoryOptIn opt_in;  // per device
  if (opt_in.apply(kBytes, whole, partial, elementwise) != cudaSuccess)
    return Status::LaunchFailed;
  const long long elements = batches * m * n;
  if (split.parts > 1 && (elements + 255) / 256 > kIntMax)
    return Status::GridTooLarge;  // (the reduction's blocks)
  float *workspace = nullptr;
  if (split.parts > 1 &&
      cudaMallocAsync(&workspace, sizeof(float) * static_cast<size_t>(split.parts * elements),
                      stream) != cudaSuccess)
    return Status::LaunchFailed;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(tiles), static_cast<unsigned>(split.parts));
  config.blockDim = dim3(Mainloop::kThreads);
  config.dynamicSmemBytes = kBytes;
  config.stream = stream;
  // The launch's own status, not the thread's last error, which may be an
  // earlier one.
  cudaError_t status = cudaLaunchKernelEx(
      &config, mode == kWholeChunks ? whole : mode == kPartialChunks ? partial : elementwise, m,
      n, products, epilogue, split, static_cast<int>(tiles_m), static_cast<int>(tiles_n),
      workspace);
  if (split.parts > 1) {
    if (status == cudaSuccess) {
      config.gridDim = dim3(static_cast<unsigned>((elements + 255) / 256));
      config.blockDim = dim3(256);
      config.dynamicSmemBytes = 0;
      status = cudaLaunchKernelEx(&config, reduce_parts_kernel<kBatched, Epilogue>, m, n,
                                  batches, split.parts, static_cast<const float *>(workspace),
                                  epilogue);
    }
    cudaFreeAsync(workspace, stream);
  }
  return status == cudaSuccess ? Status::Success : Status::LaunchFailed;
}

// The m x n output of A (m x k) times B (k x n), each as its tile's
// Arguments give it (its first element, its leading dimension, and a
// converted operand's functor).
template <class Mainloop, class Epilogue>
__host__ Status launch_gemm(GemmShape shape, const typename Mainloop::A::Arguments &a,
                            const typename Mainloop::B::Arguments &b, const Epilogue &epilogue,
                            cudaStream_t stream, int parts = 0) {
  return launch_products<Mainloop, false>(1, shape.m, shape.n,
                                          Products<Mainloop, 1>{{{a, b, shape.k}}}, epilogue,
                                          stream, parts);
}

// The same for operands as the mma reads them (OperandTile): A at `a`
// with leading dimension lda, B at `b` with ldb.
template <class Mainloop, class Epilogue>
__host__ Status launch_gemm(GemmShape shape, const typename Mainloop::Element *a, long long lda,
                            const typename Mainloop::Element *b, long long ldb,
                            const Epilogue &epilogue, cudaStream_t stream, int parts = 0) {
  return launch_gemm<Mainloop>(shape, typename Mainloop::A::Arguments{a, lda},
                               typename Mainloop::B::Arguments{b, ldb}, epilogue, stream, parts);
}

// The m x n output of a sum of products, A_0 B_0 + A_1 B_1 + ...:
//   launch_gemm<Mainloop>(m, n, {{{A0, lda0}, {B0, ldb0}, k0},
//                                {{A1, lda1}, {B1, ldb1}, k1}}, epilogue, stream);
template <class Mainloop, int kCount, class Epilogue>
__host__ Status launch_gemm(long long m, long long n,
                            const typename Mainloop::Product (&products)[kCount],
                            const Epilogue &epilogue, cudaStream_t stream, int parts = 0) {
  return launch_products<Mainloop, false>(1, m, n, products_of<Mainloop>(products), epilogue,
                                          stream, parts);
}

// `batches` GEMMs (or sums) of one shape: entry z of product p reads A_p
// at a.base + z * batch_a and B_p at b.base + z * batch_b (Product), and
// `epilogue` takes the entry first (tc/batch_entry.cuh):
//   launch_batched_gemm<Mainloop>(batches, m, n, {{{A, lda}, {B, ldb}, k,
//                                                  m * lda, k * ldb}}, epilogue, stream);
template <class Mainloop, int kCount, class Epilogue>
__host__ Status launch_batched_gemm(long long batches, long long m, long long n,
                                    const typename Mainloop::Product (&products)[kCount],
                                    const Epilogue &epilogue, cudaStream_t stream,
                                    int parts = 0) {
  return launch_products<Mainloop, true>(batches, m, n, products_of<Mainloop>(products),
                                         epilogue, stream, parts);
}

}  // namespace sm80
}  // namespace tc
