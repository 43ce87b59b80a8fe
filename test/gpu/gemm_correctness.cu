// GPU correctness driver for the GEMMs that tc-rewrite produces from the
// samples. It links against the rewritten translation units
// (.gpu/gemm.tc.cu, .gpu/gemm_types.tc.cu; see scripts/gpu-prepare.sh and
// scripts/gpu-check.sh) and checks every sample function over a fixed list of
// shapes against a naive double-precision reference computed on the GPU.
//
// Usage: gemm_correctness [table.md]
//   Prints one row per (function, shape), a per-function summary, the GPU
//   name and "N passed, M failed"; exits nonzero on any failure. With an
//   argument, also writes the table as markdown to that file.
//
// What each case checks, and why:
//   * A and B hold uniform values in [-1, 1] rounded to the element type, so
//     the reference sees exactly the operands the kernel sees; any error left
//     comes from fp32 accumulation order and the final rounding of C.
//   * C is poisoned with all-ones bytes (0xFFFF is a NaN in fp16 and bf16,
//     0xFFFFFFFF a NaN in fp32), so an output element the kernel never writes
//     shows up as a NaN instead of a lucky stale value.
//   * C sits between two guard regions with the same poison; a write outside
//     C (easy to get wrong in the unaligned tail path) alters a guard byte.
//   * The error is max|out - ref| / max(max|ref|, 1e-6): relative to the
//     largest output, since individual elements near zero have no meaningful
//     relative error under fp32 accumulation.
//
// Tolerances, relative to max|ref|. Products of fp16/bf16 values are exact in
// fp32, so the budget is the final rounding of C plus fp32 accumulation error;
// for K <= 4097 and random-sign data the latter stays around 1e-5 or below.
// Real bugs (a dropped or repeated K tile, a misplaced element) cost 1e-2 or
// more, so the bounds sit well between the two:
//   fp32 C: 1e-3  (accumulation error only)
//   fp16 C: 2e-3  (one rounding to 11 significant bits is <= 4.9e-4 of |ref|)
//   bf16 C: 1e-2  (one rounding to 8 significant bits is <= 3.9e-3 of |ref|)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// --- The functions under test ------------------------------------------------
// Exactly as declared in samples/gemm.cu and samples/gemm_types.cu (C++
// linkage); the rewritten sources keep these signatures.
void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C);
void gemm_bf16(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
               const __nv_bfloat16 *__restrict__ B,
               __nv_bfloat16 *__restrict__ C);
void gemm_f16_f32out(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C);
void gemm_bf16_f32out(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
                      const __nv_bfloat16 *__restrict__ B,
                      float *__restrict__ C);
void gemm_f16_bf16out(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B,
                      __nv_bfloat16 *__restrict__ C);
void sgemm_tf32(int M, int N, int K, const float *__restrict__ A,
                const float *__restrict__ B, float *__restrict__ C);

