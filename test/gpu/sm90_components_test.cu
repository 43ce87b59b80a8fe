// GPU test of the sm_90 GEMM components (runtime_headers/tc/sm90/): the
// kernel they compose, at random shapes with partial tiles, odd K, padded
// leading dimensions and long reductions (split tiles), for each operand
// layout and tile shape, fp16 and bf16, with a plain store and a bias + ReLU
// epilogue functor, and with operand prologues under each consumer and
// producer policy (tc/sm90/roles.cuh). The reference is a naive fp32
// kernel over the same inputs; padding columns of the outputs must stay
// untouched. fp32 operands run as tf32 (staged K-major; stored K-major, or
// MN-major through transposed copies) against a reference that drops each
// operand's low 13 mantissa bits, as wgmma does, and sums in double.
//
//   nvcc -std=c++17 -O3 -I runtime_headers -gencode arch=compute_90a,code=sm_90a \
//     test/gpu/sm90_components_test.cu -lcuda -o sm90_components_test
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "tc/sm90/gemm_kernel.cuh"

#include "bias_relu_epilogue.h"
#include "cuda_check.h"

namespace {

using tc::sm90::Major;
template <int kRows, Major kMajor, class T = __half>
using Tile = tc::sm90::OperandTile<T, kRows, kMajor>;
// A B tile copied in halves, so that a pair can share it.
template <int kRows, Major kMajor, class T = __half>
using HalvesTile = tc::sm90::OperandTile<T, kRows, kMajor, true>;

using tc::from_float;
using tc::to_float;
using StoreHalf = tc::sm90::StoreEpilogue<__half>;


// Operand prologues (tc/sm90/roles.cuh): ReLU, exact on packed pairs too,
// and one that is not 0 at 0, so that the stages' zero padding becomes
// 0.25 (the other operand's zeros must keep those products zero). Both map
// the tests' quarters to values fp16 and bf16 hold exactly.
struct Relu {
  static constexpr bool kPacked = true;
  __device__ float operator()(float x) const { return fmaxf(x, 0.0f); }
  template <class T2>
  __device__ T2 operator()(T2 x) const {
    return __hmax2(x, tc::splat2<T2>(0.0f));
  }
};
struct HalfPlusQuarter {
  static constexpr bool kPacked = false;
  __device__ float operator()(float x) const { return 0.5f * x + 0.25f; }
};
using tc::sm90::NoPrologue;

// Converted operands (tc::sm90::Converted): functors of the element's
// place that hold values and are not 0 at 0, so that an element past the
// operand's edge must be an exact 0, not f(0). A's: the element minus its
// row's offset, halved (eighths, which fp16 and bf16 hold). B's, masked
// (it takes k): 0 where its column plus k is a multiple of 3, else the
// element times its column's sign plus a quarter.
struct RowOffset {
  const float *offset;
  float scale;
  __device__ float operator()(float x, long long row) const { return (x - offset[row]) * scale; }
};
struct MaskedColumnSign {
  static constexpr bool kMasked = true;
  const float *sign;
  __device__ float operator()(float x, long long column, long long k) const {
    return (column + k) % 3 == 0 ? 0.0f : x * sign[column] + 0.25f;
  }
};
// RowOffset with its rows bound once (what the generator emits beside
// operator(): RegisterA calls row() for each of a thread's two rows).
struct RowOffsetRows : RowOffset {
  __device__ auto row(long long r, bool inside) const {
    const float o = inside ? offset[r] : 0.0f, s = scale;
    return [=](float x) { return (x - o) * s; };
  }
};
using ConvertA = tc::sm90::Converted<RowOffset>;
using ConvertRowsA = tc::sm90::Converted<RowOffsetRows>;
using ConvertB = tc::sm90::Converted<MaskedColumnSign>;

// An operand's element as the kernel multiplies it: P's prologue of it, or
// its conversion f by its place (free index `outer`, reduction index k).
template <class P, class F>
__device__ float operand_value(const F &f, float x, long long outer, long long k) {
  if constexpr (!tc::sm90::is_converted<P>)
    return P()(x);
  else if constexpr (tc::conversion_takes_k<F>)
    return f(x, outer, k);
  else
    return f(x, outer);
}

// ref[i][j] = sum_k PA(A(i, k)) PB(B(k, j)) in fp32; A(i, k) at
// a[i * sa_i + k * sa_k].
template <class T, class PA = NoPrologue, class PB = NoPrologue,
          class Conversions = tc::sm90::OperandConversions<NoPrologue, NoPrologue>>
__global__ void reference(long long m, long long n, long long k, const T *a, long long sa_i,
                          long long sa_k, const T *b, long long sb_k, long long sb_j,
                          float *ref, Conversions conversions = {}) {
  const long long i = blockIdx.y * 16 + threadIdx.y, j = blockIdx.x * 16 + threadIdx.x;
  if (i >= m || j >= n)
    return;
  float sum = 0.0f;
  for (long long p = 0; p < k; ++p)
    sum += operand_value<PA>(conversions.a, to_float(a[i * sa_i + p * sa_k]), i, p) *
           operand_value<PB>(conversions.b, to_float(b[p * sb_k + j * sb_j]), j, p);
  ref[i * n + j] = sum;
}

int failures = 0, checks = 0;

// The producer a check launches with: where TMA should map the operands
// (`maps`), TMA only, so that a map that fails shows as a launch that
// fails rather than as the copying producer's (correct) output; else the
// one asked for.
tc::sm90::Producer launch_producer(tc::sm90::Producer asked, bool maps) {
  return asked == tc::sm90::Producer::kTma && maps ? tc::sm90::Producer::kTmaOnly : asked;
}

// Runs `launches(stream)`: on the legacy default stream, or with `graph`
// captured into a CUDA graph on a stream of its own (a first launch inside
// the capture: the launcher's cached buffers are not to be had there,
// tc/stream_buffer.cuh), then replayed once. False where a launch said so
// or the capture failed.
template <class Launches>
bool run_launches(bool graph, Launches &&launches) {
  if (!graph)
    return launches(cudaStream_t{0});
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  const bool launched = launches(stream);
  cudaGraph_t g = nullptr;
  const cudaError_t captured = cudaStreamEndCapture(stream, &g);
  bool ok = launched && captured == cudaSuccess && g;
  if (captured != cudaSuccess || !g)
    std::printf("capture: %s\n", cudaGetErrorString(captured));
  cudaGraphExec_t exec = nullptr;
  if (ok && cudaGraphInstantiate(&exec, g, 0) == cudaSuccess) {
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    cudaGraphExecDestroy(exec);
  } else {
    ok = false;
  }
  if (g)
    cudaGraphDestroy(g);
  (void)cudaGetLastError();
  cudaStreamDestroy(stream);
  return ok;
}

// The epilogue functor `f` as launched: for the output's transpose
// (kTransposed), through tc::sm90::TransposedOutput.
template <bool kTransposed, class F>
auto output_functor(const F &f) {
  if constexpr (kTransposed)
    return tc::sm90::TransposedOutput<F>{f};
  else
    return f;
}

// One shape through Mainloop with both epilogues, the tiles shared out by
// Scheduler; A's and B's layouts are the tiles'. With `graph`, launched
// from a CUDA graph (run_launches); converted operands by `conversions`.
// kTransposed: the epilogues write the output's transpose (C^T, n x m,
// tc::sm90::TransposedOutput), as the generator's kernels that compute
// a region's tile transposed do.
template <class Mainloop, class Scheduler = tc::sm90::TilesScheduler, bool kTransposed = false>
void check(const char *name, long long m, long long n, long long k, int pad, std::mt19937 &rng,
           bool graph = false, tc::sm90::Producer producer = tc::sm90::Producer::kTma,
           const typename Mainloop::Conversions &conversions = {}) {
  using T = typename Mainloop::Element;
  constexpr bool a_k_major = Mainloop::A::kMajor == Major::K;
  constexpr bool b_k_major = Mainloop::B::kMajor == Major::K;
  const long long shape_k = k;  // k < 0: an empty reduction (a loop from k0 to k1 < k0)
  k = k < 0 ? 0 : k;
  const long long lda = (a_k_major ? k : m) + pad, ldb = (b_k_major ? k : n) + pad;
  const long long a_elems = lda * (a_k_major ? m : k), b_elems = ldb * (b_k_major ? n : k);
  std::uniform_int_distribution<int> small(-4, 4);
  std::vector<T> ha(a_elems), hb(b_elems);
  for (auto &x : ha) x = from_float<T>(small(rng) * 0.25f);
  for (auto &x : hb) x = from_float<T>(small(rng) * 0.25f);
  // The output as the epilogues see it: rows x cols.
  const long long rows = kTransposed ? n : m, cols = kTransposed ? m : n;
  std::vector<float> hbias(cols);
  for (auto &x : hbias) x = small(rng) * 0.5f;
  const long long ldc = cols + pad;
  T *a, *b;
  __half *c;
  float *y, *bias, *ref;
  CHECK_CUDA(cudaMalloc(&a, a_elems * 2));
  CHECK_CUDA(cudaMalloc(&b, b_elems * 2));
  CHECK_CUDA(cudaMalloc(&c, rows * ldc * 2));
  CHECK_CUDA(cudaMalloc(&y, rows * ldc * 4));
  CHECK_CUDA(cudaMalloc(&bias, cols * 4));
  CHECK_CUDA(cudaMalloc(&ref, m * n * 4));
  CHECK_CUDA(cudaMemcpy(a, ha.data(), a_elems * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(b, hb.data(), b_elems * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(bias, hbias.data(), cols * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(c, 0xff, rows * ldc * 2));  // NaN: an unwritten element shows
  CHECK_CUDA(cudaMemset(y, 0xff, rows * ldc * 4));
  dim3 grid((n + 15) / 16, (m + 15) / 16);
  reference<T, typename Mainloop::Consumer::APrologue, typename Mainloop::Consumer::BPrologue,
            typename Mainloop::Conversions>
      <<<grid, dim3(16, 16)>>>(m, n, k, a, a_k_major ? lda : 1, a_k_major ? 1 : lda, b,
                               b_k_major ? 1 : ldb, b_k_major ? ldb : 1, ref, conversions);
  const tc::sm90::GemmShape shape{m, n, shape_k};
  CHECK_CUDA(cudaDeviceSynchronize());  // the inputs and the reference, before any other stream
  // Under a capture, an operand whose pitch TMA cannot map (not a multiple
  // of 16 bytes) has no aligned copy to be read from, and the producer
  // warp copies the tiles; so it does for K = 0. A kernel that does not
  // copy (kCopiesUnmapped) launches nothing then.
  const bool in_place = lda * 2 % 16 == 0 && ldb * 2 % 16 == 0;
  const bool maps = producer == tc::sm90::Producer::kTma && (!graph || in_place) && k > 0;
  const tc::sm90::Producer used = launch_producer(producer, maps);
  const bool ran = run_launches(graph, [&](cudaStream_t stream) {
    return tc::sm90::launch_gemm<Mainloop, Scheduler>(
               shape, a, lda, b, ldb, output_functor<kTransposed>(StoreHalf{c, ldc}), stream,
               used, conversions) &&
           tc::sm90::launch_gemm<Mainloop, Scheduler>(
               shape, a, lda, b, ldb, output_functor<kTransposed>(BiasRelu{y, bias, ldc}),
               stream, used, conversions);
  });
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> href(m * n), hy(rows * ldc);
  std::vector<__half> hc(rows * ldc);
  CHECK_CUDA(cudaMemcpy(href.data(), ref, m * n * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hc.data(), c, rows * ldc * 2, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hy.data(), y, rows * ldc * 4, cudaMemcpyDeviceToHost));
  long long bad = 0;
  double worst = 0;
  // The padding columns [cols, ldc) keep cudaMemset's 0xff bytes.
  for (long long i = 0; i < rows && ran; ++i)
    for (long long j = cols; j < ldc; ++j) {
      uint16_t bits;
      std::memcpy(&bits, &hc[i * ldc + j], 2);
      uint32_t ybits;
      std::memcpy(&ybits, &hy[i * ldc + j], 4);
      if (bits != 0xffff || ybits != 0xffffffffu)
        ++bad;
    }
  for (long long i = 0; i < rows && ran; ++i)
    for (long long j = 0; j < cols; ++j) {
      // Products of quarters sum exactly in fp32 here; fp16 rounds the store.
      const float r = kTransposed ? href[j * n + i] : href[i * n + j];
      const float got_c = __half2float(hc[i * ldc + j]);
      const float want_y = std::fmax(r + hbias[j], 0.0f);
      const double err_c = std::fabs(got_c - __half2float(__float2half(r)));
      const double err_y = std::fabs(hy[i * ldc + j] - want_y);
      worst = std::fmax(worst, std::fmax(err_c, err_y));
      if (!(err_c == 0) || !(err_y == 0))
        ++bad;
    }
  ++checks;
  const bool ok = ran == (maps || tc::sm90::kCopiesUnmapped<Mainloop, Scheduler>) && bad == 0;
  if (!ok)
    ++failures;
  std::printf("%-4s %-22s M=%-5lld N=%-5lld K=%-5lld pad=%d %s%s%s %s", ok ? "PASS" : "FAIL",
              name, m, n, shape_k, pad, graph ? "graph" : "", kTransposed ? " transposed" : "",
              producer == tc::sm90::Producer::kCopies ? " copies" : "",
              ran ? "" : ok ? "(not launched: not mapped) " : "(not launched) ");
  if (bad)
    std::printf("%lld wrong, worst %.3g", bad, worst);
  std::printf("\n");
  for (void *p : {(void *)a, (void *)b, (void *)c, (void *)y, (void *)bias, (void *)ref})
    cudaFree(p);
}

template <class Mainloop>
void check_shapes(const char *name, std::mt19937 &rng) {
  // Whole and partial tiles; K of one tile, odd, and long (split tiles);
  // more tiles than SMs with a split tail, and several raster groups.
  const long long fixed[][4] = {{1, 1, 1, 0},       {128, 128, 64, 0},   {129, 127, 65, 8},
                                {200, 72, 8192, 0}, {64, 300, 3000, 3},  {1500, 1600, 1024, 16},
                                {128 * 133, 128, 640, 0}};
  for (auto &s : fixed)
    check<Mainloop>(name, s[0], s[1], s[2], static_cast<int>(s[3]), rng);
  // Pads: none, multiples of 8 (TMA reads the operand in place) and odd
  // ones (through an aligned copy).
  std::uniform_int_distribution<int> dim(1, 700), kdim(1, 1500), pad(0, 5);
  for (int r = 0; r < 5; ++r) {
    const int p = pad(rng);
    check<Mainloop>(name, dim(rng), dim(rng), kdim(rng), p < 2 ? 0 : p < 4 ? 8 * p : 8 * p + 1,
                    rng);
  }
}

// Stream units: shapes whose last round of tiles is nearly empty (133 and
// 134 tiles of 128 x 192 on 132 SMs, whole and partial, short and long
// reductions), where blocks take several units, and shapes without one.
template <class Mainloop, class Scheduler = tc::sm90::StreamUnitsScheduler>
void check_stream_units(const char *name, std::mt19937 &rng) {
  const long long shapes[][4] = {{128 * 133, 192, 1024, 0}, {890, 3640, 2000, 8},
                                 {128 * 67, 384, 192, 0},    {127 * 7, 191 * 19, 77, 3},
                                 {128 * 133, 192, 64, 0},    {300, 500, 700, 0},
                                 {1, 1, 1, 0}};
  for (auto &s : shapes)
    check<Mainloop, Scheduler>(name, s[0], s[1], s[2], static_cast<int>(s[3]), rng);
}

// Pairs: outputs of an even number of tile rows, which the schedulers
// take in pairs (two blocks a cluster sharing B's tile), odd ones, which
// they do not, and a round of more pairs than SMs; short and long
// reductions (fewer k tiles than stages: no stage is refilled).
template <class Mainloop, class Scheduler>
void check_pairs(const char *name, std::mt19937 &rng) {
  const long long bm = Mainloop::kBM, bn = Mainloop::kBN;
  const long long shapes[][4] = {{2 * bm, bn, 64, 0},           {4 * bm, 3 * bn, 1024, 0},
                                 {4 * bm - 5, 3 * bn - 7, 999, 3}, {3 * bm, 2 * bn, 700, 8},
                                 {bm * 40, bn * 9, 512, 0},       {bm * 2, bn * 2, 129, 0},
                                 {1, 1, 1, 0}};
  for (auto &s : shapes)
    check<Mainloop, Scheduler>(name, s[0], s[1], s[2], static_cast<int>(s[3]), rng);
}

// Cluster parts: few tiles and long reductions (every tile split, its parts
// one cluster), partial tiles and odd K among them; then shapes the rule
// leaves to the scheduler it falls back on.
template <class Mainloop, class Scheduler>
void check_cluster_parts(const char *name, std::mt19937 &rng) {
  const long long bm = Mainloop::kBM, bn = Mainloop::kBN;
  const long long shapes[][4] = {{bm, bn, 64 * 12, 0},      {2 * bm - 3, bn + 5, 4001, 3},
                                 {8 * bm, 2 * bn, 8192, 0},  {5, 7, 3000, 8},
                                 {2 * bm, 4 * bn, 64 * 11, 0}, {bm * 12, bn * 12, 2048, 0}};
  for (auto &s : shapes)
    check<Mainloop, Scheduler>(name, s[0], s[1], s[2], static_cast<int>(s[3]), rng);
}

// The split_k clause's scheduler: every tile in kParts parts (fewer where
// K has fewer k tiles), added up by each tile's last part: partial tiles,
// K of one tile, odd K, long reductions, more tiles than SMs; and under a
// CUDA graph (the parts' workspace the launcher's cached buffer).
template <class Mainloop, int kParts>
void check_split(const char *name, std::mt19937 &rng) {
  using Scheduler = tc::sm90::SplitScheduler<kParts>;
  const long long shapes[][4] = {{300, 200, 1000, 0},   {129, 127, 65, 8},  {1, 1, 1, 0},
                                 {64, 64, 64 * 100, 0}, {1500, 1600, 1024, 3}, {77, 33, 0, 0},
                                 {128, 256, 64 * 3, 0}};
  for (auto &s : shapes)
    check<Mainloop, Scheduler>(name, s[0], s[1], s[2], static_cast<int>(s[3]), rng);
  check<Mainloop, Scheduler>(name, 200, 72, 8192, 0, rng, true);
}

// Persistent blocks: fewer tiles than SMs (one each), several rounds with
// a ragged last one, partial tiles, K of one tile and long ones (the ring
// of stages runs on across a block's tiles).
template <class Mainloop>
void check_persistent(const char *name, std::mt19937 &rng) {
  const long long bm = Mainloop::kBM, bn = Mainloop::kBN;
  const long long shapes[][4] = {{bm, bn, 64, 0},          {bm * 20, bn * 20, 1000, 0},
                                 {bm * 13 - 1, bn * 23 + 9, 333, 3}, {bm * 33, bn * 9, 64, 8},
                                 {1, 1, 1, 0},              {bm * 4, bn * 50, 4096, 0}};
  for (auto &s : shapes)
    check<Mainloop, tc::sm90::PersistentScheduler>(name, s[0], s[1], s[2],
                                                   static_cast<int>(s[3]), rng);
  // The copying producer (no TMA maps), asked for, and taken for K = 0:
  // partial tiles, odd pitches, several rounds.
  const long long copied[][4] = {{bm * 3 - 5, bn * 2 + 7, 200, 3}, {bm * 20, bn * 20, 1000, 0},
                                 {1, 1, 1, 1}, {77, 33, 0, 1}, {bm * 2, bn, 0, 0}};
  for (auto &s : copied)
    check<Mainloop, tc::sm90::PersistentScheduler>(name, s[0], s[1], s[2],
                                                   static_cast<int>(s[3]), rng, false,
                                                   tc::sm90::Producer::kCopies);
  check<Mainloop, tc::sm90::PersistentScheduler>(name, 100, 50, 0, 0, rng);
  check<Mainloop, tc::sm90::PersistentScheduler>(name, 100, 50, -3, 0, rng);
}

// A sum of kCount products A_p B_p into one output (tc/sm90/products.cuh),
// each over its own reduction ks[p] (0 and negative ones included), each
// operand with its own pitch (pad + p: odd pitches go through aligned
// copies); the reference is the sum of the products' references.
template <class Mainloop, class Scheduler, int kCount>
void check_sum(const char *name, long long m, long long n, const long long (&ks)[kCount],
               int pad, std::mt19937 &rng,
               tc::sm90::Producer producer = tc::sm90::Producer::kTma) {
  using T = typename Mainloop::Element;
  // (Tiles of transposed copies read operands stored MN-major.)
  constexpr bool a_k_major = Mainloop::A::kMajor == Major::K && !Mainloop::A::kTransposedCopy;
  constexpr bool b_k_major = Mainloop::B::kMajor == Major::K && !Mainloop::B::kTransposedCopy;
  std::uniform_int_distribution<int> small(-4, 4);
  tc::sm90::Products<T, kCount> products;
  std::vector<void *> buffers;
  float *ref, *part;
  CHECK_CUDA(cudaMalloc(&ref, m * n * 4));
  CHECK_CUDA(cudaMalloc(&part, m * n * 4));
  std::vector<float> href(m * n, 0.0f), hpart(m * n);
  bool copied_pitch = false;  // an operand through an aligned copy
  for (int p = 0; p < kCount; ++p) {
    const long long k = ks[p] < 0 ? 0 : ks[p];
    const long long lda = (a_k_major ? k : m) + pad + p, ldb = (b_k_major ? k : n) + pad + p;
    copied_pitch |= lda * sizeof(T) % 16 != 0 || ldb * sizeof(T) % 16 != 0 ||
                    Mainloop::A::kTransposedCopy || Mainloop::B::kTransposedCopy;
    const long long a_elems = lda * (a_k_major ? m : k), b_elems = ldb * (b_k_major ? n : k);
    std::vector<T> ha(a_elems + 1), hb(b_elems + 1);
    for (auto &x : ha) x = from_float<T>(small(rng) * 0.25f);
    for (auto &x : hb) x = from_float<T>(small(rng) * 0.25f);
    T *a, *b;
    CHECK_CUDA(cudaMalloc(&a, ha.size() * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&b, hb.size() * sizeof(T)));
    buffers.push_back(a);
    buffers.push_back(b);
    CHECK_CUDA(cudaMemcpy(a, ha.data(), ha.size() * sizeof(T), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b, hb.data(), hb.size() * sizeof(T), cudaMemcpyHostToDevice));
    reference<T><<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(
        m, n, k, a, a_k_major ? lda : 1, a_k_major ? 1 : lda, b, b_k_major ? 1 : ldb,
        b_k_major ? ldb : 1, part);
    CHECK_CUDA(cudaMemcpy(hpart.data(), part, m * n * 4, cudaMemcpyDeviceToHost));
    for (long long e = 0; e < m * n; ++e)
      href[e] += hpart[e];
    products.product[p] = {a, lda, b, ldb, ks[p]};
  }
  const long long ldc = n + pad;
  __half *c;
  CHECK_CUDA(cudaMalloc(&c, m * ldc * 2));
  CHECK_CUDA(cudaMemset(c, 0xff, m * ldc * 2));  // NaN: an unwritten element shows
  CHECK_CUDA(cudaDeviceSynchronize());
  long long k_total = 0;
  for (long long k : ks)
    k_total += k > 0 ? k : 0;
  // (Without TMA maps, no k tile at all or the copying producer asked
  // for, the producer warp copies, kCopiesUnmapped.)
  const bool maps = k_total > 0 && producer == tc::sm90::Producer::kTma;
  const bool ran = tc::sm90::launch_gemm<Mainloop, Scheduler>(m, n, products, StoreHalf{c, ldc},
                                                              0, launch_producer(producer, maps));
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<__half> hc(m * ldc);
  CHECK_CUDA(cudaMemcpy(hc.data(), c, m * ldc * 2, cudaMemcpyDeviceToHost));
  long long bad = 0;
  for (long long i = 0; i < m && ran; ++i)
    for (long long j = 0; j < ldc; ++j) {
      uint16_t bits;
      std::memcpy(&bits, &hc[i * ldc + j], 2);
      if (j >= n ? bits != 0xffff
                 : __half2float(hc[i * ldc + j]) != __half2float(__float2half(href[i * n + j])))
        ++bad;
    }
  ++checks;
  const bool ok = ran == (maps || tc::sm90::kCopiesUnmapped<Mainloop, Scheduler>) && bad == 0;
  if (!ok)
    ++failures;
  std::printf("%-4s %-22s M=%-5lld N=%-5lld K=", ok ? "PASS" : "FAIL", name, m, n);
  for (int p = 0; p < kCount; ++p)
    std::printf("%s%lld", p ? "+" : "", ks[p]);
  std::printf(" pad=%d%s%s %s", pad, copied_pitch ? " (copied)" : "",
              producer == tc::sm90::Producer::kCopies ? " copies" : "",
              ran ? "" : ok ? "(not launched: not mapped) " : "(not launched) ");
  if (bad)
    std::printf("%lld wrong", bad);
  std::printf("\n");
  for (void *q : buffers)
    cudaFree(q);
  for (void *q : {(void *)c, (void *)ref, (void *)part})
    cudaFree(q);
}

// Sums of two and three products with every scheduler: partial tiles,
// reductions of one tile, odd ones, empty ones (one product, all), a long
// one beside a short one (split tiles whose k ranges cross from one
// product into the next), and the copying producer.
void check_sums(std::mt19937 &rng) {
  namespace sm90 = tc::sm90;
  using Square = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::K>, 4>;
  using RowRow = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 3>;
  using Wide = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::K>, 4>;
  using Narrow = sm90::TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<128, Major::MN>, 4>;
  const long long two[][2] = {{64, 64}, {65, 1000}, {4000, 3}, {0, 129}, {-5, 0}, {777, 1}};
  for (auto &k : two) {
    check_sum<Square, sm90::TilesScheduler>("sum tiles 128x128", 300, 200, k, 0, rng);
    check_sum<RowRow, sm90::TilesScheduler>("sum tiles B[k][n]", 129, 257, k, 3, rng);
    check_sum<Square, sm90::StreamUnitsScheduler>("sum units 128x128", 128 * 133, 128, k, 0,
                                                  rng);
    check_sum<Square, sm90::PersistentScheduler>("sum persistent", 1000, 900, k, 1, rng);
    check_sum<Square, sm90::PersistentScheduler>("sum persistent", 77, 130, k, 3, rng,
                                                 sm90::Producer::kCopies);
    check_sum<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>("sum pairs 128x256",
                                                                    128 * 6, 256 * 3, k, 0, rng);
    check_sum<Narrow, sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairOneRound>>>(
        "sum parts pairs 64x128", 70, 130, k, 0, rng);
  }
  const long long three[][3] = {{64, 1000, 64}, {1, 2, 3}, {3000, 0, 900}, {0, 0, 0}};
  for (auto &k : three) {
    check_sum<Square, sm90::TilesScheduler>("sum3 tiles 128x128", 200, 300, k, 8, rng);
    check_sum<Square, sm90::PersistentScheduler>("sum3 persistent", 640, 520, k, 0, rng);
    check_sum<Narrow, sm90::ClusterPartsScheduler<12>>("sum3 parts 64x128", 64, 128, k, 0, rng);
  }
}

// A batch's store: entry z's C at c + z * pitch, row pitch ldc.
struct BatchStoreHalf {
  __half *c;
  long long ldc, pitch;
  __device__ void operator()(long long z, long long i, long long j, float acc) const {
    c[z * pitch + i * ldc + j] = __float2half(acc);
  }
  __device__ void row(long long z, long long i, long long j0, const float (&acc)[8]) const {
#pragma unroll
    for (int v = 0; v < 8; ++v)
      c[z * pitch + i * ldc + j0 + v] = __float2half(acc[v]);
  }
};

// A batch of `batches` GEMMs (launch_batched_gemm): entry z's A at z *
// (its matrix's elements + gap_a), B likewise with gap_b, or one B that
// every entry shares (shared_b); gaps or pitches that are not multiples of
// 8 elements are read from an aligned copy of all the entries
// (tc::tma_map_3d_aligned).
// Each entry's output is checked against the reference of its own
// operands, and the gaps between the outputs must stay unwritten.
template <class Mainloop, class Scheduler>
void check_batch(const char *name, long long batches, long long m, long long n, long long k,
                 long long gap_a, long long gap_b, bool shared_b, std::mt19937 &rng,
                 tc::sm90::Producer producer = tc::sm90::Producer::kTma) {
  using T = typename Mainloop::Element;
  constexpr bool a_k_major = Mainloop::A::kMajor == Major::K;
  constexpr bool b_k_major = Mainloop::B::kMajor == Major::K;
  const long long lda = a_k_major ? k : m, ldb = b_k_major ? k : n;
  const long long pitch_a = lda * (a_k_major ? m : k) + gap_a;
  const long long pitch_b = shared_b ? 0 : ldb * (b_k_major ? n : k) + gap_b;
  const long long a_elems = pitch_a * batches, b_elems = shared_b ? ldb * (b_k_major ? n : k)
                                                                   : pitch_b * batches;
  std::uniform_int_distribution<int> small(-4, 4);
  std::vector<T> ha(a_elems), hb(b_elems);
  for (auto &x : ha) x = from_float<T>(small(rng) * 0.25f);
  for (auto &x : hb) x = from_float<T>(small(rng) * 0.25f);
  const long long ldc = n, pitch_c = m * n + 8;  // 8 unwritten elements between entries
  T *a, *b;
  __half *c;
  float *ref;
  CHECK_CUDA(cudaMalloc(&a, a_elems * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&b, b_elems * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&c, pitch_c * batches * 2));
  CHECK_CUDA(cudaMalloc(&ref, m * n * 4 * batches));
  CHECK_CUDA(cudaMemcpy(a, ha.data(), a_elems * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(b, hb.data(), b_elems * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(c, 0xff, pitch_c * batches * 2));
  for (long long z = 0; z < batches; ++z)
    reference<T><<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(
        m, n, k, a + z * pitch_a, a_k_major ? lda : 1, a_k_major ? 1 : lda, b + z * pitch_b,
        b_k_major ? 1 : ldb, b_k_major ? ldb : 1, ref + z * m * n);
  CHECK_CUDA(cudaDeviceSynchronize());
  tc::sm90::Products<T, 1> products;
  products.product[0] = {a, lda, b, ldb, k, pitch_a, pitch_b};
  // (Without TMA maps, the copying producer asked for or K = 0, the
  // producer warp copies, kCopiesUnmapped.)
  const bool maps = k > 0 && producer == tc::sm90::Producer::kTma;
  const bool ran = tc::sm90::launch_batched_gemm<Mainloop, Scheduler>(
      batches, m, n, products, BatchStoreHalf{c, ldc, pitch_c}, 0,
      launch_producer(producer, maps));
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> href(m * n * batches);
  std::vector<__half> hc(pitch_c * batches);
  CHECK_CUDA(cudaMemcpy(href.data(), ref, m * n * 4 * batches, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hc.data(), c, pitch_c * batches * 2, cudaMemcpyDeviceToHost));
  long long bad = 0;
  for (long long z = 0; z < batches && ran; ++z)
    for (long long e = 0; e < pitch_c; ++e) {
      uint16_t bits;
      std::memcpy(&bits, &hc[z * pitch_c + e], 2);
      if (e >= m * n ? bits != 0xffff
                     : __half2float(hc[z * pitch_c + e]) !=
                           __half2float(__float2half(href[z * m * n + e])))
        ++bad;
    }
  ++checks;
  constexpr long long chunk = 16 / sizeof(T);  // elements of 16 bytes
  const bool in_place =
      pitch_a % chunk == 0 && pitch_b % chunk == 0 && lda % chunk == 0 && ldb % chunk == 0;
  const bool ok = ran == (maps || tc::sm90::kCopiesUnmapped<Mainloop, Scheduler>) && bad == 0;
  if (!ok)
    ++failures;
  std::printf("%-4s %-22s batch=%-3lld M=%-5lld N=%-5lld K=%-5lld gaps=%lld,%lld%s%s%s %s",
              ok ? "PASS" : "FAIL", name, batches, m, n, k, gap_a, gap_b,
              shared_b ? " shared B" : "", in_place ? "" : " (copied)",
              producer == tc::sm90::Producer::kCopies ? " copies" : "",
              ran ? "" : ok ? "(not launched: not mapped) " : "(not launched) ");
  if (bad)
    std::printf("%lld wrong", bad);
  std::printf("\n");
  for (void *q : {(void *)a, (void *)b, (void *)c, (void *)ref})
    cudaFree(q);
}

// Batches under every scheduler: partial tiles (a tile row of one entry
// must not read the next's rows or k), odd tile rows under pairs (an entry
// made even, so that no pair spans two entries), a shared B, long
// reductions (split tiles, cluster parts), gaps between the entries, and
// strides TMA cannot map (the persistent kernel copies).
void check_batches(std::mt19937 &rng) {
  namespace sm90 = tc::sm90;
  using Square = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 4>;
  using ColCol = sm90::TmaWgmmaMainloop<Tile<128, Major::MN>, Tile<128, Major::K>, 3>;
  using Wide = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::MN>, 4>;
  using Narrow = sm90::TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<128, Major::K>, 4>;
  using Persistent = sm90::PersistentScheduler;
  check_batch<Square, sm90::TilesScheduler>("batch tiles", 3, 200, 136, 72, 0, 8, false, rng);
  check_batch<Square, sm90::TilesScheduler>("batch tiles", 5, 129, 64, 4000, 8, 0, true, rng);
  check_batch<ColCol, sm90::TilesScheduler>("batch tiles A[k][m]", 4, 72, 136, 100, 0, 0, false,
                                            rng);
  check_batch<Square, sm90::StreamUnitsScheduler>("batch units", 7, 128 * 19, 128, 640, 0, 0,
                                                  false, rng);
  check_batch<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>(
      "batch pairs units", 3, 128 * 3 + 1, 256 * 2, 512, 0, 0, false, rng);
  check_batch<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>(
      "batch pairs units", 6, 128 * 8, 256 * 3, 1024, 16, 0, true, rng);
  check_batch<Narrow, sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairOneRound>>>(
      "batch parts pairs", 2, 100, 130, 64 * 40, 0, 0, false, rng);
  check_batch<Narrow, sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairOneRound>>>(
      "batch parts pairs", 5, 64 * 3, 128, 333, 8, 8, false, rng);
  check_batch<Square, Persistent>("batch persistent", 3, 300, 200, 100, 0, 0, false, rng);
  check_batch<Square, Persistent>("batch persistent", 40, 129, 127, 65, 8, 0, true, rng);
  check_batch<ColCol, Persistent>("batch persistent A[k][m]", 9, 136, 264, 777, 0, 8, false,
                                  rng);
  check_batch<Square, Persistent>("batch persistent", 3, 77, 40, 56, 3, 1, false, rng);
  check_batch<Square, sm90::TilesScheduler>("batch tiles", 3, 77, 40, 56, 3, 1, false, rng);
  check_batch<Square, sm90::TilesScheduler>("batch tiles", 4, 100, 60, 100, 0, 0, true, rng);
  check_batch<ColCol, Persistent>("batch persistent A[k][m]", 3, 99, 101, 70, 5, 3, false, rng);
  check_batch<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>(
      "batch pairs units", 3, 300, 300, 333, 1, 2, false, rng);
  check_batch<Square, Persistent>("batch persistent", 4, 200, 96, 130, 0, 0, false, rng,
                                  sm90::Producer::kCopies);
  check_batch<Square, Persistent>("batch persistent", 2, 100, 64, 0, 0, 0, false, rng);
  check_batch<Square, Persistent>("batch persistent", 1, 1, 8, 1, 0, 0, true, rng);
}

// CUDA graphs: each scheduler's launch captured on a fresh stream. Split
// tiles (few tiles, long reductions) then run whole, the parts' workspace
// being the launcher's cached buffer; cluster parts and pairs keep their
// clusters. (An operand TMA cannot map in place is copied by the producer
// warp under capture: check_copying_producers.)
void check_graphs(std::mt19937 &rng) {
  namespace sm90 = tc::sm90;
  using Narrow = sm90::TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<128, Major::MN>, 4>;
  using Square = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 4>;
  using Wide = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::K>, 4>;
  const long long shapes[][3] = {{200, 72, 8192}, {1500, 1600, 1024}, {128 * 133, 192, 640},
                                 {129, 127, 65}};
  for (auto &sh : shapes) {
    check<Square>("graph tiles 128x128", sh[0], sh[1], sh[2], 0, rng, true);
    check<Square, sm90::StreamUnitsScheduler>("graph units 128x128", sh[0], sh[1], sh[2], 8,
                                              rng, true);
    check<Square, sm90::PersistentScheduler>("graph persistent", sh[0], sh[1], sh[2], 0, rng,
                                             true);
    check<Narrow, sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>>(
        "graph parts pairs 64x128", sh[0], sh[1], sh[2], 0, rng, true);
    check<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>("graph pairs units 128x256",
                                                               sh[0], sh[1], sh[2], 0, rng, true);
  }
}

// The copying producer (no TMA maps: asked for here; taken where TMA cannot
// map an operand, under a capture with odd pitches, or for K = 0) under
// every scheduler: partial tiles, odd pitches, split tiles' k ranges (a
// part's copies begin at its first k tile), pairs (each block copies its
// own whole B tile), cluster parts, stream units; sums, batches and tf32
// too. A producer warpgroup that gives its registers away outside the
// persistent kernel does not copy: its launch fails.
void check_copying_producers(std::mt19937 &rng) {
  namespace sm90 = tc::sm90;
  using Square = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 4>;
  using Wide = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::K>, 4>;
  using Narrow = sm90::TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<128, Major::MN>, 4>;
  using Giving = sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<256, Major::MN>, 4,
                                        sm90::SharedOperands<>, sm90::ProducerWarpgroup<40, 232>>;
  const auto copies = sm90::Producer::kCopies;
  const long long shapes[][4] = {{129, 127, 65, 3}, {300, 200, 1000, 0}, {1, 1, 1, 1},
                                 {77, 33, 0, 1},    {128 * 133, 192, 640, 0}};
  for (auto &s : shapes) {
    const long long m = s[0], n = s[1], k = s[2];
    const int pad = static_cast<int>(s[3]);
    check<Square>("copies tiles 128x128", m, n, k, pad, rng, false, copies);
    check<Square, sm90::StreamUnitsScheduler>("copies units 128x128", m, n, k, pad, rng, false,
                                              copies);
    check<Square, sm90::SplitScheduler<4>>("copies split 4 128x128", m, n, k, pad, rng, false,
                                           copies);
    check<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>("copies pairs units 128x256", m,
                                                               n, k, pad, rng, false, copies);
    check<Narrow, sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>>(
        "copies parts pairs 64x128", m, n, k, pad, rng, false, copies);
    check<Giving>("copies warpgroup 128x256", m, n, k, pad, rng, false, copies);
  }
  // Pairs and cluster parts whose schedules take them: even tile rows, long
  // reductions.
  check<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>("copies pairs units 128x256",
                                                             128 * 40, 256 * 9, 512, 0, rng,
                                                             false, copies);
  check<Narrow, sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairOneRound>>>(
      "copies parts pairs 64x128", 64 * 2 - 3, 128 + 5, 4001, 3, rng, false, copies);
  // Under a capture, odd pitches: no aligned copy can be made there.
  check<Square>("graph tiles 128x128", 129, 127, 65, 3, rng, true);
  check<Square, sm90::SplitScheduler<4>>("graph split 4 128x128", 300, 200, 1000, 1, rng, true);
  check<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>("graph pairs units 128x256",
                                                             128 * 40, 256 * 9, 512, 5, rng,
                                                             true);
  const long long two[][2] = {{65, 1000}, {4000, 3}, {0, 0}};
  for (auto &k : two) {
    check_sum<Square, sm90::TilesScheduler>("sum tiles copies", 300, 200, k, 3, rng, copies);
    check_sum<Square, sm90::SplitScheduler<3>>("sum split copies", 129, 257, k, 0, rng, copies);
    check_sum<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>(
        "sum pairs copies", 128 * 6, 256 * 3, k, 0, rng, copies);
  }
  check_batch<Square, sm90::TilesScheduler>("batch tiles copies", 3, 200, 136, 72, 0, 8, false,
                                            rng, copies);
  check_batch<Wide, sm90::PairsScheduler<tc::kPairWideTiles, true>>(
      "batch pairs copies", 3, 128 * 3 + 1, 256 * 2, 512, 0, 0, false, rng, copies);
  check_batch<Square, sm90::TilesScheduler>("batch tiles", 2, 100, 64, 0, 0, 0, false, rng);
}

// What wgmma reads of an fp32 operand as tf32: the low 13 mantissa bits
// dropped (truncated, not rounded); with the RoundToTf32 policy on the
// stages, the value rounded to nearest (ties away) first.
template <bool kRounded>
__device__ float tf32_of(float x) {
  const uint32_t bits = __float_as_uint(x);
  return __uint_as_float(((kRounded ? bits + 0x1000u : bits)) & ~0x1fffu);
}

// ref[i][j] = sum_k tf32(A(i, k)) tf32(B(k, j)) in double, A(i, k) at
// a[i * sa_i + k * sa_k] and B(k, j) at b[k * sb_k + j * sb_j] (K-major: A
// at a[i * lda + k], B at b[j * ldb + k]; MN-major: A at a[k * lda + i], B
// at b[k * ldb + j]); bound[i][j] = the sum of the products' magnitudes,
// which fp32 accumulation's error scales with.
template <bool kRounded>
__global__ void reference_tf32(long long m, long long n, long long k, const float *a,
                               long long sa_i, long long sa_k, const float *b, long long sb_k,
                               long long sb_j, double *ref, double *bound) {
  const long long i = blockIdx.y * 16 + threadIdx.y, j = blockIdx.x * 16 + threadIdx.x;
  if (i >= m || j >= n)
    return;
  double sum = 0.0, magnitude = 0.0;
  for (long long p = 0; p < k; ++p) {
    const double product = static_cast<double>(tf32_of<kRounded>(a[i * sa_i + p * sa_k])) *
                           tf32_of<kRounded>(b[p * sb_k + j * sb_j]);
    sum += product;
    magnitude += fabs(product);
  }
  ref[i * n + j] = sum;
  bound[i * n + j] = magnitude;
}

// One shape through a tf32 Mainloop (fp32 operands, staged K-major) with an
// fp32 store and the bias + ReLU functor, the tiles shared out by
// Scheduler. The operands are random fp32 values, whose low mantissa bits
// wgmma must drop as the reference does; stored K-major (A[m][k], B[n][k])
// or, where the tile stages a transposed copy (kTransposedCopy), MN-major
// (A[k][m], B[k][n]); pitches of the contiguous extent + pad (K-major: pad
// not a multiple of 4 goes through an aligned copy), A's base `offset`
// elements past a 16-byte boundary (likewise). Each output must lie within 1e-5 of its
// products' magnitudes (and the bias's) of the reference, and padding
// columns stay untouched.
template <class Mainloop, class Scheduler>
void check_tf32(const char *name, long long m, long long n, long long k, int pad, int offset,
                std::mt19937 &rng, tc::sm90::Producer producer = tc::sm90::Producer::kTma) {
  static_assert(std::is_same_v<typename Mainloop::Element, float>, "fp32 operands");
  constexpr bool a_mn = Mainloop::A::kTransposedCopy, b_mn = Mainloop::B::kTransposedCopy;
  const long long lda = (a_mn ? m : k) + pad, ldb = (b_mn ? n : k) + pad, ldc = n + pad;
  const long long a_elems = lda * (a_mn ? k : m) + offset, b_elems = ldb * (b_mn ? k : n);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> ha(a_elems), hb(b_elems), hbias(n);
  for (auto &x : ha) x = value(rng);
  for (auto &x : hb) x = value(rng);
  for (auto &x : hbias) x = value(rng);
  float *a0, *b, *c, *y, *bias;
  double *ref, *bound;
  CHECK_CUDA(cudaMalloc(&a0, a_elems * 4));
  CHECK_CUDA(cudaMalloc(&b, b_elems * 4));
  CHECK_CUDA(cudaMalloc(&c, m * ldc * 4));
  CHECK_CUDA(cudaMalloc(&y, m * ldc * 4));
  CHECK_CUDA(cudaMalloc(&bias, n * 4));
  CHECK_CUDA(cudaMalloc(&ref, m * n * 8));
  CHECK_CUDA(cudaMalloc(&bound, m * n * 8));
  CHECK_CUDA(cudaMemcpy(a0, ha.data(), a_elems * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(b, hb.data(), b_elems * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(bias, hbias.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(c, 0xff, m * ldc * 4));  // NaN: an unwritten element shows
  CHECK_CUDA(cudaMemset(y, 0xff, m * ldc * 4));
  const float *a = a0 + offset;
  constexpr bool kRounded =
      std::is_same_v<typename Mainloop::Consumer::APrologue, tc::sm90::RoundToTf32>;
  reference_tf32<kRounded><<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(
      m, n, k, a, a_mn ? 1 : lda, a_mn ? lda : 1, b, b_mn ? ldb : 1, b_mn ? 1 : ldb, ref, bound);
  CHECK_CUDA(cudaDeviceSynchronize());
  const tc::sm90::GemmShape shape{m, n, k};
  // (Without TMA maps, the copying producer asked for or K = 0, the
  // producer warp copies, kCopiesUnmapped.)
  const bool maps = k > 0 && producer == tc::sm90::Producer::kTma;
  const tc::sm90::Producer used = launch_producer(producer, maps);
  const bool ran =
      tc::sm90::launch_gemm<Mainloop, Scheduler>(shape, a, lda, b, ldb,
                                                 tc::sm90::StoreEpilogue<float>{c, ldc}, 0,
                                                 used) &&
      tc::sm90::launch_gemm<Mainloop, Scheduler>(shape, a, lda, b, ldb, BiasRelu{y, bias, ldc},
                                                 0, used);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<double> href(m * n), hbound(m * n);
  std::vector<float> hc(m * ldc), hy(m * ldc);
  CHECK_CUDA(cudaMemcpy(href.data(), ref, m * n * 8, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hbound.data(), bound, m * n * 8, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hc.data(), c, m * ldc * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hy.data(), y, m * ldc * 4, cudaMemcpyDeviceToHost));
  long long bad = 0;
  double worst = 0;  // error over the products' magnitudes
  for (long long i = 0; i < m && ran; ++i)
    for (long long j = 0; j < ldc; ++j) {
      if (j >= n) {  // the padding keeps cudaMemset's 0xff bytes
        uint32_t cbits, ybits;
        std::memcpy(&cbits, &hc[i * ldc + j], 4);
        std::memcpy(&ybits, &hy[i * ldc + j], 4);
        if (cbits != 0xffffffffu || ybits != 0xffffffffu)
          ++bad;
        continue;
      }
      const double r = href[i * n + j], magnitude = hbound[i * n + j];
      const double err_c = std::fabs(hc[i * ldc + j] - r);
      const double err_y = std::fabs(hy[i * ldc + j] - std::fmax(r + hbias[j], 0.0));
      if (magnitude > 0)
        worst = std::fmax(worst, err_c / magnitude);
      if (!(err_c <= 1e-5 * magnitude) || !(err_y <= 1e-5 * (magnitude + std::fabs(hbias[j]))))
        ++bad;
    }
  ++checks;
  const bool ok = ran == (maps || tc::sm90::kCopiesUnmapped<Mainloop, Scheduler>) && bad == 0;
  if (!ok)
    ++failures;
  std::printf("%-4s %-22s M=%-5lld N=%-5lld K=%-5lld pad=%d %s%s %s", ok ? "PASS" : "FAIL", name,
              m, n, k, pad, offset ? "base+1" : "",
              producer == tc::sm90::Producer::kCopies ? " copies" : "",
              ran ? "" : ok ? "(not launched: not mapped) " : "(not launched) ");
  if (bad)
    std::printf("%lld wrong, worst %.3g", bad, worst);
  std::printf("\n");
  for (void *p : {(void *)a0, (void *)b, (void *)c, (void *)y, (void *)bias, (void *)ref,
                  (void *)bound})
    cudaFree(p);
}

// fp32 operands as tf32 (both K-major, then stored MN-major and staged
// from transposed copies): partial tiles in m, n and k (K not a multiple
// of the k tile's 32), long reductions, under the plain, persistent, pairs
// (B in halves), cluster parts, stream units and split schedulers; pitches
// that are not multiples of 16 bytes and an offset base (aligned copies);
// the persistent kernel's copying producer; sums of two products and
// batches (quarters: exact sums, the 16-bit checks' references).
void check_tf32s(std::mt19937 &rng) {
  namespace sm90 = tc::sm90;
  using Square = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>, Tile<128, Major::K, float>, 4>;
  using Wide =
      sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>, HalvesTile<256, Major::K, float>, 4>;
  using Narrow =
      sm90::TmaWgmmaMainloop<Tile<64, Major::K, float>, HalvesTile<128, Major::K, float>, 4>;
  using Fitted = sm90::TmaWgmmaMainloop<Tile<64, Major::K, float>, Tile<32, Major::K, float>, 6>;
  using Persistent = sm90::PersistentScheduler;
  using Pairs = sm90::PairsScheduler<tc::kPairWideTiles, true>;
  using PartsPairs = sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairOneRound>>;
  const long long shapes[][3] = {{1, 1, 1},     {129, 67, 33},   {300, 257, 100},
                                 {1000, 1000, 1000}, {128, 256, 32}, {77, 500, 31},
                                 {640, 384, 4000}};
  for (auto &sh : shapes) {
    check_tf32<Square, Persistent>("tf32 persistent", sh[0], sh[1], sh[2], 0, 0, rng);
    check_tf32<Square, sm90::TilesScheduler>("tf32 tiles 128x128", sh[0], sh[1], sh[2], 0, 0, rng);
    check_tf32<Wide, Pairs>("tf32 pairs units 128x256", sh[0], sh[1], sh[2], 0, 0, rng);
    check_tf32<Narrow, PartsPairs>("tf32 parts pairs 64x128", sh[0], sh[1], sh[2], 0, 0, rng);
  }
  check_tf32<Fitted, sm90::TilesScheduler>("tf32 tiles 64x32", 300, 70, 333, 0, 0, rng);
  check_tf32<Square, sm90::StreamUnitsScheduler>("tf32 units 128x128", 128 * 133, 128, 640, 0,
                                                 0, rng);
  check_tf32<Square, sm90::SplitScheduler<4>>("tf32 split 4", 300, 200, 1000, 0, 0, rng);
  check_tf32<Square, sm90::SplitScheduler<4>>("tf32 split 4", 129, 127, 65, 4, 0, rng);
  // Pitches of odd elements and an offset A: TMA reads aligned copies.
  check_tf32<Square, Persistent>("tf32 persistent", 300, 257, 100, 1, 0, rng);
  check_tf32<Square, Persistent>("tf32 persistent", 129, 67, 33, 0, 1, rng);
  check_tf32<Square, sm90::TilesScheduler>("tf32 tiles 128x128", 1000, 1000, 1000, 3, 1, rng);
  check_tf32<Wide, Pairs>("tf32 pairs units 128x256", 300, 257, 100, 2, 1, rng);
  check_tf32<Narrow, PartsPairs>("tf32 parts pairs 64x128", 129, 67, 999, 1, 0, rng);
  // The copying producer: odd pitches, an offset base, several rounds; K = 0.
  check_tf32<Square, Persistent>("tf32 persistent", 300, 257, 100, 3, 1, rng,
                                 sm90::Producer::kCopies);
  check_tf32<Square, Persistent>("tf32 persistent", 128 * 20, 128 * 20, 200, 0, 0, rng,
                                 sm90::Producer::kCopies);
  check_tf32<Square, Persistent>("tf32 persistent", 1, 1, 1, 1, 0, rng, sm90::Producer::kCopies);
  check_tf32<Square, sm90::TilesScheduler>("tf32 tiles", 300, 200, 129, 1, 0, rng,
                                           sm90::Producer::kCopies);
  check_tf32<Square, sm90::SplitScheduler<3>>("tf32 split 3", 129, 257, 1000, 3, 1, rng,
                                              sm90::Producer::kCopies);
  check_tf32<Square, Persistent>("tf32 persistent", 100, 50, 0, 0, 0, rng);
  // What generated launchers instantiate: both operands rounded to tf32 in
  // the landed stages (RoundToTf32), the reference rounding them likewise.
  using Rounded = sm90::SharedOperands<sm90::RoundToTf32, sm90::RoundToTf32>;
  using SquareRn =
      sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>, Tile<128, Major::K, float>, 4, Rounded>;
  using WideRn = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>,
                                        HalvesTile<256, Major::K, float>, 4, Rounded>;
  using NarrowRn = sm90::TmaWgmmaMainloop<Tile<64, Major::K, float>,
                                          HalvesTile<128, Major::K, float>, 8, Rounded>;
  using FittedRn =
      sm90::TmaWgmmaMainloop<Tile<64, Major::K, float>, Tile<32, Major::K, float>, 6, Rounded>;
  for (auto &sh : shapes) {
    check_tf32<SquareRn, Persistent>("tf32 rn persistent", sh[0], sh[1], sh[2], 0, 0, rng);
    check_tf32<WideRn, Pairs>("tf32 rn pairs 128x256", sh[0], sh[1], sh[2], 0, 0, rng);
    check_tf32<NarrowRn, PartsPairs>("tf32 rn parts 64x128", sh[0], sh[1], sh[2], 0, 0, rng);
  }
  // 176 rows of B: 1408 chunks of 16 bytes, not whole rounds of the 256
  // consumer threads that round them.
  using Wide176Rn = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>,
                                           HalvesTile<176, Major::K, float>, 4, Rounded>;
  check_tf32<Wide176Rn, Pairs>("tf32 rn pairs 128x176", 300, 500, 100, 0, 0, rng);
  check_tf32<Wide176Rn, Pairs>("tf32 rn pairs 128x176", 1000, 1000, 1000, 1, 0, rng);
  check_tf32<FittedRn, sm90::TilesScheduler>("tf32 rn tiles 64x32", 300, 70, 333, 0, 0, rng);
  check_tf32<SquareRn, sm90::SplitScheduler<4>>("tf32 rn split 4", 129, 127, 65, 4, 0, rng);
  check_tf32<SquareRn, Persistent>("tf32 rn persistent", 129, 67, 33, 1, 1, rng);
  check_tf32<SquareRn, Persistent>("tf32 rn persistent", 300, 257, 100, 3, 1, rng,
                                   sm90::Producer::kCopies);
  // Operands stored MN-major (A[k][m], B[k][n]: C = A B, both row-major),
  // staged K-major from transposed copies made at launch (kTransposedCopy):
  // A, B or both so, under the plain, persistent, pairs (B in halves),
  // cluster parts and split schedulers; partial tiles, K not a multiple of
  // 32, odd pitches and an offset base (the copy reads any), the copying
  // producer (reading the operands where they lie), and sums of products
  // (a copy per operand).
  using sm90::OperandTile;
  using AkmTile = OperandTile<float, 128, Major::K, false, true>;
  using SquareKmRn = sm90::TmaWgmmaMainloop<AkmTile, OperandTile<float, 128, Major::K, false, true>,
                                            4, Rounded>;
  using SquareAkmRn = sm90::TmaWgmmaMainloop<AkmTile, Tile<128, Major::K, float>, 4, Rounded>;
  using SquareBknRn = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>,
                                             OperandTile<float, 128, Major::K, false, true>, 4,
                                             Rounded>;
  using WideKmRn = sm90::TmaWgmmaMainloop<AkmTile, OperandTile<float, 256, Major::K, true, true>,
                                          4, Rounded>;
  using WideBknRn = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>,
                                           OperandTile<float, 256, Major::K, true, true>, 4,
                                           Rounded>;
  using NarrowKmRn = sm90::TmaWgmmaMainloop<OperandTile<float, 64, Major::K, false, true>,
                                            OperandTile<float, 128, Major::K, true, true>, 8,
                                            Rounded>;
  using FittedKmRn = sm90::TmaWgmmaMainloop<OperandTile<float, 64, Major::K, false, true>,
                                            OperandTile<float, 32, Major::K, false, true>, 6,
                                            Rounded>;
  for (auto &sh : shapes) {
    check_tf32<SquareKmRn, Persistent>("tf32 rn A[k][m] B[k][n] persistent", sh[0], sh[1], sh[2],
                                       0, 0, rng);
    check_tf32<SquareKmRn, sm90::TilesScheduler>("tf32 rn A[k][m] B[k][n] tiles", sh[0], sh[1],
                                                 sh[2], 0, 0, rng);
    check_tf32<WideKmRn, Pairs>("tf32 rn A[k][m] B[k][n] pairs 128x256", sh[0], sh[1], sh[2], 0,
                                0, rng);
    check_tf32<NarrowKmRn, PartsPairs>("tf32 rn A[k][m] B[k][n] parts 64x128", sh[0], sh[1],
                                       sh[2], 0, 0, rng);
  }
  check_tf32<SquareAkmRn, sm90::TilesScheduler>("tf32 rn A[k][m] tiles", 300, 257, 100, 0, 0,
                                                rng);
  check_tf32<SquareAkmRn, Persistent>("tf32 rn A[k][m] persistent", 1000, 1000, 1000, 3, 1, rng);
  check_tf32<SquareBknRn, sm90::TilesScheduler>("tf32 rn B[k][n] tiles", 129, 67, 999, 1, 0, rng);
  check_tf32<SquareBknRn, Persistent>("tf32 rn B[k][n] persistent", 300, 257, 100, 2, 1, rng);
  check_tf32<WideBknRn, Pairs>("tf32 rn B[k][n] pairs 128x256", 300, 257, 100, 1, 1, rng);
  check_tf32<WideKmRn, Pairs>("tf32 rn A[k][m] B[k][n] pairs 128x256", 1000, 1000, 1000, 3, 0,
                              rng);
  check_tf32<NarrowKmRn, PartsPairs>("tf32 rn A[k][m] B[k][n] parts 64x128", 129, 67, 999, 1, 1,
                                     rng);
  check_tf32<NarrowKmRn, PartsPairs>("tf32 rn A[k][m] B[k][n] parts 64x128", 5, 7, 3000, 5, 0,
                                     rng);
  check_tf32<FittedKmRn, sm90::TilesScheduler>("tf32 rn A[k][m] B[k][n] tiles 64x32", 300, 70,
                                               333, 1, 0, rng);
  check_tf32<SquareKmRn, sm90::SplitScheduler<4>>("tf32 rn A[k][m] B[k][n] split 4", 129, 127,
                                                  65, 3, 1, rng);
  check_tf32<SquareKmRn, sm90::TilesScheduler>("tf32 rn A[k][m] B[k][n] tiles", 1000, 1000, 1000,
                                               3, 1, rng);
  check_tf32<SquareKmRn, Persistent>("tf32 rn A[k][m] B[k][n] persistent", 300, 257, 100, 3, 1,
                                     rng, sm90::Producer::kCopies);
  check_tf32<SquareKmRn, Persistent>("tf32 rn A[k][m] B[k][n] persistent", 128 * 20, 128 * 20,
                                     200, 0, 0, rng, sm90::Producer::kCopies);
  check_tf32<SquareAkmRn, Persistent>("tf32 rn A[k][m] persistent", 129, 67, 33, 1, 1, rng,
                                      sm90::Producer::kCopies);
  check_tf32<SquareBknRn, Persistent>("tf32 rn B[k][n] persistent", 77, 500, 31, 0, 0, rng,
                                      sm90::Producer::kCopies);
  check_tf32<SquareKmRn, Persistent>("tf32 rn A[k][m] B[k][n] persistent", 100, 50, 0, 1, 0,
                                     rng);
  const long long two[][2] = {{32, 32}, {65, 1000}, {0, 129}, {777, 1}};
  for (auto &k : two) {
    check_sum<SquareKmRn, Persistent>("tf32 sum A[k][m] B[k][n]", 300, 200, k, 1, rng);
    check_sum<SquareAkmRn, sm90::TilesScheduler>("tf32 sum A[k][m] tiles", 129, 257, k, 3, rng);
    check_sum<Square, Persistent>("tf32 sum persistent", 300, 200, k, 1, rng);
    check_sum<Wide, Pairs>("tf32 sum pairs 128x256", 128 * 6, 256 * 3, k, 0, rng);
    check_sum<Square, sm90::TilesScheduler>("tf32 sum tiles", 129, 257, k, 3, rng);
    check_sum<Square, Persistent>("tf32 sum persistent", 77, 130, k, 3, rng,
                                  sm90::Producer::kCopies);
  }
  check_batch<Square, sm90::TilesScheduler>("tf32 batch tiles", 3, 200, 136, 72, 0, 4, false,
                                            rng);
  check_batch<Square, Persistent>("tf32 batch persistent", 4, 129, 127, 65, 1, 0, true, rng);
  check_batch<Wide, Pairs>("tf32 batch pairs units", 3, 300, 300, 333, 1, 2, false, rng);
  check_batch<Square, Persistent>("tf32 batch persistent", 4, 200, 96, 130, 0, 0, false, rng,
                                  sm90::Producer::kCopies);
  // A through registers (RegisterA<RoundToTf32, RoundToTf32>): its m16k8
  // tf32 fragments loaded with ldmatrix and rounded there, wgmma with A
  // from registers, B's landed stages rounded in place; one, two and three
  // consumer warpgroups, every scheduler, the copying producer, transposed
  // copies (which land rounded: nothing left to round of them), sums.
  using InRegisters = sm90::RegisterA<sm90::RoundToTf32, sm90::RoundToTf32>;
  using SquareRa =
      sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>, Tile<128, Major::K, float>, 4,
                             InRegisters>;
  using WideRa = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>,
                                        HalvesTile<256, Major::K, float>, 4, InRegisters>;
  using NarrowRa = sm90::TmaWgmmaMainloop<Tile<64, Major::K, float>,
                                          HalvesTile<128, Major::K, float>, 8, InRegisters>;
  using FittedRa =
      sm90::TmaWgmmaMainloop<Tile<64, Major::K, float>, Tile<32, Major::K, float>, 6,
                             InRegisters>;
  using TallRa = sm90::TmaWgmmaMainloop<Tile<192, Major::K, float>, Tile<192, Major::K, float>,
                                        4, InRegisters>;
  using SquareBknRa = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>,
                                             OperandTile<float, 128, Major::K, false, true>, 4,
                                             InRegisters>;
  using SquareKmRa = sm90::TmaWgmmaMainloop<AkmTile, OperandTile<float, 128, Major::K, false, true>,
                                            4, InRegisters>;
  using WideBknRa = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>,
                                           OperandTile<float, 256, Major::K, true, true>, 4,
                                           InRegisters>;
  for (auto &sh : shapes) {
    check_tf32<SquareRa, Persistent>("tf32 ra persistent", sh[0], sh[1], sh[2], 0, 0, rng);
    check_tf32<SquareRa, sm90::TilesScheduler>("tf32 ra tiles", sh[0], sh[1], sh[2], 0, 0, rng);
    check_tf32<WideRa, Pairs>("tf32 ra pairs 128x256", sh[0], sh[1], sh[2], 0, 0, rng);
    check_tf32<NarrowRa, PartsPairs>("tf32 ra parts 64x128", sh[0], sh[1], sh[2], 0, 0, rng);
    check_tf32<SquareBknRa, Persistent>("tf32 ra B[k][n] persistent", sh[0], sh[1], sh[2], 0, 0,
                                        rng);
    check_tf32<SquareKmRa, sm90::TilesScheduler>("tf32 ra A[k][m] B[k][n] tiles", sh[0], sh[1],
                                                 sh[2], 0, 0, rng);
  }
  check_tf32<FittedRa, sm90::TilesScheduler>("tf32 ra tiles 64x32", 300, 70, 333, 0, 0, rng);
  check_tf32<TallRa, sm90::TilesScheduler>("tf32 ra tiles 192x192", 1000, 1000, 1000, 1, 0, rng);
  check_tf32<TallRa, sm90::TilesScheduler>("tf32 ra tiles 192x192", 129, 67, 33, 0, 1, rng);
  check_tf32<SquareRa, sm90::StreamUnitsScheduler>("tf32 ra units", 128 * 133, 128, 640, 0, 0,
                                                   rng);
  check_tf32<SquareRa, sm90::SplitScheduler<4>>("tf32 ra split 4", 129, 127, 65, 4, 0, rng);
  check_tf32<WideBknRa, Pairs>("tf32 ra B[k][n] pairs 128x256", 300, 257, 100, 1, 1, rng);
  check_tf32<SquareRa, Persistent>("tf32 ra persistent", 300, 257, 100, 3, 1, rng,
                                   sm90::Producer::kCopies);
  check_tf32<SquareBknRa, Persistent>("tf32 ra B[k][n] persistent", 77, 500, 31, 1, 1, rng,
                                      sm90::Producer::kCopies);
  check_tf32<SquareRa, Persistent>("tf32 ra persistent", 100, 50, 0, 0, 0, rng);
  // As generated: persistent blocks and 128x256 tiles beside a producer
  // warpgroup that gives its registers to the consumers (one epilogue
  // warpgroup in persistent blocks), B N-major from a transposed copy.
  using Giving = sm90::ProducerWarpgroup<56, 200, 48>;
  using SquareRaPw =
      sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>, Tile<128, Major::K, float>, 4,
                             InRegisters, Giving>;
  using SquareBknRaPw = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>,
                                               OperandTile<float, 128, Major::K, false, true>, 4,
                                               InRegisters, Giving>;
  using WideRaPw = sm90::TmaWgmmaMainloop<Tile<128, Major::K, float>,
                                          HalvesTile<256, Major::K, float>, 4, InRegisters,
                                          sm90::ProducerWarpgroup<40, 232>>;
  for (auto &sh : shapes) {
    check_tf32<SquareRaPw, Persistent>("tf32 ra warpgroup persistent", sh[0], sh[1], sh[2], 0, 0,
                                       rng);
    check_tf32<SquareBknRaPw, Persistent>("tf32 ra warpgroup B[k][n] persistent", sh[0], sh[1],
                                          sh[2], 1, 0, rng);
    check_tf32<WideRaPw, Pairs>("tf32 ra warpgroup pairs 128x256", sh[0], sh[1], sh[2], 0, 0,
                                rng);
  }
  check_tf32<SquareRaPw, Persistent>("tf32 ra warpgroup persistent", 300, 257, 100, 3, 1, rng,
                                     sm90::Producer::kCopies);
  check_tf32<SquareBknRaPw, Persistent>("tf32 ra warpgroup B[k][n] persistent", 129, 67, 999, 1,
                                        1, rng, sm90::Producer::kCopies);
  for (auto &k : two) {
    check_sum<SquareRa, Persistent>("tf32 ra sum persistent", 300, 200, k, 1, rng);
    check_sum<SquareBknRa, sm90::TilesScheduler>("tf32 ra sum B[k][n] tiles", 129, 257, k, 3,
                                                 rng);
  }
}

}  // namespace

// The consumer and producer policies (tc/sm90/roles.cuh): prologues on
// each operand in each layout applied to the landed stages (one, two and
// three consumer warpgroups, bf16, under every scheduler); A through
// registers with and without a prologue, beside a producer warp and a
// producer warpgroup that moves registers (alone, pairs with stream units,
// persistent blocks with one epilogue warpgroup).
void check_prologues(std::mt19937 &rng) {
  namespace sm90 = tc::sm90;
  using sm90::ProducerWarpgroup;
  using sm90::RegisterA;
  using sm90::SharedOperands;
  using sm90::TmaWgmmaMainloop;
  check_shapes<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 3,
                                SharedOperands<Relu>>>("stages relu(A[m][k]) 128x128", rng);
  check_shapes<TmaWgmmaMainloop<Tile<128, Major::MN>, Tile<128, Major::K>, 3,
                                SharedOperands<HalfPlusQuarter>>>("stages f(A[k][m]) 128x128",
                                                                  rng);
  check_shapes<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 3,
                                SharedOperands<NoPrologue, HalfPlusQuarter>>>(
      "stages f(B[k][n]) 128x128", rng);
  check_shapes<TmaWgmmaMainloop<Tile<192, Major::K>, Tile<192, Major::K>, 4,
                                SharedOperands<NoPrologue, Relu>>>("stages relu(B[n][k]) 192x192",
                                                                   rng);
  check_shapes<TmaWgmmaMainloop<Tile<64, Major::K>, Tile<128, Major::K>, 4,
                                SharedOperands<HalfPlusQuarter>>>("stages f(A[m][k]) 64x128",
                                                                  rng);
  check_shapes<TmaWgmmaMainloop<Tile<128, Major::K, __nv_bfloat16>,
                                Tile<128, Major::MN, __nv_bfloat16>, 3, SharedOperands<Relu>>>(
      "stages bf16 relu(A[m][k])", rng);
  check_stream_units<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<192, Major::MN>, 4,
                                      SharedOperands<HalfPlusQuarter>>>(
      "units stages f(A[m][k]) 128x192", rng);
  check_pairs<TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<128, Major::MN>, 4,
                               SharedOperands<NoPrologue, HalfPlusQuarter>>,
              sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>("pairs stages f(B[k][n]) 64x128",
                                                             rng);
  check_cluster_parts<TmaWgmmaMainloop<Tile<64, Major::K>, Tile<64, Major::MN>, 6,
                                       SharedOperands<HalfPlusQuarter>>,
                      sm90::ClusterPartsScheduler<12>>("parts stages f(A[m][k]) 64x64", rng);
  check_persistent<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 4,
                                    SharedOperands<Relu>>>("persistent stages relu(A)", rng);
  check_shapes<TmaWgmmaMainloop<Tile<64, Major::K>, Tile<128, Major::MN>, 4, RegisterA<Relu>>>(
      "registers relu(A) 64x128", rng);
  check_shapes<TmaWgmmaMainloop<Tile<64, Major::K>, Tile<32, Major::K>, 6,
                                RegisterA<HalfPlusQuarter>>>("registers f(A) B[n][k] 64x32", rng);
  // (One block an SM: as two, ptxas serialises their wgmma, C7511.)
  check_shapes<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::K>, 6, RegisterA<>>>(
      "registers A 128x128 6st", rng);
  check_shapes<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<256, Major::K>, 4, RegisterA<Relu>,
                                ProducerWarpgroup<40, 232>>>("warpgroup registers relu(A) 128x256",
                                                             rng);
  check_shapes<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<256, Major::MN>, 4, SharedOperands<>,
                                ProducerWarpgroup<40, 232>>>("warpgroup A B[k][n] 128x256", rng);
  check_pairs<TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::MN>, 4,
                               RegisterA<HalfPlusQuarter>, ProducerWarpgroup<40, 232>>,
              sm90::PairsScheduler<tc::kPairWideTiles, true>>(
      "pairs units warpgroup registers f(A)", rng);
  check_stream_units<TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::K>, 4,
                                      RegisterA<Relu>, ProducerWarpgroup<40, 232>>,
                     sm90::PairsScheduler<tc::kPairWideTiles, true>>(
      "units pairs warpgroup registers relu(A)", rng);
  check_persistent<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::K>, 4, RegisterA<Relu>,
                                    ProducerWarpgroup<56, 200, 48>>>(
      "persistent warpgroup registers relu(A)", rng);
}

// Converted operands (tc::sm90::Converted) under Scheduler: whole and
// partial tiles, K of one tile, odd and long K, padded and odd pitches
// (through aligned copies), a graph with odd pitches and the copying
// producer (each converts raw stages the same way), K = 0.
template <class Mainloop, class Scheduler = tc::sm90::TilesScheduler, bool kTransposed = false>
void check_converted(const char *name, const typename Mainloop::Conversions &conversions,
                     std::mt19937 &rng) {
  const long long bm = Mainloop::kBM, bn = Mainloop::kBN;
  const long long shapes[][4] = {{1, 1, 1, 0},          {bm, bn, 64, 0},
                                 {bm + 1, bn - 1, 65, 8}, {200, 72, 4000, 0},
                                 {2 * bm - 3, 3 * bn + 5, 999, 3}, {bm * 40, bn * 9, 512, 0},
                                 {77, 33, 0, 0}};
  for (auto &s : shapes)
    check<Mainloop, Scheduler, kTransposed>(name, s[0], s[1], s[2], static_cast<int>(s[3]), rng, false,
                               tc::sm90::Producer::kTma, conversions);
  check<Mainloop, Scheduler, kTransposed>(name, 129, 127, 65, 3, rng, true, tc::sm90::Producer::kTma,
                             conversions);
  check<Mainloop, Scheduler, kTransposed>(name, 2 * bm + 7, bn + 9, 300, 1, rng, false,
                             tc::sm90::Producer::kCopies, conversions);
}

void check_conversions(std::mt19937 &rng) {
  namespace sm90 = tc::sm90;
  using sm90::SharedOperands;
  using sm90::TmaWgmmaMainloop;
  // Per-row offsets (quarters in [-1, 1]) and per-column signs, for the
  // largest operand of the checks.
  constexpr long long kRows = 1 << 15;
  std::uniform_int_distribution<int> quarter(-4, 4), coin(0, 1);
  std::vector<float> hoffset(kRows), hsign(kRows);
  for (auto &x : hoffset) x = quarter(rng) * 0.25f;
  for (auto &x : hsign) x = coin(rng) ? 1.0f : -1.0f;
  float *offset, *sign;
  CHECK_CUDA(cudaMalloc(&offset, kRows * 4));
  CHECK_CUDA(cudaMalloc(&sign, kRows * 4));
  CHECK_CUDA(cudaMemcpy(offset, hoffset.data(), kRows * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(sign, hsign.data(), kRows * 4, cudaMemcpyHostToDevice));
  const RowOffset fa{offset, 0.5f};
  const MaskedColumnSign fb{sign};
  using SquareA = TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 3,
                                   SharedOperands<ConvertA>>;
  check_converted<SquareA>("converted A[m][k] 128x128", {fa, {}}, rng);
  check_converted<SquareA, sm90::SplitScheduler<4>>("converted split 4 A[m][k]", {fa, {}}, rng);
  check_converted<SquareA, sm90::StreamUnitsScheduler>("converted units A[m][k]", {fa, {}},
                                                       rng);
  check_converted<TmaWgmmaMainloop<Tile<128, Major::MN>, Tile<128, Major::K>, 3,
                                   SharedOperands<ConvertA>>>("converted A[k][m] 128x128",
                                                              {fa, {}}, rng);
  check_converted<TmaWgmmaMainloop<Tile<128, Major::K, __nv_bfloat16>,
                                   Tile<128, Major::K, __nv_bfloat16>, 3,
                                   SharedOperands<ConvertA>>>("converted bf16 A[m][k] B[n][k]",
                                                              {fa, {}}, rng);
  using NarrowB = TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<128, Major::K>, 4,
                                   SharedOperands<NoPrologue, ConvertB>>;
  check_converted<NarrowB>("converted B[n][k] 64x128", {{}, fb}, rng);
  check_converted<NarrowB, sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>(
      "converted pairs B[n][k] 64x128", {{}, fb}, rng);
  check_converted<NarrowB,
                  sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>>(
      "converted parts pairs B[n][k]", {{}, fb}, rng);
  check_converted<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<176, Major::K>, 4,
                                   SharedOperands<NoPrologue, ConvertB>>>(
      "converted B[n][k] 128x176", {{}, fb}, rng);
  check_converted<TmaWgmmaMainloop<Tile<128, Major::MN>, Tile<256, Major::MN>, 4,
                                   SharedOperands<ConvertA, ConvertB>>>(
      "converted both [k][*] 128x256", {fa, fb}, rng);
  check_converted<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 4,
                                   SharedOperands<ConvertA, Relu>>,
                  sm90::PersistentScheduler>("converted persistent A, relu(B)", {fa, {}}, rng);
  // A converted in registers (RegisterA<Converted<F>>): each fragment by
  // its rows, bound once where F has row() (as generated), else f(x, row)
  // per element.
  const RowOffsetRows fa_rows{fa};
  using RegisterConvertedA = TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 4,
                                              sm90::RegisterA<ConvertA>>;
  using RegisterRowsA = TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::K>, 4,
                                         sm90::RegisterA<ConvertRowsA>>;
  check_converted<RegisterConvertedA>("register converted A 128x128", {fa, {}}, rng);
  check_converted<RegisterRowsA>("register rows A 128x128", {fa_rows, {}}, rng);
  check_converted<RegisterRowsA, sm90::StreamUnitsScheduler>("register rows units A",
                                                             {fa_rows, {}}, rng);
  check_converted<TmaWgmmaMainloop<Tile<64, Major::K>, Tile<128, Major::K>, 4,
                                   sm90::RegisterA<ConvertRowsA>>,
                  sm90::ClusterPartsScheduler<12>>("register rows parts A 64x128",
                                                   {fa_rows, {}}, rng);
  // (Persistent as generated: beside a producer warpgroup, whose registers
  // the consumers take.)
  check_converted<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 4,
                                   sm90::RegisterA<ConvertA>,
                                   sm90::ProducerWarpgroup<56, 200, 48>>,
                  sm90::PersistentScheduler>("register converted persistent A", {fa, {}}, rng);
  check_converted<TmaWgmmaMainloop<Tile<64, Major::K, __nv_bfloat16>,
                                   HalvesTile<128, Major::K, __nv_bfloat16>, 6,
                                   sm90::RegisterA<ConvertA>>,
                  sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>(
      "register converted pairs bf16 A", {fa, {}}, rng);
  // A region's converted B as the kernel's A, its tile computed transposed
  // (C^T = B^T A^T: the generator's KernelConfig::ConvertsLandedB), the
  // output written through TransposedOutput: 128x128 and the narrow 64-row
  // tiles of the region's A, under the schedulers generated for them.
  using TransposedSquare = TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::K>, 4,
                                            sm90::RegisterA<ConvertRowsA>>;
  using TransposedNarrow = TmaWgmmaMainloop<Tile<128, Major::K>, Tile<64, Major::K>, 4,
                                            sm90::RegisterA<ConvertRowsA>>;
  check_converted<TransposedSquare, sm90::TilesScheduler, true>("transposed rows 128x128",
                                                                {fa_rows, {}}, rng);
  check_converted<TransposedSquare, sm90::StreamUnitsScheduler, true>(
      "transposed rows units", {fa_rows, {}}, rng);
  check_converted<TransposedNarrow, sm90::StreamUnitsScheduler, true>(
      "transposed rows 128x64", {fa_rows, {}}, rng);
  // (As generated for one block of two warpgroups: beside a producer
  // warpgroup that keeps the registers to copy what TMA cannot map.)
  using GivingProducer = sm90::ProducerWarpgroup<tc::sm90::kCopyingProducerRegisters, 216>;
  check_converted<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 4,
                                   sm90::RegisterA<ConvertRowsA>, GivingProducer>,
                  sm90::StreamUnitsScheduler>("register rows units A, producer warpgroup",
                                              {fa_rows, {}}, rng);
  check_converted<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::K>, 4,
                                   sm90::RegisterA<ConvertRowsA>, GivingProducer>,
                  sm90::StreamUnitsScheduler, true>("transposed rows units, producer warpgroup",
                                                    {fa_rows, {}}, rng);
  check_converted<TmaWgmmaMainloop<Tile<128, Major::K>, Tile<64, Major::K>, 4,
                                   sm90::RegisterA<ConvertRowsA>, GivingProducer>,
                  sm90::StreamUnitsScheduler, true>("transposed rows 128x64, producer warpgroup",
                                                    {fa_rows, {}}, rng);
  check_converted<TmaWgmmaMainloop<Tile<128, Major::K, __nv_bfloat16>,
                                   Tile<64, Major::K, __nv_bfloat16>, 4,
                                   sm90::RegisterA<ConvertA>>,
                  sm90::TilesScheduler, true>("transposed bf16 128x64", {fa, {}}, rng);
  cudaFree(offset);
  cudaFree(sign);
}

int main() {
  std::mt19937 rng(1234);
  namespace sm90 = tc::sm90;
  // Layout pairs at 128x128; one and three consumer warpgroups; B tiles of
  // 192 and 256 rows in both layouts; two stages; bf16.
  check_shapes<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 3>>(
      "A[m][k] B[k][n] 128x128", rng);
  check_shapes<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::K>, 3>>(
      "A[m][k] B[n][k] 128x128", rng);
  check_shapes<sm90::TmaWgmmaMainloop<Tile<128, Major::MN>, Tile<128, Major::MN>, 3>>(
      "A[k][m] B[k][n] 128x128", rng);
  check_shapes<sm90::TmaWgmmaMainloop<Tile<64, Major::K>, Tile<128, Major::MN>, 4>>(
      "A[m][k] B[k][n] 64x128", rng);
  check_shapes<sm90::TmaWgmmaMainloop<Tile<64, Major::MN>, Tile<128, Major::K>, 2>>(
      "A[k][m] B[n][k] 64x128 2st", rng);
  check_shapes<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<256, Major::K>, 4>>(
      "A[m][k] B[n][k] 128x256", rng);
  check_shapes<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<256, Major::MN>, 3>>(
      "A[m][k] B[k][n] 128x256", rng);
  check_shapes<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<192, Major::MN>, 4>>(
      "A[m][k] B[k][n] 128x192", rng);
  check_shapes<sm90::TmaWgmmaMainloop<Tile<192, Major::K>, Tile<128, Major::K>, 4>>(
      "A[m][k] B[n][k] 192x128", rng);
  check_shapes<sm90::TmaWgmmaMainloop<Tile<128, Major::K, __nv_bfloat16>,
                                      Tile<128, Major::MN, __nv_bfloat16>, 3>>(
      "bf16 A[m][k] B[k][n] 128x128", rng);
  check_stream_units<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<192, Major::MN>, 4>>(
      "units A[m][k] B[k][n] 128x192", rng);
  check_stream_units<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<192, Major::K>, 4>>(
      "units A[m][k] B[n][k] 128x192", rng);
  // The schedulers with clusters: pairs (B in both layouts, with stream
  // units at 128x256), cluster parts alone and before pairs.
  check_pairs<sm90::TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<128, Major::MN>, 4>,
              sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>("pairs A[m][k] B[k][n] 64x128",
                                                             rng);
  check_pairs<sm90::TmaWgmmaMainloop<Tile<64, Major::MN>, HalvesTile<128, Major::K>, 8>,
              sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>("pairs A[k][m] B[n][k] 64x128",
                                                             rng);
  check_pairs<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::K>, 4>,
              sm90::PairsScheduler<tc::kPairWideTiles, true>>("pairs units B[n][k] 128x256",
                                                              rng);
  check_pairs<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::MN>, 4>,
              sm90::PairsScheduler<tc::kPairWideTiles, true>>("pairs units B[k][n] 128x256",
                                                              rng);
  check_stream_units<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::MN>, 4>,
                     sm90::PairsScheduler<tc::kPairWideTiles, true>>(
      "units pairs B[k][n] 128x256", rng);
  check_cluster_parts<sm90::TmaWgmmaMainloop<Tile<64, Major::K>, Tile<64, Major::MN>, 6>,
                      sm90::ClusterPartsScheduler<12>>("parts A[m][k] B[k][n] 64x64", rng);
  check_cluster_parts<
      sm90::TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<128, Major::K>, 4>,
      sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairOneRound>>>(
      "parts pairs B[n][k] 64x128", rng);
  check_pairs<sm90::TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<128, Major::MN>, 4>,
              sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>>(
      "parts pairs B[k][n] 64x128", rng);
  // A K-major B's fitted widths (whole 8-row swizzle atoms): alone, and in
  // halves for pairs.
  check_shapes<sm90::TmaWgmmaMainloop<Tile<64, Major::K>, Tile<32, Major::K>, 6>>(
      "A[m][k] B[n][k] 64x32", rng);
  check_cluster_parts<sm90::TmaWgmmaMainloop<Tile<64, Major::K>, Tile<32, Major::K>, 6>,
                      sm90::ClusterPartsScheduler<12>>("parts B[n][k] 64x32", rng);
  check_pairs<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<176, Major::K>, 4>,
              sm90::PairsScheduler<tc::kPairWideTiles, true>>("pairs units B[n][k] 128x176",
                                                              rng);
  check_stream_units<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<224, Major::K>, 4>,
                     sm90::PairsScheduler<tc::kPairWideTiles, true>>(
      "units pairs B[n][k] 128x224", rng);
  check_cluster_parts<
      sm90::TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<112, Major::K>, 8>,
      sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairOneRound>>>(
      "parts pairs B[n][k] 64x112", rng);
  check_pairs<sm90::TmaWgmmaMainloop<Tile<64, Major::K>, HalvesTile<96, Major::K>, 8>,
              sm90::ClusterPartsScheduler<12, sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>>(
      "parts pairs B[n][k] 64x96", rng);
  check_persistent<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 4>>(
      "persistent A[m][k] B[k][n] 128x128", rng);
  check_persistent<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::K>, 3>>(
      "persistent A[m][k] B[n][k] 128x128 3st", rng);
  check_persistent<sm90::TmaWgmmaMainloop<Tile<128, Major::MN, __nv_bfloat16>,
                                          Tile<128, Major::MN, __nv_bfloat16>, 4>>(
      "persistent bf16 A[k][m] B[k][n]", rng);
  check_split<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, Tile<128, Major::MN>, 3>, 4>(
      "split 4 128x128", rng);
  check_split<sm90::TmaWgmmaMainloop<Tile<128, Major::K>, HalvesTile<256, Major::K>, 4>, 3>(
      "split 3 128x256", rng);
  check_split<sm90::TmaWgmmaMainloop<Tile<64, Major::MN>, Tile<128, Major::K>, 4>, 64>(
      "split 64 A[k][m] 64x128", rng);
  check_prologues(rng);
  check_conversions(rng);
  check_graphs(rng);
  check_copying_producers(rng);
  check_sums(rng);
  check_batches(rng);
  check_tf32s(rng);
  std::printf("sm90_components_test: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
