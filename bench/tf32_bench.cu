// TF32 GEMM benchmark: the rewritten allow_tf32 regions of
// bench/tf32/gemm_tf32.cu against cuBLAS TF32 (cublasGemmEx,
// CUBLAS_COMPUTE_32F_FAST_TF32) and, where a second rewrite is linked in
// under the names old_bench_tf32_*, against that one (an A/B of two tool
// versions), in one run on one GPU.
//
//   scripts/tf32-bench.sh prepare [OLD_TOOL]   # here
//   scripts/tf32-bench.sh build && scripts/tf32-bench.sh run [SECONDS]   # GPU machine
//
//   tf32_bench [--seconds S]   (default 90) no new shape is started once S
//                              seconds have passed; the summary still comes last.
//
// Shapes (M, N, K): squares 512..8192; LLM projections M in {16, 128, 1024,
// 4096} x (N, K) in {(4096, 4096), (14336, 4096), (4096, 14336)}; 20 random
// shapes drawn as the paper protocol does (bench_common.h: M, N, K in turn
// from std::mt19937(kPaperSeed)), but in [64, 8192]: three in four a
// multiple of 64, every fourth any size (mostly not a multiple of 8/16, the
// regions' partial tiles).
// Per (shape, region): cuBLAS TF32 computes the reference from the first
// input set; each tc function writes a NaN-poisoned C and must match it
// (max |tc - ref| / max |ref| <= 5e-3: both round the operands to tf32,
// a 2^-11 relative step, so correct kernels differ by far less; a failed
// row is not timed). Timing is bench_common.h's (L2 flushed, inputs rotated
// over enough sets to cover 2x L2, calls queued behind a spin kernel, the
// median of at least 10 timed calls), each method timed twice in mirrored
// order (new, old, cuBLAS, cuBLAS, old, new) and its lower median kept, as
// gemm_bench does: clocks favour whichever runs first on large shapes.
// Ratios are speeds: new/cuBLAS = cuBLAS time / new time (> 1: the new
// rewrite is faster), new/old likewise.
#define BENCH_PROG "tf32_bench"
#include "bench_common.h"

#include <cublas_v2.h>

#include <chrono>

void bench_tf32_xwt(int, int, int, const float *, const float *, float *);
void bench_tf32_nn(int, int, int, const float *, const float *, float *);
void old_bench_tf32_xwt(int, int, int, const float *, const float *, float *)
    __attribute__((weak));
void old_bench_tf32_nn(int, int, int, const float *, const float *, float *)
    __attribute__((weak));

namespace {

constexpr double kTolerance = 5e-3;

using Fn = void (*)(int, int, int, const float *, const float *, float *);

struct Region {
  const char *name;
  bool b_transposed;  // B stored N x K
  Fn tc, old;
};

const char *const kSets[] = {"square", "llm", "random", "all"};

struct Case {
  int set;  // index into kSets
  Shape s;
};

std::vector<Case> cases() {
  std::vector<Case> v;
  for (int n : {512, 1024, 2048, 3072, 4096, 6144, 8192})
    v.push_back({0, {n, n, n}});
  const int nk[][2] = {{4096, 4096}, {14336, 4096}, {4096, 14336}};
  for (int M : {16, 128, 1024, 4096})
    for (auto &p : nk)
      v.push_back({1, {M, p[0], p[1]}});
  std::mt19937 rng(kPaperSeed);
  std::uniform_int_distribution<int> aligned(1, 128), any(64, 8192);
  for (int i = 0; i < 20; ++i) {
    auto draw = [&] { return i % 4 == 3 ? any(rng) : 64 * aligned(rng); };
    const int M = draw(), N = draw(), K = draw();
    v.push_back({2, {M, N, K}});
  }
  return v;
}

struct Bench : Timer {
  cublasHandle_t handle;
  Pool buf;

