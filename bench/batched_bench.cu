// Batched GEMM benchmark: the rewritten regions of bench/batched/gemm_batched.cu
// against cuBLAS (cublasGemmStridedBatchedEx), and, where a second rewrite
// is linked in under the names old_bench_batched_*, against that one (an
// A/B of two tool versions), in one run on one GPU.
//
//   scripts/batched-bench.sh prepare [OLD_TOOL]   # here
//   scripts/batched-bench.sh build && scripts/batched-bench.sh run   # GPU machine
//
// (the old rewrite compiled with -Dbench_batched_f16_rc=old_bench_batched_f16_rc
// and the same for rr, so that both link into one program).
// Per (function, shape): cuBLAS computes the reference from the first
// input set; each tc function writes a NaN-poisoned C and must match it
// (max |tc - ref| / max |ref| <= 1e-2; a failed row is not timed). Timing
// is bench_common.h's: L2 flushed, inputs rotated over enough sets to
// cover 2x L2, the calls queued behind a spin kernel, the median of at
// least 10 timed calls. ratio = other time / new tc time (> 1: the new
// rewrite is faster).
#define BENCH_PROG "batched_bench"
#include "bench_common.h"

#include <cublas_v2.h>

void bench_batched_f16_rc(int, int, int, int, const __half *, const __half *, __half *);
void bench_batched_f16_rr(int, int, int, int, const __half *, const __half *, __half *);
void old_bench_batched_f16_rc(int, int, int, int, const __half *, const __half *, __half *)
    __attribute__((weak));
void old_bench_batched_f16_rr(int, int, int, int, const __half *, const __half *, __half *)
    __attribute__((weak));

namespace {

using Fn = void (*)(int, int, int, int, const __half *, const __half *, __half *);

struct Func {
  const char *name;
  bool b_transposed;  // B[b] stored N x K
  Fn tc, old;
};

struct BatchShape {
  int batch, m, n, k;
};

struct Bench : Timer {
  cublasHandle_t handle;
  Pool buf;

  // cuBLAS on row-major operands: C^T = B^T A^T in column-major terms.
  cublasStatus_t cublas(const Func &f, const BatchShape &s, const __half *a, const __half *b,
                        __half *c) {
    const float alpha = 1.0f, beta = 0.0f;
    return cublasGemmStridedBatchedEx(
        handle, f.b_transposed ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &alpha,
        b, CUDA_R_16F, f.b_transposed ? s.k : s.n, (long long)s.n * s.k, a, CUDA_R_16F, s.k,
        (long long)s.m * s.k, &beta, c, CUDA_R_16F, s.n, (long long)s.m * s.n, s.batch,
        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  }
};

}  // namespace

int main() {
  Bench B;
  B.init_timer();
  check_cuda(cublasCreate(&B.handle) == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown,
             "cublasCreate");
  const Func funcs[] = {{"batched_f16_rc", true, bench_batched_f16_rc, old_bench_batched_f16_rc},
                        {"batched_f16_rr", false, bench_batched_f16_rr, old_bench_batched_f16_rr}};
  // Attention's Q K^T (rc) and P V (rr) per head, square batches, a
  // grouped layer, and partial tiles.
  const BatchShape shapes[] = {
      {64, 512, 512, 64},    {96, 384, 384, 64},    {32, 1024, 1024, 128}, {16, 2048, 2048, 128},
      {64, 512, 64, 512},    {32, 1024, 128, 1024}, {16, 2048, 128, 2048}, {8, 1024, 1024, 1024},
      {4, 4096, 4096, 1024}, {8, 2048, 2048, 2048}, {12, 500, 300, 200},   {3, 1000, 1000, 4000},
      {40, 129, 257, 96}};
  printf("GPU: %s (%d SMs)\n", B.prop.name, B.prop.multiProcessorCount);
  printf("%-16s %-22s %-6s %10s %8s %10s %10s\n", "func", "batch x M x N x K", "check",
         "tc ms", "TFLOP/s", "vs old", "vs cuBLAS");
  double log_old = 0, log_cublas = 0;
  int n_old = 0, n_cublas = 0, failed = 0;
  for (const Func &f : funcs)
    for (const BatchShape &s : shapes) {
      const size_t a = (size_t)s.batch * s.m * s.k, b = (size_t)s.batch * s.n * s.k,
                   c = (size_t)s.batch * s.m * s.n;
      const size_t set_bytes = 2 * (round_up(a, 64) + round_up(b, 64) + round_up(c, 64));
      const int sets = B.sets_for(set_bytes);
      B.buf.reserve(set_bytes * sets + 2 * c);
      auto A = [&](int i) { return (const __half *)(B.buf.ptr + i * set_bytes); };
      auto Bm = [&](int i) { return A(i) + round_up(a, 64); };
      auto C = [&](int i) { return (__half *)(Bm(i) + round_up(b, 64)); };
      __half *ref = (__half *)(B.buf.ptr + sets * set_bytes);
      for (int i = 0; i < sets; ++i) {
        fill_uniform<__half><<<grid_for(a), 256>>>((__half *)A(i), a, 2 * i + 1);
        fill_uniform<__half><<<grid_for(b), 256>>>((__half *)Bm(i), b, 2 * i + 2);
      }
      check_cuda(B.cublas(f, s, A(0), Bm(0), ref) == CUBLAS_STATUS_SUCCESS ? cudaSuccess
                                                                           : cudaErrorUnknown,
                 "cuBLAS reference");
      std::string err;
      auto checked = [&](Fn fn) {
        cudaMemset(C(0), 0xff, c * 2);
        fn(s.batch, s.m, s.n, s.k, A(0), Bm(0), C(0));
        const double e = B.rel_error(C(0), ref, c, err);
        return e <= 1e-2;
      };
      int reps = 0;
      const double flops = 2.0 * s.batch * s.m * s.n * s.k;
      char shape[64];
      snprintf(shape, sizeof shape, "%dx%dx%dx%d", s.batch, s.m, s.n, s.k);
      if (!checked(f.tc)) {
        printf("%-16s %-22s %-6s %s\n", f.name, shape, "FAIL", err.c_str());
        ++failed;
        continue;
      }
      const double t_new = B.time_calls(
          [&](int i) { f.tc(s.batch, s.m, s.n, s.k, A(i), Bm(i), C(i)); }, sets, reps, err);
      const double t_cublas = B.time_calls(
          [&](int i) { B.cublas(f, s, A(i), Bm(i), C(i)); }, sets, reps, err);
      double t_old = NAN;
      if (f.old && checked(f.old))
        t_old = B.time_calls([&](int i) { f.old(s.batch, s.m, s.n, s.k, A(i), Bm(i), C(i)); },
                             sets, reps, err);
      else if (f.old)
        printf("(old rewrite FAIL: %s)\n", err.c_str());
      printf("%-16s %-22s %-6s %10.4f %8.1f %10.3f %10.3f\n", f.name, shape, "PASS", t_new,
             flops / t_new * 1e-9, t_old / t_new, t_cublas / t_new);
      if (t_old == t_old) {
        log_old += std::log(t_old / t_new);
        ++n_old;
      }
      log_cublas += std::log(t_cublas / t_new);
      ++n_cublas;
    }
  printf("== summary == (%s)\n", B.prop.name);
  printf("geomean new vs old: %.3f over %d rows; new vs cuBLAS: %.3f over %d rows; %d FAIL\n",
         n_old ? std::exp(log_old / n_old) : NAN, n_old,
         n_cublas ? std::exp(log_cublas / n_cublas) : NAN, n_cublas, failed);
  return failed ? 1 : 0;
}
