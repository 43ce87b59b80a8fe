// GPU test of the decode component (tc/decode/weight_stream.cuh): a linear
// layer with 8-bit weights, Y = (X (W - z)^T) * scale, at M <= 64, against
// an fp64 host reference. Shapes with partial column blocks, odd and short
// K, K of one chunk and just past it; aligned and unaligned X and W; int8
// and uint8 weights; integer zero points, fp16 fractions and fractions
// fp16 cannot hold (the three conversions); split and unsplit K; and a
// launch captured into a CUDA graph; W through registers, through
// cp.async stages, and through TMA stages (weight_stream_tma.cuh), which
// must decline unaligned operands. Also 4-bit weights with group-wise zero
// points and scales (weight_stream_int4.cuh: TMA stages of two and of one
// 128-deep sub-chunk, and the cp.async stages sm_80 runs; the generated
// launcher's fallback to them is packed_regions_test's, built for
// compute_80, and wgmma with the dequantised nibbles as its register
// operand, weight_stream_int4_wgmma.cuh, which must decline groups that
// are not whole 128-deep sub-chunks), and W as wgmma's register operand
// for 16, 32 and 64 rows of X (weight_stream_wgmma.cuh).
//
// Build (scripts/gpu-check.sh): nvcc -std=c++17 -O3 -arch=sm_90a
//   -I runtime_headers test/gpu/weight_stream_test.cu -lcuda
// Run: weight_stream_test [int8 | int4 | int4_wgmma] (one part; all without)
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <tc/decode/weight_stream.cuh>
#include <tc/decode/weight_stream_int4.cuh>
#include <tc/decode/weight_stream_int4_wgmma.cuh>
#include <tc/decode/weight_stream_wgmma.cuh>
#include <tc/decode/weight_stream_tma.cuh>
#include <tc/launch_facts.cuh>

#include "cuda_check.h"

