// GPU test of the regions of test/gpu/regions/*.cu, differentially: each
// rewritten function runs on the GPU, and the same function as written
// (unrewritten, below in namespace `source`) runs on the host on a copy of
// the same bytes; the outputs must agree.
//
// aliasing.cu: the launchers' run-time alias check (model/Aliasing.h,
// tc/alias_check.cuh) on regions whose pointers are not __restrict__. Each
// case lays the arrays out in one allocation at given byte offsets: apart,
// adjacent (one array starts where another ends: no byte shared, so the
// kernels must run), or overlapping (in place, partly, by one element: the
// launcher must run the region as written).
//   * apart and adjacent: within the output type's tolerance of the
//     kernels' reordered fp32 sums (fp16 2e-3, fp32 1e-3 of max|ref|);
//   * overlapping: the serial kernel computes what the source computes in
//     the source's order, reading values the region itself stored, so any
//     reordering shows up as a large error; the tolerance covers only the
//     device's fused multiply-adds (4e-3 of max|ref| for fp16).
// Adjacent arrays at 512^3 (and 4096 x 96 x 64) also must finish in under
// 50 ms: the serial kernel would take seconds, so a check that fires
// without an overlap fails here.
//
// loops.cu: 1-based loops (the iterator also in the value), a row range
// from a size, downward loops, `!=`, strided loops (every other row, every
// third k, every other k of a row-major A: gathered, odd rows over a
// triangle), literal leading dimensions (rows read past their stride, and
// overlapping output rows), operands read as views into larger
// arrays (aligned and not), and a downward column loop whose
// output is its own operand (in place: the serial kernel must keep the
// columns' downward order, which the result depends on).
//
// templates.cu: a function template instantiated for __half and
// __nv_bfloat16, a member function of a class template (both types), and a
// template over an int (bf16 tolerance 1e-2 of max|ref|).
//
// fusion.cu: products in separate nests added in a later one (fused into
// one kernel): scratch arrays accumulated in place, locals copied to them
// (with a bias and ReLU after the sum), copies that store transposed
// (column-major scratch arrays and output), and three products without
// __restrict__, apart (the kernels must run: under 50 ms at 512 x 512 x
// 3 x 256) and overlapping (the output in place of a scratch array, and
// one element before another: the serial kernel runs the nests as
// written).
//
// domains.cu: triangular and guarded nests run as masked boxes: TRMM (A
// masked), SYRK (the output's lower triangle; the rest must keep its
// bytes; with ldc < N rows overlap and the loops as written run), a guard
// around the body with a bias, a conjunction `k <= i && k
// < K` (for M < K the serial kernel runs), a guard on k and the column (B
// masked) accumulated in place. A 512^3 TRMM must take under 50 ms (the
// kernel, not the serial fallback).
//
// sizes.cu: sizes read from struct members (by value, through a pointer),
// arrays through a parameter struct's pointer members, a method's members,
// enumerators, constant expressions and const references, at shapes with
// partial tiles.
//
// Usage: regions_test   (prints one line per case, "N passed, M failed")
#include "regions/aliasing.tc.cu"
#include "regions/domains.tc.cu"
#include "regions/fusion.tc.cu"
#include "regions/loops.tc.cu"
#include "regions/sizes.tc.cu"
#include "regions/templates.tc.cu"
namespace source {
#include "regions/aliasing.cu"
#include "regions/domains.cu"
#include "regions/fusion.cu"
#include "regions/loops.cu"
#include "regions/sizes.cu"
#include "regions/templates.cu"
}

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <type_traits>
#include <random>
#include <string>
#include <vector>

namespace {

enum class Elem { F16, BF16, F32 };
size_t bytes_of(Elem e) { return e == Elem::F32 ? 4 : 2; }

// One array of a case: where it starts in the pool, how many elements.
struct ArrayAt {
  size_t offset;  // bytes
  size_t count;
  Elem elem;
};

double read(const unsigned char *p, Elem e, size_t i) {
  if (e == Elem::BF16) {
    __nv_bfloat16 h;
    std::memcpy(&h, p + 2 * i, 2);
    return __bfloat162float(h);
  }
  if (e == Elem::F16) {
    __half h;
    std::memcpy(&h, p + 2 * i, 2);
    return __half2float(h);
  }
  float f;
  std::memcpy(&f, p + 4 * i, 4);
  return f;
}

void write(unsigned char *p, Elem e, size_t i, float v) {
  if (e == Elem::BF16) {
    __nv_bfloat16 h = __float2bfloat16(v);
    std::memcpy(p + 2 * i, &h, 2);
    return;
  }
  if (e == Elem::F16) {
    __half h = __float2half(v);
    std::memcpy(p + 2 * i, &h, 2);
  } else {
    std::memcpy(p + 4 * i, &v, 4);
  }
}

#define CHECK_CUDA(x)                                                              \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                \
    }                                                                              \
  } while (0)

// A case: the arrays (the output last), and the call of the rewritten
// function and of the source on a pool's base address.
struct Case {
  std::string name;
  std::vector<ArrayAt> arrays;
  std::function<void(unsigned char *)> device, host;
  bool overlapping;
  double max_ms = 0;  // > 0: the device call must take less
};

int passed = 0, failed = 0;

