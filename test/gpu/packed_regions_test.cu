// GPU test of the regions of test/gpu/regions/packed.cu (packed 4-bit
// weights, issue 51), differentially: each rewritten function runs on the
// GPU and the same function as written (namespace `source`) on the host,
// on the same bytes; the outputs must agree within the output type's
// tolerance of max|ref| (fp16 2e-3, bf16 1e-2, fp32 1e-3): the kernels
// round each dequantised weight once to 16 bits and sum in another order.
// Shapes with partial tiles, odd K (the last byte's high nibble unused), K
// not a whole number of groups, one row and one column. int4_xor also runs
// with its output over its scales (the launcher's alias test must run the
// loops as written, which read the scales the region has overwritten).
//
// Usage: packed_regions_test   (one line per case, then "N passed, M failed")
#include "regions/packed.tc.cu"
namespace source {
#include "regions/packed.cu"
}

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

#define CHECK_CUDA(x)                                                                  \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                    \
    }                                                                                  \
  } while (0)

int passed = 0, failed = 0;
std::mt19937 rng(20261206);

// A pool of bytes laid out by the case, filled by it, copied to the device.
struct Pool {
  std::vector<unsigned char> host;
  unsigned char *dev = nullptr;
  explicit Pool(size_t bytes) : host(bytes) {}
  template <class T>
  T *at(size_t offset) {
    return reinterpret_cast<T *>(host.data() + offset);
  }
  template <class T>
  T *device(size_t offset) {
    return reinterpret_cast<T *>(dev + offset);
  }
};

float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }
void fill_bytes(unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    p[i] = static_cast<unsigned char>(rng() & 255);
}
template <class T>
void fill(T *p, size_t n, float lo, float hi, bool integers = false) {
  for (size_t i = 0; i < n; ++i) {
    float v = integers ? std::floor(uniform(lo, hi + 1)) : uniform(lo, hi);
    if constexpr (std::is_same_v<T, float>)
      p[i] = v;
    else if constexpr (std::is_same_v<T, __half>)
      p[i] = __float2half(v);
    else
      p[i] = __float2bfloat16(v);
  }
}
double value(const __half &x) { return __half2float(x); }
double value(float x) { return x; }

