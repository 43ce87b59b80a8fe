// GPU test of the mma.sync GEMM components (runtime_headers/tc/sm80/): the
// kernel they compose, at random shapes with partial tiles, odd K and K = 0,
// padded leading dimensions, operands at every alignment (each copy mode),
// k split over blocks (chosen, and forced by a count as a split_k clause
// gives it), for each operand layout and several tile shapes (two k steps a
// tile, two stages, one warp, four warps along n), fp16, bf16 and fp32 as
// tf32, with a bias + ReLU epilogue functor; a prologue on A or on B
// (an affine one, not 0 at 0, and a packed ReLU); and operands converted
// while copied (8-bit weights minus a zero point, 1 / (x + 2), a
// triangular mask of the loops' domain); sums of two and three products
// (each its own k, leading dimensions and alignment; k split so that a
// block starts inside a later product) and batches of GEMMs (entries at
// strides, a shared operand, a fragment prologue); groups of warps that
// share each tile's k steps (warp_split_k). The reference is a naive fp32
// kernel over the same inputs; the output's padding columns must stay
// untouched.
//
//   nvcc -std=c++17 -O3 -I runtime_headers -gencode arch=compute_80,code=sm_80 \
//     -gencode arch=compute_90a,code=sm_90a test/gpu/sm80_components_test.cu \
//     -o sm80_components_test
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "tc/sm80/gemm_kernel.cuh"
#include "tc/convert.cuh"

#include "bias_relu_epilogue.h"
#include "cuda_check.h"

namespace {

using tc::sm80::Major;


// Prologues as the generator defines them (tc/prologue.cuh). Not 0 at 0:
// the zero padding past K becomes 0.25, which the other operand's zeros
// must cancel. Exact on the test's quarters in fp16 and bf16.
struct HalfMinusQuarter {
  static constexpr bool kPacked = false;
  __device__ float operator()(float x) const { return 0.5f * x - 0.25f; }
};
struct Relu {
  static constexpr bool kPacked = true;
  __device__ float operator()(float x) const { return fmaxf(x, 0.0f); }
  template <typename T2>
  __device__ T2 operator()(T2 x) const {
    return __hmax2(x, tc::splat2<T2>(0.0f));
  }
};

// The operand's element after its prologue, rounded to its type as the
// fragments hold it.
template <class T, class P>
__device__ float operand(T x) {
  if constexpr (std::is_same<P, tc::NoPrologue>::value)
    return tc::to_float(x);
  else
    return tc::to_float(tc::from_float<T>(P{}(tc::to_float(x))));
}

// A value of the mma's type T as its fragments hold it: rounded to T, or
// for fp32 (tf32) as the fragment loader rounds it.
template <class T>
__device__ float as_mma(float v) {
  if constexpr (std::is_same<T, float>::value)
    return __uint_as_float(tc::to_tf32(__float_as_uint(v)));
  else
    return tc::to_float(tc::from_float<T>(v));
}

// Element (outer, q) of an operand as the mma sees it (outer: A's m or
// B's n; q: k), read from its tile's Arguments: a plain tile's element
// after its fragment prologue P, a converted tile's through its functor.
template <class Tile, class P>
struct RefOperand {
  typename Tile::Arguments args;
  __device__ float operator()(long long outer, long long q) const {
    using T = typename Tile::Element;
    const auto x = args.base[Tile::kKContiguous ? outer * args.ld + q : q * args.ld + outer];
    if constexpr (!Tile::kConverts) {
      return operand<T, P>(x);
    } else if constexpr (Tile::kMasked) {
      return as_mma<T>(args.convert(tc::to_float(x), outer, q));
    } else {
      return as_mma<T>(args.convert(tc::to_float(x), outer));
    }
  }
};

// ref[i][j] = max(sum_k a(i, k) b(k, j) + bias[j], 0).
template <class RefA, class RefB>
__global__ void reference(long long m, long long n, long long k, RefA a, RefB b,
                          const float *bias, float *ref) {
  const long long i = blockIdx.y, j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= m || j >= n)
    return;
  float s = 0.0f;
  for (long long q = 0; q < k; ++q)
    s += a(i, q) * b(j, q);
  ref[i * n + j] = fmaxf(s + bias[j], 0.0f);
}