namespace {

// --- Shapes ------------------------------------------------------------------
struct Shape {
  int M, N, K;
};

// Every function runs every shape (the naive reference keeps up: the whole
// list takes seconds on an H100/H200). Grouped by the code path each group
// aims at.
const Shape kShapes[] = {
    // Degenerate and tiny: a single partial tile in every dimension.
    {1, 1, 1}, {1, 1, 7}, {1, 7, 3}, {7, 1, 3}, {3, 3, 3},
    // K = 1: a single, partial K step.
    {7, 5, 1}, {64, 64, 1}, {129, 257, 1},
    // Odd sizes: partial tiles everywhere, rows not 16-byte aligned.
    {17, 33, 65}, {127, 129, 131}, {31, 63, 15}, {100, 100, 100},
    {250, 130, 70}, {513, 257, 129},
    // One dimension off a 128 multiple, the others aligned: isolates the
    // M tail, the N tail (C and B rows unaligned) and the K tail (A rows
    // unaligned).
    {250, 256, 256}, {256, 250, 256}, {256, 256, 250},
    {129, 128, 128}, {128, 129, 128}, {128, 128, 129},
    {127, 128, 128}, {128, 127, 128}, {128, 128, 127},
    // Multiples of 8 but not of 128: 16-byte aligned rows, partial tiles.
    {8, 8, 8}, {8, 16, 24}, {136, 264, 72}, {200, 120, 40},
    // Multiples of 128: the aligned fast path.
    {128, 128, 128}, {256, 128, 128}, {128, 256, 512}, {512, 512, 512},
    {384, 640, 896},
    // Tall-skinny and vector-like.
    {4096, 8, 64}, {8, 4096, 64}, {3, 5000, 4097}, {1, 4096, 4096},
    {4096, 1, 128}, {1, 1, 4096},
    // Larger: many tiles and long K loops, aligned and not.
    {1024, 1024, 1024}, {1000, 1000, 1000}, {2048, 512, 4096},
    {2048, 2048, 2048}, {4095, 4097, 1023}, {1023, 1025, 4095},
    {4096, 4096, 4096},
    // TMA kernels' tile schedule (tc/tile_schedule.cuh): the tiles past the
    // last whole round of SMs split along k and combined in the kernel, on
    // the 128x128 (144 and 288 tiles), 128x256 (408 tiles) and 64x128
    // kernels (56 tiles, every one split: in clusters of parts, below);
    // K odd: the cp.async twin.
    {1152, 2048, 2176}, {2304, 2048, 1000}, {3072, 4352, 1024},
    {896, 512, 2560}, {1152, 2048, 2177},
    // Pairs of 128x256 blocks sharing B's tile (tc/cluster.cuh): partial
    // tiles in m and n with an even count of tile rows, whole rounds of
    // pairs (3000 x 4000: 192 pairs) and a split last round (2700 x 3100:
    // 143 pairs, the k tail partial).
    {3000, 4000, 1536}, {2700, 3100, 1032},
    // The wide kernel's narrower tiles (tc::wide_tile_width on 132 SMs),
    // for the drivers' N-major B 192 columns or 256 (64-column panels):
    // 1792 x 2560, whole and partial (1790 x 2530, K with a partial k tile
    // and unaligned rows: the 128x256 kernel's cp.async twin), 2940 x 2430,
    // 3830 x 766, 2170 x 2430 and 2944 x 760 (a partial k tile), all with a
    // ragged right edge. (A K-major B's 224/192/176 columns and their pairs:
    // forms_correctness.cu.)
    {1792, 2560, 1792}, {1790, 2530, 1100}, {2940, 2430, 1104}, {3830, 766, 1032},
    {2170, 2430, 1104}, {2944, 760, 520},
    // Stream units (one block per SM looping over pieces of tiles): 272
    // 128x256 tiles (more than two rounds keep 256 columns; an odd count of
    // tile rows, so no pairs), the last round's 8 shared by all SMs,
    // partial in m and n.
    {2170, 3990, 1104},
    // Pairs of 64x128 blocks: 2880 x 384 has an odd count of tile rows (45
    // x 3 = 135 tiles: unpaired, the plain schedule - these kernels run no
    // stream units), 2944 x 384 an even one (46 x 3, paired), 512 x 3968
    // and 384 x 2304 one round of wide outputs (pairs, partial k tile).
    {2880, 384, 2496}, {2944, 384, 2496}, {512, 3968, 2048}, {384, 2304, 2180},
    // The 8-stage 64-row kernel's shapes of a K-major B's narrower tiles
    // (112 columns for 380 x 2300, 96 for 500 x 1150 and 300 x 2300; paired
    // but for 300 x 2300, an odd count of tile rows): here, with the
    // drivers' N-major B, 64x128 tiles (forms_correctness.cu runs the
    // K-major ones).
    {380, 2300, 2176}, {500, 1150, 1000}, {300, 2300, 1000},
    // Clusters of parts (tc/cluster_parts.cuh): few tiles of the 64-row
    // kernels, each split along k into parts launched as one cluster that
    // add their tiles in shared memory, each part finishing its rows.
    // The parts (on an H100's 132 SMs, whose capacity of one-block-per-SM
    // clusters is 30 of 4 blocks and 22 of 5): 200 x 700 x 1416, 24 tiles
    // of the 64x128 kernel built for pairs, 23 k tiles in 4 parts of 6, 6,
    // 6 and 5 (a partial k tile, partial in m and n); 200 x 700 x 2880, 45
    // k tiles in 4 parts of 12, 12, 12 and 9, which release 4, 4, 4 and 1
    // of the 8 stages (each block's own: a shorter part must not leave the
    // others' producers waiting); 96 x 300 x 1000: 6 tiles; 60 x 40 x 3000:
    // one 64x64 tile of the skinny kernel in 8 parts.
    {200, 700, 1416}, {200, 700, 2880}, {96, 300, 1000}, {60, 40, 3000},
};

// Fixed so failures reproduce; each (function, shape, operand) draws its own
// stream from it.
constexpr uint64_t kSeed = 0x7c5eed2024ULL;

// Bytes of poisoned guard before and after C; a multiple of 256 so C keeps
// cudaMalloc's alignment and the kernel's aligned path stays reachable.
constexpr size_t kGuardBytes = 4096;
constexpr unsigned char kPoisonByte = 0xFF;

// --- Element-type helpers ------------------------------------------------------
__host__ __device__ inline double to_double(__half v) {
  return __half2float(v);
}
__host__ __device__ inline double to_double(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
__host__ __device__ inline double to_double(float v) { return v; }

template <class T> __device__ T from_float(float v);
template <> __device__ __half from_float<__half>(float v) {
  return __float2half_rn(v);
}
template <> __device__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}
template <> __device__ float from_float<float>(float v) { return v; }

template <class T> struct OutTraits;
template <> struct OutTraits<float> {
  static constexpr const char *name = "fp32";
  static constexpr double tol = 1e-3;
};
template <> struct OutTraits<__half> {
  static constexpr const char *name = "fp16";
  static constexpr double tol = 2e-3;
};
template <> struct OutTraits<__nv_bfloat16> {
  static constexpr const char *name = "bf16";
  static constexpr double tol = 1e-2;
};

// --- Kernels -------------------------------------------------------------------
__host__ __device__ inline uint64_t mix64(uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Counter-based, so the data depends only on the seed, not on launch shape,
// and filling 16M elements costs nothing next to the reference.
template <class T>
__global__ void fill_uniform(T *p, size_t n, uint64_t seed) {
  for (size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x; idx < n;
       idx += (size_t)gridDim.x * blockDim.x) {
    uint64_t bits = mix64(seed ^ mix64(idx));
    float u = (float)(bits >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    p[idx] = from_float<T>(2.0f * u - 1.0f);
  }
}

// fp32 operands reach the tensor cores rounded to tf32 (cvt.rna: 10-bit
// mantissa, ties away from zero); the reference rounds them the same way.
__host__ __device__ inline double operand(float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  u = (u + 0x1000u) & 0xffffe000u;
  memcpy(&v, &u, sizeof v);
  return v;
}
__host__ __device__ inline double operand(__half v) { return to_double(v); }
__host__ __device__ inline double operand(__nv_bfloat16 v) { return to_double(v); }

// Deliberately naive, one thread per output, so that it is obviously right;
// double accumulation makes its own error negligible next to the tolerances.
template <class TIn>
__global__ void reference_gemm(int M, int N, int K, const TIn *A, const TIn *B,
                               double *ref) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N)
    return;
  double acc = 0.0;
  for (int k = 0; k < K; ++k)
    acc += operand(A[(size_t)i * K + k]) * operand(B[(size_t)k * N + j]);
  ref[(size_t)i * N + j] = acc;
}

// --- Harness plumbing ------------------------------------------------------------
struct CudaFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw CudaFailure(std::string(what) + ": " + cudaGetErrorName(e));
}

