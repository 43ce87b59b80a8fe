// Pieces shared by the benchmark drivers bench/gemm_bench.cu and
// bench/fused_bench.cu: the shape sets, the timing procedure, input filling,
// the output check and small utilities. Each driver is one translation unit
// and includes this once; everything is in an anonymous namespace.
//
// Define BENCH_PROG (the name error messages start with) before including.
//
// Shape sets (M, N, K):
//   paper   100 random shapes, each dimension a multiple of 128 in
//           [128, 4096], drawn as M, N, K in turn from std::mt19937(20200612)
//           with std::uniform_int_distribution<int>(1, 32) times 128 (the
//           seed paper's experiment; the distribution's mapping is
//           implementation-defined, so the shapes are exact for libstdc++,
//           and printed in the CSV either way).
//   heldout 100 more shapes drawn as the paper set's, from
//           std::mt19937(20261205): shapes a tuning database
//           (docs/tuning.md) measured on the paper set was not made from.
//   square  1024, 2048, 4096, 6144, 8192 (M = N = K).
//   llm     M in {16, 32, 64, 128, 512, 2048} x (N, K) in {(6144, 4096),
//           (4096, 4096), (28672, 4096), (4096, 14336)} (LLM projections),
//           plus DeepBench 5124x9124x2560, 35x8457x4096 and 7680x{16, 32,
//           64, 128}x2560.
//   MxNxK   that one shape (e.g. --sets 2304x2176x768,2304x2176x1536).
//   --quick keeps the first 10 paper shapes, 4096^3 and 8192^3, and 6 llm
//           shapes (see kQuickLlm).
//
// Timing (Timer::time_calls), the same procedure for every method: L2 is
// flushed (a memset over 2x L2), 3 warm-up calls estimate the time per call,
// then N calls (enough for >= 50 ms, at least 10, at most 200) are timed one
// by one with CUDA events on the legacy default stream, queued behind a short
// spin kernel so that host launch overhead is not measured; the median is
// reported. The calls rotate over the input/output sets the driver laid out
// (Timer::sets_for: enough sets to cover 2x L2, at most kMaxSets, when one
// call's data is smaller than that), so L2 does not keep the operands
// between calls.
// With --graphs (Timer::graphs) each method is timed as CUDA graphs instead,
// what serving systems run: after the warm-up calls, kGraphCalls calls
// (rotating over the sets as above) are captured into one graph on the
// per-thread default stream, and the graph is replayed kGraphReplays times
// after a flush of L2; the median replay over kGraphCalls is reported. The
// generated launchers use stream 0, so the drivers and the rewritten files
// must be built with --default-stream per-thread (scripts/bench-run.sh and
// fused-bench-run.sh add it when --graphs is passed; a driver built without
// it refuses --graphs), and the libraries run on cudaStreamPerThread
// (bench_stream()). A launcher that cannot be captured fails its rows.
// The drivers time every method of a row twice, in mirrored order (e.g. tc,
// cuBLAS, cuBLAS, tc), and report each method's lower median: on large
// shapes the method timed first measured up to ~10% faster than the same
// kernel timed after another (clocks), which a fixed order would give to
// one method.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#ifndef BENCH_PROG
#define BENCH_PROG "bench"
#endif