// Runs `device` on the pool's device copy and `host` on the host copy, and
// compares `count` elements of type Out at `out`.
template <class Out>
void check(const std::string &name, Pool &pool, size_t out, size_t count, double tol,
           const std::function<void(Pool &)> &device, const std::function<void(Pool &)> &host) {
  CHECK_CUDA(cudaMalloc(&pool.dev, pool.host.size()));
  CHECK_CUDA(cudaMemcpy(pool.dev, pool.host.data(), pool.host.size(), cudaMemcpyHostToDevice));
  device(pool);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned char> back(pool.host.size());
  CHECK_CUDA(cudaMemcpy(back.data(), pool.dev, back.size(), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(pool.dev));
  host(pool);
  double max_ref = 1e-6, max_err = 0;
  bool nan = false;
  for (size_t i = 0; i < count; ++i) {
    Out r, g;
    std::memcpy(&r, pool.host.data() + out + i * sizeof(Out), sizeof(Out));
    std::memcpy(&g, back.data() + out + i * sizeof(Out), sizeof(Out));
    nan |= std::isnan(value(g)) != std::isnan(value(r));
    max_ref = std::max(max_ref, std::fabs(value(r)));
    max_err = std::max(max_err, std::fabs(value(g) - value(r)));
  }
  const double rel = max_err / max_ref;
  const bool ok = !nan && rel <= tol;
  std::printf("%-4s %-52s rel.err %.2e (tol %.0e)\n", ok ? "ok" : "FAIL", name.c_str(), rel, tol);
  (ok ? passed : failed)++;
}

size_t up(size_t x) { return (x + 255) / 256 * 256; }
std::string shape(int M, int N, int K) {
  return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

// `aligned`: W's rows of a multiple of 16 bytes (with K a multiple of 8,
// X's too: up to 16 rows, the 4-bit decode kernel's shapes).
void groups_case(int M, int N, int K, bool aligned = false) {
  const int ldw = aligned ? ((K + 1) / 2 + 15) / 16 * 16 : (K + 1) / 2 + (K % 3),
            groups = (K + 127) / 128;
  const size_t x = 0, w = up(x + 2ull * M * K), z = up(w + size_t(N) * ldw),
               s = up(z + 2ull * N * groups), y = up(s + 2ull * N * groups),
               end = y + 2ull * M * N;
  Pool p(end);
  fill(p.at<__half>(x), size_t(M) * K, -1, 1);
  fill_bytes(p.at<unsigned char>(w), size_t(N) * ldw);
  fill(p.at<__half>(z), size_t(N) * groups, 0, 15, true);
  fill(p.at<__half>(s), size_t(N) * groups, 0.001f, 0.02f);
  check<__half>("int4_groups " + shape(M, N, K) + (aligned ? " ldw " + std::to_string(ldw) : ""), p, y, size_t(M) * N, 2e-3,
                [&](Pool &q) {
                  int4_groups(M, N, K, ldw, groups, q.device<__half>(x), q.device<uint8_t>(w),
                              q.device<__half>(z), q.device<__half>(s), q.device<__half>(y));
                },
                [&](Pool &q) {
                  source::int4_groups(M, N, K, ldw, groups, q.at<__half>(x), q.at<uint8_t>(w),
                                      q.at<__half>(z), q.at<__half>(s), q.at<__half>(y));
                });
}

void signed_case(int M, int N, int K) {
  const int ldw = (K + 1) / 2;
  const size_t x = 0, w = up(2ull * M * K), s = up(w + size_t(N) * ldw), y = up(s + 4ull * N),
               end = y + 4ull * M * N;
  Pool p(end);
  fill(p.at<__nv_bfloat16>(x), size_t(M) * K, -1, 1);
  fill_bytes(p.at<unsigned char>(w), size_t(N) * ldw);
  fill(p.at<float>(s), N, 0.01f, 0.1f);
  check<float>("int4_signed " + shape(M, N, K), p, y, size_t(M) * N, 1e-2,
               [&](Pool &q) {
                 int4_signed(M, N, K, ldw, q.device<__nv_bfloat16>(x), q.device<int8_t>(w),
                             q.device<float>(s), q.device<float>(y));
               },
               [&](Pool &q) {
                 source::int4_signed(M, N, K, ldw, q.at<__nv_bfloat16>(x), q.at<int8_t>(w),
                                     q.at<float>(s), q.at<float>(y));
               });
}

void choice_case(int M, int N) {
  constexpr int K = source::kK;
  const size_t x = 0, w = up(2ull * M * K), z = up(w + size_t(N) * K / 2),
               s = up(z + 12ull * N), b = up(s + 12ull * N), y = up(b + 4ull * N),
               end = y + 2ull * M * N;
  Pool p(end);
  fill(p.at<__half>(x), size_t(M) * K, -1, 1);
  fill_bytes(p.at<unsigned char>(w), size_t(N) * K / 2);
  fill(p.at<float>(z), size_t(N) * 3, 0, 15, true);
  fill(p.at<float>(s), size_t(N) * 3, 0.01f, 0.05f);
  fill(p.at<float>(b), N, -0.5f, 0.5f);
  using XRow = const __half[K];
  using WRow = const uint8_t[K / 2];
  using GRow = const float[3];
  check<__half>("int4_choice " + shape(M, N, K), p, y, size_t(M) * N, 2e-3,
                [&](Pool &q) {
                  int4_choice(M, N, reinterpret_cast<XRow *>(q.dev + x),
                              reinterpret_cast<WRow *>(q.dev + w),
                              reinterpret_cast<GRow *>(q.dev + z),
                              reinterpret_cast<GRow *>(q.dev + s), q.device<float>(b),
                              q.device<__half>(y));
                },
                [&](Pool &q) {
                  source::int4_choice(M, N, reinterpret_cast<XRow *>(q.host.data() + x),
                                      reinterpret_cast<WRow *>(q.host.data() + w),
                                      reinterpret_cast<GRow *>(q.host.data() + z),
                                      reinterpret_cast<GRow *>(q.host.data() + s), q.at<float>(b),
                                      q.at<__half>(y));
                });
}

// Y over the scales where `overlap` (in place from the first scale).
void xor_case(int M, int N, int K, bool overlap) {
  const int ldw = (K + 1) / 2, groups = (K + 63) / 64;
  const size_t x = 0, w = up(2ull * M * K), s = up(w + size_t(N) * ldw),
               y = overlap ? s : up(s + 2ull * N * groups),
               end = std::max(s + 2ull * N * groups, y + 2ull * M * N);
  Pool p(end);
  fill(p.at<__half>(x), size_t(M) * K, -1, 1);
  fill_bytes(p.at<unsigned char>(w), size_t(N) * ldw);
  fill(p.at<__half>(s), size_t(N) * groups, 0.01f, 0.05f);
  check<__half>(std::string("int4_xor ") + (overlap ? "Y over the scales " : "") + shape(M, N, K),
                p, y, size_t(M) * N, overlap ? 4e-3 : 2e-3,
                [&](Pool &q) {
                  int4_xor(M, N, K, ldw, groups, q.device<__half>(x), q.device<uint8_t>(w),
                           q.device<__half>(s), q.device<__half>(y));
                },
                [&](Pool &q) {
                  source::int4_xor(M, N, K, ldw, groups, q.at<__half>(x), q.at<uint8_t>(w),
                                   q.at<__half>(s), q.at<__half>(y));
                });
}

// int4_rows: K even (W's rows are K / 2 bytes).
void rows_case(int M, int N, int K) {
  const size_t x = 0, w = up(2ull * M * K), z = up(w + size_t(N) * K / 2), s = up(z + N),
               y = up(s + 4ull * N), end = y + 2ull * M * N;
  Pool p(end);
  fill(p.at<__half>(x), size_t(M) * K, -1, 1);
  fill_bytes(p.at<unsigned char>(w), size_t(N) * K / 2);
  fill_bytes(p.at<unsigned char>(z), N);
  fill(p.at<float>(s), N, 0.001f, 0.01f);
  check<__half>("int4_rows " + shape(M, N, K), p, y, size_t(M) * N, 2e-3,
                [&](Pool &q) {
                  int4_rows(M, N, K, q.device<__half>(x), q.device<uint8_t>(w),
                            q.device<uint8_t>(z), q.device<float>(s), q.device<__half>(y));
                },
                [&](Pool &q) {
                  source::int4_rows(M, N, K, q.at<__half>(x), q.at<uint8_t>(w), q.at<uint8_t>(z),
                                    q.at<float>(s), q.at<__half>(y));
                });
}

// int4_symmetric: K even (W's rows are K / 2 bytes; K / 64 groups a row).
void symmetric_case(int M, int N, int K) {
  const int groups = K / 64 + 1;  // (the last row's last group reads one past)
  const size_t x = 0, w = up(2ull * M * K), s = up(w + size_t(N) * K / 2),
               y = up(s + 2ull * N * groups), end = y + 2ull * M * N;
  Pool p(end);
  fill(p.at<__half>(x), size_t(M) * K, -1, 1);
  fill_bytes(p.at<unsigned char>(w), size_t(N) * K / 2);
  fill(p.at<__half>(s), size_t(N) * groups, 0.01f, 0.05f);
  check<__half>("int4_symmetric " + shape(M, N, K), p, y, size_t(M) * N, 2e-3,
                [&](Pool &q) {
                  int4_symmetric(M, N, K, q.device<__half>(x), q.device<uint8_t>(w),
                                 q.device<__half>(s), q.device<__half>(y));
                },
                [&](Pool &q) {
                  source::int4_symmetric(M, N, K, q.at<__half>(x), q.at<uint8_t>(w),
                                         q.at<__half>(s), q.at<__half>(y));
                });
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("GPU: %s\n", prop.name);
  for (auto [M, N, K] : std::vector<std::array<int, 3>>{
           {1, 1, 1}, {5, 7, 0}, {1, 4096, 4096}, {3, 130, 255}, {17, 33, 129}, {64, 200, 384},
           {130, 257, 1000}, {300, 128, 2048}})
    groups_case(M, N, K);
  // The 4-bit decode kernels' shapes (aligned rows; up to 16 rows the
  // mma.sync kernel, up to 64 the wgmma kernel where built for sm_90a),
  // with partial column blocks, a partial last group and partial chunks of k.
  for (auto [M, N, K] : std::vector<std::array<int, 3>>{{1, 4096, 4096},
                                                        {16, 300, 1000},
                                                        {5, 7, 256},
                                                        {16, 129, 128},
                                                        {3, 1, 8},
                                                        {17, 300, 1000},
                                                        {32, 129, 256},
                                                        {40, 1, 136},
                                                        {64, 4096, 4096},
                                                        {64, 7, 8}})
    groups_case(M, N, K, true);
  for (auto [M, N, K] : std::vector<std::array<int, 3>>{{1, 1, 2}, {5, 77, 131}, {129, 300, 512}})
    signed_case(M, N, K);
  for (auto [M, N] : std::vector<std::array<int, 2>>{{1, 1}, {19, 45}, {200, 131}, {16, 77}})
    choice_case(M, N);
  for (auto [M, N, K] : std::vector<std::array<int, 3>>{
           {2, 3, 65}, {33, 70, 200}, {16, 300, 256}, {3, 129, 512}})
    xor_case(M, N, K, false);
  for (auto [M, N, K] : std::vector<std::array<int, 3>>{
           {1, 4096, 4096}, {16, 200, 96}, {7, 33, 2}, {40, 130, 512}})
    rows_case(M, N, K);
  for (auto [M, N, K] : std::vector<std::array<int, 3>>{{1, 4096, 4096}, {16, 130, 192}, {20, 64, 256}})
    symmetric_case(M, N, K);
  xor_case(1, 8, 64, true);
  xor_case(4, 16, 130, true);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