// Device memory a check allocates for its operands' functors.
std::vector<void *> functor_memory;

// Converters (tc::sm80::ConvertedOperandTile's functors), each with
// make(outer extent, rng). Exact in fp16 and bf16 on the test's values but
// for Reciprocal, whose rounding the reference repeats.
//   ZeroPoint   8-bit weights minus a zero point per row (A) or column (B)
//   Reciprocal  1 / (x + 2): not 0 at 0 (padding must stay exact zeros)
//   Lower       a mask of the loops' domain: elements with k <= outer only
struct ZeroPoint {
  const float *zero;
  __device__ float operator()(float x, long long outer) const { return x - zero[outer]; }
  static ZeroPoint make(long long outer, std::mt19937 &rng) {
    std::uniform_int_distribution<int> z(-3, 3);
    std::vector<float> h(outer);
    for (auto &x : h)
      x = static_cast<float>(z(rng));
    float *d;
    CHECK_CUDA(cudaMalloc(&d, outer * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d, h.data(), outer * sizeof(float), cudaMemcpyHostToDevice));
    functor_memory.push_back(d);
    return ZeroPoint{d};
  }
};
struct Reciprocal {
  __device__ float operator()(float x, long long) const { return 1.0f / (x + 2.0f); }
  static Reciprocal make(long long, std::mt19937 &) { return {}; }
};
struct Lower {
  static constexpr bool kMasked = true;
  __device__ bool needs(long long outer, long long k) const { return k <= outer; }
  __device__ float operator()(float x, long long outer, long long k) const {
    return needs(outer, k) ? x : 0.0f;
  }
  static Lower make(long long, std::mt19937 &) { return {}; }
};

template <class Tile>
typename Tile::Arguments arguments(const typename Tile::Source *base, long long ld,
                                   long long outer, std::mt19937 &rng) {
  if constexpr (Tile::kConverts)
    return {base, ld, Tile::Conversion::make(outer, rng)};
  else
    return {base, ld};
}

// The test's stored values: quarters in [-1, 1] for floating-point
// operands, small integers for 8-bit ones.
template <class Src>
Src stored_value(int q) {
  if constexpr (std::is_same<Src, int8_t>::value || std::is_same<Src, signed char>::value)
    return static_cast<Src>(2 * q);
  else if constexpr (std::is_same<Src, uint8_t>::value)
    return static_cast<Src>(q + 4);
  else
    return tc::from_float<Src>(0.25f * q);
}

int failures = 0, checks = 0;