// Frees on scope exit so a failing case does not leak into the next one.
struct DeviceBuffer {
  void *ptr = nullptr;
  explicit DeviceBuffer(size_t bytes) {
    check(cudaMalloc(&ptr, std::max<size_t>(bytes, 1)), "cudaMalloc");
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

struct Result {
  std::string fn;
  const char *out_type = "";
  Shape shape;
  double tol = 0;
  double rel_err = NAN;
  float ms = NAN;
  enum { Pass, Fail, NotRun } status = NotRun;
  std::string note;  // why it failed
};

// After a kernel fault the CUDA context is unusable ("sticky" error) and every
// later case would fail for an unrelated reason; the driver stops instead.
bool g_context_lost = false;

void note_cuda_failure() {
  cudaGetLastError();  // clears non-sticky errors
  if (cudaDeviceSynchronize() != cudaSuccess)
    g_context_lost = true;
}

uint64_t case_seed(int fn_index, int shape_index, int operand) {
  return mix64(kSeed ^ mix64(((uint64_t)fn_index << 40) ^
                             ((uint64_t)shape_index << 8) ^ (uint64_t)operand));
}

template <class TIn, class TOut>
using GemmFn = void (*)(int, int, int, const TIn *, const TIn *, TOut *);

template <class TIn, class TOut>
void run_case(GemmFn<TIn, TOut> fn, int fn_index, int shape_index,
              cudaEvent_t ev_start, cudaEvent_t ev_stop, Result &r) {
  const int M = r.shape.M, N = r.shape.N, K = r.shape.K;
  const size_t nA = (size_t)M * K, nB = (size_t)K * N, nC = (size_t)M * N;
  const size_t c_bytes = nC * sizeof(TOut);

  DeviceBuffer A(nA * sizeof(TIn)), B(nB * sizeof(TIn));
  DeviceBuffer C_alloc(c_bytes + 2 * kGuardBytes), ref(nC * sizeof(double));
  TIn *dA = static_cast<TIn *>(A.ptr), *dB = static_cast<TIn *>(B.ptr);
  TOut *dC = reinterpret_cast<TOut *>(static_cast<char *>(C_alloc.ptr) +
                                      kGuardBytes);
  double *dref = static_cast<double *>(ref.ptr);

  fill_uniform<<<1024, 256>>>(dA, nA, case_seed(fn_index, shape_index, 0));
  fill_uniform<<<1024, 256>>>(dB, nB, case_seed(fn_index, shape_index, 1));
  check(cudaGetLastError(), "fill_uniform launch");
  dim3 block(32, 8), grid((N + 31) / 32, (M + 7) / 8);
  reference_gemm<<<grid, block>>>(M, N, K, dA, dB, dref);
  check(cudaGetLastError(), "reference_gemm launch");
  check(cudaMemset(C_alloc.ptr, kPoisonByte, c_bytes + 2 * kGuardBytes),
        "poison C");
  check(cudaDeviceSynchronize(), "reference/setup");

  // The call under test. Errors are caught here, not by check(), so the
  // report says the rewritten kernel failed rather than the harness.
  fn(M, N, K, dA, dB, dC);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  if (launch != cudaSuccess || sync != cudaSuccess) {
    r.status = Result::Fail;
    r.note = std::string("CUDA error from call: ") +
             cudaGetErrorName(launch != cudaSuccess ? launch : sync);
    note_cuda_failure();
    return;
  }

  std::vector<unsigned char> c_host(c_bytes + 2 * kGuardBytes);
  std::vector<double> ref_host(nC);
  check(cudaMemcpy(c_host.data(), C_alloc.ptr, c_host.size(),
                   cudaMemcpyDeviceToHost),
        "copy C");
  check(cudaMemcpy(ref_host.data(), dref, nC * sizeof(double),
                   cudaMemcpyDeviceToHost),
        "copy ref");

  size_t guard_bad = 0;
  for (size_t b = 0; b < kGuardBytes; ++b) {
    guard_bad += c_host[b] != kPoisonByte;
    guard_bad += c_host[kGuardBytes + c_bytes + b] != kPoisonByte;
  }
  const unsigned char *c_bytes_ptr = c_host.data() + kGuardBytes;
  size_t nonfinite = 0;
  double max_diff = 0, max_ref = 0;
  for (size_t e = 0; e < nC; ++e) {
    TOut v;
    std::memcpy(&v, c_bytes_ptr + e * sizeof(TOut), sizeof(TOut));
    double out = to_double(v);
    if (!std::isfinite(out)) {
      ++nonfinite;
      continue;
    }
    max_diff = std::max(max_diff, std::fabs(out - ref_host[e]));
    max_ref = std::max(max_ref, std::fabs(ref_host[e]));
  }
  r.rel_err = max_diff / std::max(max_ref, 1e-6);

  std::string why;
  if (nonfinite)
    why += std::to_string(nonfinite) + " NaN/Inf outputs (unwritten?); ";
  if (guard_bad)
    why += std::to_string(guard_bad) + " guard bytes overwritten; ";
  if (!(r.rel_err <= r.tol))
    why += "error above tolerance; ";
  r.status = why.empty() ? Result::Pass : Result::Fail;
  r.note = why.empty() ? "" : why.substr(0, why.size() - 2);

  // Timing is informative only: a second, warm call (the first pays for lazy
  // module loading), bracketed by events on the legacy default stream the
  // rewritten code launches on.
  check(cudaEventRecord(ev_start, 0), "event record");
  fn(M, N, K, dA, dB, dC);
  check(cudaEventRecord(ev_stop, 0), "event record");
  cudaError_t timed = cudaEventSynchronize(ev_stop);
  if (timed != cudaSuccess) {
    r.status = Result::Fail;
    r.note = std::string("CUDA error from timed call: ") +
             cudaGetErrorName(timed);
    note_cuda_failure();
    return;
  }
  check(cudaEventElapsedTime(&r.ms, ev_start, ev_stop), "event time");

  // The same bits again: the parts of a split tile meet in whatever order
  // they finish (tc/tile_schedule.cuh), and are added in part order all
  // the same.
  std::vector<unsigned char> again(c_bytes);
  check(cudaMemcpy(again.data(), dC, c_bytes, cudaMemcpyDeviceToHost), "copy C again");
  if (std::memcmp(again.data(), c_bytes_ptr, c_bytes) != 0 && r.status == Result::Pass) {
    r.status = Result::Fail;
    r.note = "a second call gave other bits";
  }
}

const char *status_name(const Result &r) {
  switch (r.status) {
  case Result::Pass: return "PASS";
  case Result::Fail: return "FAIL";
  default: return "NOT RUN";
  }
}

void print_row(const Result &r) {
  std::printf("%-18s %6d %6d %6d  %10.3e  %-7s %9.3f  %s\n", r.fn.c_str(),
              r.shape.M, r.shape.N, r.shape.K, r.rel_err, status_name(r), r.ms,
              r.note.c_str());
  std::fflush(stdout);  // keep the log useful if a later case hangs
}

std::vector<Result> g_results;

template <class TIn, class TOut>
void run_function(const char *name, GemmFn<TIn, TOut> fn, int fn_index,
                  cudaEvent_t ev_start, cudaEvent_t ev_stop) {
  for (size_t s = 0; s < std::size(kShapes); ++s) {
    Result r;
    r.fn = name;
    r.shape = kShapes[s];
    r.out_type = OutTraits<TOut>::name;
    r.tol = OutTraits<TOut>::tol;
    if (g_context_lost) {
      r.note = "CUDA context lost in an earlier case";
    } else {
      try {
        run_case<TIn, TOut>(fn, fn_index, (int)s, ev_start, ev_stop, r);
      } catch (const CudaFailure &e) {
        r.status = Result::Fail;
        r.note = std::string("harness: ") + e.what();
        note_cuda_failure();
      }
    }
    print_row(r);
    g_results.push_back(r);
  }
}

struct FnSummary {
  std::string fn;
  const char *out_type;
  double tol;
  int passed = 0, failed = 0;
  double worst = 0;
};

void write_markdown(const char *path, const std::string &gpu,
                    const std::vector<FnSummary> &sums, int passed,
                    int failed) {
  FILE *f = std::fopen(path, "w");
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", path);
    return;
  }
  std::fprintf(f, "# tc-rewrite GPU correctness\n\n");
  std::fprintf(f, "GPU: %s  \nseed: 0x%llx  \n", gpu.c_str(),
               (unsigned long long)kSeed);
  std::fprintf(f, "max_rel_err = max|out-ref| / max(max|ref|, 1e-6); "
                  "reference: naive GPU GEMM in double.\n\n");
  std::fprintf(f, "| function | C type | tol | passed | failed | worst "
                  "max_rel_err |\n|---|---|---|---|---|---|\n");
  for (const auto &s : sums)
    std::fprintf(f, "| %s | %s | %.0e | %d | %d | %.3e |\n", s.fn.c_str(),
                 s.out_type, s.tol, s.passed, s.failed, s.worst);
  std::fprintf(f, "\n| function | M | N | K | max_rel_err | result | time_ms "
                  "| note |\n|---|---:|---:|---:|---:|---|---:|---|\n");
  for (const auto &r : g_results)
    std::fprintf(f, "| %s | %d | %d | %d | %.3e | %s | %.3f | %s |\n",
                 r.fn.c_str(), r.shape.M, r.shape.N, r.shape.K, r.rel_err,
                 status_name(r), r.ms, r.note.c_str());
  std::fprintf(f, "\n**%d passed, %d failed**\n", passed, failed);
  std::fclose(f);
}

}  // namespace