namespace {

// Y[i][j] = sum * scale[j] (scale null: 1), fp32, pitch ldy.
struct Scaled {
  float *y;
  const float *scale;
  long long ldy;
  __device__ void operator()(long long i, long long j, float sum) const {
    y[i * ldy + j] = scale ? sum * scale[j] : sum;
  }
  __device__ void row(long long i, long long j0, const float (&sum)[8]) const {
#pragma unroll
    for (int v = 0; v < 8; ++v)
      (*this)(i, j0 + v, sum[v]);
  }
};

// kLastIntegral: fp16 fractions but an integer at row N - 1, which the
// last column block's warps past N read: one block, two conversions, unless
// the block chooses one for all of its warps.
enum class Zeros { kIntegral, kHalfFraction, kOddFraction, kLastIntegral };

int checks = 0, failures = 0;

// Runs launch(stream) on the legacy stream, or captured into a CUDA graph
// that is then replayed once; waits for it. What the launch returned.
template <class Launch>
bool run_launch(const Launch &launch, bool graph) {
  bool launched;
  if (!graph) {
    launched = launch(cudaStream_t{0});
  } else {
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    cudaGraph_t g = nullptr;
    CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    launched = launch(stream);
    CHECK_CUDA(cudaStreamEndCapture(stream, &g));
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(g);
    cudaStreamDestroy(stream);
  }
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  return launched;
}

template <typename Src, int kMTiles, int kWeightStages = 0, int kTmaDepth = 0, bool kWgmma = false>
void check(long long m, long long n, long long k, int pad, int offset, Zeros zeros, bool graph,
           std::mt19937 &rng, int split = 0) {
  const long long ldx = k + pad, ldw = k + pad, ldy = n + pad;
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> byte(std::is_signed<Src>::value ? -128 : 0,
                                          std::is_signed<Src>::value ? 127 : 255);
  std::uniform_int_distribution<int> small(-8, 8);
  std::vector<__half> hx(m * ldx);
  std::vector<Src> hw(n * ldw + offset);
  std::vector<float> hzero(n), hscale(n);
  for (auto &v : hx) v = __float2half(unit(rng));
  for (auto &v : hw) v = static_cast<Src>(byte(rng));
  for (long long j = 0; j < n; ++j) {
    const float zi = small(rng) + (std::is_signed<Src>::value ? 0.0f : 128.0f);
    hzero[j] = zeros == Zeros::kIntegral        ? zi
               : zeros == Zeros::kHalfFraction   ? zi + 0.25f * small(rng)
               : zeros == Zeros::kLastIntegral ? (j == n - 1 ? zi : zi + 0.25f)
                                                 : zi + 0.3f;
    hscale[j] = 1.0f / 64 + (unit(rng) + 1.0f) / 32;
  }
  __half *x;
  Src *w;
  float *zero, *scale, *y;
  CHECK_CUDA(cudaMalloc(&x, hx.size() * 2 + 16));
  CHECK_CUDA(cudaMalloc(&w, hw.size() + 16));
  CHECK_CUDA(cudaMalloc(&zero, n * 4));
  CHECK_CUDA(cudaMalloc(&scale, n * 4));
  CHECK_CUDA(cudaMalloc(&y, m * ldy * 4));
  // `offset` moves both operands' bases off 16-byte alignment.
  __half *xs = x + (offset ? 1 : 0);
  Src *ws = w + offset;
  CHECK_CUDA(cudaMemcpy(xs, hx.data(), hx.size() * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(w, hw.data(), hw.size(), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(zero, hzero.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(scale, hscale.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(y, 0xff, m * ldy * 4));  // NaN: an unwritten element shows
  const tc::DeviceFacts facts = tc::launch_facts().device;
  const auto launch = [&](cudaStream_t stream) {
    const tc::decode::ZeroPointRows<Src> rows{zero};
    const Scaled epilogue{y, scale, ldy};
    if constexpr (kWgmma)
      return tc::decode::launch_weight_stream_wgmma<16 * kMTiles, kTmaDepth>(
          m, n, k, xs, ldx, ws, ldw, rows, epilogue, facts, stream, split);
    else if constexpr (kTmaDepth > 0)
      return tc::decode::launch_weight_stream_tma<kMTiles, kTmaDepth>(
          m, n, k, xs, ldx, ws, ldw, rows, epilogue, facts, stream, split);
    else
      return tc::decode::launch_weight_stream_tiles<kMTiles, 1, kWeightStages>(
          m, n, k, xs, ldx, ws, ldw, rows, epilogue, facts, stream, split);
  };
  // TMA maps 16-byte aligned rows only: elsewhere that launcher declines.
  const bool expected = kTmaDepth == 0 || (tc::decode::rows_of_16_bytes(xs, ldx) &&
                                           tc::decode::rows_of_16_bytes(ws, ldw));
  const bool launched = run_launch(launch, graph);
  std::vector<float> hy(m * ldy);
  CHECK_CUDA(cudaMemcpy(hy.data(), y, hy.size() * 4, cudaMemcpyDeviceToHost));
  long long bad = 0;
  double worst = 0;
  for (long long i = 0; i < m && launched && expected; ++i)
    for (long long j = 0; j < ldy; ++j) {
      const float got = hy[i * ldy + j];
      if (j >= n) {  // padding: untouched
        if (!std::isnan(got))
          ++bad;
        continue;
      }
      double ref = 0, norm = 0;
      for (long long kk = 0; kk < k; ++kk) {
        const double t = static_cast<double>(__half2float(hx[i * ldx + kk])) *
                         (static_cast<double>(hw[offset + j * ldw + kk]) - hzero[j]);
        ref += t;
        norm += std::fabs(t);
      }
      ref *= hscale[j];
      norm *= hscale[j];
      // fp16 rounding of w - z (2^-11 relative) and fp32 sums.
      const double err = std::fabs(got - ref), tol = 1e-3 * norm + 1e-6;
      worst = std::fmax(worst, err / (norm + 1e-30));
      if (!(err <= tol))
        ++bad;
    }
  ++checks;
  const bool ok = launched == expected && bad == 0;
  failures += !ok;
  std::printf("%-4s %-5s M=%-3lld N=%-5lld K=%-5lld pad=%d offset=%d zeros=%d tiles=%d "
              "w-stages=%d tma-stages=%d%s split=%s%s%s",
              ok ? "PASS" : "FAIL", std::is_signed<Src>::value ? "int8" : "uint8", m, n, k, pad,
              offset, static_cast<int>(zeros), kMTiles, kWeightStages, kTmaDepth,
              kWgmma ? " wgmma" : "", split ? std::to_string(split).c_str() : "chosen", graph ? " graph" : "",
              launched ? "" : expected ? " (not launched)" : " (declined, as expected)");
  if (bad)
    std::printf(" %lld wrong, worst %.3g", bad, worst);
  std::printf("\n");
  for (void *p : {(void *)x, (void *)w, (void *)zero, (void *)scale, (void *)y})
    cudaFree(p);
}

template <typename Src, int kMTiles, int kWeightStages = 0, int kTmaDepth = 0, bool kWgmma = false>
void check_rows(std::mt19937 &rng) {
  const long long ms[] = {16 * kMTiles - 15, 16 * kMTiles};
  const long long shapes[][2] = {{1, 1},     {7, 15},    {128, 64},  {129, 127},
                                 {300, 128}, {257, 129}, {640, 1000}, {4096, 4096},
                                 {1000, 4097}};
  for (long long m : ms)
    for (auto &s : shapes)
      check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(m, s[0], s[1], 0, 0, Zeros::kIntegral, false, rng);
  // Unaligned operands, and each conversion.
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles - 3, 300, 1000, 1, 0, Zeros::kIntegral, false, rng);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles - 3, 300, 1024, 0, 1, Zeros::kHalfFraction, false, rng);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles, 520, 2048, 8, 0, Zeros::kHalfFraction, false, rng);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles, 520, 2048, 0, 0, Zeros::kOddFraction, false, rng);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles, 4096, 4096, 0, 0, Zeros::kIntegral, true, rng);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles - 1, 300, 777, 3, 1, Zeros::kIntegral, true, rng);
  // K not a whole number of 64-deep boxes, rows still 16-byte aligned (the
  // TMA path fills the last box's columns past K with zeros).
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles, 300, 1040, 0, 0, Zeros::kIntegral, false, rng);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles - 5, 257, 1000, 8, 0, Zeros::kHalfFraction, false, rng);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles - 1, 640, 2064, 0, 0, Zeros::kIntegral, false, rng, 4);
  // Each split, whatever the grid chooses: unsplit, and shares of 2, 4, 8
  // (uneven ones included: 33 chunks). K = 4097 leaves W's rows unaligned:
  // the register kernels take it, the TMA and wgmma ones decline.
  for (int split : {1, 2, 4, 8})
    check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles - 2, 1000, 4097, 0, 0, Zeros::kIntegral, false, rng, split);
  // The same with rows the TMA path maps (33 chunks, the last of 16 k),
  // shares that wait on a stage's second and later phases, and empty
  // shares (K = 200: 2 chunks, split 8); K of one box and less.
  for (int split : {1, 2, 4, 8})
    check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles - 2, 1000, 4112, 0, 0, Zeros::kIntegral, false, rng, split);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles, 300, 200, 8, 0, Zeros::kIntegral, false, rng, 8);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles - 7, 130, 48, 0, 0, Zeros::kIntegral, false, rng);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles - 7, 130, 16, 0, 0, Zeros::kHalfFraction, false, rng, 2);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles, 640, 2048, 0, 0, Zeros::kOddFraction, true, rng, 8);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles, 300, 2048, 0, 0, Zeros::kLastIntegral, false,
                                     rng);
  check<Src, kMTiles, kWeightStages, kTmaDepth, kWgmma>(16 * kMTiles, 300, 2048, 0, 1, Zeros::kLastIntegral, false,
                                     rng, 4);
}