void run(const Case &c, std::mt19937 &rng) {
  size_t bytes = 0;
  for (const ArrayAt &a : c.arrays)
    bytes = std::max(bytes, a.offset + a.count * bytes_of(a.elem));
  std::vector<unsigned char> host(bytes), back(bytes);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (const ArrayAt &a : c.arrays)  // overlaps: the later array's values win
    for (size_t i = 0; i < a.count; ++i)
      write(host.data() + a.offset, a.elem, i, u(rng));
  unsigned char *dev = nullptr;
  CHECK_CUDA(cudaMalloc(&dev, bytes));
  CHECK_CUDA(cudaMemcpy(dev, host.data(), bytes, cudaMemcpyHostToDevice));
  c.device(dev);  // once untimed (first-call set-up), on a fresh copy after
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(dev, host.data(), bytes, cudaMemcpyHostToDevice));
  auto t0 = std::chrono::steady_clock::now();
  c.device(dev);
  CHECK_CUDA(cudaDeviceSynchronize());
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(back.data(), dev, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dev));
  c.host(host.data());

  const ArrayAt &out = c.arrays.back();
  double max_ref = 1e-6, max_err = 0;
  bool nan = false;
  for (size_t i = 0; i < out.count; ++i) {
    double r = read(host.data() + out.offset, out.elem, i);
    double g = read(back.data() + out.offset, out.elem, i);
    nan |= std::isnan(g) != std::isnan(r);
    max_ref = std::max(max_ref, std::fabs(r));
    max_err = std::max(max_err, std::fabs(g - r));
  }
  double tol = out.elem == Elem::F16    ? (c.overlapping ? 4e-3 : 2e-3)
               : out.elem == Elem::BF16 ? 1e-2
                                        : 1e-3;
  double rel = max_err / max_ref;
  bool ok = !nan && rel <= tol && (c.max_ms <= 0 || ms < c.max_ms);
  std::printf("%-4s %-44s rel.err %.2e (tol %.0e)  %9.3f ms%s\n", ok ? "ok" : "FAIL",
              c.name.c_str(), rel, tol, ms,
              c.max_ms > 0 ? (ms < c.max_ms ? "  (kernels ran)" : "  (too slow: serial?)") : "");
  (ok ? passed : failed)++;
}

// Offsets: arrays one after another, 256-byte aligned ("apart").
std::vector<size_t> apart(const std::vector<size_t> &sizes) {
  std::vector<size_t> at;
  size_t next = 0;
  for (size_t s : sizes) {
    at.push_back(next);
    next += (s + 255) / 256 * 256 + 256;
  }
  return at;
}

// --- alias_gemm: C (M x N, fp16) = A (M x K) * B (K x N) ----------------------
Case gemm_case(const std::string &how, int M, int N, int K, size_t a, size_t b, size_t c,
               bool overlapping, double max_ms = 0) {
  Case k;
  k.name = "alias_gemm " + std::to_string(M) + "x" + std::to_string(N) + "x" +
           std::to_string(K) + " " + how;
  k.arrays = {{a, size_t(M) * K, Elem::F16}, {b, size_t(K) * N, Elem::F16},
              {c, size_t(M) * N, Elem::F16}};
  k.overlapping = overlapping;
  k.max_ms = max_ms;
  auto call = [=](auto fn, unsigned char *p) {
    fn(M, N, K, reinterpret_cast<const __half *>(p + a), reinterpret_cast<const __half *>(p + b),
       reinterpret_cast<__half *>(p + c));
  };
  k.device = [=](unsigned char *p) { call(alias_gemm, p); };
  k.host = [=](unsigned char *p) { call(source::alias_gemm, p); };
  return k;
}

Case gemm_apart(int M, int N, int K) {
  auto at = apart({size_t(M) * K * 2, size_t(K) * N * 2, size_t(M) * N * 2});
  return gemm_case("apart", M, N, K, at[0], at[1], at[2], false);
}

// --- alias_rows: Y (M x 96, fp32) = X (M x 64) * W (64 x 96) -----------------------
Case rows_case(const std::string &how, int M, size_t x, size_t w, size_t y, double max_ms = 0) {
  using source::kCols;
  using source::kDepth;
  Case k;
  k.name = "alias_rows " + std::to_string(M) + "x96x64 " + how;
  k.arrays = {{x, size_t(M) * kDepth, Elem::F16}, {w, size_t(kDepth) * kCols, Elem::F16},
              {y, size_t(M) * kCols, Elem::F32}};
  k.overlapping = false;
  k.max_ms = max_ms;
  auto call = [=](auto fn, unsigned char *p) {
    fn(M, reinterpret_cast<const __half(*)[kDepth]>(p + x),
       reinterpret_cast<const __half(*)[kCols]>(p + w), reinterpret_cast<float(*)[kCols]>(p + y));
  };
  k.device = [=](unsigned char *p) { call(alias_rows, p); };
  k.host = [=](unsigned char *p) { call(source::alias_rows, p); };
  return k;
}

// --- alias_blas: C = alpha * A * B + beta * C, leading dimensions -----------------
Case blas_case(const std::string &how, int M, int N, int K, int lda, int ldb, int ldc, size_t a,
               size_t b, size_t c, bool overlapping) {
  Case k;
  k.name = "alias_blas " + std::to_string(M) + "x" + std::to_string(N) + "x" +
           std::to_string(K) + " ld " + std::to_string(lda) + "," + std::to_string(ldb) + "," +
           std::to_string(ldc) + " " + how;
  k.arrays = {{a, size_t(M) * lda, Elem::F16}, {b, size_t(K) * ldb, Elem::F16},
              {c, size_t(M) * ldc, Elem::F32}};
  k.overlapping = overlapping;
  auto call = [=](auto fn, unsigned char *p) {
    fn(M, N, K, 0.75f, reinterpret_cast<const __half *>(p + a), lda,
       reinterpret_cast<const __half *>(p + b), ldb, -0.5f, reinterpret_cast<float *>(p + c), ldc);
  };
  k.device = [=](unsigned char *p) { call(alias_blas, p); };
  k.host = [=](unsigned char *p) { call(source::alias_blas, p); };
  return k;
}

// --- alias_bias_relu: C (fp16) = relu(A * B + bias[j]) -------------------------------
Case bias_case(const std::string &how, int M, int N, int K, size_t a, size_t b, size_t bias,
               size_t c, bool overlapping) {
  Case k;
  k.name = "alias_bias_relu " + std::to_string(M) + "x" + std::to_string(N) + "x" +
           std::to_string(K) + " " + how;
  k.arrays = {{a, size_t(M) * K, Elem::F16}, {b, size_t(K) * N, Elem::F16},
              {bias, size_t(N), Elem::F32}, {c, size_t(M) * N, Elem::F16}};
  k.overlapping = overlapping;
  auto call = [=](auto fn, unsigned char *p) {
    fn(M, N, K, reinterpret_cast<const __half *>(p + a), reinterpret_cast<const __half *>(p + b),
       reinterpret_cast<const float *>(p + bias), reinterpret_cast<__half *>(p + c));
  };
  k.device = [=](unsigned char *p) { call(alias_bias_relu, p); };
  k.host = [=](unsigned char *p) { call(source::alias_bias_relu, p); };
  return k;
}