  // cuBLAS on row-major operands: C^T = B^T A^T in column-major terms.
  cublasStatus_t cublas(const Region &r, const Shape &s, const float *a, const float *b,
                        float *c) {
    const float alpha = 1.0f, beta = 0.0f;
    return cublasGemmEx(handle, r.b_transposed ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, s.N,
                        s.M, s.K, &alpha, b, CUDA_R_32F, r.b_transposed ? s.K : s.N, a,
                        CUDA_R_32F, s.K, &beta, c, CUDA_R_32F, s.N,
                        CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
  }
};

// Per region and shape set (and "all"): geomeans over the timed rows.
struct Agg {
  int rows = 0, failed = 0, n_cublas = 0, n_old = 0;
  double log_cublas = 0, log_old = 0, log_tf_new = 0, log_tf_cublas = 0;
  static std::string geo(double log_sum, int n, const char *f) {
    return fmt(f, n ? std::exp(log_sum / n) : NAN);
  }
};

}  // namespace

int main(int argc, char **argv) {
  double budget_s = 90;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
      budget_s = atof(argv[++i]);
    else
      die("usage: tf32_bench [--seconds S]");
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  Bench B;
  B.init_timer();
  check_cuda(cublasCreate(&B.handle) == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown,
             "cublasCreate");
  const Region regions[] = {{"tf32_xwt", true, bench_tf32_xwt, old_bench_tf32_xwt},
                            {"tf32_nn", false, bench_tf32_nn, old_bench_tf32_nn}};
  const std::vector<Case> all = cases();
  Agg aggs[2][4];  // [region][set]
  printf("GPU: %s (%d SMs); old rewrite %s\n", B.prop.name, B.prop.multiProcessorCount,
         old_bench_tf32_xwt ? "linked" : "not linked");
  printf("%-9s %-6s %-17s %-5s %9s %9s %9s %9s %9s %10s %8s\n", "region", "set",
         "M x N x K", "check", "rel err", "new ms", "new TF/s", "cuBLAS TF", "old TF",
         "new/cuBLAS", "new/old");
  size_t done = 0;
  for (; done < all.size() && !B.context_lost && elapsed() < budget_s; ++done) {
    const Shape s = all[done].s;
    // A is M x K and B holds N x K elements in either layout, so both
    // regions share one shape's buffer sets.
    const size_t a = (size_t)s.M * s.K, b = (size_t)s.N * s.K, c = (size_t)s.M * s.N;
    const size_t set_bytes = 4 * (round_up(a, 64) + round_up(b, 64) + round_up(c, 64));
    const int sets = B.sets_for(set_bytes);
    B.buf.reserve(set_bytes * sets + 4 * c);
    auto A = [&](int i) { return (const float *)(B.buf.ptr + i * set_bytes); };
    auto Bm = [&](int i) { return A(i) + round_up(a, 64); };
    auto C = [&](int i) { return (float *)(Bm(i) + round_up(b, 64)); };
    float *ref = (float *)(B.buf.ptr + sets * set_bytes);
    for (int i = 0; i < sets; ++i) {
      fill_uniform<float><<<grid_for(a), 256>>>((float *)A(i), a, 2 * i + 1);
      fill_uniform<float><<<grid_for(b), 256>>>((float *)Bm(i), b, 2 * i + 2);
    }
    char shape[64];
    snprintf(shape, sizeof shape, "%dx%dx%d", s.M, s.N, s.K);
    const double flops = 2.0 * s.M * s.N * s.K;
    const char *set = kSets[all[done].set];
    for (int ri = 0; ri < 2 && !B.context_lost; ++ri) {
      const Region &r = regions[ri];
      Agg &g = aggs[ri][all[done].set], &ga = aggs[ri][3];
      ++g.rows, ++ga.rows;
      check_cuda(B.cublas(r, s, A(0), Bm(0), ref) == CUBLAS_STATUS_SUCCESS ? cudaSuccess
                                                                           : cudaErrorUnknown,
                 "cuBLAS reference");
      std::string err;
      auto check = [&](Fn fn, double &e) {
        cudaMemset(C(0), 0xff, c * 4);  // NaN: every element must be written
        fn(s.M, s.N, s.K, A(0), Bm(0), C(0));
        cudaError_t ce = cudaDeviceSynchronize();
        if (ce != cudaSuccess) {
          err = "ERROR(" + B.cuda_failure(ce) + ")";
          return false;
        }
        e = B.rel_error(C(0), ref, c, err);
        if (e == e && e > kTolerance)
          err = "rel err " + fmt("%.2e", e);
        return e <= kTolerance;
      };
      double e_new = NAN, e_old = NAN;
      if (!check(r.tc, e_new)) {
        printf("%-9s %-6s %-17s %-5s %s\n", r.name, set, shape, "FAIL", err.c_str());
        ++g.failed, ++ga.failed;
        continue;
      }
      const bool old_ok = r.old && check(r.old, e_old);
      if (r.old && !old_ok)
        printf("(old rewrite of %s %s FAIL: %s)\n", r.name, shape, err.c_str());
      // Methods timed in mirrored order; each keeps its lower median.
      int reps = 0;
      double t[3] = {INFINITY, INFINITY, INFINITY};  // new, old, cuBLAS
      const int order[] = {0, 1, 2, 2, 1, 0};
      for (int m : order) {
        if (m == 1 && !old_ok)
          continue;
        const double ms = B.time_calls(
            [&](int i) {
              if (m == 2)
                B.cublas(r, s, A(i), Bm(i), C(i));
              else
                (m == 0 ? r.tc : r.old)(s.M, s.N, s.K, A(i), Bm(i), C(i));
            },
            sets, reps, err);
        t[m] = std::min(t[m], ms == ms ? ms : INFINITY);
      }
      for (double &x : t)  // not run, or every timing failed
        x = std::isinf(x) ? NAN : x;
      auto tf = [&](double ms) { return flops / ms * 1e-9; };
      printf("%-9s %-6s %-17s %-5s %9.2e %9.4f %9.1f %9.1f %9s %10.3f %8s\n", r.name,
             set, shape, "PASS", e_new, t[0], tf(t[0]), tf(t[2]),
             fmt("%.1f", tf(t[1])).c_str(), t[2] / t[0], fmt("%.3f", t[1] / t[0]).c_str());
      for (Agg *p : {&g, &ga}) {
        if (std::isfinite(t[2] / t[0])) {
          p->log_cublas += std::log(t[2] / t[0]), ++p->n_cublas;
          p->log_tf_new += std::log(tf(t[0])), p->log_tf_cublas += std::log(tf(t[2]));
        }
        if (std::isfinite(t[1] / t[0]))
          p->log_old += std::log(t[1] / t[0]), ++p->n_old;
      }
    }
  }
  // The table, last: geomean speed ratios per region and shape set.
  printf("\n== summary == (%s)\n", B.prop.name);
  printf("%zu of %zu shapes in %.0f s (budget %.0f s)%s; geomeans over the timed rows; "
         "ratios: other time / new time (> 1: new faster)\n",
         done, all.size(), elapsed(), budget_s, B.context_lost ? ", CONTEXT LOST" : "");
  printf("%-9s %-6s %5s %5s %9s %9s %11s %9s\n", "region", "set", "rows", "FAIL",
         "new TF/s", "cuBLAS TF", "new/cuBLAS", "new/old");
  int failed = 0;
  for (int ri = 0; ri < 2; ++ri)
    for (int si = 0; si < 4; ++si) {
      const Agg &g = aggs[ri][si];
      failed += si == 3 ? g.failed : 0;
      printf("%-9s %-6s %5d %5d %9s %9s %11s %9s\n", regions[ri].name, kSets[si], g.rows,
             g.failed, Agg::geo(g.log_tf_new, g.n_cublas, "%.1f").c_str(),
             Agg::geo(g.log_tf_cublas, g.n_cublas, "%.1f").c_str(),
             Agg::geo(g.log_cublas, g.n_cublas, "%.3f").c_str(),
             Agg::geo(g.log_old, g.n_old, "%.3f").c_str());
    }
  return failed || B.context_lost ? 1 : 0;
}