// The 4-bit kernels: TMA stages (weight_stream_int4.cuh), cp.async stages
// (sm_80), wgmma (weight_stream_int4_wgmma.cuh; with registers for one or
// for two blocks an SM).
enum class Int4Kernel { kTma, kCopy, kWgmma, kWgmmaTwoBlocks };

// 4-bit weights: nibble k of row n at byte k / 2 (even k low), zero points
// and scales per group of `group` k, fp16; Y fp32 = X W'^T.
template <bool kSigned, int kMTiles, int kBoxes, Int4Kernel kKernel>
void check_int4(long long m, long long n, long long k, long long group, int pad, bool graph,
                std::mt19937 &rng, int split = 0) {
  const long long k_bytes = (k + 1) / 2, ldw = (k_bytes + 15) / 16 * 16 + 16 * pad,
                  ldx = (k + 7) / 8 * 8 + 8 * pad, ldy = n + 3, groups = (k + group - 1) / group;
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> byte(0, 255), zero_point(kSigned ? -2 : 5, kSigned ? 2 : 10);
  std::vector<__half> hx(m * ldx), hzero(n * groups), hscale(n * groups);
  std::vector<uint8_t> hw(n * ldw);
  for (auto &v : hx) v = __float2half(unit(rng));
  for (auto &v : hw) v = static_cast<uint8_t>(byte(rng));
  for (long long i = 0; i < n * groups; ++i) {
    hzero[i] = __float2half(static_cast<float>(zero_point(rng)));
    hscale[i] = __float2half(1.0f / 64 + (unit(rng) + 1.0f) / 32);
  }
  __half *x, *zero, *scale;
  uint8_t *w;
  float *y;
  CHECK_CUDA(cudaMalloc(&x, hx.size() * 2));
  CHECK_CUDA(cudaMalloc(&w, hw.size()));
  CHECK_CUDA(cudaMalloc(&zero, hzero.size() * 2));
  CHECK_CUDA(cudaMalloc(&scale, hscale.size() * 2));
  CHECK_CUDA(cudaMalloc(&y, m * ldy * 4));
  CHECK_CUDA(cudaMemcpy(x, hx.data(), hx.size() * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(w, hw.data(), hw.size(), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(zero, hzero.data(), hzero.size() * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(scale, hscale.data(), hscale.size() * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(y, 0xff, m * ldy * 4));
  const tc::DeviceFacts facts = tc::launch_facts().device;
  const auto launch = [&](cudaStream_t stream) {
    const tc::decode::GroupScales scales{zero, scale, groups};
    if constexpr (kKernel == Int4Kernel::kCopy)
      return tc::decode::launch_weight_stream_int4_copy<kSigned, kMTiles, 3, kBoxes>(
          m, n, k, x, ldx, w, ldw, group, scales, Scaled{y, nullptr, ldy}, facts, stream, split);
    else if constexpr (kKernel == Int4Kernel::kWgmma || kKernel == Int4Kernel::kWgmmaTwoBlocks)
      return tc::decode::launch_weight_stream_int4_wgmma<
          kSigned, 16 * kMTiles, 3, kKernel == Int4Kernel::kWgmma ? 1 : 2>(
          m, n, k, x, ldx, w, ldw, group, scales, Scaled{y, nullptr, ldy}, facts, stream, split);
    else
      return tc::decode::launch_weight_stream_int4<kSigned, kMTiles, 3, kBoxes>(
          m, n, k, x, ldx, w, ldw, group, scales, Scaled{y, nullptr, ldy}, facts, stream, split);
  };
  const bool launched = run_launch(launch, graph);
  std::vector<float> hy(m * ldy);
  CHECK_CUDA(cudaMemcpy(hy.data(), y, hy.size() * 4, cudaMemcpyDeviceToHost));
  long long bad = 0;
  double worst = 0;
  for (long long i = 0; i < m && launched; ++i)
    for (long long j = 0; j < ldy; ++j) {
      const float got = hy[i * ldy + j];
      if (j >= n) {
        if (!std::isnan(got))
          ++bad;
        continue;
      }
      double ref = 0, norm = 0, bias_norm = 0;
      for (long long kk = 0; kk < k; ++kk) {
        int nib = (hw[j * ldw + kk / 2] >> (4 * (kk % 2))) & 15;
        if (kSigned)
          nib = nib >= 8 ? nib - 16 : nib;
        const long long gi = j * groups + kk / group;
        const double xs = static_cast<double>(__half2float(hx[i * ldx + kk])) *
                          __half2float(hscale[gi]);
        const double t = xs * (nib - static_cast<double>(__half2float(hzero[gi])));
        ref += t;
        norm += std::fabs(t);
        // The kernel's bias -z s (z + 8 for signed nibbles) is rounded to
        // fp16 on its own (half an ulp, 2^-11 relative), an error that the
        // difference n - z does not scale down.
        bias_norm += std::fabs(xs * (__half2float(hzero[gi]) + (kSigned ? 8.0 : 0.0)));
      }
      // fp16 rounding of n s + (-z s) (2^-11 relative), of the bias, and
      // fp32 sums.
      const double err = std::fabs(got - ref),
                   tol = 1e-3 * norm + 0x1p-11 * 1.25 * bias_norm + 1e-6;
      worst = std::fmax(worst, err / (norm + 1e-30));
      if (!(err <= tol))
        ++bad;
    }
  ++checks;
  // The wgmma kernel takes groups of whole sub-chunks only.
  const bool wgmma = kKernel == Int4Kernel::kWgmma || kKernel == Int4Kernel::kWgmmaTwoBlocks;
  const bool expected = !wgmma || tc::decode::nibble_wgmma_group_size(k, group) != 0;
  const bool ok = launched == expected && bad == 0;
  failures += !ok;
  const char *kernel = kKernel == Int4Kernel::kCopy              ? "copy"
                       : kKernel == Int4Kernel::kWgmma           ? "wgmma"
                       : kKernel == Int4Kernel::kWgmmaTwoBlocks ? "wgmma2"
                                                                 : "tma";
  std::printf("%-4s %-5s %-5s M=%-3lld N=%-5lld K=%-5lld group=%-3lld pad=%d tiles=%d boxes=%d "
              "split=%s%s%s",
              ok ? "PASS" : "FAIL", kSigned ? "s4" : "u4", kernel, m, n, k, group, pad, kMTiles,
              kBoxes, split ? std::to_string(split).c_str() : "chosen", graph ? " graph" : "",
              launched ? "" : expected ? " (not launched)" : " (declined, as it must)");
  if (bad)
    std::printf(" %lld wrong, worst %.3g", bad, worst);
  std::printf("\n");
  for (void *ptr : {(void *)x, (void *)w, (void *)zero, (void *)scale, (void *)y})
    cudaFree(ptr);
}

// kBoxes: 128-deep sub-chunks a stage (Int4Stages; the other kernels' are
// two).
template <bool kSigned, int kMTiles, int kBoxes = 2, Int4Kernel kKernel = Int4Kernel::kTma>
void check_int4_rows(std::mt19937 &rng) {
  const long long m = 16 * kMTiles;
  // Partial column blocks, K of one box and less, odd K, each group size.
  const long long shapes[][3] = {{1, 1, 32},      {7, 15, 32},     {128, 64, 64},
                                 {300, 128, 128}, {257, 129, 32},  {640, 1000, 64},
                                 {4096, 4096, 128}, {1000, 4097, 128}, {520, 2048, 256}};
  for (auto &s : shapes) {
    check_int4<kSigned, kMTiles, kBoxes, kKernel>(m, s[0], s[1], s[2], 0, false, rng);
    check_int4<kSigned, kMTiles, kBoxes, kKernel>(m - 13, s[0], s[1], s[2], 1, false, rng);
  }
  for (int split : {1, 2, 4, 8})
    check_int4<kSigned, kMTiles, kBoxes, kKernel>(m - 2, 1000, 4112, 128, 0, false, rng, split);
  check_int4<kSigned, kMTiles, kBoxes, kKernel>(m, 640, 2048, 64, 0, true, rng, 8);
  check_int4<kSigned, kMTiles, kBoxes, kKernel>(m - 1, 300, 8192, 128, 0, true, rng);
  // Groups that are not powers of two; one group of all of K (its size
  // far past K); empty shares (K 256: one or two chunks, split 8).
  check_int4<kSigned, kMTiles, kBoxes, kKernel>(m - 3, 520, 2000, 96, 0, false, rng);
  check_int4<kSigned, kMTiles, kBoxes, kKernel>(m, 257, 1920, 160, 0, false, rng, 2);
  check_int4<kSigned, kMTiles, kBoxes, kKernel>(m, 300, 4096, 192, 0, false, rng);
  check_int4<kSigned, kMTiles, kBoxes, kKernel>(m - 5, 300, 1000, 1ll << 40, 0, false, rng);
  check_int4<kSigned, kMTiles, kBoxes, kKernel>(m, 300, 256, 128, 0, false, rng, 8);
}

}  // namespace

int main(int argc, char **argv) {
  std::mt19937 rng(51);
  const auto part = [&](const char *name) { return argc < 2 || !std::strcmp(argv[1], name); };
  if (part("int8")) {
    check_rows<int8_t, 1>(rng);
    check_rows<int8_t, 2>(rng);
    check_rows<int8_t, 4>(rng);
    check_rows<uint8_t, 1>(rng);
    check_rows<uint8_t, 4>(rng);
    // W through cp.async stages instead of registers.
    check_rows<int8_t, 1, 4>(rng);
    check_rows<uint8_t, 1, 3>(rng);
    // W and X through TMA stages.
    check_rows<int8_t, 1, 0, 4>(rng);
    check_rows<uint8_t, 1, 0, 6>(rng);
    check_rows<int8_t, 2, 0, 3>(rng);
    check_rows<int8_t, 4, 0, 3>(rng);
    // W as wgmma's A from registers, X's 16, 32 or 64 rows its N.
    check_rows<int8_t, 1, 0, 4, true>(rng);
    check_rows<uint8_t, 2, 0, 3, true>(rng);
    check_rows<int8_t, 2, 0, 3, true>(rng);  // what generated launchers run
    check_rows<int8_t, 4, 0, 4, true>(rng);
    check_rows<uint8_t, 4, 0, 3, true>(rng);
  }
  if (part("int4_wgmma")) {
    // 4-bit weights on wgmma, X's 16, 32 or 64 rows its N.
    check_int4_rows<false, 1, 2, Int4Kernel::kWgmma>(rng);
    check_int4_rows<true, 1, 2, Int4Kernel::kWgmma>(rng);
    check_int4_rows<false, 2, 2, Int4Kernel::kWgmma>(rng);
    check_int4_rows<true, 4, 2, Int4Kernel::kWgmma>(rng);
    check_int4_rows<false, 4, 2, Int4Kernel::kWgmma>(rng);
    // Registers for two blocks an SM.
    check_int4_rows<false, 1, 2, Int4Kernel::kWgmmaTwoBlocks>(rng);
    check_int4_rows<true, 2, 2, Int4Kernel::kWgmmaTwoBlocks>(rng);
  }
  if (part("int4")) {
    // 4-bit weights, unsigned and signed, with group-wise zero points and scales.
    check_int4_rows<false, 1>(rng);
    check_int4_rows<true, 1>(rng);
    check_int4_rows<false, 4>(rng);
    check_int4_rows<true, 4>(rng);
    // One 128-deep sub-chunk a stage.
    check_int4_rows<false, 1, 1>(rng);
    check_int4_rows<true, 1, 1>(rng);
    // Through cp.async stages (what sm_80 runs), splits included here.
    check_int4_rows<false, 1, 2, Int4Kernel::kCopy>(rng);
    check_int4_rows<true, 1, 2, Int4Kernel::kCopy>(rng);
    check_int4_rows<false, 4, 2, Int4Kernel::kCopy>(rng);
    check_int4_rows<true, 4, 2, Int4Kernel::kCopy>(rng);
  }
  std::printf("weight_stream_test: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