// Arrays one after another, 256-byte aligned, with a gap: (count, type).
std::vector<ArrayAt> apart_arrays(const std::vector<std::pair<size_t, Elem>> &arrays) {
  std::vector<size_t> sizes;
  for (auto &[count, elem] : arrays)
    sizes.push_back(count * bytes_of(elem));
  std::vector<size_t> at = apart(sizes);
  std::vector<ArrayAt> out;
  for (size_t i = 0; i < arrays.size(); ++i)
    out.push_back({at[i], arrays[i].first, arrays[i].second});
  return out;
}

std::string shape(long long M, long long N, long long K) {
  return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

template <class T> T *at(unsigned char *p, const ArrayAt &a) {
  return reinterpret_cast<T *>(p + a.offset);
}

// --- sizes.cu --------------------------------------------------------------------
void add_sizes_cases(std::vector<Case> &cases) {
  const std::vector<std::array<int, 3>> shapes = {{1, 1, 1}, {70, 130, 33}, {129, 64, 200},
                                                  {256, 136, 72}};
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    Case c;
    c.name = "sizes_by_value " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M) * N, Elem::F16}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      sizes_by_value(Dims{M, N, K}, at<__half>(p, a[0]), at<__half>(p, a[1]), at<__half>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::sizes_by_value(source::Dims{M, N, K}, at<__half>(p, a[0]), at<__half>(p, a[1]),
                             at<__half>(p, a[2]));
    };
    cases.push_back(c);
  }
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    long long ldc = N + 5;
    Case c;
    c.name = "sizes_nested " + shape(M, N, K) + " ldc " + std::to_string(ldc);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(N) * K, Elem::F16},
                             {size_t(M) * ldc, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      Problem pr{{M, N, K}, ldc};
      sizes_nested(&pr, at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::Problem pr{{M, N, K}, ldc};
      source::sizes_nested(&pr, at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
    };
    cases.push_back(c);
  }
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    Case c;
    c.name = "SizesLayer::forward " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(N) * K, Elem::F16}, {size_t(M) * K, Elem::F16},
                             {size_t(M) * N, Elem::F16}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      SizesLayer{M, N, K, at<__half>(p, a[0])}.forward(at<__half>(p, a[1]), at<__half>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::SizesLayer{M, N, K, at<__half>(p, a[0])}.forward(at<__half>(p, a[1]),
                                                               at<__half>(p, a[2]));
    };
    cases.push_back(c);
  }
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    (void)N;
    const int cols = source::kSizesCols;
    Case c;
    c.name = "sizes_by_enumerator " + shape(M, cols, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * cols, Elem::F16},
                             {size_t(M) * cols, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      sizes_by_enumerator(at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]), M, K);
    };
    c.host = [=](unsigned char *p) {
      source::sizes_by_enumerator(at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]), M,
                                  K);
    };
    cases.push_back(c);
  }
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    Case c;
    c.name = "sizes_member_arrays " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M) * N, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      sizes_member_arrays({at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]), M, N, K});
    };
    c.host = [=](unsigned char *p) {
      source::sizes_member_arrays(
          {at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]), M, N, K});
    };
    cases.push_back(c);
  }
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    Case c;
    c.name = "sizes_mirrored_columns " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M) * N, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      sizes_mirrored_columns(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                             at<float>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::sizes_mirrored_columns(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                     at<float>(p, a[2]));
    };
    cases.push_back(c);
  }
  for (const auto &s : {std::array<int, 3>{1, 1, 1}, std::array<int, 3>{5, 24, 8},
                        std::array<int, 3>{33, 70, 17}}) {
    const int M = s[0], N = s[1], K = s[2];
    Case c;
    c.name = "sizes_based_on_restrict " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M + 1) * N, Elem::F32}});
    c.overlapping = true;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      sizes_based_on_restrict(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                              at<float>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::sizes_based_on_restrict(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                      at<float>(p, a[2]));
    };
    cases.push_back(c);
  }
  for (int N : {1, 100, 264}) {
    const int M = 72, K = 40;
    Case c;
    c.name = "sizes_by_constant_expressions " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M) * N, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      sizes_by_constant_expressions(at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]),
                                    N);
    };
    c.host = [=](unsigned char *p) {
      source::sizes_by_constant_expressions(at<__half>(p, a[0]), at<__half>(p, a[1]),
                                            at<float>(p, a[2]), N);
    };
    cases.push_back(c);
  }
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    Case c;
    c.name = "sizes_by_const_reference " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M) * N, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      const long k = K;
      sizes_by_const_reference(at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]), M, N,
                               k);
    };
    c.host = [=](unsigned char *p) {
      const long k = K;
      source::sizes_by_const_reference(at<__half>(p, a[0]), at<__half>(p, a[1]),
                                       at<float>(p, a[2]), M, N, k);
    };
    cases.push_back(c);
  }
  // Every size a constant (the shapes are the functions').
  auto constant = [&](const char *name, std::vector<std::pair<size_t, Elem>> arrays,
                      std::function<void(unsigned char *, const std::vector<ArrayAt> &)> device,
                      std::function<void(unsigned char *, const std::vector<ArrayAt> &)> host) {
    Case c;
    c.name = name;
    c.arrays = apart_arrays(arrays);
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) { device(p, a); };
    c.host = [=](unsigned char *p) { host(p, a); };
    cases.push_back(c);
  };
  constant("sizes_constant_triangular 200x136x200",
           {{200 * 200, Elem::F16}, {200 * 136, Elem::F16}, {200 * 136, Elem::F32}},
           [](unsigned char *p, const std::vector<ArrayAt> &a) {
             sizes_constant_triangular(at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
           },
           [](unsigned char *p, const std::vector<ArrayAt> &a) {
             source::sizes_constant_triangular(at<__half>(p, a[0]), at<__half>(p, a[1]),
                                               at<float>(p, a[2]));
           });
  constant("sizes_constant_prologue 130x72x88",
           {{130 * 88, Elem::F16}, {88 * 72, Elem::F16}, {130 * 72, Elem::F32}},
           [](unsigned char *p, const std::vector<ArrayAt> &a) {
             sizes_constant_prologue(at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
           },
           [](unsigned char *p, const std::vector<ArrayAt> &a) {
             source::sizes_constant_prologue(at<__half>(p, a[0]), at<__half>(p, a[1]),
                                             at<float>(p, a[2]));
           });
  constant("sizes_constant_sum 96x136x(40+24)",
           {{96 * 40, Elem::F16}, {40 * 136, Elem::F16}, {96 * 24, Elem::F16},
            {24 * 136, Elem::F16}, {96 * 136, Elem::F32}},
           [](unsigned char *p, const std::vector<ArrayAt> &a) {
             sizes_constant_sum(at<__half>(p, a[0]), at<__half>(p, a[1]), at<__half>(p, a[2]),
                                at<__half>(p, a[3]), at<float>(p, a[4]));
           },
           [](unsigned char *p, const std::vector<ArrayAt> &a) {
             source::sizes_constant_sum(at<__half>(p, a[0]), at<__half>(p, a[1]),
                                        at<__half>(p, a[2]), at<__half>(p, a[3]),
                                        at<float>(p, a[4]));
           });
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    Case c;
    c.name = "sizes_converted " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M) * N, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      sizes_converted(unsigned(M), size_t(N), K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                      at<float>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::sizes_converted(unsigned(M), size_t(N), K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                              at<float>(p, a[2]));
    };
    cases.push_back(c);
  }
}