int main(int argc, char **argv) {
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    std::fprintf(stderr, "no usable CUDA device\n");
    return 2;
  }
  std::string gpu = prop.name;
  std::printf("device: %s (sm_%d%d), seed 0x%llx\n", gpu.c_str(), prop.major,
              prop.minor, (unsigned long long)kSeed);
  std::printf("tolerance on max_rel_err: fp32 C %.0e, fp16 C %.0e, "
              "bf16 C %.0e\n\n",
              OutTraits<float>::tol, OutTraits<__half>::tol,
              OutTraits<__nv_bfloat16>::tol);
  std::printf("%-18s %6s %6s %6s  %10s  %-7s %9s  %s\n", "function", "M", "N",
              "K", "max_rel_err", "result", "time_ms", "note");

  cudaEvent_t ev_start, ev_stop;
  if (cudaEventCreate(&ev_start) != cudaSuccess ||
      cudaEventCreate(&ev_stop) != cudaSuccess) {
    std::fprintf(stderr, "cudaEventCreate failed\n");
    return 2;
  }

  run_function<__half, __half>("gemm", gemm, 0, ev_start, ev_stop);
  run_function<__nv_bfloat16, __nv_bfloat16>("gemm_bf16", gemm_bf16, 1,
                                             ev_start, ev_stop);
  run_function<__half, float>("gemm_f16_f32out", gemm_f16_f32out, 2, ev_start,
                              ev_stop);
  run_function<__nv_bfloat16, float>("gemm_bf16_f32out", gemm_bf16_f32out, 3,
                                     ev_start, ev_stop);
  run_function<__half, __nv_bfloat16>("gemm_f16_bf16out", gemm_f16_bf16out, 4,
                                      ev_start, ev_stop);
  run_function<float, float>("sgemm_tf32", sgemm_tf32, 5, ev_start, ev_stop);

  // Per-function summary, in first-seen order.
  std::vector<FnSummary> sums;
  int passed = 0, failed = 0;
  for (const auto &r : g_results) {
    if (sums.empty() || sums.back().fn != r.fn)
      sums.push_back(FnSummary{r.fn, r.out_type, r.tol});
    FnSummary &s = sums.back();
    if (r.status == Result::Pass) {
      ++s.passed;
      ++passed;
    } else {
      ++s.failed;  // NOT RUN counts as a failure: nothing was verified
      ++failed;
    }
    if (std::isfinite(r.rel_err))
      s.worst = std::max(s.worst, r.rel_err);
  }

  std::printf("\n== summary ==\n");
  std::printf("%-18s %-6s %7s %6s %6s  %s\n", "function", "C", "tol",
              "passed", "failed", "worst max_rel_err");
  for (const auto &s : sums)
    std::printf("%-18s %-6s %7.0e %6d %6d  %.3e\n", s.fn.c_str(), s.out_type,
                s.tol, s.passed, s.failed, s.worst);
  if (failed) {
    std::printf("\nfailures:\n");
    for (const auto &r : g_results)
      if (r.status != Result::Pass)
        print_row(r);
  }
  std::printf("\nGPU: %s\n", gpu.c_str());
  std::printf("%d passed, %d failed\n", passed, failed);

  if (argc > 1)
    write_markdown(argv[1], gpu, sums, passed, failed);
  return failed ? 1 : 0;
}