namespace {

// --- Configuration --------------------------------------------------------------
constexpr uint32_t kPaperSeed = 20200612;
constexpr int kPaperShapes = 100;
constexpr uint32_t kHeldOutSeed = 20261205;
constexpr int kWarmup = 3;
constexpr int kMinReps = 10;
constexpr int kMaxReps = 200;
constexpr double kTargetMs = 50.0;
constexpr int kGraphCalls = 20, kGraphReplays = 9;

// The stream the libraries' calls go to: 0 (the legacy default stream, as
// the generated code's launches in a default build), or with --graphs the
// per-thread default stream, which a capture can hold.
inline cudaStream_t &bench_stream() {
  static cudaStream_t stream = 0;
  return stream;
}

// Whether this translation unit was built with --default-stream per-thread.
constexpr bool kPerThreadDefaultStream =
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
    true;
#else
    false;
#endif
constexpr int kMaxSets = 2048;
constexpr size_t kAlign = 256;

// --- Shapes ----------------------------------------------------------------------
struct Shape {
  int M, N, K;
};

std::vector<Shape> paper_shapes(bool quick, uint32_t seed = kPaperSeed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(1, 32);
  std::vector<Shape> v;
  for (int s = 0; s < kPaperShapes; ++s) {
    int M = 128 * dist(rng);
    int N = 128 * dist(rng);
    int K = 128 * dist(rng);
    v.push_back({M, N, K});
  }
  if (quick)
    v.resize(10);
  return v;
}

std::vector<Shape> square_shapes(bool quick) {
  std::vector<Shape> v;
  for (int n : {1024, 2048, 4096, 6144, 8192})
    if (!quick || n == 4096 || n == 8192)
      v.push_back({n, n, n});
  return v;
}

const Shape kQuickLlm[] = {
    {16, 6144, 4096},   {128, 4096, 4096},  {512, 28672, 4096},
    {2048, 4096, 14336}, {5124, 9124, 2560}, {35, 8457, 4096},
};

std::vector<Shape> llm_shapes(bool quick) {
  if (quick)
    return std::vector<Shape>(std::begin(kQuickLlm), std::end(kQuickLlm));
  std::vector<Shape> v;
  const int nk[][2] = {{6144, 4096}, {4096, 4096}, {28672, 4096}, {4096, 14336}};
  for (int M : {16, 32, 64, 128, 512, 2048})
    for (auto &p : nk)
      v.push_back({M, p[0], p[1]});
  v.push_back({5124, 9124, 2560});
  v.push_back({35, 8457, 4096});
  for (int N : {16, 32, 64, 128})
    v.push_back({7680, N, 2560});
  return v;
}

// The shapes of the set called `name`; false for an unknown name.
bool shape_set(const std::string &name, bool quick, std::vector<Shape> &out) {
  if (name == "paper")
    out = paper_shapes(quick);
  else if (name == "heldout")
    out = paper_shapes(quick, kHeldOutSeed);
  else if (name == "square")
    out = square_shapes(quick);
  else if (name == "llm")
    out = llm_shapes(quick);
  else {
    // "MxNxK": a set of that one shape (for experiments on chosen shapes).
    Shape s;
    char tail;
    if (sscanf(name.c_str(), "%dx%dx%d%c", &s.M, &s.N, &s.K, &tail) != 3 || s.M < 1 ||
        s.N < 1 || s.K < 1)
      return false;
    out = {s};
  }
  return true;
}

// --- Small utilities ----------------------------------------------------------------
std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!item.empty())
      out.push_back(item);
  return out;
}

size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

// Blocks of 256 threads for a grid-stride loop over n elements.
int grid_for(size_t n) {
  return (int)std::max<size_t>(1, std::min<size_t>(1024, (n + 255) / 256));
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string fmt(const char *f, double x) {
  if (!std::isfinite(x))
    return "";
  char buf[64];
  snprintf(buf, sizeof buf, f, x);
  return buf;
}

[[noreturn]] void die(const std::string &msg) {
  fprintf(stderr, BENCH_PROG ": %s\n", msg.c_str());
  exit(2);
}

void check_cuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    die(std::string(what) + ": " + cudaGetErrorName(e) + " (" +
        cudaGetErrorString(e) + ")");
}

// --- Device kernels ------------------------------------------------------------------
__host__ __device__ inline uint64_t mix64(uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

template <class T> __device__ T from_float(float v);
template <> __device__ __half from_float<__half>(float v) {
  return __float2half_rn(v);
}
template <> __device__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}
template <> __device__ float from_float<float>(float v) { return v; }
__device__ float to_float(__half v) { return __half2float(v); }
__device__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ float to_float(float v) { return v; }

// Uniform values in [-1, 1], counter-based.
template <class T>
__global__ void fill_uniform(T *p, size_t n, uint64_t seed) {
  for (size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x; idx < n;
       idx += (size_t)gridDim.x * blockDim.x) {
    uint64_t bits = mix64(seed ^ mix64(idx));
    float u = (float)(bits >> 40) * (1.0f / 16777216.0f);
    p[idx] = from_float<T>(2.0f * u - 1.0f);
  }
}