// --- loops.cu ---------------------------------------------------------------------
// A case of one of the loops_* functions of signature (M, N, K, A, B, C).
template <class Out, class Fn>
Case loops_case(const std::string &name, Fn device_fn, Fn host_fn, int M, int N, int K) {
  Case c;
  c.name = name + " " + shape(M, N, K);
  Elem out = sizeof(Out) == 2 ? Elem::F16 : Elem::F32;
  c.arrays = apart_arrays(
      {{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16}, {size_t(M) * N, out}});
  c.overlapping = false;
  auto a = c.arrays;
  c.device = [=](unsigned char *p) {
    device_fn(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]), at<Out>(p, a[2]));
  };
  c.host = [=](unsigned char *p) {
    host_fn(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]), at<Out>(p, a[2]));
  };
  return c;
}

void add_loops_cases(std::vector<Case> &cases) {
  const std::vector<std::array<int, 3>> shapes = {{1, 1, 1}, {70, 130, 33}, {129, 64, 200},
                                                  {256, 264, 72}};
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    cases.push_back(loops_case<float>("loops_one_based", loops_one_based, source::loops_one_based,
                                      M, N, K));
    cases.push_back(loops_case<float>("loops_reversed", loops_reversed, source::loops_reversed, M,
                                      N, K));
    cases.push_back(loops_case<float>("loops_not_equal", loops_not_equal, source::loops_not_equal,
                                      M, N, K));
    cases.push_back(loops_case<__half>("loops_downward_columns", loops_downward_columns,
                                       source::loops_downward_columns, M, N, K));
    cases.push_back(loops_case<float>("loops_strided_rows", loops_strided_rows,
                                      source::loops_strided_rows, M, N, K));
    cases.push_back(loops_case<float>("loops_strided_k", loops_strided_k, source::loops_strided_k,
                                      M, N, K));
    cases.push_back(loops_case<float>("loops_even_k", loops_even_k, source::loops_even_k, M, N, K));
    cases.push_back(loops_case<float>("loops_strided_triangle", loops_strided_triangle,
                                      source::loops_strided_triangle, M, N, K));
    // Rows lo .. lo + M - 1.
    const int lo = 3 * M + 1;
    Case c;
    c.name = "loops_row_range lo " + std::to_string(lo) + " " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M) * N, Elem::F16}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      loops_row_range(lo, lo + M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                      at<__half>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::loops_row_range(lo, lo + M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                              at<__half>(p, a[2]));
    };
    cases.push_back(c);
  }
  // Views: A from row r0, column c0 of a wider array (c0 = 8 and an lda of
  // a multiple of 8 keep the view 16-byte aligned: the TMA kernels; c0 = 5
  // does not), B from (1, 2), C from row 1.
  for (const auto &s : shapes) {
    for (int c0 : {5, 8}) {
      const int M = s[0], N = s[1], K = s[2], r0 = 3;
      const int lda = (K + c0 + 7) / 8 * 8 + 8;
      Case c;
      c.name = "loops_operand_views c0 " + std::to_string(c0) + " lda " + std::to_string(lda) +
               " " + shape(M, N, K);
      c.arrays = apart_arrays({{size_t(M + r0) * lda, Elem::F16},
                               {size_t(K + 1) * N + 2, Elem::F16},
                               {size_t(M + 1) * N, Elem::F16}});
      c.overlapping = false;
      auto a = c.arrays;
      c.device = [=](unsigned char *p) {
        loops_operand_views(M, N, K, r0, c0, lda, at<__half>(p, a[0]), at<__half>(p, a[1]),
                            at<__half>(p, a[2]));
      };
      c.host = [=](unsigned char *p) {
        source::loops_operand_views(M, N, K, r0, c0, lda, at<__half>(p, a[0]),
                                    at<__half>(p, a[1]), at<__half>(p, a[2]));
      };
      cases.push_back(c);
    }
  }
  // Literal leading dimensions: A's rows 200 apart, B's and C's 64; K
  // beyond 200 (rows of A read into the next) and N beyond 64 (C's rows
  // overlap: the loops as written run).
  for (const std::array<int, 3> &s : std::vector<std::array<int, 3>>{
           {1, 1, 1}, {70, 64, 33}, {129, 40, 200}, {33, 64, 300}, {20, 100, 48}}) {
    const int M = s[0], N = s[1], K = s[2];
    Case c;
    c.name = "loops_literal_strides " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M - 1) * 200 + K, Elem::F16},
                             {size_t(K - 1) * 64 + N, Elem::F16},
                             {size_t(M - 1) * 64 + N, Elem::F32}});
    c.overlapping = N > 64;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      loops_literal_strides(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::loops_literal_strides(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                    at<float>(p, a[2]));
    };
    cases.push_back(c);
  }
  // Weights shared by every batch, the batch loop outside and inside the
  // rows' loop.
  for (const std::array<int, 4> &s : std::vector<std::array<int, 4>>{
           {1, 1, 1, 1}, {3, 70, 64, 33}, {2, 129, 130, 200}, {5, 33, 8, 1000}}) {
    const int Bt = s[0], M = s[1], N = s[2], K = s[3];
    for (bool rows_outside : {false, true}) {
      Case c;
      c.name = std::string(rows_outside ? "loops_shared_weights_rows_outside Bt "
                                        : "loops_shared_weights Bt ") +
               std::to_string(Bt) + " " + shape(M, N, K);
      c.arrays = apart_arrays({{size_t(Bt) * M * K, Elem::F16},
                               {size_t(K) * N, Elem::F16},
                               {size_t(Bt) * M * N, Elem::F32}});
      c.overlapping = false;
      auto a = c.arrays;
      c.device = [=](unsigned char *p) {
        (rows_outside ? loops_shared_weights_rows_outside : loops_shared_weights)(
            Bt, M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
      };
      c.host = [=](unsigned char *p) {
        (rows_outside ? source::loops_shared_weights_rows_outside
                      : source::loops_shared_weights)(Bt, M, N, K, at<__half>(p, a[0]),
                                                      at<__half>(p, a[1]), at<float>(p, a[2]));
      };
      cases.push_back(c);
    }
  }
  // A batch under the split_k clause: whole and partial tiles, K of one
  // k tile and of many, K not a multiple of 8 (no TMA map: the cp.async
  // kernel).
  for (const std::array<int, 4> &s : std::vector<std::array<int, 4>>{
           {1, 1, 1, 1}, {3, 70, 64, 200}, {2, 129, 130, 1000}, {4, 128, 256, 64},
           {5, 33, 40, 333}}) {
    const int Bt = s[0], M = s[1], N = s[2], K = s[3];
    Case c;
    c.name = "loops_batched_split Bt " + std::to_string(Bt) + " " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(Bt) * M * K, Elem::F16},
                             {size_t(Bt) * N * K, Elem::F16},
                             {size_t(Bt) * M * N, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      loops_batched_split(Bt, M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                          at<float>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::loops_batched_split(Bt, M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                  at<float>(p, a[2]));
    };
    cases.push_back(c);
  }
  // An output offset of either sign: rows that overlap (off = -64, N =
  // 128: the serial kernel's order decides each element) and rows that do
  // not (off = 8, N = 50).
  for (const std::array<int, 4> &s : std::vector<std::array<int, 4>>{
           {33, 128, 70, -64}, {70, 50, 33, 8}, {20, 64, 200, 0}, {9, 40, 16, -3}}) {
    const int M = s[0], N = s[1], K = s[2], off = s[3];
    const size_t base = 64;  // C's first element at base + off
    Case c;
    c.name = "loops_output_offset off " + std::to_string(off) + " " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16},
                             {size_t(K) * N, Elem::F16},
                             {base + size_t(M - 1) * 64 + N + 64, Elem::F32}});
    c.overlapping = off < 0 || N + off > 64;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      loops_output_offset(M, N, K, off, at<__half>(p, a[0]), at<__half>(p, a[1]),
                          at<float>(p, a[2]) + base);
    };
    c.host = [=](unsigned char *p) {
      source::loops_output_offset(M, N, K, off, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                  at<float>(p, a[2]) + base);
    };
    cases.push_back(c);
  }
  // Literal strides beside parameters (batches of M rows, rows from off).
  for (const std::array<int, 5> &s : std::vector<std::array<int, 5>>{
           {1, 1, 1, 1, 0}, {3, 70, 64, 33, 5}, {2, 129, 40, 128, 0}, {4, 33, 64, 200, 1},
           {2, 20, 100, 48, 3}}) {
    const int Bt = s[0], M = s[1], N = s[2], K = s[3], off = s[4];
    Case c;
    c.name = "loops_literal_batched Bt " + std::to_string(Bt) + " off " + std::to_string(off) +
             " " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(Bt * M + off - 1) * 128 + K, Elem::F16},
                             {size_t(Bt * K - 1) * 64 + N, Elem::F16},
                             {size_t(Bt * M - 1) * 64 + N, Elem::F32}});
    c.overlapping = N > 64;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      loops_literal_batched(Bt, M, N, K, off, at<__half>(p, a[0]), at<__half>(p, a[1]),
                            at<float>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::loops_literal_batched(Bt, M, N, K, off, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                    at<float>(p, a[2]));
    };
    cases.push_back(c);
  }
  // Unsigned arithmetic in the value: (i - j) and (j - N) wrap to about
  // 4.3e9, 4.3 after the 1e-9 scale; signed arithmetic would give about 0.
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    Case c;
    c.name = "loops_unsigned_values " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M) * N, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      loops_unsigned_values(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::loops_unsigned_values(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                    at<float>(p, a[2]));
    };
    cases.push_back(c);
  }
  // In place (C = A, N == K): the columns' order matters.
  for (int n : {7, 40}) {
    const int M = 33, N = n, K = n;
    Case c;
    c.name = "loops_downward_columns " + shape(M, N, K) + " in place (C = A)";
    size_t a = 0, b = size_t(M) * K * 2 + 512, out = 0;
    c.arrays = {{a, size_t(M) * K, Elem::F16}, {b, size_t(K) * N, Elem::F16},
                {out, size_t(M) * N, Elem::F16}};
    c.overlapping = true;
    auto arr = c.arrays;
    c.device = [=](unsigned char *p) {
      loops_downward_columns(M, N, K, at<__half>(p, arr[0]), at<__half>(p, arr[1]),
                             at<__half>(p, arr[2]));
    };
    c.host = [=](unsigned char *p) {
      source::loops_downward_columns(M, N, K, at<__half>(p, arr[0]), at<__half>(p, arr[1]),
                                     at<__half>(p, arr[2]));
    };
    cases.push_back(c);
  }
}

