// GEMM benchmark: the GEMMs that tc-rewrite produces from bench/kernels/*.cu
// against cuBLAS (cublasGemmEx), in one run on one GPU.
//
// Built by scripts/bench-run.sh on the GPU machine together with the
// rewritten kernels (.gpu/bench/*.tc.cu) and the registry header
// (.gpu/bench/registry.h) that scripts/bench-prepare.sh writes: only the
// functions the tool accepted are compiled in.
//
// Usage:
//   gemm_bench [--sets paper,heldout,square,llm,MxNxK] [--funcs name,...] [--quick]
//              [--graphs] [--csv out.csv] [--md out.md] [--list]
//   --list prints the available functions and the selected shapes, and exits
//   without touching the GPU.
//   --graphs times CUDA graphs of the calls instead (bench_common.h; needs a
//   build with --default-stream per-thread).
//
// Functions are named bench_gemm_<type>_<a><b>: <type> is f16 or bf16 (the
// operand and result type; accumulation is fp32), <a>/<b> the layout of A/B,
// r(ow-major: A[i*K+k], B[k*N+j]) or c(olumn-major: A[k*M+i], B[j*K+k]).
// C is always row-major, C[i*N+j].
//
// The shape sets and the timing procedure below live in bench/bench_common.h,
// shared with the fused-idiom benchmark bench/fused_bench.cu.
//
// Shape sets (M, N, K):
//   paper   100 random shapes, each dimension a multiple of 128 in
//           [128, 4096], drawn as M, N, K in turn from std::mt19937(20200612)
//           with std::uniform_int_distribution<int>(1, 32) times 128 (the
//           seed paper's experiment; the distribution's mapping is
//           implementation-defined, so the shapes are exact for libstdc++,
//           and printed in the CSV either way).
//   square  1024, 2048, 4096, 6144, 8192 (M = N = K).
//   llm     M in {16, 32, 64, 128, 512, 2048} x (N, K) in {(6144, 4096),
//           (4096, 4096), (28672, 4096), (4096, 14336)} (LLM projections),
//           plus DeepBench 5124x9124x2560, 35x8457x4096 and 7680x{16, 32,
//           64, 128}x2560.
//   MxNxK   that one shape (e.g. --sets 2304x2176x768,3456x1280x1280).
//   --quick keeps the first 10 paper shapes, 4096^3 and 8192^3, and 6 llm
//           shapes (see kQuickLlm).
//
// Per (function, shape):
//   1. Correctness: cuBLAS computes a reference C from the first input set;
//      the tc function writes a C poisoned with NaN bytes. The error is
//      max|tc - ref| / max|ref|; tolerance 1e-2 for fp16 and 2e-2 for bf16
//      (both results are rounded, so up to two roundings plus accumulation
//      order; real bugs cost far more). Any non-finite output fails. A failed
//      check marks the row FAIL and the tc function is not timed (cuBLAS
//      still is).
//   2. Timing, the same procedure for tc and cuBLAS: L2 is flushed (a
//      memset over 2x L2), 3 warm-up calls estimate the time per call, then
//      N calls (enough for >= 50 ms, at least 10, at most 200) are timed one
//      by one with CUDA events on the legacy default stream, queued behind a
//      short spin kernel so that host launch overhead is not measured; the
//      median is reported. When A+B+C is smaller than 2x L2, the calls
//      rotate over several input/output sets (enough to cover 2x L2, at most
//      kMaxSets), so L2 does not keep the operands between calls.
//
// Output: one progress line per row; CSV (--csv) and markdown (--md) files;
// and, last on stdout, a summary after a line "== summary ==".
// ratio = cuBLAS time / tc time, so > 1 means the rewritten kernel is faster.
// The exit status is nonzero when any row failed its check or errored.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

// Shapes, timing, filling, checking (shared with bench/fused_bench.cu).
#define BENCH_PROG "gemm_bench"
#include "bench_common.h"

// BENCH_FUNCS(X) lists X(name, type, a_layout, b_layout) for each function
// that tc-rewrite accepted (written by scripts/bench-prepare.sh).
#include "registry.h"

#ifndef BENCH_FUNCS
#define BENCH_FUNCS(X)
#endif

typedef __half bench_type_f16;
typedef __nv_bfloat16 bench_type_bf16;