// stats[0] = max|out - ref| (float bits), stats[1] = max|ref| (float bits),
// stats[2] = number of non-finite outputs. Non-negative floats order like
// their bit patterns, so atomicMax on unsigned works.
template <class T>
__global__ void compare(const T *out, const T *ref, size_t n,
                        unsigned *stats) {
  float max_diff = 0.f, max_ref = 0.f;
  unsigned bad = 0;
  for (size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x; idx < n;
       idx += (size_t)gridDim.x * blockDim.x) {
    float o = to_float(out[idx]), r = to_float(ref[idx]);
    if (!isfinite(o)) {
      ++bad;
      continue;
    }
    max_diff = fmaxf(max_diff, fabsf(o - r));
    if (isfinite(r))
      max_ref = fmaxf(max_ref, fabsf(r));
  }
  for (int off = 16; off > 0; off /= 2) {
    max_diff = fmaxf(max_diff, __shfl_xor_sync(0xffffffffu, max_diff, off));
    max_ref = fmaxf(max_ref, __shfl_xor_sync(0xffffffffu, max_ref, off));
    bad += __shfl_xor_sync(0xffffffffu, bad, off);
  }
  if (threadIdx.x % 32 == 0) {
    atomicMax(&stats[0], __float_as_uint(max_diff));
    atomicMax(&stats[1], __float_as_uint(max_ref));
    if (bad)
      atomicAdd(&stats[2], bad);
  }
}