// --- domains.cu -------------------------------------------------------------------
void add_domains_cases(std::vector<Case> &cases) {
  auto simple = [&](const std::string &name, std::vector<ArrayAt> arrays,
                    std::function<void(unsigned char *)> device,
                    std::function<void(unsigned char *)> host, double max_ms = 0) {
    Case c;
    c.name = name;
    c.arrays = std::move(arrays);
    c.overlapping = false;
    c.device = std::move(device);
    c.host = std::move(host);
    c.max_ms = max_ms;
    cases.push_back(c);
  };
  // One case of each region at a shape, the rewritten and the source
  // function on the same arrays.
  auto trmm = [&](int M, int N, const std::string &label = "", double max_ms = 0) {
    auto a = apart_arrays({{size_t(M) * M, Elem::F16}, {size_t(M) * N, Elem::F16},
                           {size_t(M) * N, Elem::F32}});
    simple("domains_trmm " + label + shape(M, N, M), a,
           [=](unsigned char *p) {
             domains_trmm(M, N, at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
           },
           [=](unsigned char *p) {
             source::domains_trmm(M, N, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                  at<float>(p, a[2]));
           },
           max_ms);
  };
  auto syrk = [&](int M, int K) {
    auto a = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(M) * M, Elem::F32}});
    simple("domains_syrk " + shape(M, M, K), a,
           [=](unsigned char *p) { domains_syrk(M, K, at<__half>(p, a[0]), at<float>(p, a[1])); },
           [=](unsigned char *p) {
             source::domains_syrk(M, K, at<__half>(p, a[0]), at<float>(p, a[1]));
           });
  };
  auto guarded = [&](int M, int N, int K) {
    auto a = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                           {size_t(N), Elem::F32}, {size_t(M) * N, Elem::F16}});
    simple("domains_guarded " + shape(M, N, K), a,
           [=](unsigned char *p) {
             domains_guarded(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                             at<float>(p, a[2]), at<__half>(p, a[3]));
           },
           [=](unsigned char *p) {
             source::domains_guarded(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                     at<float>(p, a[2]), at<__half>(p, a[3]));
           });
  };
  auto conjunction = [&](int M, int N, int K) {
    auto a = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                           {size_t(M) * N, Elem::F32}});
    simple("domains_conjunction " + shape(M, N, K), a,
           [=](unsigned char *p) {
             domains_conjunction(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                 at<float>(p, a[2]));
           },
           [=](unsigned char *p) {
             source::domains_conjunction(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                         at<float>(p, a[2]));
           });
  };
  auto mask_b = [&](int M, int N, int K) {
    auto a = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(N) * K, Elem::F16},
                           {size_t(M) * N, Elem::F32}});
    simple("domains_mask_b " + shape(M, N, K), a,
           [=](unsigned char *p) {
             domains_mask_b(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
           },
           [=](unsigned char *p) {
             source::domains_mask_b(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                                    at<float>(p, a[2]));
           });
  };
  auto syrk_ldc = [&](int N, int K, int ldc) {
    auto a = apart_arrays({{size_t(N) * K, Elem::F16}, {size_t(N) * std::max(N, ldc), Elem::F32}});
    simple("domains_syrk_ldc ldc " + std::to_string(ldc) + " " + shape(N, N, K), a,
           [=](unsigned char *p) {
             domains_syrk_ldc(N, K, ldc, at<__half>(p, a[0]), at<float>(p, a[1]));
           },
           [=](unsigned char *p) {
             source::domains_syrk_ldc(N, K, ldc, at<__half>(p, a[0]), at<float>(p, a[1]));
           });
  };
  for (const auto &s : std::vector<std::array<int, 3>>{
           {1, 1, 1}, {70, 130, 33}, {129, 64, 200}, {256, 264, 72}, {200, 136, 40}}) {
    const int M = s[0], N = s[1], K = s[2];
    trmm(M, N);
    syrk(M, K);
    guarded(M, N, K);
    conjunction(M, N, K);
    mask_b(M, N, K);
  }
  // Shapes for the other kernels of the launchers' choice: many tiles
  // (persistent blocks), few tiles over a long k (split k, stream units).
  for (const auto &s : std::vector<std::array<int, 3>>{
           {2048, 2048, 512}, {256, 256, 8192}, {1024, 136, 1000}, {128, 4096, 4096}}) {
    const int M = s[0], N = s[1], K = s[2];
    syrk(M, K);
    guarded(M, N, K);
    conjunction(M, N, K);
  }
  // ldc = N: the kernel; ldc < N: rows overlap, the loops as written run.
  for (const auto &s : std::vector<std::array<int, 3>>{
           {129, 70, 129}, {200, 64, 130}, {257, 300, 129}, {64, 33, 40}})
    syrk_ldc(s[0], s[1], s[2]);
  for (const auto &s : std::vector<std::array<int, 2>>{{2048, 2048}, {1536, 256}, {256, 4096}})
    trmm(s[0], s[1]);
  trmm(512, 512, "(the kernel runs) ", 50);
}

