// GPU test of the sm_90 components for a raw 8-bit weight
// (tc/sm90/raw_operand_tile.cuh, RawRegisterA in tc/sm90/roles.cuh,
// TransposedOutput in tc/sm90/epilogue.cuh): Y = X f(W)^T, X fp16 or bf16
// M x K, W int8 or uint8 N x K with a functor per row of W, computed as the
// transposed product Y^T = f(W) X^T, W wgmma's A converted into register
// fragments. At random shapes with partial tiles in both directions, odd
// and short K (W's pitch then unaligned: the copying producer), padded
// leading dimensions, each scheduler, each way of converting offset rows
// (integer, fractional and inexact offsets: tc::OffsetPairs) and a general
// row functor. The reference multiplies the same converted values (each
// rounded to the fragments' type) in a naive kernel; the padding columns
// of Y must stay untouched.
//
//   nvcc -std=c++17 -O3 -I runtime_headers -gencode arch=compute_90a,code=sm_90a \
//     test/gpu/sm90_raw_weights_test.cu -lcuda -o sm90_raw_weights_test
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "tc/sm90/gemm_kernel.cuh"

#include "cuda_check.h"

namespace {

namespace sm90 = tc::sm90;
using sm90::Major;
using tc::from_float;
using tc::to_float;

// W's rows minus a zero point each (tc::OffsetRow): integer, quarter or
// arbitrary offsets, as the test fills `zero`.
struct MinusZero {
  float zero;
  __device__ float operator()(float x) const { return x - zero; }
};
template <class Src>
struct ZeroPointRows {
  const float *zero;
  __device__ tc::OffsetRow<MinusZero> row(long long r, bool inside) const {
    const float z = inside ? zero[r] : 0.0f;
    return tc::offset_row<Src>(MinusZero{z}, z);
  }
  // The value the fragments hold: x - z rounded to fp16.
  __device__ float value(float x, long long r) const { return __half2float(__float2half(x - zero[r])); }
};

// A general row functor: (x - zero) * scale, scale a power of two.
struct Scaled {
  float zero, scale;
  __device__ float operator()(float x) const { return (x - zero) * scale; }
};
template <class Dst>
struct ScaledRows {
  const float *zero, *scale;
  __device__ Scaled row(long long r, bool inside) const {
    return inside ? Scaled{zero[r], scale[r]} : Scaled{0.0f, 0.0f};
  }
  __device__ float value(float x, long long r) const {
    return to_float(from_float<Dst>((x - zero[r]) * scale[r]));
  }
};

template <class T, class Src, class Convert>
__global__ void reference(long long m, long long n, long long k, const T *x, long long ldx,
                          const Src *w, long long ldw, Convert convert, float *ref) {
  const long long i = blockIdx.y * 16 + threadIdx.y, j = blockIdx.x * 16 + threadIdx.x;
  if (i >= m || j >= n)
    return;
  float sum = 0.0f;
  for (long long p = 0; p < k; ++p)
    sum += to_float(x[i * ldx + p]) * convert.value(static_cast<float>(w[j * ldw + p]), j);
  ref[i * n + j] = sum;
}

int failures = 0, checks = 0;

// Y (M x N, pitch N + pad) = X f(W)^T through Mainloop and Scheduler; the
// zero points `zeros` (0: integers, 1: quarters, 2: arbitrary), for a
// general functor the scales too. `producer`: kCopies tests the copying
// producer where TMA could map.
template <class Mainloop, class Scheduler>
void check(const char *name, long long m, long long n, long long k, int pad, int zeros,
           std::mt19937 &rng, sm90::Producer producer = sm90::Producer::kTma) {
  using T = typename Mainloop::Element;
  using Src = typename Mainloop::AElement;
  using Convert = std::remove_cv_t<
      std::remove_reference_t<decltype(std::declval<typename Mainloop::Conversions>().a)>>;
  constexpr bool kScaled = std::is_same_v<Convert, ScaledRows<T>>;
  const long long ldx = k + pad, ldw = k + pad, ldy = n + pad;
  std::uniform_int_distribution<int> quarter(-4, 4), byte(std::is_signed_v<Src> ? -128 : 0,
                                                        std::is_signed_v<Src> ? 127 : 255);
  std::uniform_int_distribution<int> offset(-8, 8), power(-2, 1);
  std::uniform_real_distribution<float> real(-8.0f, 8.0f);
  std::vector<T> hx(m * ldx);
  std::vector<Src> hw(n * ldw);
  std::vector<float> hzero(n), hscale(n);
  for (auto &v : hx) v = from_float<T>(quarter(rng) * 0.25f);
  for (auto &v : hw) v = static_cast<Src>(byte(rng));
  for (auto &v : hzero)
    v = zeros == 0 ? offset(rng) : zeros == 1 ? offset(rng) * 0.25f : real(rng);
  for (auto &v : hscale) v = std::ldexp(1.0f, power(rng));
  T *x;
  Src *w;
  float *zero, *scale, *y, *ref;
  CHECK_CUDA(cudaMalloc(&x, m * ldx * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&w, n * ldw));
  CHECK_CUDA(cudaMalloc(&zero, n * 4));
  CHECK_CUDA(cudaMalloc(&scale, n * 4));
  CHECK_CUDA(cudaMalloc(&y, m * ldy * 4));
  CHECK_CUDA(cudaMalloc(&ref, m * n * 4));
  CHECK_CUDA(cudaMemcpy(x, hx.data(), m * ldx * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(w, hw.data(), n * ldw, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(zero, hzero.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(scale, hscale.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(y, 0xff, m * ldy * 4));  // NaN: an unwritten element shows
  Convert convert;
  if constexpr (kScaled)
    convert = Convert{zero, scale};
  else
    convert = Convert{zero};
  reference<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(m, n, k, x, ldx, w, ldw,
                                                                  convert, ref);
  CHECK_CUDA(cudaDeviceSynchronize());
  // The kernel's product is Y^T: its A is W (n rows), its B is X (m rows).
  const bool ran = sm90::launch_gemm<Mainloop, Scheduler>(
      sm90::GemmShape{n, m, k}, w, ldw, x, ldx,
      sm90::TransposedOutput<sm90::StoreEpilogue<float>>{{y, ldy}}, 0, producer,
      {convert, {}});
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> hy(m * ldy), href(m * n);
  CHECK_CUDA(cudaMemcpy(hy.data(), y, m * ldy * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(href.data(), ref, m * n * 4, cudaMemcpyDeviceToHost));
  long long bad = 0;
  double worst = 0;
  for (long long i = 0; i < m && ran; ++i)
    for (long long j = 0; j < ldy; ++j) {
      if (j >= n) {  // padding: cudaMemset's bytes
        uint32_t bits;
        std::memcpy(&bits, &hy[i * ldy + j], 4);
        bad += bits != 0xffffffffu;
        continue;
      }
      // Exact values sum exactly but for arbitrary offsets (fp16 values
      // of every size), whose sums round in fp32 in another order.
      const double want = href[i * n + j], got = hy[i * ldy + j];
      const double err = std::fabs(got - want);
      const double allowed = zeros == 2 ? 1e-5 * (std::fabs(want) + 256.0 * k) : 0.0;
      worst = std::fmax(worst, err);
      bad += !(err <= allowed);
    }
  ++checks;
  // TMA maps W in place only at a 16-byte pitch; elsewhere only kernels
  // whose producer warp copies launch.
  const bool maps = producer == sm90::Producer::kTma && ldw % 16 == 0 && k > 0;
  const bool ok = ran == (maps || sm90::kCopiesUnmapped<Mainloop, Scheduler>) && bad == 0;
  failures += !ok;
  std::printf("%-4s %-34s M=%-5lld N=%-5lld K=%-5lld pad=%d zeros=%d%s %s", ok ? "PASS" : "FAIL",
              name, m, n, k, pad, zeros, producer == sm90::Producer::kCopies ? " copies" : "",
              ran ? "" : "(not launched) ");
  if (bad)
    std::printf("%lld wrong, worst %.3g", bad, worst);
  std::printf("\n");
  for (void *p : {(void *)x, (void *)w, (void *)zero, (void *)scale, (void *)y, (void *)ref})
    cudaFree(p);
}

// Whole and partial tiles both ways, K of one tile, odd (W's pitch not
// 16-byte aligned: copied by the producer warp), short and long (split
// tiles), each kind of zero point.
template <class Mainloop, class Scheduler>
void check_shapes(const char *name, std::mt19937 &rng) {
  std::uniform_int_distribution<int> ragged(1, 700), deep(65, 3000);
  check<Mainloop, Scheduler>(name, 256, 256, 64, 0, 0, rng);
  check<Mainloop, Scheduler>(name, 200, 300, 1000, 0, 1, rng);
  check<Mainloop, Scheduler>(name, 17, 129, 37, 3, 0, rng);
  check<Mainloop, Scheduler>(name, 1, 1, 1, 0, 1, rng);
  check<Mainloop, Scheduler>(name, ragged(rng), ragged(rng), deep(rng), 16, 2, rng);
  check<Mainloop, Scheduler>(name, 96, 2048, 4096, 0, 0, rng);
  check<Mainloop, Scheduler>(name, ragged(rng), ragged(rng), 64 * 3 + 16, 0, 1, rng,
                                   sm90::Producer::kCopies);
}

template <int kRows, class T = __half>
using XTile = sm90::OperandTile<T, kRows, Major::K>;
template <class Src, int kRows>
using WTile = sm90::RawOperandTile<Src, kRows>;
using Zeros = sm90::RawRegisterA<ZeroPointRows<int8_t>>;
using UZeros = sm90::RawRegisterA<ZeroPointRows<uint8_t>>;

}  // namespace

int main() {
  std::mt19937 rng(4321);
  // 128 rows of W by 128 of X (the default transposed tile), each
  // scheduler but the persistent one (whose 544 threads leave a consumer 96
  // registers: it spills).
  using Square = sm90::TmaWgmmaMainloop<WTile<int8_t, 128>, XTile<128>, 4, Zeros>;
  check_shapes<Square, sm90::TilesScheduler>("int8 128x128", rng);
  check_shapes<Square, sm90::SplitScheduler<4>>("int8 128x128 split 4", rng);
  check_shapes<Square, sm90::StreamUnitsScheduler>("int8 128x128 units", rng);
  check_shapes<Square, sm90::ClusterPartsScheduler<10>>("int8 128x128 parts",
                                                                       rng);
  // uint8; X tiles of 112 and 64 rows (short tiles); 192 x 192 (three
  // consumer warpgroups); 128 x 256 beside a producer warpgroup.
  check_shapes<sm90::TmaWgmmaMainloop<WTile<uint8_t, 128>, XTile<112>, 4, UZeros>,
               sm90::TilesScheduler>("uint8 128x112", rng);
  check_shapes<sm90::TmaWgmmaMainloop<WTile<int8_t, 128>, XTile<64>, 6, Zeros>,
               sm90::TilesScheduler>("int8 128x64", rng);
  check_shapes<sm90::TmaWgmmaMainloop<WTile<int8_t, 192>, XTile<192>, 5, Zeros,
                                      sm90::ProducerWarpgroup<40, 152>>,
               sm90::StreamUnitsScheduler>("int8 192x192 producer wg units", rng);
  // As the generator instantiates it (prefer_fitted_raw_fragment_tiles):
  // whole tiles, the producer at 32 registers and each consumer at 160.
  check_shapes<sm90::TmaWgmmaMainloop<WTile<int8_t, 192>, XTile<192>, 5, Zeros,
                                      sm90::ProducerWarpgroup<32, 160>>,
               sm90::TilesScheduler>("int8 192x192 producer wg 32/160", rng);
  check_shapes<sm90::TmaWgmmaMainloop<WTile<int8_t, 128>, XTile<256>, 4, Zeros,
                                      sm90::ProducerWarpgroup<40, 232>>,
               sm90::TilesScheduler>("int8 128x256 producer wg", rng);
  // A general row functor, fp16 and bf16 fragments.
  check_shapes<sm90::TmaWgmmaMainloop<WTile<int8_t, 128>, XTile<128>, 4,
                                      sm90::RawRegisterA<ScaledRows<__half>>>,
               sm90::TilesScheduler>("int8 scaled 128x128", rng);
  check_shapes<sm90::TmaWgmmaMainloop<WTile<uint8_t, 128>, XTile<128, __nv_bfloat16>, 4,
                                      sm90::RawRegisterA<ScaledRows<__nv_bfloat16>>>,
               sm90::StreamUnitsScheduler>("uint8 scaled bf16 units", rng);
  std::printf("sm90_raw_weights_test: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