template <class Mainloop>
void check(const char *name, long long m, long long n, long long k, long long pad, int offset,
           int parts, std::mt19937 &rng) {
  using SA = typename Mainloop::A::Source;
  using SB = typename Mainloop::B::Source;
  constexpr bool kAK = Mainloop::A::kKContiguous, kBK = Mainloop::B::kKContiguous;
  // A: m x k (K-major: rows of k), B: k x n (K-major: rows of k per column).
  const long long lda = (kAK ? k : m) + pad, ldb = (kBK ? k : n) + pad, ldy = n + 3;
  const long long a_elems = (kAK ? m : k) * lda + offset + 8, b_elems = (kBK ? n : k) * ldb + offset + 8;
  std::uniform_int_distribution<int> q(-4, 4);
  std::vector<SA> ha(a_elems);
  std::vector<SB> hb(b_elems);
  for (auto &x : ha)
    x = stored_value<SA>(q(rng));
  for (auto &x : hb)
    x = stored_value<SB>(q(rng));
  std::vector<float> hbias(n);
  for (auto &x : hbias)
    x = 0.5f * q(rng);
  SA *a;
  SB *b;
  float *bias, *y, *ref;
  CHECK_CUDA(cudaMalloc(&a, a_elems * sizeof(SA)));
  CHECK_CUDA(cudaMalloc(&b, b_elems * sizeof(SB)));
  CHECK_CUDA(cudaMalloc(&bias, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&y, m * ldy * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&ref, m * n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(a, ha.data(), a_elems * sizeof(SA), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(b, hb.data(), b_elems * sizeof(SB), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(bias, hbias.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(y, 0xff, m * ldy * sizeof(float)));  // NaN padding
  const auto args_a = arguments<typename Mainloop::A>(a + offset, lda, m, rng);
  const auto args_b = arguments<typename Mainloop::B>(b + offset, ldb, n, rng);
  reference<<<dim3((n + 127) / 128, m), 128>>>(
      m, n, k, RefOperand<typename Mainloop::A, typename Mainloop::PrologueA>{args_a},
      RefOperand<typename Mainloop::B, typename Mainloop::PrologueB>{args_b}, bias, ref);
  const tc::Status s = tc::sm80::launch_gemm<Mainloop>({m, n, k}, args_a, args_b,
                                                       BiasRelu{y, bias, ldy}, 0, parts);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> hy(m * ldy), hr(m * n);
  CHECK_CUDA(cudaMemcpy(hy.data(), y, hy.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hr.data(), ref, hr.size() * sizeof(float), cudaMemcpyDeviceToHost));
  long long bad = 0, padding = 0;
  for (long long i = 0; i < m; ++i) {
    for (long long j = 0; j < n; ++j) {
      const float got = hy[i * ldy + j], want = hr[i * n + j];
      if (!(std::fabs(got - want) <= 1e-3f * (1.0f + std::fabs(want))))
        ++bad;
    }
    for (long long j = n; j < ldy; ++j)
      padding += !std::isnan(hy[i * ldy + j]);
  }
  ++checks;
  if (s != tc::Status::Success || bad || padding) {
    ++failures;
    std::printf("FAIL %s m=%lld n=%lld k=%lld pad=%lld offset=%d parts=%d: status %d, %lld wrong, "
                "%lld padding written\n",
                name, m, n, k, pad, offset, parts, static_cast<int>(s), bad, padding);
  }
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  CHECK_CUDA(cudaFree(bias));
  CHECK_CUDA(cudaFree(y));
  CHECK_CUDA(cudaFree(ref));
  for (void *p : functor_memory)
    CHECK_CUDA(cudaFree(p));
  functor_memory.clear();
}

// Random shapes for one mainloop: partial tiles, odd K, K = 0, each copy
// mode (aligned; ld not a multiple of 8; a base off 16 bytes), forced parts.
template <class Mainloop>
void shapes(const char *name, std::mt19937 &rng) {
  constexpr int kBM = Mainloop::kBM, kBN = Mainloop::kBN;
  std::uniform_int_distribution<int> tiles(1, 3), part(0, kBM - 1), kd(1, 700);
  for (int c = 0; c < 8; ++c) {
    const long long m = tiles(rng) * kBM - (c % 2 ? part(rng) : 0);
    const long long n = tiles(rng) * kBN - (c % 3 ? part(rng) % kBN : 0);
    const long long k = c == 7 ? 0 : (c % 2 ? kd(rng) : 64 * (1 + c));
    const long long pad = c % 4 == 1 ? 3 : (c % 4 == 2 ? 8 : 0);
    const int offset = c % 4 == 3 ? 3 : 0;
    check<Mainloop>(name, m, n, k, pad, offset, 0, rng);
  }
  // Long reductions on few tiles: k split over blocks, chosen and forced.
  check<Mainloop>(name, kBM, kBN, 4096 + 40, 0, 0, 0, rng);
  check<Mainloop>(name, kBM - 5, 2 * kBN - 7, 3001, 0, 0, 3, rng);
  check<Mainloop>(name, 17, 9, 1000, 1, 0, 7, rng);
  check<Mainloop>(name, 33, 40, 64, 0, 0, 5, rng);  // more parts than k tiles
  check<Mainloop>(name, kBM + 3, kBN - 1, 777, 3, 3, 4, rng);  // element-wise copies, in parts
}

// A set's label of one main loop: "what type A K B MN".
template <Major kA, Major kB>
struct Label {
  const char *type;
  char name[160];
  const char *operator()(const char *what) {
    std::snprintf(name, sizeof name, "%s %s A %s B %s", what, type, kA == Major::K ? "K" : "MN",
                  kB == Major::K ? "K" : "MN");
    return name;
  }
};

template <class T, Major kA, Major kB>
void layouts(const char *type, std::mt19937 &rng) {
  using tc::sm80::CpAsyncMmaMainloop;
  using tc::sm80::OperandTile;
  Label<kA, kB> label{type};
  shapes<CpAsyncMmaMainloop<OperandTile<T, 128, kA>, OperandTile<T, 128, kB>, 64, 3, 2, 2>>(
      label("128x128x64/3 2x2"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<T, 64, kA>, OperandTile<T, 64, kB>, 32, 2, 2, 2>>(
      label("64x64x32/2 2x2"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<T, 32, kA>, OperandTile<T, 64, kB>, 64, 3, 1, 2>>(
      label("32x64x64/3 1x2"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<T, 64, kA>, OperandTile<T, 64, kB>, 32, 4, 1, 1>>(
      label("64x64x32/4 1x1"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<T, 128, kA>, OperandTile<T, 256, kB>, 32, 3, 2, 4>>(
      label("128x256x32/3 2x4"), rng);
  // One k step a tile (one share of copies, committed before the wait),
  // and a deep pipeline.
  shapes<CpAsyncMmaMainloop<OperandTile<T, 16, kA>, OperandTile<T, 16, kB>, 16, 2, 1, 1>>(
      label("16x16x16/2 1x1"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<T, 64, kA>, OperandTile<T, 64, kB>, 32, 6, 2, 2>>(
      label("64x64x32/6 2x2"), rng);
}

// A prologue on one operand, applied to its fragments: single-buffered,
// with one warp and with eight.
template <class T, Major kA, Major kB>
void prologues(const char *type, std::mt19937 &rng) {
  using tc::NoPrologue;
  using tc::sm80::CpAsyncMmaMainloop;
  using tc::sm80::OperandTile;
  using A128 = OperandTile<T, 128, kA>;
  using B128 = OperandTile<T, 128, kB>;
  Label<kA, kB> label{type};
  shapes<CpAsyncMmaMainloop<A128, B128, 64, 3, 2, 2, HalfMinusQuarter>>(
      label("128x128x64/3 2x2 prologue A (x/2 - 1/4)"), rng);
  shapes<CpAsyncMmaMainloop<A128, B128, 64, 3, 2, 2, NoPrologue, HalfMinusQuarter>>(
      label("128x128x64/3 2x2 prologue B (x/2 - 1/4)"), rng);
  shapes<CpAsyncMmaMainloop<A128, OperandTile<T, 256, kB>, 32, 3, 2, 4, Relu>>(
      label("128x256x32/3 2x4 prologue A (ReLU, packed)"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<T, 16, kA>, OperandTile<T, 16, kB>, 16, 2, 1, 1,
                            NoPrologue, Relu>>(label("16x16x16/2 1x1 prologue B (ReLU)"), rng);
}

// An operand converted while it is copied (ConvertedOperandTile): 8-bit
// weights with a zero point, a prologue not 0 at 0
// (padding must be exact zeros), a mask of the loops' domain; the other
// operand as stored.
template <class T, Major kA, Major kB>
void converted(const char *type, std::mt19937 &rng) {
  using tc::sm80::ConvertedOperandTile;
  using tc::sm80::CpAsyncMmaMainloop;
  using tc::sm80::OperandTile;
  Label<kA, kB> label{type};
  shapes<CpAsyncMmaMainloop<OperandTile<T, 128, kA>,
                            ConvertedOperandTile<int8_t, T, 128, kB, ZeroPoint>, 64, 3, 2, 2>>(
      label("128x128x64/3 2x2 B int8 - zero[n]"), rng);
  shapes<CpAsyncMmaMainloop<ConvertedOperandTile<uint8_t, T, 64, kA, ZeroPoint>,
                            OperandTile<T, 64, kB>, 32, 2, 2, 2>>(
      label("64x64x32/2 2x2 A uint8 - zero[m]"), rng);
  shapes<CpAsyncMmaMainloop<ConvertedOperandTile<T, T, 128, kA, Reciprocal>,
                            OperandTile<T, 256, kB>, 32, 3, 2, 4>>(
      label("128x256x32/3 2x4 A 1/(x+2)"), rng);
  shapes<CpAsyncMmaMainloop<ConvertedOperandTile<T, T, 32, kA, Lower>, OperandTile<T, 64, kB>, 64,
                            3, 1, 2>>(label("32x64x64/3 1x2 A masked k <= m"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<T, 16, kA>, ConvertedOperandTile<T, T, 16, kB, Lower>, 16,
                            2, 1, 1>>(label("16x16x16/2 1x1 B masked k <= n"), rng);
}

// Groups of warps over k (a warp_split_k clause): group z takes its share
// of each tile's k steps; the sums meet in shared memory.
template <class T, Major kA, Major kB>
void warp_groups(const char *type, std::mt19937 &rng) {
  using tc::NoPrologue;
  using tc::sm80::CpAsyncMmaMainloop;
  using tc::sm80::OperandTile;
  Label<kA, kB> label{type};
  shapes<CpAsyncMmaMainloop<OperandTile<T, 128, kA>, OperandTile<T, 128, kB>, 64, 3, 2, 2,
                            NoPrologue, NoPrologue, 2>>(label("128x128x64/3 2x2 k/2"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<T, 64, kA>, OperandTile<T, 64, kB>, 64, 3, 2, 2,
                            NoPrologue, NoPrologue, 4>>(label("64x64x64/3 2x2 k/4"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<T, 64, kA>, OperandTile<T, 64, kB>, 32, 2, 2, 2,
                            NoPrologue, NoPrologue, 2>>(label("64x64x32/2 2x2 k/2"), rng);
  if constexpr (!std::is_same<T, float>::value)
    shapes<CpAsyncMmaMainloop<OperandTile<T, 64, kA>, OperandTile<T, 128, kB>, 64, 3, 1, 2,
                              HalfMinusQuarter, NoPrologue, 2>>(
        label("64x128x64/3 1x2 k/2 prologue A (x/2 - 1/4)"), rng);
}

// ---- sums of products and batches (tc::sm80::Product) ----

// The batch's epilogue functor (tc/batch_entry.cuh): entry z's output at
// y + z * batch_y, as BiasRelu.
struct BatchBiasRelu {
  BiasRelu f;
  long long batch_y;
  __device__ void operator()(long long z, long long i, long long j, float acc) const {
    BiasRelu{f.y + z * batch_y, f.bias, f.ldy}(i, j, acc);
  }
  __device__ void row(long long z, long long i, long long j0, const float (&acc)[8]) const {
    BiasRelu{f.y + z * batch_y, f.bias, f.ldy}.row(i, j0, acc);
  }
};

// ref[z][i][j] = max(sum_p sum_k a_p(i, k) b_p(k, j) + bias[j], 0) for
// entry z = blockIdx.z.
template <class Mainloop, int kCount>
__global__ void reference_products(long long m, long long n,
                                   const tc::sm80::Products<Mainloop, kCount> products,
                                   const float *bias, float *ref) {
  const long long z = blockIdx.z, i = blockIdx.y,
                  j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= m || j >= n)
    return;
  float s = 0.0f;
  for (int p = 0; p < kCount; ++p) {
    auto a = products.product[p].a;
    auto b = products.product[p].b;
    a.base += z * products.product[p].batch_a;
    b.base += z * products.product[p].batch_b;
    const RefOperand<typename Mainloop::A, typename Mainloop::PrologueA> ra{a};
    const RefOperand<typename Mainloop::B, typename Mainloop::PrologueB> rb{b};
    for (long long q = 0; q < products.product[p].k; ++q)
      s += ra(i, q) * rb(j, q);
  }
  ref[(z * m + i) * n + j] = fmaxf(s + bias[j], 0.0f);
}

// One product's operands: its k, its pads of the leading dimensions, its
// offset from an aligned base (elements), whether every batch entry shares
// its B.
struct ProductShape {
  long long k, pad;
  int offset;
  bool shared_b;
};

// The sum of kCount products (batches == 0: launch_gemm; else
// launch_batched_gemm over `batches` entries).
template <class Mainloop, int kCount>
void check_products(const char *name, long long batches, long long m, long long n,
                    const ProductShape (&shapes)[kCount], int parts, std::mt19937 &rng) {
  using T = typename Mainloop::Element;
  constexpr bool kAK = Mainloop::A::kKContiguous, kBK = Mainloop::B::kKContiguous;
  const long long entries = batches > 0 ? batches : 1, ldy = n + 3;
  std::uniform_int_distribution<int> q(-4, 4);
  std::vector<void *> memory;
  tc::sm80::Products<Mainloop, kCount> products;
  typename Mainloop::Product list[kCount];
  for (int p = 0; p < kCount; ++p) {
    const ProductShape &sh = shapes[p];
    const long long k = sh.k > 0 ? sh.k : 0;
    const long long lda = (kAK ? k : m) + sh.pad, ldb = (kBK ? k : n) + sh.pad;
    // (An entry's elements, and its stride: odd where the matrix is.)
    const long long a_entry = (kAK ? m : k) * lda + sh.pad,
                    b_entry = (kBK ? n : k) * ldb + sh.pad;
    const long long b_entries = sh.shared_b ? 1 : entries;
    const long long a_elems = entries * a_entry + sh.offset + 8,
                    b_elems = b_entries * b_entry + sh.offset + 8;
    std::vector<T> ha(a_elems), hb(b_elems);
    for (auto &x : ha)
      x = stored_value<T>(q(rng));
    for (auto &x : hb)
      x = stored_value<T>(q(rng));
    T *a, *b;
    CHECK_CUDA(cudaMalloc(&a, a_elems * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&b, b_elems * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(a, ha.data(), a_elems * sizeof(T), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b, hb.data(), b_elems * sizeof(T), cudaMemcpyHostToDevice));
    memory.push_back(a);
    memory.push_back(b);
    list[p] = {{a + sh.offset, lda}, {b + sh.offset, ldb}, sh.k, a_entry,
               sh.shared_b ? 0 : b_entry};
    products.product[p] = list[p];
  }
  std::vector<float> hbias(n);
  for (auto &x : hbias)
    x = 0.5f * q(rng);
  float *bias, *y, *ref;
  CHECK_CUDA(cudaMalloc(&bias, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&y, entries * m * ldy * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&ref, entries * m * n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(bias, hbias.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(y, 0xff, entries * m * ldy * sizeof(float)));  // NaN padding
  reference_products<<<dim3((n + 127) / 128, m, entries), 128>>>(m, n, products, bias, ref);
  const BiasRelu f{y, bias, ldy};
  const tc::Status s =
      batches > 0 ? tc::sm80::launch_batched_gemm<Mainloop>(batches, m, n, list,
                                                            BatchBiasRelu{f, m * ldy}, 0, parts)
                  : tc::sm80::launch_gemm<Mainloop>(m, n, list, f, 0, parts);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> hy(entries * m * ldy), hr(entries * m * n);
  CHECK_CUDA(cudaMemcpy(hy.data(), y, hy.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hr.data(), ref, hr.size() * sizeof(float), cudaMemcpyDeviceToHost));
  long long bad = 0, padding = 0;
  for (long long z = 0; z < entries; ++z)
    for (long long i = 0; i < m; ++i) {
      for (long long j = 0; j < n; ++j) {
        const float got = hy[(z * m + i) * ldy + j], want = hr[(z * m + i) * n + j];
        if (!(std::fabs(got - want) <= 1e-3f * (1.0f + std::fabs(want))))
          ++bad;
      }
      for (long long j = n; j < ldy; ++j)
        padding += !std::isnan(hy[(z * m + i) * ldy + j]);
    }
  ++checks;
  if (s != tc::Status::Success || bad || padding) {
    ++failures;
    std::printf("FAIL %s batches=%lld m=%lld n=%lld k0=%lld parts=%d: status %d, %lld wrong, "
                "%lld padding written\n",
                name, batches, m, n, shapes[0].k, parts, static_cast<int>(s), bad, padding);
  }
  for (void *p : memory)
    CHECK_CUDA(cudaFree(p));
  CHECK_CUDA(cudaFree(bias));
  CHECK_CUDA(cudaFree(y));
  CHECK_CUDA(cudaFree(ref));
}

// Sums and batches at random shapes: partial tiles, products of k = 0,
// odd k and k under one tile, one product unaligned (all copy element-wise
// then), parts forced so that blocks begin inside product 1 or 2.
template <class Mainloop>
void sums_and_batches(const char *name, std::mt19937 &rng) {
  constexpr int kBM = Mainloop::kBM, kBN = Mainloop::kBN, kBK = Mainloop::kBK;
  std::uniform_int_distribution<int> tiles(1, 3), part(0, kBM - 1), kd(1, 400);
  char label[160];
  for (int c = 0; c < 6; ++c) {
    const long long m = tiles(rng) * kBM - (c % 2 ? part(rng) : 0);
    const long long n = tiles(rng) * kBN - (c % 3 ? part(rng) % kBN : 0);
    const long long k0 = c == 5 ? 0 : (c % 2 ? kd(rng) : 2 * kBK);
    const long long k1 = c % 3 == 2 ? kBK / 2 + 1 : kd(rng);
    const int parts = c < 2 ? 0 : c;  // (forced: blocks begin inside later products)
    const int offset = c == 3 ? 3 : 0;  // product 1 unaligned
    std::snprintf(label, sizeof label, "%s sum of 2", name);
    check_products<Mainloop, 2>(label, 0, m, n,
                                {{k0, c % 2 ? 3 : 0, 0, false}, {k1, 8, offset, false}}, parts,
                                rng);
    std::snprintf(label, sizeof label, "%s sum of 3", name);
    check_products<Mainloop, 3>(
        label, 0, m, n,
        {{k1, 0, 0, false}, {c == 4 ? 0 : kd(rng), 0, 0, false}, {k0 + 5, 1, offset, false}},
        parts, rng);
    std::snprintf(label, sizeof label, "%s batch", name);
    check_products<Mainloop, 1>(label, 1 + c, m, n, {{k1, c % 2 ? 0 : 5, offset, c == 2}},
                                c % 3 ? 0 : 3, rng);
    std::snprintf(label, sizeof label, "%s batch of sums of 2", name);
    check_products<Mainloop, 2>(label, 3, m, n,
                                {{k0, 0, 0, true}, {k1, c % 2 ? 1 : 0, offset, false}}, parts,
                                rng);
  }
}

template <class T, Major kA, Major kB>
void products(const char *type, std::mt19937 &rng) {
  using tc::sm80::CpAsyncMmaMainloop;
  using tc::sm80::OperandTile;
  Label<kA, kB> label{type};
  sums_and_batches<CpAsyncMmaMainloop<OperandTile<T, 128, kA>, OperandTile<T, 128, kB>, 64, 3, 2, 2>>(
      label("128x128x64/3 2x2"), rng);
  sums_and_batches<CpAsyncMmaMainloop<OperandTile<T, 64, kA>, OperandTile<T, 64, kB>, 32, 4, 1, 1>>(
      label("64x64x32/4 1x1"), rng);
  if constexpr (!std::is_same<T, float>::value)  // (tf32 fragments take no prologue)
    sums_and_batches<CpAsyncMmaMainloop<OperandTile<T, 32, kA>, OperandTile<T, 64, kB>, 64, 3, 1,
                                        2, HalfMinusQuarter>>(label("32x64x64/3 1x2 prologue A"),
                                                              rng);
}

// fp32 operands as tf32 (m16n8k8): the test's quarters are exact in tf32,
// so the reference is the fp32 one.
template <Major kA, Major kB>
void layouts_tf32(std::mt19937 &rng) {
  using tc::sm80::CpAsyncMmaMainloop;
  using tc::sm80::OperandTile;
  char name[128];
  auto label = [&](const char *tiles) {
    std::snprintf(name, sizeof name, "%s tf32 A %s B %s", tiles, kA == Major::K ? "K" : "MN",
                  kB == Major::K ? "K" : "MN");
    return name;
  };
  shapes<CpAsyncMmaMainloop<OperandTile<float, 128, kA>, OperandTile<float, 128, kB>, 32, 3, 2, 4>>(
      label("128x128x32/3 2x4"), rng);
  shapes<CpAsyncMmaMainloop<OperandTile<float, 64, kA>, OperandTile<float, 64, kB>, 16, 2, 2, 2>>(
      label("64x64x16/2 2x2"), rng);
  using tc::sm80::ConvertedOperandTile;
  shapes<CpAsyncMmaMainloop<ConvertedOperandTile<float, float, 128, kA, Reciprocal>,
                            OperandTile<float, 128, kB>, 32, 3, 2, 4>>(
      label("128x128x32/3 2x4 A 1/(x+2)"), rng);
}

}  // namespace

// -DTC_SM80_TEST_PRODUCTS_AND_GROUPS: only the sums, batches and groups
// of warps (a build of a fraction of the time, for a short device slot).
int main() {
  std::mt19937 rng(80);
#ifndef TC_SM80_TEST_PRODUCTS_AND_GROUPS
  layouts<__half, Major::K, Major::K>("f16", rng);
  layouts<__half, Major::K, Major::MN>("f16", rng);
  layouts<__half, Major::MN, Major::K>("f16", rng);
  layouts<__half, Major::MN, Major::MN>("f16", rng);
  layouts<__nv_bfloat16, Major::K, Major::MN>("bf16", rng);
  layouts<__nv_bfloat16, Major::MN, Major::K>("bf16", rng);
  prologues<__half, Major::K, Major::MN>("f16", rng);
  prologues<__half, Major::MN, Major::K>("f16", rng);
  prologues<__nv_bfloat16, Major::K, Major::K>("bf16", rng);
  prologues<__nv_bfloat16, Major::MN, Major::MN>("bf16", rng);
  converted<__half, Major::K, Major::K>("f16", rng);
  converted<__half, Major::MN, Major::MN>("f16", rng);
  converted<__nv_bfloat16, Major::K, Major::MN>("bf16", rng);
  converted<__nv_bfloat16, Major::MN, Major::K>("bf16", rng);
  layouts_tf32<Major::K, Major::K>(rng);
  layouts_tf32<Major::K, Major::MN>(rng);
  layouts_tf32<Major::MN, Major::K>(rng);
  layouts_tf32<Major::MN, Major::MN>(rng);
#endif
  warp_groups<__half, Major::K, Major::MN>("f16", rng);
  warp_groups<__nv_bfloat16, Major::MN, Major::K>("bf16", rng);
  warp_groups<float, Major::K, Major::K>("tf32", rng);
  products<__half, Major::K, Major::K>("f16", rng);
  products<__half, Major::K, Major::MN>("f16", rng);
  products<__nv_bfloat16, Major::MN, Major::K>("bf16", rng);
  products<float, Major::MN, Major::MN>("tf32", rng);
  std::printf("sm80_components_test: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