// --- fusion.cu --------------------------------------------------------------------
void add_fusion_cases(std::vector<Case> &cases) {
  const std::vector<std::array<int, 4>> shapes = {
      {1, 1, 1, 1}, {70, 130, 33, 17}, {129, 64, 200, 72}, {256, 264, 72, 40}};
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K1 = s[2], K2 = s[3];
    const std::string dims = shape(M, N, K1) + " + K2 " + std::to_string(K2);
    const size_t MN = size_t(M) * N;
    {
      Case c;
      c.name = "fusion_arrays " + dims;
      c.arrays = apart_arrays({{size_t(M) * K1, Elem::F16}, {size_t(K1) * N, Elem::F16},
                               {size_t(M) * K2, Elem::F16}, {size_t(K2) * N, Elem::F16},
                               {MN, Elem::F32}, {MN, Elem::F32}, {MN, Elem::F32}});
      c.overlapping = false;
      auto a = c.arrays;
      auto args = [=](unsigned char *p, auto fn) {
        fn(M, N, K1, K2, at<__half>(p, a[0]), at<__half>(p, a[1]), at<__half>(p, a[2]),
           at<__half>(p, a[3]), at<float>(p, a[4]), at<float>(p, a[5]), at<float>(p, a[6]));
      };
      c.device = [=](unsigned char *p) { args(p, fusion_arrays); };
      c.host = [=](unsigned char *p) { args(p, source::fusion_arrays); };
      cases.push_back(c);
    }
    {
      Case c;
      c.name = "fusion_locals " + dims;
      c.arrays = apart_arrays({{size_t(M) * K1, Elem::F16}, {size_t(N) * K1, Elem::F16},
                               {size_t(M) * K2, Elem::F16}, {size_t(N) * K2, Elem::F16},
                               {size_t(N), Elem::F32}, {MN, Elem::F32}, {MN, Elem::F32},
                               {MN, Elem::F16}});
      c.overlapping = false;
      auto a = c.arrays;
      auto args = [=](unsigned char *p, auto fn) {
        fn(M, N, K1, K2, at<__half>(p, a[0]), at<__half>(p, a[1]), at<__half>(p, a[2]),
           at<__half>(p, a[3]), at<float>(p, a[4]), at<float>(p, a[5]), at<float>(p, a[6]),
           at<__half>(p, a[7]));
      };
      c.device = [=](unsigned char *p) { args(p, fusion_locals); };
      c.host = [=](unsigned char *p) { args(p, source::fusion_locals); };
      cases.push_back(c);
    }
    {
      Case c;
      c.name = "fusion_column_major " + dims;
      c.arrays = apart_arrays({{size_t(M) * K1, Elem::F16}, {size_t(K1) * N, Elem::F16},
                               {size_t(M) * K2, Elem::F16}, {size_t(K2) * N, Elem::F16},
                               {MN, Elem::F32}, {MN, Elem::F32}, {MN, Elem::F32}});
      c.overlapping = false;
      auto a = c.arrays;
      auto args = [=](unsigned char *p, auto fn) {
        fn(M, N, K1, K2, at<__half>(p, a[0]), at<__half>(p, a[1]), at<__half>(p, a[2]),
           at<__half>(p, a[3]), at<float>(p, a[4]), at<float>(p, a[5]), at<float>(p, a[6]));
      };
      c.device = [=](unsigned char *p) { args(p, fusion_column_major); };
      c.host = [=](unsigned char *p) { args(p, source::fusion_column_major); };
      cases.push_back(c);
    }
  }
  // fusion_three: arrays A B P Q U V C R S Z at the given byte offsets.
  auto three = [](const std::string &how, int M, int N, int K, std::vector<size_t> offsets,
                  bool overlapping, double max_ms) {
    const size_t MN = size_t(M) * N, MK = size_t(M) * K, KN = size_t(K) * N;
    Case c;
    c.name = "fusion_three " + how + " " + shape(M, N, K) + " (K1 = K2 = K3)";
    const std::vector<std::pair<size_t, Elem>> sizes = {
        {MK, Elem::F16}, {KN, Elem::F16}, {MK, Elem::F16}, {KN, Elem::F16}, {MK, Elem::F16},
        {KN, Elem::F16}, {MN, Elem::F32}, {MN, Elem::F32}, {MN, Elem::F32}, {MN, Elem::F32}};
    if (offsets.empty()) {
      std::vector<size_t> bytes;
      for (auto &[n, e] : sizes)
        bytes.push_back(n * bytes_of(e));
      offsets = apart(bytes);
    }
    for (size_t i = 0; i < sizes.size(); ++i)
      c.arrays.push_back({offsets[i], sizes[i].first, sizes[i].second});
    c.overlapping = overlapping;
    c.max_ms = max_ms;
    auto a = c.arrays;
    auto args = [=](unsigned char *p, auto fn) {
      fn(M, N, K, K, K, at<__half>(p, a[0]), at<__half>(p, a[1]), at<__half>(p, a[2]),
         at<__half>(p, a[3]), at<__half>(p, a[4]), at<__half>(p, a[5]), at<float>(p, a[6]),
         at<float>(p, a[7]), at<float>(p, a[8]), at<float>(p, a[9]));
    };
    c.device = [=](unsigned char *p) { args(p, fusion_three); };
    c.host = [=](unsigned char *p) { args(p, source::fusion_three); };
    return c;
  };
  for (const auto &s : shapes)
    cases.push_back(three("apart", s[0], s[1], s[2], {}, false, 0));
  cases.push_back(three("apart", 512, 512, 256, {}, false, 50.0));
  // The output in place of the scratch array C, and R one element after
  // the output (both fp32).
  for (auto [M, N, K] : std::vector<std::array<int, 3>>{{1, 1, 1}, {33, 20, 17}}) {
    const size_t MN = size_t(M) * N, MK = size_t(M) * K, KN = size_t(K) * N;
    std::vector<size_t> offsets = apart({MK * 2, KN * 2, MK * 2, KN * 2, MK * 2, KN * 2});
    const size_t z = (offsets.back() + KN * 2 + 511) / 256 * 256, s = z + MN * 4 + 4096;
    offsets.insert(offsets.end(), {z, z + 4, s, z});  // C = Z, R = Z + 1 element, S apart
    cases.push_back(three("Z in place of C, R one element after Z", M, N, K, offsets, true, 0));
  }
}