// Holds the stream for `ns` nanoseconds so that the timed calls queue up
// behind it and run back to back.
__global__ void spin(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

// --- Device memory ----------------------------------------------------------------------
// One growing allocation; the current shape's sets are carved out of it.
struct Pool {
  char *ptr = nullptr;
  size_t bytes = 0;
  void reserve(size_t want) {
    if (want <= bytes)
      return;
    if (ptr)
      check_cuda(cudaFree(ptr), "cudaFree");
    ptr = nullptr;
    check_cuda(cudaMalloc(&ptr, want), "cudaMalloc (buffer sets)");
    bytes = want;
  }
};

// --- Timing and checking --------------------------------------------------------------------
// The device state every driver needs: properties, the L2 flush buffer, the
// events of time_calls and the counters of rel_error. Drivers derive from it.
struct Timer {
  cudaDeviceProp prop{};
  size_t l2 = 0;
  Pool flush_buf;
  unsigned *stats = nullptr;
  std::vector<cudaEvent_t> events;
  bool context_lost = false;
  bool graphs = false;  // --graphs: time_graph

  void init_timer() {
    check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    l2 = prop.l2CacheSize > 0 ? (size_t)prop.l2CacheSize : (size_t)50 << 20;
    check_cuda(cudaMalloc(&stats, 4 * sizeof(unsigned)), "cudaMalloc stats");
    flush_buf.reserve(2 * l2);
    events.resize(kMaxReps + 1);
    for (auto &e : events)
      check_cuda(cudaEventCreate(&e), "cudaEventCreate");
  }

  // How many input/output sets to rotate over when one call touches
  // `footprint` bytes: enough to cover 2x L2 (plus one), at most kMaxSets.
  int sets_for(size_t footprint) const {
    if (footprint >= 2 * l2)
      return 1;
    return (int)std::min<size_t>(kMaxSets, (2 * l2 + footprint - 1) / footprint + 1);
  }

  // After a kernel fault the context is unusable ("sticky" error).
  std::string cuda_failure(cudaError_t e) {
    std::string name = cudaGetErrorName(e);
    cudaGetLastError();
    if (cudaDeviceSynchronize() != cudaSuccess)
      context_lost = true;
    return name;
  }

  // Times `call(set)` for set in 0..nsets-1, in turn, as described at the
  // top. Returns the median in ms, or NaN with `err` set.
  template <class Call>
  double time_calls(Call &&call, int nsets, int &reps, std::string &err) {
    if (graphs)
      return time_graph(call, nsets, reps, err);
    int cursor = 0;
    auto next = [&] { int s = cursor; cursor = (cursor + 1) % nsets; return s; };
    cudaMemsetAsync(flush_buf.ptr, 0, flush_buf.bytes, 0);
    cudaEventRecord(events[0], 0);
    for (int i = 0; i < kWarmup; ++i)
      call(next());
    cudaEventRecord(events[1], 0);
    cudaError_t e = cudaEventSynchronize(events[1]);
    if (e == cudaSuccess)
      e = cudaGetLastError();
    if (e != cudaSuccess) {
      err = "ERROR(" + cuda_failure(e) + ")";
      return NAN;
    }
    float warm_ms = 0;
    cudaEventElapsedTime(&warm_ms, events[0], events[1]);
    double per_call = std::max(1e-4, (double)warm_ms / kWarmup);
    reps = (int)std::ceil(kTargetMs / per_call);
    reps = std::max(kMinReps, std::min(kMaxReps, reps));

    cudaMemsetAsync(flush_buf.ptr, 0, flush_buf.bytes, 0);
    cursor = 0;
    // Long enough for the host to queue every call (a few us each).
    spin<<<1, 1>>>((unsigned long long)(1000000 + reps * 20000ull));
    cudaEventRecord(events[0], 0);
    for (int i = 0; i < reps; ++i) {
      call(next());
      cudaEventRecord(events[i + 1], 0);
    }
    e = cudaEventSynchronize(events[reps]);
    if (e == cudaSuccess)
      e = cudaGetLastError();
    if (e != cudaSuccess) {
      err = "ERROR(" + cuda_failure(e) + ")";
      return NAN;
    }
    std::vector<float> t(reps);
    for (int i = 0; i < reps; ++i)
      cudaEventElapsedTime(&t[i], events[i], events[i + 1]);
    return median(t);
  }

  // time_calls with --graphs (see the top): the median of kGraphReplays
  // replays of a graph of kGraphCalls calls, per call; `reps` is the
  // replays. NaN with `err` set where a call fails or cannot be captured.
  template <class Call>
  double time_graph(Call &call, int nsets, int &reps, std::string &err) {
    int cursor = 0;
    auto next = [&] { int s = cursor; cursor = (cursor + 1) % nsets; return s; };
    for (int i = 0; i < kWarmup; ++i)  // first-call set-up outside the capture
      call(next());
    cudaError_t e = cudaStreamSynchronize(cudaStreamPerThread);
    if (e == cudaSuccess)
      e = cudaGetLastError();
    if (e != cudaSuccess) {
      err = "ERROR(" + cuda_failure(e) + ")";
      return NAN;
    }
    cursor = 0;
    cudaGraph_t graph = nullptr;
    e = cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal);
    if (e == cudaSuccess) {
      for (int i = 0; i < kGraphCalls; ++i)
        call(next());
      e = cudaStreamEndCapture(cudaStreamPerThread, &graph);
    }
    cudaGraphExec_t exec = nullptr;
    if (e == cudaSuccess && graph)
      e = cudaGraphInstantiate(&exec, graph, 0);
    if (e != cudaSuccess || !exec) {
      err = std::string("ERROR(graph capture: ") + cudaGetErrorName(e) + ")";
      (void)cudaGetLastError();
      if (graph)
        cudaGraphDestroy(graph);
      return NAN;
    }
    reps = kGraphReplays;
    std::vector<float> t(reps);
    cudaMemsetAsync(flush_buf.ptr, 0, flush_buf.bytes, cudaStreamPerThread);
    e = cudaGraphLaunch(exec, cudaStreamPerThread);  // warm
    for (int i = 0; i < reps && e == cudaSuccess; ++i) {
      cudaEventRecord(events[0], cudaStreamPerThread);
      e = cudaGraphLaunch(exec, cudaStreamPerThread);
      cudaEventRecord(events[1], cudaStreamPerThread);
      if (e == cudaSuccess)
        e = cudaEventSynchronize(events[1]);
      float ms = 0;
      cudaEventElapsedTime(&ms, events[0], events[1]);
      t[i] = ms / kGraphCalls;
    }
    if (e == cudaSuccess)
      e = cudaGetLastError();
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    if (e != cudaSuccess) {
      err = "ERROR(" + cuda_failure(e) + ")";
      return NAN;
    }
    return median(t);
  }

  // Turns on --graphs: the libraries' calls go to the per-thread default
  // stream (bench_stream). Refused by a build with the legacy default
  // stream, whose launches on stream 0 no capture can hold.
  void use_graphs() {
    if (!kPerThreadDefaultStream)
      die("--graphs needs a build with nvcc --default-stream per-thread "
          "(scripts/bench-run.sh and fused-bench-run.sh add it for --graphs)");
    graphs = true;
    bench_stream() = cudaStreamPerThread;
  }

  // max|out - ref| / max|ref| over n elements, or NaN with a reason in
  // `err` (non-finite outputs).
  template <class T>
  double rel_error(const T *out, const T *ref, size_t n, std::string &err) {
    check_cuda(cudaMemset(stats, 0, 4 * sizeof(unsigned)), "memset stats");
    compare<<<grid_for(n), 256>>>(out, ref, n, stats);
    check_cuda(cudaGetLastError(), "compare launch");
    unsigned h[4];
    check_cuda(cudaMemcpy(h, stats, sizeof h, cudaMemcpyDeviceToHost), "compare");
    if (h[2]) {
      err = std::to_string(h[2]) + " non-finite outputs";
      return NAN;
    }
    float d, r;
    memcpy(&d, &h[0], 4);
    memcpy(&r, &h[1], 4);
    return d / std::max(r, 1e-6f);
  }
};

}  // namespace