#define BENCH_DECLARE(name, type, la, lb)                                    \
  void name(int M, int N, int K, const bench_type_##type *__restrict__ A,    \
            const bench_type_##type *__restrict__ B,                         \
            bench_type_##type *__restrict__ C);
BENCH_FUNCS(BENCH_DECLARE)
#undef BENCH_DECLARE

namespace {

// --- Configuration --------------------------------------------------------------
constexpr uint64_t kDataSeed = 0x6e6d6d2024ULL;

// --- Functions under test ---------------------------------------------------------
enum class DType { F16, BF16 };

using ErasedFn = void (*)(int, int, int, const void *, const void *, void *);

template <class T, void (*F)(int, int, int, const T *, const T *, T *)>
void erased(int M, int N, int K, const void *A, const void *B, void *C) {
  F(M, N, K, static_cast<const T *>(A), static_cast<const T *>(B),
    static_cast<T *>(C));
}

struct Func {
  const char *name;
  DType type;
  char la, lb;  // 'r' or 'c'
  ErasedFn fn;
};

std::vector<Func> available_funcs() {
  std::vector<Func> v;
#define BENCH_ENTRY(name, type, la, lb)                                       \
  v.push_back(Func{#name, #type[0] == 'f' ? DType::F16 : DType::BF16,      \
                   #la[0], #lb[0], &erased<bench_type_##type, name>});
  BENCH_FUNCS(BENCH_ENTRY)
#undef BENCH_ENTRY
  return v;
}

const char *type_name(DType t) { return t == DType::F16 ? "fp16" : "bf16"; }
double tolerance(DType t) { return t == DType::F16 ? 1e-2 : 2e-2; }

// --- Small utilities ----------------------------------------------------------------
double tflops(const Shape &s, double ms) {
  return 2.0 * s.M * s.N * (double)s.K / (ms * 1e-3) / 1e12;
}

// --- Device memory ----------------------------------------------------------------------
struct Sets {
  int n = 1;
  size_t a_off = 0, b_off = 0, c_off = 0, stride = 0;
  char *base = nullptr;
  void *A(int s) const { return base + (size_t)s * stride + a_off; }
  void *B(int s) const { return base + (size_t)s * stride + b_off; }
  void *C(int s) const { return base + (size_t)s * stride + c_off; }
};

// --- Results --------------------------------------------------------------------------------
struct Row {
  std::string func, set;
  Shape shape;
  double tc_ms = NAN, cublas_ms = NAN, rel_err = NAN;
  int nsets = 1, tc_reps = 0, cublas_reps = 0;
  std::string check;  // PASS, FAIL(...), ERROR(...), NOREF(...), CUBLAS_ERROR(...)
  double ratio() const { return cublas_ms / tc_ms; }
};

struct Bench : Timer {
  cublasHandle_t handle = nullptr;
  Pool pool, ref_buf;

  void init() {
    init_timer();
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
      die("cublasCreate failed");
    cublasSetStream(handle, bench_stream());  // the stream of the tc code's launches
  }

  Sets layout(const Shape &s) {
    const size_t esz = 2;
    Sets st;
    size_t a = round_up((size_t)s.M * s.K * esz, kAlign);
    size_t b = round_up((size_t)s.K * s.N * esz, kAlign);
    size_t c = round_up((size_t)s.M * s.N * esz, kAlign);
    st.a_off = 0;
    st.b_off = a;
    st.c_off = a + b;
    st.stride = a + b + c;
    st.n = sets_for(st.stride);
    pool.reserve(st.stride * st.n);
    ref_buf.reserve(c);
    st.base = pool.ptr;
    return st;
  }

  void fill(const Sets &st, const Shape &s, DType t, uint64_t seed) {
    const size_t na = (size_t)s.M * s.K, nb = (size_t)s.K * s.N;
    const int ga = grid_for(na), gb = grid_for(nb);
    for (int i = 0; i < st.n; ++i) {
      uint64_t sa = mix64(seed ^ (2 * (uint64_t)i)), sb = mix64(seed ^ (2 * (uint64_t)i + 1));
      if (t == DType::F16) {
        fill_uniform<<<ga, 256>>>((__half *)st.A(i), na, sa);
        fill_uniform<<<gb, 256>>>((__half *)st.B(i), nb, sb);
      } else {
        fill_uniform<<<ga, 256>>>((__nv_bfloat16 *)st.A(i), na, sa);
        fill_uniform<<<gb, 256>>>((__nv_bfloat16 *)st.B(i), nb, sb);
      }
    }
    check_cuda(cudaGetLastError(), "fill launch");
    check_cuda(cudaDeviceSynchronize(), "fill");
  }

  // Row-major C = A * B through column-major cuBLAS: C^T (N x M, ld N) =
  // op(B) * op(A), where the memory of a row-major K x N B read column-major
  // is B^T (N x K, ld N) and that of a column-major B (B[j*K+k]) is B
  // (K x N, ld K), which needs a transpose; likewise for A.
  cublasStatus_t cublas_gemm(const Func &f, const Shape &s, const void *A,
                             const void *B, void *C) {
    const float alpha = 1.f, beta = 0.f;
    cudaDataType_t dt = f.type == DType::F16 ? CUDA_R_16F : CUDA_R_16BF;
    cublasOperation_t opB = f.lb == 'r' ? CUBLAS_OP_N : CUBLAS_OP_T;
    cublasOperation_t opA = f.la == 'r' ? CUBLAS_OP_N : CUBLAS_OP_T;
    int ldb = f.lb == 'r' ? s.N : s.K;
    int lda = f.la == 'r' ? s.K : s.M;
    return cublasGemmEx(handle, opB, opA, s.N, s.M, s.K, &alpha, B, dt, ldb,
                        A, dt, lda, &beta, C, dt, s.N, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT);
  }

  // Max relative error of C (set 0) against the reference, or NaN with a
  // reason in `err`.
  double verify(const Func &f, const Shape &s, const void *out, std::string &err) {
    size_t n = (size_t)s.M * s.N;
    if (f.type == DType::F16)
      return rel_error((const __half *)out, (const __half *)ref_buf.ptr, n, err);
    return rel_error((const __nv_bfloat16 *)out, (const __nv_bfloat16 *)ref_buf.ptr, n, err);
  }

  Row run(const Func &f, const std::string &set, const Shape &s) {
    Row row;
    row.func = f.name;
    row.set = set;
    row.shape = s;
    Sets st = layout(s);
    row.nsets = st.n;
    fill(st, s, f.type, kDataSeed ^ mix64(((uint64_t)s.M << 40) ^ ((uint64_t)s.N << 20) ^ s.K));

    // Reference from set 0.
    bool have_ref = false;
    std::string ref_note;
    cublasStatus_t cs = cublas_gemm(f, s, st.A(0), st.B(0), ref_buf.ptr);
    cudaError_t ce = cudaDeviceSynchronize();
    if (cs != CUBLAS_STATUS_SUCCESS)
      ref_note = std::string("cuBLAS ") + cublasGetStatusName(cs);
    else if (ce != cudaSuccess)
      ref_note = "cuBLAS " + cuda_failure(ce);
    else
      have_ref = true;
    if (context_lost) {
      row.check = "ERROR(" + ref_note + ")";
      return row;
    }

    // The call under test, on a poisoned C.
    check_cuda(cudaMemset(st.C(0), 0xFF, (size_t)s.M * s.N * 2), "poison C");
    f.fn(s.M, s.N, s.K, st.A(0), st.B(0), st.C(0));
    ce = cudaGetLastError();
    if (ce == cudaSuccess)
      ce = cudaDeviceSynchronize();
    bool tc_ok = false;
    if (ce != cudaSuccess) {
      row.check = "ERROR(" + cuda_failure(ce) + ")";
      if (context_lost)
        return row;
    } else if (!have_ref) {
      row.check = "NOREF(" + ref_note + ")";
    } else {
      std::string why;
      row.rel_err = verify(f, s, st.C(0), why);
      if (std::isfinite(row.rel_err) && row.rel_err <= tolerance(f.type)) {
        row.check = "PASS";
        tc_ok = true;
      } else {
        row.check = why.empty() ? "FAIL" : "FAIL(" + why + ")";
      }
    }

    // Each method is timed twice, in mirrored order (tc, cuBLAS, cuBLAS,
    // tc), and keeps its lower median: on large shapes the method timed
    // first after the checks measured up to ~10% faster (clocks), which a
    // fixed order would give to one of them.
    std::string tc_err, cublas_err;
    cublasStatus_t last = CUBLAS_STATUS_SUCCESS;
    auto time_tc = [&] {
      if (!tc_ok || !tc_err.empty())
        return;
      int reps = 0;
      double ms = time_calls(
          [&](int i) { f.fn(s.M, s.N, s.K, st.A(i), st.B(i), st.C(i)); }, st.n, reps, tc_err);
      if (tc_err.empty() && !(ms >= row.tc_ms)) {
        row.tc_ms = ms;
        row.tc_reps = reps;
      }
    };
    auto time_cublas = [&] {
      if (!have_ref || !cublas_err.empty() || context_lost)
        return;
      int reps = 0;
      double ms = time_calls(
          [&](int i) {
            cublasStatus_t c = cublas_gemm(f, s, st.A(i), st.B(i), st.C(i));
            if (c != CUBLAS_STATUS_SUCCESS)
              last = c;
          },
          st.n, reps, cublas_err);
      if (last != CUBLAS_STATUS_SUCCESS)
        cublas_err = std::string("ERROR(cuBLAS ") + cublasGetStatusName(last) + ")";
      if (cublas_err.empty() && !(ms >= row.cublas_ms)) {
        row.cublas_ms = ms;
        row.cublas_reps = reps;
      }
    };
    for (int round = 0; round < 2 && !context_lost; ++round) {
      if (round == 0) {
        time_tc();
        time_cublas();
      } else {
        time_cublas();
        time_tc();
      }
    }
    if (!tc_err.empty()) {
      row.tc_ms = NAN;
      row.check = tc_err;
      if (context_lost)
        return row;
    }
    if (!cublas_err.empty()) {
      row.cublas_ms = NAN;
      if (row.check == "PASS")  // no baseline: not a PASS
        row.check = "CUBLAS_" + cublas_err;
    }
    return row;
  }
};

// --- Reports ----------------------------------------------------------------------------------
struct Agg {
  int rows = 0, pass = 0;
  double log_sum = 0, min_ratio = INFINITY;
  int n_ratio = 0;
  double geomean() const { return n_ratio ? std::exp(log_sum / n_ratio) : NAN; }
};

// The row for (func, set, M = N = K = n), if any.
const Row *find_square(const std::vector<Row> &rows,
                       const std::pair<std::string, std::string> &key, int n) {
  for (auto &r : rows)
    if (r.func == key.first && r.set == key.second && r.shape.M == n &&
        r.shape.N == n && r.shape.K == n)
      return &r;
  return nullptr;
}

std::string tf_pair(const Row *r) {
  if (!r)
    return "-";
  std::string a = std::isfinite(r->tc_ms) ? fmt("%.0f", tflops(r->shape, r->tc_ms)) : "-";
  std::string b = std::isfinite(r->cublas_ms) ? fmt("%.0f", tflops(r->shape, r->cublas_ms)) : "-";
  return a + "/" + b;
}

void write_csv_header(FILE *f) {
  fprintf(f, "func,set,M,N,K,tc_ms,tc_tflops,cublas_ms,cublas_tflops,ratio,check,"
             "max_rel_err,tc_reps,cublas_reps,buffer_sets\n");
}

void write_csv_row(FILE *f, const Row &r) {
  fprintf(f, "%s,%s,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%d,%d,%d\n", r.func.c_str(),
          r.set.c_str(), r.shape.M, r.shape.N, r.shape.K,
          fmt("%.6f", r.tc_ms).c_str(), fmt("%.2f", tflops(r.shape, r.tc_ms)).c_str(),
          fmt("%.6f", r.cublas_ms).c_str(),
          fmt("%.2f", tflops(r.shape, r.cublas_ms)).c_str(),
          fmt("%.4f", r.ratio()).c_str(), r.check.c_str(),
          fmt("%.3e", r.rel_err).c_str(), r.tc_reps, r.cublas_reps, r.nsets);
  fflush(f);
}

// Writes the markdown file (when md_path is set) and prints the summary,
// last. Returns the exit status: nonzero when a row is not PASS.
int report(const std::vector<Row> &rows, const std::string &header,
           const std::string &md_path, bool quick, bool context_lost,
           long seconds) {
  // Aggregate per (func, set), in the order they ran.
  std::vector<std::pair<std::string, std::string>> keys;
  std::map<std::pair<std::string, std::string>, Agg> agg;
  int failures = 0;
  for (auto &r : rows) {
    auto k = std::make_pair(r.func, r.set);
    if (!agg.count(k))
      keys.push_back(k);
    Agg &a = agg[k];
    ++a.rows;
    if (r.check == "PASS")
      ++a.pass;
    else
      ++failures;
    double q = r.ratio();
    if (r.check == "PASS" && std::isfinite(q) && q > 0) {
      a.log_sum += std::log(q);
      ++a.n_ratio;
      a.min_ratio = std::min(a.min_ratio, q);
    }
  }

  if (!md_path.empty()) {
    FILE *md = fopen(md_path.c_str(), "w");
    if (!md)
      die("cannot write " + md_path);
    fprintf(md, "# tc-rewrite GEMM benchmark\n\n%s  \n", header.c_str());
    fprintf(md, "ratio = cuBLAS time / tc time (> 1: the rewritten kernel is "
                "faster); median of %d..%d timed calls after %d warm-ups, "
                "L2 flushed and inputs rotated; each method timed twice in "
                "mirrored order (tc, cuBLAS, cuBLAS, tc), the lower median kept. "
                "cuBLAS: cublasGemmEx, "
                "CUBLAS_COMPUTE_32F, default algorithm, same layouts.%s\n\n",
            kMinReps, kMaxReps, kWarmup, quick ? " `--quick` shape subset." : "");
    fprintf(md, "| func | set | rows | not PASS | geomean ratio | min ratio | "
                "TFLOP/s 4096^3 tc/cuBLAS | TFLOP/s 8192^3 tc/cuBLAS |\n"
                "|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (auto &k : keys) {
      Agg &a = agg[k];
      fprintf(md, "| %s | %s | %d | %d | %s | %s | %s | %s |\n", k.first.c_str(),
              k.second.c_str(), a.rows, a.rows - a.pass,
              fmt("%.3f", a.geomean()).c_str(),
              fmt("%.3f", a.n_ratio ? a.min_ratio : NAN).c_str(),
              tf_pair(find_square(rows, k, 4096)).c_str(),
              tf_pair(find_square(rows, k, 8192)).c_str());
    }
    fprintf(md, "\n| func | set | M | N | K | tc ms | tc TFLOP/s | cuBLAS ms | "
                "cuBLAS TFLOP/s | ratio | check |\n"
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (auto &r : rows)
      fprintf(md, "| %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | %s |\n",
              r.func.c_str(), r.set.c_str(), r.shape.M, r.shape.N, r.shape.K,
              fmt("%.4f", r.tc_ms).c_str(), fmt("%.1f", tflops(r.shape, r.tc_ms)).c_str(),
              fmt("%.4f", r.cublas_ms).c_str(),
              fmt("%.1f", tflops(r.shape, r.cublas_ms)).c_str(),
              fmt("%.3f", r.ratio()).c_str(), r.check.c_str());
    fclose(md);
  }

  printf("\n== summary ==\n%s\n", header.c_str());
  printf("%zu rows in %lds; ratio = cuBLAS time / tc time (> 1: tc faster), "
         "over PASS rows; TF = TFLOP/s tc/cuBLAS\n",
         rows.size(), seconds);
  printf("%-20s %-6s %5s %5s %8s %8s %11s %11s\n", "func", "set", "rows",
         "!PASS", "geomean", "min", "TF@4096^3", "TF@8192^3");
  for (auto &k : keys) {
    Agg &a = agg[k];
    printf("%-20s %-6s %5d %5d %8s %8s %11s %11s\n", k.first.c_str(),
           k.second.c_str(), a.rows, a.rows - a.pass, fmt("%.3f", a.geomean()).c_str(),
           fmt("%.3f", a.n_ratio ? a.min_ratio : NAN).c_str(),
           tf_pair(find_square(rows, k, 4096)).c_str(),
           tf_pair(find_square(rows, k, 8192)).c_str());
  }
  printf("%s\n", failures || context_lost
                     ? (std::to_string(failures) + " rows not PASS" +
                        (context_lost ? ", context lost" : "")).c_str()
                     : "all rows PASS");
  return failures || context_lost ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> sets = {"paper", "square", "llm"};
  std::vector<std::string> func_filter;
  bool quick = false, list_only = false, graphs = false;
  std::string csv_path, md_path;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--sets")
      sets = split(value(), ',');
    else if (a == "--funcs")
      func_filter = split(value(), ',');
    else if (a == "--quick")
      quick = true;
    else if (a == "--graphs")
      graphs = true;
    else if (a == "--list")
      list_only = true;
    else if (a == "--csv")
      csv_path = value();
    else if (a == "--md")
      md_path = value();
    else if (a == "-h" || a == "--help") {
      printf("usage: gemm_bench [--sets paper,square,llm,MxNxK] [--funcs name,...] "
             "[--quick] [--graphs] [--csv out.csv] [--md out.md] [--list]\n"
             "  --graphs times CUDA graphs of 20 calls (a build with "
             "--default-stream per-thread)\n"
             "  --list prints the functions and shapes and exits (no GPU "
             "needed)\n");
      return 0;
    } else
      die("unknown argument " + a);
  }

  std::vector<Func> all = available_funcs(), funcs;
  if (all.empty())
    die("no benchmark functions were compiled in (registry.h lists none; did "
        "scripts/bench-prepare.sh rewrite any bench/kernels/*.cu?)");
  std::string names;
  for (auto &f : all)
    names += std::string(names.empty() ? "" : ", ") + f.name + " (" +
             type_name(f.type) + ", A " + f.la + ", B " + f.lb + ")";
  if (func_filter.empty()) {
    funcs = all;
  } else {
    for (auto &n : func_filter) {
      auto it = std::find_if(all.begin(), all.end(), [&](const Func &f) { return n == f.name; });
      if (it == all.end())
        die("unknown or unavailable function " + n + "; available: " + names);
      funcs.push_back(*it);
    }
  }
  std::string names_run;
  for (auto &f : funcs)
    names_run += std::string(names_run.empty() ? "" : ", ") + f.name;
  std::vector<std::pair<std::string, std::vector<Shape>>> shape_sets;
  for (auto &s : sets) {
    std::vector<Shape> v;
    if (!shape_set(s, quick, v))
      die("unknown shape set " + s + " (paper, heldout, square, llm or MxNxK)");
    shape_sets.push_back({s, v});
  }

  if (list_only) {
    printf("available: %s\n", names.c_str());
    for (auto &ss : shape_sets) {
      printf("%s: %zu shapes:", ss.first.c_str(), ss.second.size());
      for (auto &s : ss.second)
        printf(" %dx%dx%d", s.M, s.N, s.K);
      printf("\n");
    }
    return 0;
  }

  Bench b;
  if (graphs)
    b.use_graphs();
  b.init();
  int cublas_version = 0, runtime_version = 0;
  cublasGetVersion(b.handle, &cublas_version);
  cudaRuntimeGetVersion(&runtime_version);
  char header_buf[512];
  snprintf(header_buf, sizeof header_buf,
           "GPU: %s (sm_%d%d, %d SMs, L2 %.0f MiB), cuBLAS %d, CUDA runtime %d, timing: %s",
           b.prop.name, b.prop.major, b.prop.minor, b.prop.multiProcessorCount,
           b.l2 / 1048576.0, cublas_version, runtime_version,
           graphs ? "CUDA graphs of 20 calls" : "calls behind a spin kernel");
  const std::string header = header_buf;
  printf("%s\nfunctions: %s\n", header.c_str(), names_run.c_str());
  printf("ratio = cuBLAS time / tc time (> 1: the rewritten kernel is faster)\n\n");

  FILE *csv = nullptr;
  if (!csv_path.empty()) {
    csv = fopen(csv_path.c_str(), "w");
    if (!csv)
      die("cannot write " + csv_path);
    write_csv_header(csv);
  }

  printf("%-20s %-6s %6s %6s %6s %9s %8s %9s %8s %7s  %s\n", "func", "set", "M",
         "N", "K", "tc_ms", "tc_TF/s", "cublas_ms", "cuBLAS", "ratio", "check");
  std::vector<Row> rows;
  time_t start = time(nullptr);
  for (auto &ss : shape_sets) {
    for (auto &shape : ss.second) {
      for (auto &f : funcs) {
        if (b.context_lost)
          break;
        Row r = b.run(f, ss.first, shape);
        rows.push_back(r);
        if (csv)
          write_csv_row(csv, r);
        printf("%-20s %-6s %6d %6d %6d %9s %8s %9s %8s %7s  %s\n", r.func.c_str(),
               r.set.c_str(), shape.M, shape.N, shape.K, fmt("%.4f", r.tc_ms).c_str(),
               fmt("%.1f", tflops(shape, r.tc_ms)).c_str(),
               fmt("%.4f", r.cublas_ms).c_str(),
               fmt("%.1f", tflops(shape, r.cublas_ms)).c_str(),
               fmt("%.3f", r.ratio()).c_str(), r.check.c_str());
        fflush(stdout);
      }
    }
  }
  if (csv)
    fclose(csv);
  if (b.context_lost)
    printf("\ngemm_bench: the CUDA context was lost after a kernel fault; "
           "stopped early (%zu rows)\n", rows.size());

  return report(rows, header, md_path, quick, b.context_lost,
                (long)(time(nullptr) - start));
}