// --- templates.cu -----------------------------------------------------------------
template <class T> Elem elem_of() { return sizeof(T) == 4 ? Elem::F32 : std::is_same<T, __half>::value ? Elem::F16 : Elem::BF16; }

template <class T> void add_template_cases(std::vector<Case> &cases, const char *type) {
  const std::vector<std::array<int, 3>> shapes = {{1, 1, 1}, {70, 130, 33}, {256, 264, 72}};
  for (const auto &s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    {
      Case c;
      c.name = std::string("templ_gemm<") + type + "> " + shape(M, N, K);
      c.arrays = apart_arrays({{size_t(M) * K, elem_of<T>()}, {size_t(K) * N, elem_of<T>()},
                               {size_t(M) * N, Elem::F32}});
      c.overlapping = false;
      auto a = c.arrays;
      c.device = [=](unsigned char *p) {
        templ_gemm<T>(M, N, K, at<T>(p, a[0]), at<T>(p, a[1]), at<float>(p, a[2]));
      };
      c.host = [=](unsigned char *p) {
        source::templ_gemm<T>(M, N, K, at<T>(p, a[0]), at<T>(p, a[1]), at<float>(p, a[2]));
      };
      cases.push_back(c);
    }
    {
      Case c;
      c.name = std::string("TemplLayer<") + type + ">::apply " + shape(M, N, K);
      c.arrays = apart_arrays({{size_t(M) * K, elem_of<T>()}, {size_t(N) * K, elem_of<T>()},
                               {size_t(M) * N, elem_of<T>()}});
      c.overlapping = false;
      auto a = c.arrays;
      c.device = [=](unsigned char *p) {
        TemplLayer<T>{M, N, K}.apply(at<T>(p, a[0]), at<T>(p, a[1]), at<T>(p, a[2]));
      };
      c.host = [=](unsigned char *p) {
        source::TemplLayer<T>{M, N, K}.apply(at<T>(p, a[0]), at<T>(p, a[1]), at<T>(p, a[2]));
      };
      cases.push_back(c);
    }
  }
}

void add_scaled_cases(std::vector<Case> &cases) {
  for (int M : {1, 77, 200}) {
    const int N = 96, K = 40;
    Case c;
    c.name = "templ_scaled<3> " + shape(M, N, K);
    c.arrays = apart_arrays({{size_t(M) * K, Elem::F16}, {size_t(K) * N, Elem::F16},
                             {size_t(M) * N, Elem::F32}});
    c.overlapping = false;
    auto a = c.arrays;
    c.device = [=](unsigned char *p) {
      templ_scaled<3>(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]), at<float>(p, a[2]));
    };
    c.host = [=](unsigned char *p) {
      source::templ_scaled<3>(M, N, K, at<__half>(p, a[0]), at<__half>(p, a[1]),
                              at<float>(p, a[2]));
    };
    cases.push_back(c);
  }
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("GPU: %s\n", prop.name);
  std::mt19937 rng(20261202);
  std::vector<Case> cases;

  // Apart: the kernels, at shapes with partial tiles.
  for (auto [M, N, K] : std::vector<std::array<int, 3>>{
           {1, 1, 1}, {17, 33, 65}, {64, 64, 64}, {130, 250, 70}, {128, 256, 192}, {300, 129, 257}})
    cases.push_back(gemm_apart(M, N, K));
  // Adjacent: C begins where A ends, B where C ends; no byte shared.
  {
    int M = 512, N = 512, K = 512;
    size_t a = 0, c = size_t(M) * K * 2, b = c + size_t(M) * N * 2;
    cases.push_back(gemm_case("adjacent", M, N, K, a, b, c, false, 50.0));
    cases.push_back(gemm_case("adjacent", 96, 40, 24, 0, 96 * 24 * 2 + 96 * 40 * 2, 96 * 24 * 2, false));
  }
  // Overlapping: in place (C is A, N == K), C over B's second half, C's
  // first element on A's last.
  cases.push_back(gemm_case("in place (C = A)", 48, 40, 40, 0, 48 * 40 * 2 + 512, 0, true));
  cases.push_back(gemm_case("in place (C = A)", 1, 7, 7, 0, 256, 0, true));
  // What the serial kernel costs (README): 256^3 multiply-adds on one thread.
  cases.push_back(gemm_case("in place (C = A)", 256, 256, 256, 0, 256 * 256 * 2 + 512, 0, true));
  cases.push_back(gemm_case("C over B's second half", 33, 50, 20, 0, 4096, 4096 + 20 * 50, true));
  {
    int M = 20, N = 30, K = 10;
    size_t a = 0, c = size_t(M) * K * 2 - 2, b = 8192;
    cases.push_back(gemm_case("C's first on A's last", M, N, K, a, b, c, true));
  }

  // PolyBench rows: apart and adjacent (the output is fp32: no overlap case
  // of another type, which would read fp16 bits as floats).
  for (int M : {1, 77, 300}) {
    auto at = apart({size_t(M) * 64 * 2, 64 * 96 * 2, size_t(M) * 96 * 4});
    cases.push_back(rows_case("apart", M, at[0], at[1], at[2]));
  }
  cases.push_back(rows_case("adjacent", 4096, 0, 4096 * 64 * 2 + 4096 * 96 * 4, 4096 * 64 * 2, 50.0));

  // Leading dimensions and beta * C: apart, and C between A's rows' ends
  // and B (adjacent to both).
  cases.push_back(blas_case("apart", 70, 90, 33, 40, 100, 96, 0, 8192, 65536, false));
  cases.push_back(blas_case("apart", 129, 257, 65, 72, 264, 264, 0, 32768, 131072, false));
  {
    int M = 40, N = 24, K = 16, lda = 16, ldb = 24, ldc = 24;
    size_t a = 0, c = size_t(M) * lda * 2, b = c + size_t(M) * ldc * 4;
    cases.push_back(blas_case("adjacent", M, N, K, lda, ldb, ldc, a, b, c, false));
  }

  // Bias and ReLU: apart, and in place over A.
  cases.push_back(bias_case("apart", 100, 72, 56, 0, 16384, 32768, 49152, false));
  cases.push_back(bias_case("in place (C = A)", 36, 44, 44, 0, 8192, 16384, 0, true));

  add_domains_cases(cases);
  add_fusion_cases(cases);
  add_loops_cases(cases);
  add_sizes_cases(cases);
  add_template_cases<__half>(cases, "__half");
  add_template_cases<__nv_bfloat16>(cases, "__nv_bfloat16");
  add_scaled_cases(cases);

  for (const Case &c : cases)
    run(c, rng);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
