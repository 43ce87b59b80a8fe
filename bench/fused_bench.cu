// Fused-idiom benchmark (issue 5): the kernels that tc-rewrite produces from
// bench/fused/*.cu -- a matmul with pointwise work fused around it -- against
// the unfused library path and, where there is one, a fused library call, in
// one run on one GPU.
//
// Built by scripts/fused-bench-run.sh on the GPU machine together with the
// rewritten functions (.gpu/bench/fused/*.tc.cu) and the registry header
// (.gpu/bench/fused/fused_registry.h) that scripts/bench-prepare.sh writes:
// only the functions the tool accepted are compiled in. Shapes, timing,
// filling and the output comparison are bench/bench_common.h, shared with
// bench/gemm_bench.cu.
//
// Usage:
//   fused_bench [--sets paper,square,llm,MxNxK] [--idioms name,...] [--funcs name,...]
//               [--quick] [--graphs] [--csv out.csv] [--md out.md] [--list]
//   --list prints the available functions and the selected shapes, and exits
//   without touching the GPU.
//   --graphs times CUDA graphs of the calls instead (bench_common.h; needs a
//   build with --default-stream per-thread).
//
// Functions are named bench_fused_<idiom>[_<suffix>]; the idiom fixes the
// signature. fp16 operands, fp32 accumulation, fp16 result C row-major
// (C[i*N+j]); A row-major (A[i*K+k]), B column-major (B[j*K+k]):
//   relu_gemm       C = A' * B with A' = max(A, 0)
//   gemm_bias_relu  C = max(A * B + bias[j], 0)             (fp16 bias)
//   gemm_bias_gelu  v = A * B + bias[j]; C = 0.5 v (1 + erf(v / sqrt 2))
//   gemm_add_gemm   C = A1 * B1 + A2 * B2, reduction lengths K1 and K2, one
//                   accumulator (signature (M, N, K1, K2, A1, B1, A2, B2, C))
//   int8_linear     Y = X * W'^T, W' = (W - zero[j]) * scale[j]; W int8
//                   [N][K], scale and zero fp32 per output column
//                   (signature (M, N, K, X, W, scale, zero, Y))
//   row_offset_gemm C = A' * B with A' = A - zero[i], zero fp32 per row of A
//                   (signature (M, N, K, A, B, zero, C)): an operand
//                   converted by its row, which the kernels convert where it
//                   lands, not as a prologue of the element alone
//   column_offset_gemm C = A * B' with B' = B - zero[j], zero fp32 per
//                   column of B (signature that of row_offset_gemm): B
//                   converted by its column (B[j*K+k]), which the sm_90
//                   kernels compute transposed, B as wgmma's A
//
// Shapes: the sets of bench_common.h (paper, square, llm, MxNxK; --quick), as
// (M, N, K). For gemm_add_gemm, K1 = K and K2 = max(128, 128 * floor(K /
// 256)), i.e. K / 2 rounded down to a multiple of 128, at least 128 (so K2
// differs from K1 except for K = 128); the row's K is K1 + K2 and FLOPs are
// 2 M N (K1 + K2). For the other idioms K1 = K and K2 is empty.
//
// Inputs (per buffer set, counter-based): fp16 operands uniform in [-1, 1];
// bias uniform in [-s, s] with s = sqrt(K) / 3, the standard deviation of
// the accumulator, so that the bias and the activation both matter; W int8
// uniform in [-127, 127]; scale uniform in [1/64, 1/16]; zero an integer
// uniform in [-8, 8] (a quantizer's zero point is an integer of the
// quantized domain: PyTorch, ONNX QuantizeLinear), or with
// --fractional-zero-points a real uniform in [-2, 2] (the generated kernel
// then converts through fp32: tc::OffsetRow); row_offset_gemm's zero the
// same, one per row of A, and column_offset_gemm's, one per column of B.
//
// Methods, each timed in the same run with the procedure of bench_common.h:
//   tc   the rewritten function.
//   lib  (a), the unfused library path: cuBLAS cublasGemmEx
//        (CUBLAS_COMPUTE_32F, default algorithm, the same layouts) plus
//        separate vectorised pointwise kernels: ReLU over A into a scratch
//        buffer, then the GEMM; the GEMM, then bias + ReLU / bias + GELU (erf)
//        in place on C; two GEMMs (A1 B1 into an fp16 scratch, A2 B2 into C)
//        and an add kernel; a dequantisation kernel W -> fp16 scratch, then
//        the GEMM; A - zero[i] into a scratch buffer, then the GEMM.
//        Scratch buffers are single (not rotated): they are
//        written in the call before they are read.
//   lt   (b), cuBLASLt with a fused epilogue, for gemm_bias_relu
//        (CUBLASLT_EPILOGUE_RELU_BIAS) and gemm_bias_gelu
//        (CUBLASLT_EPILOGUE_GELU_BIAS: cuBLASLt's GELU is the tanh
//        approximation, so its output is checked loosely, tolerance 2e-2);
//        the heuristic's first algorithm with a 32 MiB workspace. Layout: the
//        row-major C is the column-major C^T (N x M, ld N) = B^T A^T; the
//        bias vector of cuBLASLt runs along the rows of that D, i.e. it is
//        indexed by j, the column of the row-major C: exactly bias[j].
//   ops  (a'), the paper's baseline: the unfused path with one library call
//        per pointwise operation, as the seed paper measured it (cuBLAS plus
//        cudnnAddTensor and cudnnActivationForward): ReLU over A, then the
//        GEMM; the GEMM, then the bias add, then the activation, each a pass
//        over C; two GEMMs, then the add. With cuDNN (built with
//        -DBENCH_HAVE_CUDNN, which scripts/fused-bench-run.sh passes where it
//        finds cuDNN) the passes are cudnnAddTensor (the bias as a (1, N, 1,
//        1) tensor over C as an NHWC (1, N, M, 1) one) and
//        cudnnActivationForward (ReLU); GELU, which cuDNN's activations do
//        not have, is a kernel of this file. Without cuDNN, or where a cuDNN
//        call fails, every pass is a kernel of this file (the ops_impl
//        column says which). Not for int8_linear and the offset idioms (the
//        paper has no such idioms; lib already converts the operand in one
//        pass).
//   cat  (c), for gemm_add_gemm: one cuBLAS GEMM over the concatenated
//        reduction, [A1 A2] (M x (K1+K2), row-major) times [B1; B2]
//        (column-major, each column B1[j] followed by B2[j]); the
//        concatenated operands are built per buffer set outside the timed
//        region.
//
// Per (function, shape):
//   1. The lib output of the first buffer set is the reference. It is
//      itself spot-checked against a host computation of the loop nest's
//      semantics (16 elements, in double precision): a mismatch there is a
//      benchmark bug, REF_MISMATCH, and nothing is timed.
//   2. tc, ops, lt and cat write a C poisoned with NaN bytes; the error is
//      max|out - ref| / max|ref| (tolerance 1e-2 for tc, ops and cat, 2e-2
//      for lt); tc's output is also spot-checked against the host. Any
//      non-finite output fails. A failed tc check marks the row FAIL and tc
//      is not timed (the baselines still are); a failed ops/lt/cat check
//      marks that baseline MISMATCH and it is not timed. A cuDNN call of ops
//      that returns an error switches that row's ops to own kernels (the
//      ops_impl column says so).
//   3. Timing as in bench_common.h. The buffer sets cover 2x L2 with the
//      data one tc call touches (inputs and output).
//
// Output: one progress line per row; CSV (--csv) and markdown (--md) files;
// and, last on stdout, a summary after a line "== summary ==": per function
// and set, the geometric mean and minimum of each ratio. ratio = baseline
// time / tc time, so > 1 means the fused tc kernel is faster. The exit status
// is nonzero when any row's check is not PASS, or a baseline mismatched or
// errored.
#include <cublasLt.h>
#include <cublas_v2.h>
#ifdef BENCH_HAVE_CUDNN
// The legacy per-operation API (cudnnAddTensor, cudnnActivationForward) is
// deprecated in cuDNN 9 but is what the seed paper's baseline called.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <cudnn.h>
#endif
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <vector>

#define BENCH_PROG "fused_bench"
#include "bench_common.h"

// FUSED_FUNCS(X) lists X(name, idiom) for each bench/fused function that
// tc-rewrite accepted; FUSED_SKIPPED names the files it did not (written by
// scripts/bench-prepare.sh).
#include "fused_registry.h"

#ifndef FUSED_FUNCS
#define FUSED_FUNCS(X)
#endif
#ifndef FUSED_SKIPPED
#define FUSED_SKIPPED ""
#endif

// The signature of each idiom. (The definitions' __restrict__ qualifiers are
// top-level, not part of the function type.)
typedef void fused_sig_relu_gemm(int, int, int, const __half *, const __half *,
                                 __half *);
typedef void fused_sig_gemm_bias_relu(int, int, int, const __half *,
                                      const __half *, const __half *, __half *);
typedef void fused_sig_gemm_bias_gelu(int, int, int, const __half *,
                                      const __half *, const __half *, __half *);
typedef void fused_sig_gemm_add_gemm(int, int, int, int, const __half *,
                                     const __half *, const __half *,
                                     const __half *, __half *);
typedef void fused_sig_int8_linear(int, int, int, const __half *,
                                   const int8_t *, const float *, const float *,
                                   __half *);
typedef void fused_sig_row_offset_gemm(int, int, int, const __half *, const __half *,
                                       const float *, __half *);
typedef fused_sig_row_offset_gemm fused_sig_column_offset_gemm;

#define FUSED_DECLARE(name, idiom) fused_sig_##idiom name;
FUSED_FUNCS(FUSED_DECLARE)
#undef FUSED_DECLARE

namespace {

// --- Configuration --------------------------------------------------------------
constexpr uint64_t kDataSeed = 0x66757365642025ULL;
constexpr double kTolTc = 1e-2;    // tc and cat against the lib reference
constexpr double kTolLt = 2e-2;    // cuBLASLt (GELU: tanh form) against it
constexpr double kTolSpot = 1e-2;  // host spot checks
constexpr int kSpots = 16;
constexpr size_t kLtWorkspace = (size_t)32 << 20;

// --- Idioms and functions under test ---------------------------------------------
enum Idiom {
  kReluGemm,
  kGemmBiasRelu,
  kGemmBiasGelu,
  kGemmAddGemm,
  kInt8Linear,
  kRowOffsetGemm,
  kColumnOffsetGemm,
  kIdioms
};
const char *const kIdiomNames[kIdioms] = {"relu_gemm",     "gemm_bias_relu",
                                          "gemm_bias_gelu", "gemm_add_gemm",
                                          "int8_linear",   "row_offset_gemm",
                                          "column_offset_gemm"};

int idiom_of(const std::string &name) {
  for (int i = 0; i < kIdioms; ++i)
    if (name == kIdiomNames[i])
      return i;
  return -1;
}
bool has_lt(int id) { return id == kGemmBiasRelu || id == kGemmBiasGelu; }
bool has_cat(int id) { return id == kGemmAddGemm; }
bool has_ops(int id) {
  return id != kInt8Linear && id != kRowOffsetGemm && id != kColumnOffsetGemm;
}

// Problem sizes; K = K1 + K2 (K2 = 0 except for gemm_add_gemm).
struct Dims {
  int M, N, K, K1, K2;
  double flops() const { return 2.0 * M * N * (double)K; }
};

Dims dims_for(int id, const Shape &s) {
  if (id == kGemmAddGemm) {
    int k2 = std::max(128, 128 * (s.K / 256));
    return {s.M, s.N, s.K + k2, s.K, k2};
  }
  return {s.M, s.N, s.K, s.K, 0};
}

// Everything one call may use; each idiom reads its own fields.
struct Args {
  Dims d;
  const __half *A, *B, *A2, *B2, *bias;  // A = X for int8_linear
  const int8_t *W;
  const float *scale, *zero;
  __half *C;
};

template <fused_sig_relu_gemm *F> void call_relu_gemm(const Args &a) {
  F(a.d.M, a.d.N, a.d.K, a.A, a.B, a.C);
}
template <fused_sig_gemm_bias_relu *F> void call_gemm_bias_relu(const Args &a) {
  F(a.d.M, a.d.N, a.d.K, a.A, a.B, a.bias, a.C);
}
template <fused_sig_gemm_bias_gelu *F> void call_gemm_bias_gelu(const Args &a) {
  F(a.d.M, a.d.N, a.d.K, a.A, a.B, a.bias, a.C);
}
template <fused_sig_gemm_add_gemm *F> void call_gemm_add_gemm(const Args &a) {
  F(a.d.M, a.d.N, a.d.K1, a.d.K2, a.A, a.B, a.A2, a.B2, a.C);
}
template <fused_sig_int8_linear *F> void call_int8_linear(const Args &a) {
  F(a.d.M, a.d.N, a.d.K, a.A, a.W, a.scale, a.zero, a.C);
}
template <fused_sig_row_offset_gemm *F> void call_row_offset_gemm(const Args &a) {
  F(a.d.M, a.d.N, a.d.K, a.A, a.B, a.zero, a.C);
}
template <fused_sig_column_offset_gemm *F> void call_column_offset_gemm(const Args &a) {
  F(a.d.M, a.d.N, a.d.K, a.A, a.B, a.zero, a.C);
}

struct Func {
  const char *name;
  int idiom;
  void (*fn)(const Args &);
};

std::vector<Func> available_funcs() {
  std::vector<Func> v;
#define FUSED_ENTRY(name, idiom)                                              \
  v.push_back(Func{#name, idiom_of(#idiom), &call_##idiom<name>});
  FUSED_FUNCS(FUSED_ENTRY)
#undef FUSED_ENTRY
  return v;
}

double tflops(const Dims &d, double ms) { return d.flops() / (ms * 1e-3) / 1e12; }

// --- Device kernels ------------------------------------------------------------------
// Uniform values in [lo, hi], counter-based (the generator of fill_uniform).
__device__ inline float uniform01(uint64_t seed, size_t idx) {
  uint64_t bits = mix64(seed ^ mix64(idx));
  return (float)(bits >> 40) * (1.0f / 16777216.0f);
}
__device__ inline void store(__half *p, float v) { *p = __float2half_rn(v); }
__device__ inline void store(float *p, float v) { *p = v; }

template <class T>
__global__ void fill_range(T *p, size_t n, uint64_t seed, float lo, float hi) {
  for (size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x; idx < n;
       idx += (size_t)gridDim.x * blockDim.x)
    store(p + idx, lo + (hi - lo) * uniform01(seed, idx));
}

// Integers uniform in [lo, hi], as floats.
__global__ void fill_integers(float *p, size_t n, uint64_t seed, int lo, int hi) {
  for (size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x; idx < n;
       idx += (size_t)gridDim.x * blockDim.x)
    p[idx] = (float)min(hi, lo + (int)((hi - lo + 1) * uniform01(seed, idx)));
}

// int8 uniform in [-127, 127].
__global__ void fill_int8(int8_t *p, size_t n, uint64_t seed) {
  for (size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x; idx < n;
       idx += (size_t)gridDim.x * blockDim.x) {
    uint64_t bits = mix64(seed ^ mix64(idx));
    p[idx] = (int8_t)((int)((bits >> 32) % 255u) - 127);
  }
}

// The pointwise kernels of the lib path. Grid-stride loops over 16-byte
// vectors (every buffer is 256-byte aligned), element-wise where a vector
// would straddle a row or for the tail.
#define GRID_STRIDE(v, n)                                                      \
  for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < (n);      \
       v += (size_t)gridDim.x * blockDim.x)

// out[i][k] = in[i][k] - zero[i] over M x K fp16 values (row-major); with
// `vec` (K a multiple of 8) 16 bytes at a time, as dequant_kernel.
__global__ void row_offset_kernel(const __half *__restrict__ in, const float *__restrict__ zero,
                                  __half *__restrict__ out, size_t M, size_t K, bool vec) {
  if (vec) {
    GRID_STRIDE(v, M * K / 8) {
      const float z = zero[v * 8 / K];
      uint4 x = reinterpret_cast<const uint4 *>(in)[v];
      __half2 *h = reinterpret_cast<__half2 *>(&x);
#pragma unroll
      for (int q = 0; q < 4; ++q)
        h[q] = __floats2half2_rn(__low2float(h[q]) - z, __high2float(h[q]) - z);
      reinterpret_cast<uint4 *>(out)[v] = x;
    }
  } else {
    GRID_STRIDE(e, M * K) {
      out[e] = __float2half(__half2float(in[e]) - zero[e / K]);
    }
  }
}

// out = max(in, 0) over n fp16 values.
__global__ void relu_kernel(const __half *__restrict__ in,
                            __half *__restrict__ out, size_t n) {
  const size_t nv = n / 8;
  const __half2 zero = __float2half2_rn(0.0f);
  GRID_STRIDE(v, nv) {
    uint4 x = reinterpret_cast<const uint4 *>(in)[v];
    __half2 *h = reinterpret_cast<__half2 *>(&x);
#pragma unroll
    for (int q = 0; q < 4; ++q)
      h[q] = __hmax2(h[q], zero);
    reinterpret_cast<uint4 *>(out)[v] = x;
  }
  GRID_STRIDE(e, n - nv * 8) {
    size_t idx = nv * 8 + e;
    out[idx] = __float2half(fmaxf(__half2float(in[idx]), 0.0f));
  }
}

enum Act { kActRelu, kActGelu, kActNone };

template <int ACT> __device__ inline float act(float v) {
  if (ACT == kActNone)
    return v;
  if (ACT == kActRelu)
    return fmaxf(v, 0.0f);
  return 0.5f * v * (1.0f + erff(v * 0.70710678f));
}

// C = act(C) in place over n fp16 values: the ops path's activation pass.
template <int ACT>
__global__ void act_kernel(__half *__restrict__ C, size_t n) {
  const size_t nv = n / 8;
  GRID_STRIDE(v, nv) {
    uint4 c = reinterpret_cast<const uint4 *>(C)[v];
    __half2 *h = reinterpret_cast<__half2 *>(&c);
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      float2 x = __half22float2(h[q]);
      h[q] = __floats2half2_rn(act<ACT>(x.x), act<ACT>(x.y));
    }
    reinterpret_cast<uint4 *>(C)[v] = c;
  }
  GRID_STRIDE(e, n - nv * 8) {
    size_t idx = nv * 8 + e;
    C[idx] = __float2half(act<ACT>(__half2float(C[idx])));
  }
}

// C[i][j] = act(C[i][j] + bias[j]) in place, C row-major M x N. `vec`:
// N % 8 == 0, so 8 consecutive elements share a row.
template <int ACT>
__global__ void bias_act_kernel(__half *__restrict__ C,
                                const __half *__restrict__ bias, int M, int N,
                                bool vec) {
  const size_t n = (size_t)M * N;
  if (vec) {
    GRID_STRIDE(v, n / 8) {
      const size_t e = v * 8;
      const int j = (int)(e % (size_t)N);
      uint4 c = reinterpret_cast<const uint4 *>(C)[v];
      uint4 b = *reinterpret_cast<const uint4 *>(bias + j);
      __half2 *hc = reinterpret_cast<__half2 *>(&c);
      const __half2 *hb = reinterpret_cast<const __half2 *>(&b);
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        float2 x = __half22float2(hc[q]), y = __half22float2(hb[q]);
        hc[q] = __floats2half2_rn(act<ACT>(x.x + y.x), act<ACT>(x.y + y.y));
      }
      reinterpret_cast<uint4 *>(C)[v] = c;
    }
  } else {
    GRID_STRIDE(e, n) {
      const int j = (int)(e % (size_t)N);
      C[e] = __float2half(act<ACT>(__half2float(C[e]) + __half2float(bias[j])));
    }
  }
}

// C += T over n fp16 values (the sum rounded once, from fp32).
__global__ void add_kernel(__half *__restrict__ C, const __half *__restrict__ T,
                           size_t n) {
  const size_t nv = n / 8;
  GRID_STRIDE(v, nv) {
    uint4 c = reinterpret_cast<const uint4 *>(C)[v];
    uint4 t = reinterpret_cast<const uint4 *>(T)[v];
    __half2 *hc = reinterpret_cast<__half2 *>(&c);
    const __half2 *ht = reinterpret_cast<const __half2 *>(&t);
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      float2 x = __half22float2(hc[q]), y = __half22float2(ht[q]);
      hc[q] = __floats2half2_rn(x.x + y.x, x.y + y.y);
    }
    reinterpret_cast<uint4 *>(C)[v] = c;
  }
  GRID_STRIDE(e, n - nv * 8) {
    size_t idx = nv * 8 + e;
    C[idx] = __float2half(__half2float(C[idx]) + __half2float(T[idx]));
  }
}

// Wh[j][k] = half((W[j][k] - zero[j]) * scale[j]), W int8 N x K. `vec`:
// K % 16 == 0, so 16 consecutive elements share a row.
__global__ void dequant_kernel(const int8_t *__restrict__ W,
                               const float *__restrict__ scale,
                               const float *__restrict__ zero,
                               __half *__restrict__ Wh, int N, int K, bool vec) {
  const size_t n = (size_t)N * K;
  if (vec) {
    GRID_STRIDE(v, n / 16) {
      const size_t e = v * 16;
      const int j = (int)(e / (size_t)K);
      const float s = scale[j], z = zero[j];
      uint4 w = reinterpret_cast<const uint4 *>(W)[v];
      const int8_t *q = reinterpret_cast<const int8_t *>(&w);
      uint4 out[2];
      __half2 *h = reinterpret_cast<__half2 *>(out);
#pragma unroll
      for (int p = 0; p < 8; ++p)
        h[p] = __floats2half2_rn(((float)q[2 * p] - z) * s,
                                 ((float)q[2 * p + 1] - z) * s);
      reinterpret_cast<uint4 *>(Wh)[2 * v] = out[0];
      reinterpret_cast<uint4 *>(Wh)[2 * v + 1] = out[1];
    }
  } else {
    GRID_STRIDE(e, n) {
      const int j = (int)(e / (size_t)K);
      Wh[e] = __float2half(((float)W[e] - zero[j]) * scale[j]);
    }
  }
}

// --fractional-zero-points: int8_linear's zero points uniform reals instead
// of integers.
bool g_fractional_zero_points = false;

// --ops-own-kernels: the ops baseline's passes are this file's kernels even
// where cuDNN is built in.
bool g_ops_own_kernels = false;

// --- Device memory ----------------------------------------------------------------------
enum Buf { bA, bB, bA2, bB2, bBias, bW, bScale, bZero, bC, bAcat, bBcat, kBufs };

// The buffer sets of one shape: kBufs slots per set, absent ones of size 0.
struct Sets {
  int n = 1;
  size_t off[kBufs] = {}, size[kBufs] = {}, stride = 0, footprint = 0;
  char *base = nullptr;
  template <class T> T *get(Buf b, int s) const {
    return size[b] ? reinterpret_cast<T *>(base + (size_t)s * stride + off[b])
                   : nullptr;
  }
  __half *h(Buf b, int s) const { return get<__half>(b, s); }
};

// --- Results --------------------------------------------------------------------------------
struct Row {
  std::string func, set;
  int idiom = 0;
  Dims d{};
  double tc_ms = NAN, lib_ms = NAN, lt_ms = NAN, cat_ms = NAN, ops_ms = NAN;
  double tc_err = NAN, lt_err = NAN, cat_err = NAN, ops_err = NAN;
  int nsets = 1, tc_reps = 0, lib_reps = 0, lt_reps = 0, cat_reps = 0, ops_reps = 0;
  // check: PASS, FAIL(...), ERROR(...), NOREF(...), REF_MISMATCH(...),
  // LIB_ERROR(...). lt_check/cat_check/ops_check: "" (no such baseline), ok,
  // MISMATCH(...), ERROR(...), NOALGO(...).
  std::string check, lt_check, cat_check, ops_check;
  std::string ops_impl;  // cudnn, or own (and why, where cuDNN was not used)
  bool pass() const { return check == "PASS"; }
  double ratio(double base_ms) const {
    return pass() ? base_ms / tc_ms : NAN;
  }
  double lib_ratio() const { return ratio(lib_ms); }
  double lt_ratio() const { return lt_check == "ok" ? ratio(lt_ms) : NAN; }
  double cat_ratio() const { return cat_check == "ok" ? ratio(cat_ms) : NAN; }
  double ops_ratio() const { return ops_check == "ok" ? ratio(ops_ms) : NAN; }
  // A baseline that mismatched or errored: a benchmark problem.
  bool baseline_bad() const {
    auto bad = [](const std::string &c) {
      return c.rfind("MISMATCH", 0) == 0 || c.rfind("ERROR", 0) == 0;
    };
    return bad(lt_check) || bad(cat_check) || bad(ops_check);
  }
};

// A cuBLASLt matmul with its descriptors and the heuristic's algorithm.
struct LtPlan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
  cublasLtMatmulAlgo_t algo{};
  void destroy() {
    if (la) cublasLtMatrixLayoutDestroy(la);
    if (lb) cublasLtMatrixLayoutDestroy(lb);
    if (lc) cublasLtMatrixLayoutDestroy(lc);
    if (op) cublasLtMatmulDescDestroy(op);
    *this = LtPlan();
  }
};

// The cuDNN descriptors of the ops path for one shape (BENCH_HAVE_CUDNN).
struct OpsPlan {
#ifdef BENCH_HAVE_CUDNN
  cudnnTensorDescriptor_t out = nullptr;   // C: NHWC (1, N, M, 1)
  cudnnTensorDescriptor_t bias = nullptr;  // bias[j]: (1, N, 1, 1)
  cudnnTensorDescriptor_t a = nullptr;     // A: NHWC (1, K, M, 1)
  cudnnActivationDescriptor_t relu = nullptr;
  void destroy() {
    if (out) cudnnDestroyTensorDescriptor(out);
    if (bias) cudnnDestroyTensorDescriptor(bias);
    if (a) cudnnDestroyTensorDescriptor(a);
    if (relu) cudnnDestroyActivationDescriptor(relu);
    *this = OpsPlan();
  }
#else
  void destroy() {}
#endif
  bool cudnn = false;  // false: the passes are this file's kernels
};

struct Bench : Timer {
  cublasHandle_t handle = nullptr;
  cublasLtHandle_t lt = nullptr;
#ifdef BENCH_HAVE_CUDNN
  cudnnHandle_t dnn = nullptr;
  std::string dnn_why;  // why there is no cuDNN handle
#endif
  Pool pool, scratch, ref_buf, lt_ws;

  void init() {
    init_timer();
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
      die("cublasCreate failed");
    cublasSetStream(handle, bench_stream());  // the stream of the tc code's launches
    if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
      die("cublasLtCreate failed");
    lt_ws.reserve(kLtWorkspace);
#ifdef BENCH_HAVE_CUDNN
    cudnnStatus_t ds = cudnnCreate(&dnn);
    if (ds != CUDNN_STATUS_SUCCESS) {
      dnn = nullptr;
      dnn_why = std::string("cudnnCreate: ") + cudnnGetErrorString(ds);
    } else {
      cudnnSetStream(dnn, bench_stream());
    }
#endif
  }

  // What the ops path uses on this build: "cudnn <version>" or why not.
  std::string ops_library() const {
    if (g_ops_own_kernels)
      return "own kernels (--ops-own-kernels)";
#ifdef BENCH_HAVE_CUDNN
    if (dnn)
      return "cudnn " + std::to_string(cudnnGetVersion());
    return "own kernels (" + dnn_why + ")";
#else
    return "own kernels (built without cuDNN)";
#endif
  }

  Sets layout(int id, const Dims &d) {
    const size_t M = d.M, N = d.N, K1 = d.K1, K2 = d.K2, K = d.K;
    Sets st;
    st.size[bA] = M * K1 * 2;
    st.size[bC] = M * N * 2;
    if (id == kInt8Linear) {
      st.size[bW] = N * K;
      st.size[bScale] = st.size[bZero] = N * 4;
    } else {
      st.size[bB] = N * K1 * 2;
    }
    if (id == kRowOffsetGemm)
      st.size[bZero] = M * 4;
    if (id == kColumnOffsetGemm)
      st.size[bZero] = N * 4;
    if (id == kGemmBiasRelu || id == kGemmBiasGelu)
      st.size[bBias] = N * 2;
    if (id == kGemmAddGemm) {
      st.size[bA2] = M * K2 * 2;
      st.size[bB2] = N * K2 * 2;
      st.size[bAcat] = M * K * 2;
      st.size[bBcat] = N * K * 2;
    }
    for (int b = 0; b < kBufs; ++b) {
      if (!st.size[b])
        continue;
      st.off[b] = st.stride;
      st.stride += round_up(st.size[b], kAlign);
      if (b != bAcat && b != bBcat)  // what one tc call touches
        st.footprint += round_up(st.size[b], kAlign);
    }
    st.n = sets_for(st.footprint);
    pool.reserve(st.stride * st.n);
    st.base = pool.ptr;
    ref_buf.reserve(round_up(st.size[bC], kAlign));
    size_t sc = id == kReluGemm || id == kRowOffsetGemm ? M * K * 2
                : id == kGemmAddGemm ? M * N * 2
                : id == kInt8Linear || id == kColumnOffsetGemm ? N * K * 2 : 0;
    if (sc)
      scratch.reserve(round_up(sc, kAlign));
    return st;
  }

  void fill(const Sets &st, const Dims &d, uint64_t seed) {
    const float bias_s = std::sqrt((float)d.K) / 3.0f;
    for (int i = 0; i < st.n; ++i) {
      for (int b = 0; b < kBufs; ++b) {
        size_t bytes = st.size[b];
        if (!bytes || b == bC || b == bAcat || b == bBcat)
          continue;
        uint64_t sd = mix64(seed ^ (16 * (uint64_t)i + b));
        switch (b) {
        case bA: case bB: case bA2: case bB2:
          fill_range<<<grid_for(bytes / 2), 256>>>(st.h((Buf)b, i), bytes / 2, sd, -1.f, 1.f);
          break;
        case bBias:
          fill_range<<<grid_for(bytes / 2), 256>>>(st.h(bBias, i), bytes / 2, sd, -bias_s, bias_s);
          break;
        case bW:
          fill_int8<<<grid_for(bytes), 256>>>(st.get<int8_t>(bW, i), bytes, sd);
          break;
        case bScale:
          fill_range<<<grid_for(bytes / 4), 256>>>(st.get<float>(bScale, i), bytes / 4, sd,
                                                  1.f / 64, 1.f / 16);
          break;
        case bZero:
          if (g_fractional_zero_points)
            fill_range<<<grid_for(bytes / 4), 256>>>(st.get<float>(bZero, i), bytes / 4, sd,
                                                    -2.f, 2.f);
          else
            fill_integers<<<grid_for(bytes / 4), 256>>>(st.get<float>(bZero, i), bytes / 4, sd,
                                                       -8, 8);
          break;
        }
      }
    }
    check_cuda(cudaGetLastError(), "fill launch");
    check_cuda(cudaDeviceSynchronize(), "fill");
  }

  // [A1 A2] and [B1; B2] of every set, for the cat baseline.
  void build_concat(const Sets &st, const Dims &d) {
    const size_t K = d.K, K1 = d.K1, K2 = d.K2;
    for (int i = 0; i < st.n; ++i) {
      auto cat = [&](Buf dst, Buf s1, Buf s2, size_t rows) {
        char *o = st.get<char>(dst, i);
        cudaMemcpy2DAsync(o, K * 2, st.get<char>(s1, i), K1 * 2, K1 * 2, rows,
                          cudaMemcpyDeviceToDevice, 0);
        cudaMemcpy2DAsync(o + K1 * 2, K * 2, st.get<char>(s2, i), K2 * 2, K2 * 2,
                          rows, cudaMemcpyDeviceToDevice, 0);
      };
      cat(bAcat, bA, bA2, d.M);
      cat(bBcat, bB, bB2, d.N);
    }
    check_cuda(cudaDeviceSynchronize(), "concatenate operands");
  }

  Args args(const Sets &st, const Dims &d, int s, __half *C) const {
    Args a;
    a.d = d;
    a.A = st.h(bA, s);
    a.B = st.h(bB, s);
    a.A2 = st.h(bA2, s);
    a.B2 = st.h(bB2, s);
    a.bias = st.h(bBias, s);
    a.W = st.get<int8_t>(bW, s);
    a.scale = st.get<float>(bScale, s);
    a.zero = st.get<float>(bZero, s);
    a.C = C;
    return a;
  }

  // Row-major C (M x N) = A (row-major, A[i*lda+k]) * B (column-major,
  // B[j*ldb+k]) through column-major cuBLAS: C^T (N x M, ld N) = op(B) A^T,
  // where B's memory read column-major is B (K x N, ld ldb), transposed, and
  // A's is A^T (K x M, ld lda).
  cublasStatus_t gemm(int M, int N, int K, const __half *A, int lda,
                      const __half *B, int ldb, __half *C) {
    const float alpha = 1.f, beta = 0.f;
    return cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B,
                        CUDA_R_16F, ldb, A, CUDA_R_16F, lda, &beta, C,
                        CUDA_R_16F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  }

  // gemm_add_gemm's products, unfused: A1 B1 into tmp, A2 B2 into a.C.
  cublasStatus_t two_gemms(const Args &a, __half *tmp) {
    const Dims &d = a.d;
    cublasStatus_t s = gemm(d.M, d.N, d.K1, a.A, d.K1, a.B, d.K1, tmp);
    cublasStatus_t s2 = gemm(d.M, d.N, d.K2, a.A2, d.K2, a.B2, d.K2, a.C);
    return s == CUBLAS_STATUS_SUCCESS ? s2 : s;
  }

  // (a): the unfused library path, output to a.C.
  cublasStatus_t lib(int id, const Args &a) {
    const Dims &d = a.d;
    __half *tmp = (__half *)scratch.ptr;
    const size_t mn = (size_t)d.M * d.N;
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    switch (id) {
    case kReluGemm: {
      size_t n = (size_t)d.M * d.K;
      relu_kernel<<<grid_for(n / 8 + 1), 256>>>(a.A, tmp, n);
      s = gemm(d.M, d.N, d.K, tmp, d.K, a.B, d.K, a.C);
      break;
    }
    case kGemmBiasRelu:
    case kGemmBiasGelu: {
      s = gemm(d.M, d.N, d.K, a.A, d.K, a.B, d.K, a.C);
      bool vec = d.N % 8 == 0;
      int g = grid_for(vec ? mn / 8 : mn);
      if (id == kGemmBiasRelu)
        bias_act_kernel<kActRelu><<<g, 256>>>(a.C, a.bias, d.M, d.N, vec);
      else
        bias_act_kernel<kActGelu><<<g, 256>>>(a.C, a.bias, d.M, d.N, vec);
      break;
    }
    case kGemmAddGemm: {
      s = two_gemms(a, tmp);
      add_kernel<<<grid_for(mn / 8 + 1), 256>>>(a.C, tmp, mn);
      break;
    }
    case kRowOffsetGemm: {
      const bool vec = d.K % 8 == 0;
      const size_t n = (size_t)d.M * d.K;
      row_offset_kernel<<<grid_for(vec ? n / 8 : n), 256>>>(a.A, a.zero, tmp, d.M, d.K, vec);
      s = gemm(d.M, d.N, d.K, tmp, d.K, a.B, d.K, a.C);
      break;
    }
    case kColumnOffsetGemm: {  // (B's columns are rows of K: B[j*K+k])
      const bool vec = d.K % 8 == 0;
      const size_t n = (size_t)d.N * d.K;
      row_offset_kernel<<<grid_for(vec ? n / 8 : n), 256>>>(a.B, a.zero, tmp, d.N, d.K, vec);
      s = gemm(d.M, d.N, d.K, a.A, d.K, tmp, d.K, a.C);
      break;
    }
    case kInt8Linear: {
      bool vec = d.K % 16 == 0;
      size_t n = (size_t)d.N * d.K;
      dequant_kernel<<<grid_for(vec ? n / 16 : n), 256>>>(a.W, a.scale, a.zero,
                                                          tmp, d.N, d.K, vec);
      s = gemm(d.M, d.N, d.K, a.A, d.K, tmp, d.K, a.C);
      break;
    }
    }
    return s;
  }

  // (a'): the descriptors of the paper's per-operation path; "" or why
  // cuDNN is not used for this shape (the passes are then own kernels).
  std::string ops_plan(const Dims &d, OpsPlan &p) {
    p = OpsPlan();
#ifdef BENCH_HAVE_CUDNN
    if (g_ops_own_kernels)
      return "--ops-own-kernels";
    if (!dnn)
      return dnn_why;
    cudnnStatus_t s = CUDNN_STATUS_SUCCESS;
    auto ok = [&](cudnnStatus_t r) {
      if (s == CUDNN_STATUS_SUCCESS)
        s = r;
      return s == CUDNN_STATUS_SUCCESS;
    };
    ok(cudnnCreateTensorDescriptor(&p.out)) &&
        ok(cudnnSetTensor4dDescriptor(p.out, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, d.N, d.M, 1)) &&
        ok(cudnnCreateTensorDescriptor(&p.bias)) &&
        ok(cudnnSetTensor4dDescriptor(p.bias, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, d.N, 1, 1)) &&
        ok(cudnnCreateTensorDescriptor(&p.a)) &&
        ok(cudnnSetTensor4dDescriptor(p.a, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, d.K1, d.M, 1)) &&
        ok(cudnnCreateActivationDescriptor(&p.relu)) &&
        ok(cudnnSetActivationDescriptor(p.relu, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0));
    if (s != CUDNN_STATUS_SUCCESS) {
      p.destroy();
      return std::string("descriptors: ") + cudnnGetErrorString(s);
    }
    p.cudnn = true;
    return "";
#else
    (void)d;
    return g_ops_own_kernels ? "--ops-own-kernels" : "built without cuDNN";
#endif
  }

  // (a'): the paper's per-operation path, output to a.C. A failing cuDNN
  // call's status goes to *dnn_err (when given) as text.
  cublasStatus_t ops(int id, const OpsPlan &p, const Args &a, std::string *dnn_err = nullptr) {
    const Dims &d = a.d;
    const size_t mn = (size_t)d.M * d.N;
    if (!p.cudnn) {
      // This file's kernels, a pass per operation. ReLU over A and the add
      // of two GEMMs are single passes in lib already.
      if (id == kReluGemm || id == kGemmAddGemm)
        return lib(id, a);
      cublasStatus_t s = gemm(d.M, d.N, d.K, a.A, d.K, a.B, d.K, a.C);
      bool vec = d.N % 8 == 0;
      bias_act_kernel<kActNone><<<grid_for(vec ? mn / 8 : mn), 256>>>(a.C, a.bias, d.M, d.N, vec);
      if (id == kGemmBiasRelu)
        act_kernel<kActRelu><<<grid_for(mn / 8 + 1), 256>>>(a.C, mn);
      else
        act_kernel<kActGelu><<<grid_for(mn / 8 + 1), 256>>>(a.C, mn);
      return s;
    }
#ifdef BENCH_HAVE_CUDNN
    const float one = 1.f, zero = 0.f;
    __half *tmp = (__half *)scratch.ptr;
    auto dnn_call = [&](cudnnStatus_t r, const char *what) {
      if (r != CUDNN_STATUS_SUCCESS && dnn_err && dnn_err->empty())
        *dnn_err = std::string(what) + ": " + cudnnGetErrorString(r);
    };
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    switch (id) {
    case kReluGemm:
      dnn_call(cudnnActivationForward(dnn, p.relu, &one, p.a, a.A, &zero, p.a, tmp),
               "cudnnActivationForward");
      return gemm(d.M, d.N, d.K, tmp, d.K, a.B, d.K, a.C);
    case kGemmAddGemm:
      s = two_gemms(a, tmp);
      dnn_call(cudnnAddTensor(dnn, &one, p.out, tmp, &one, p.out, a.C), "cudnnAddTensor");
      return s;
    default:  // the bias add, then the activation
      s = gemm(d.M, d.N, d.K, a.A, d.K, a.B, d.K, a.C);
      dnn_call(cudnnAddTensor(dnn, &one, p.bias, a.bias, &one, p.out, a.C), "cudnnAddTensor");
      if (id == kGemmBiasRelu)
        dnn_call(cudnnActivationForward(dnn, p.relu, &one, p.out, a.C, &zero, p.out, a.C),
                 "cudnnActivationForward");
      else  // cuDNN's activations have no GELU
        act_kernel<kActGelu><<<grid_for(mn / 8 + 1), 256>>>(a.C, mn);
      return s;
    }
#else
    (void)dnn_err;
    return CUBLAS_STATUS_NOT_SUPPORTED;  // unreachable: p.cudnn needs cuDNN
#endif
  }

  // (c): one GEMM over the concatenated reduction of set s.
  cublasStatus_t cat(const Sets &st, const Dims &d, int s, __half *C) {
    return gemm(d.M, d.N, d.K, st.h(bAcat, s), d.K, st.h(bBcat, s), d.K, C);
  }

  // (b): the cuBLASLt plan for a bias epilogue; "" or why there is none.
  // The same column-major view as gemm(): D = C^T is N x M (ld N), Lt's A is
  // B's memory (K x N, ld K) transposed, Lt's B is A's memory (K x M, ld K).
  // The bias has one element per row of D, i.e. per j.
  std::string lt_plan(int id, const Dims &d, const void *bias, LtPlan &p) {
    auto fail = [&](const char *what, cublasStatus_t s) {
      p.destroy();
      return std::string(what) + " " + cublasGetStatusName(s);
    };
    cublasStatus_t s = cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    if (s != CUBLAS_STATUS_SUCCESS)
      return fail("MatmulDescCreate", s);
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    cublasLtEpilogue_t epi = id == kGemmBiasRelu ? CUBLASLT_EPILOGUE_RELU_BIAS
                                                 : CUBLASLT_EPILOGUE_GELU_BIAS;
    int32_t bias_type = CUDA_R_16F;
    cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
    cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
    cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi);
    cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                   &bias_type, sizeof bias_type);
    s = cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                       &bias, sizeof bias);
    if (s != CUBLAS_STATUS_SUCCESS)
      return fail("MatmulDescSetAttribute", s);
    if ((s = cublasLtMatrixLayoutCreate(&p.la, CUDA_R_16F, d.K, d.N, d.K)) ||
        (s = cublasLtMatrixLayoutCreate(&p.lb, CUDA_R_16F, d.K, d.M, d.K)) ||
        (s = cublasLtMatrixLayoutCreate(&p.lc, CUDA_R_16F, d.N, d.M, d.N)))
      return fail("MatrixLayoutCreate", s);
    cublasLtMatmulPreference_t pref = nullptr;
    if ((s = cublasLtMatmulPreferenceCreate(&pref)))
      return fail("MatmulPreferenceCreate", s);
    size_t ws = lt_ws.bytes;
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                         &ws, sizeof ws);
    cublasLtMatmulHeuristicResult_t res{};
    int found = 0;
    s = cublasLtMatmulAlgoGetHeuristic(lt, p.op, p.la, p.lb, p.lc, p.lc, pref, 1,
                                       &res, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    if (s != CUBLAS_STATUS_SUCCESS)
      return fail("heuristic", s);
    if (found == 0 || res.state != CUBLAS_STATUS_SUCCESS) {
      p.destroy();
      return "no algorithm";
    }
    p.algo = res.algo;
    return "";
  }

  cublasStatus_t lt_call(LtPlan &p, const Args &a) {
    const float alpha = 1.f, beta = 0.f;
    const void *bias = a.bias;
    cublasStatus_t s = cublasLtMatmulDescSetAttribute(
        p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias);
    if (s != CUBLAS_STATUS_SUCCESS)
      return s;
    return cublasLtMatmul(lt, p.op, &alpha, a.B, p.la, a.A, p.lb, &beta, a.C,
                          p.lc, a.C, p.lc, &p.algo, lt_ws.ptr, lt_ws.bytes, bench_stream());
  }

  // --- Host spot check ---------------------------------------------------------------
  template <class T> std::vector<T> download(const T *p, size_t n) {
    std::vector<T> v(n);
    check_cuda(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost),
               "download");
    return v;
  }

  // The loop nest's value at (i, j) of set 0, computed on the host.
  double host_value(int id, const Sets &st, const Dims &d, int i, int j) {
    auto f = [](__half h) { return (double)__half2float(h); };
    double acc = 0;
    if (id == kInt8Linear) {
      auto x = download(st.h(bA, 0) + (size_t)i * d.K, d.K);
      auto w = download(st.get<int8_t>(bW, 0) + (size_t)j * d.K, d.K);
      float sc = download(st.get<float>(bScale, 0) + j, 1)[0];
      float z = download(st.get<float>(bZero, 0) + j, 1)[0];
      for (int k = 0; k < d.K; ++k)
        acc += f(x[k]) * (double)(((float)w[k] - z) * sc);
      return acc;
    }
    auto a = download(st.h(bA, 0) + (size_t)i * d.K1, d.K1);
    auto b = download(st.h(bB, 0) + (size_t)j * d.K1, d.K1);
    const double zero =
        id == kRowOffsetGemm ? (double)download(st.get<float>(bZero, 0) + i, 1)[0] : 0.0;
    const double zero_b =
        id == kColumnOffsetGemm ? (double)download(st.get<float>(bZero, 0) + j, 1)[0] : 0.0;
    for (int k = 0; k < d.K1; ++k)
      acc += (id == kReluGemm ? std::max(f(a[k]), 0.0) : f(a[k]) - zero) * (f(b[k]) - zero_b);
    if (id == kGemmAddGemm) {
      auto a2 = download(st.h(bA2, 0) + (size_t)i * d.K2, d.K2);
      auto b2 = download(st.h(bB2, 0) + (size_t)j * d.K2, d.K2);
      for (int k = 0; k < d.K2; ++k)
        acc += f(a2[k]) * f(b2[k]);
    }
    if (id == kGemmBiasRelu || id == kGemmBiasGelu) {
      double v = acc + f(download(st.h(bBias, 0) + j, 1)[0]);
      return id == kGemmBiasRelu ? std::max(v, 0.0)
                                 : 0.5 * v * (1.0 + std::erf(v * 0.7071067811865476));
    }
    return acc;
  }

  struct Spots {
    std::vector<int> i, j;
    std::vector<double> want;
    double scale = 0;
  };

  Spots make_spots(int id, const Sets &st, const Dims &d) {
    Spots sp;
    std::mt19937 rng((uint32_t)(d.M * 7919u + d.N * 104729u + d.K * 31u + id));
    for (int s = 0; s < kSpots; ++s) {
      int i = s < 4 ? (s & 1 ? d.M - 1 : 0) : (int)(rng() % (uint32_t)d.M);
      int j = s < 4 ? (s & 2 ? d.N - 1 : 0) : (int)(rng() % (uint32_t)d.N);
      sp.i.push_back(i);
      sp.j.push_back(j);
      sp.want.push_back(host_value(id, st, d, i, j));
      sp.scale = std::max(sp.scale, std::fabs(sp.want.back()));
    }
    sp.scale = std::max(sp.scale, 1e-3);
    return sp;
  }

  // max |C[i][j] - host| / max |host| over the spots.
  double spot_error(const Spots &sp, const Dims &d, const __half *C) {
    double e = 0;
    for (size_t s = 0; s < sp.i.size(); ++s) {
      double got = __half2float(download(C + (size_t)sp.i[s] * d.N + sp.j[s], 1)[0]);
      if (!std::isfinite(got))
        return INFINITY;
      e = std::max(e, std::fabs(got - sp.want[s]));
    }
    return e / sp.scale;
  }

  // Compares C (poisoned before the call) against the reference.
  double check_out(const Dims &d, const __half *C, std::string &why) {
    return rel_error(C, (const __half *)ref_buf.ptr, (size_t)d.M * d.N, why);
  }

  void poison(const Sets &st, const Dims &d) {
    check_cuda(cudaMemset(st.h(bC, 0), 0xFF, (size_t)d.M * d.N * 2), "poison C");
  }

  // Runs `call` once on set 0 and synchronises; "" or the failure.
  template <class Call> std::string once(Call &&call) {
    cublasStatus_t s = call();
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
      e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
      return cuda_failure(e);
    if (s != CUBLAS_STATUS_SUCCESS)
      return std::string("cuBLAS ") + cublasGetStatusName(s);
    return "";
  }

  // Times a library call (returning a cublasStatus_t) over the sets.
  template <class Call>
  double time_lib(Call &&call, const Sets &st, int &reps, std::string &err) {
    cublasStatus_t last = CUBLAS_STATUS_SUCCESS;
    double ms = time_calls(
        [&](int i) {
          cublasStatus_t c = call(i);
          if (c != CUBLAS_STATUS_SUCCESS)
            last = c;
        },
        st.n, reps, err);
    if (last != CUBLAS_STATUS_SUCCESS) {
      err = std::string("ERROR(cuBLAS ") + cublasGetStatusName(last) + ")";
      return NAN;
    }
    return ms;
  }

  Row run(const Func &f, const std::string &set, const Shape &shape) {
    Row row;
    row.func = f.name;
    row.set = set;
    row.idiom = f.idiom;
    const int id = f.idiom;
    const Dims d = row.d = dims_for(id, shape);
    Sets st = layout(id, d);
    row.nsets = st.n;
    fill(st, d, kDataSeed ^ mix64(((uint64_t)d.M << 42) ^ ((uint64_t)d.N << 21) ^
                                  (uint64_t)d.K ^ ((uint64_t)id << 60)));
    __half *ref = (__half *)ref_buf.ptr;

    // 1. The reference (lib on set 0), spot-checked on the host.
    std::string ref_note = once([&] { return lib(id, args(st, d, 0, ref)); });
    if (context_lost) {
      row.check = "ERROR(" + ref_note + ")";
      return row;
    }
    const bool have_ref = ref_note.empty();
    Spots spots;
    if (have_ref) {
      spots = make_spots(id, st, d);
      double e = spot_error(spots, d, ref);
      if (!(e <= kTolSpot)) {
        row.check = "REF_MISMATCH(" + fmt("%.2e", e) + ")";
        return row;
      }
    }

    // 2. tc on a poisoned C.
    poison(st, d);
    f.fn(args(st, d, 0, st.h(bC, 0)));
    cudaError_t ce = cudaGetLastError();
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
      row.tc_err = check_out(d, st.h(bC, 0), why);
      double spot = why.empty() ? spot_error(spots, d, st.h(bC, 0)) : NAN;
      if (std::isfinite(row.tc_err) && row.tc_err <= kTolTc && spot <= kTolSpot) {
        row.check = "PASS";
        tc_ok = true;
      } else if (!why.empty()) {
        row.check = "FAIL(" + why + ")";
      } else if (row.tc_err <= kTolTc) {
        row.check = "FAIL(spot " + fmt("%.2e", spot) + ")";
      } else {
        row.check = "FAIL";
      }
    }

    // The baselines (b) and (c) on set 0, against the reference.
    LtPlan plan;
    bool lt_ok = false, cat_ok = false;
    if (has_lt(id)) {
      std::string why = lt_plan(id, d, st.h(bBias, 0), plan);
      if (!why.empty()) {
        row.lt_check = "NOALGO(" + why + ")";
      } else if (have_ref) {
        poison(st, d);
        std::string err = once([&] { return lt_call(plan, args(st, d, 0, st.h(bC, 0))); });
        if (context_lost) {
          plan.destroy();
          row.lt_check = "ERROR(" + err + ")";
          return row;
        }
        if (err.find("NOT_SUPPORTED") != std::string::npos) {
          row.lt_check = "NOALGO(" + err + ")";  // no such baseline here
        } else if (!err.empty()) {
          row.lt_check = "ERROR(" + err + ")";
        } else {
          std::string w;
          row.lt_err = check_out(d, st.h(bC, 0), w);
          lt_ok = std::isfinite(row.lt_err) && row.lt_err <= kTolLt;
          row.lt_check = lt_ok ? "ok" : "MISMATCH(" + (w.empty() ? fmt("%.2e", row.lt_err) : w) + ")";
        }
      }
    }
    if (has_cat(id) && have_ref) {
      build_concat(st, d);
      poison(st, d);
      std::string err = once([&] { return cat(st, d, 0, st.h(bC, 0)); });
      if (context_lost) {
        plan.destroy();
        row.cat_check = "ERROR(" + err + ")";
        return row;
      }
      if (!err.empty()) {
        row.cat_check = "ERROR(" + err + ")";
      } else {
        std::string w;
        row.cat_err = check_out(d, st.h(bC, 0), w);
        cat_ok = std::isfinite(row.cat_err) && row.cat_err <= kTolTc;
        row.cat_check = cat_ok ? "ok" : "MISMATCH(" + (w.empty() ? fmt("%.2e", row.cat_err) : w) + ")";
      }
    }

    // The paper's per-operation path (a'): cuDNN's passes, or this file's
    // kernels where a cuDNN call returns an error here (a cuDNN result that
    // does not match the reference is a MISMATCH, as a wrong descriptor
    // would be, not a reason to switch).
    OpsPlan ops_p;
    bool ops_ok = false;
    if (has_ops(id) && have_ref) {
      std::string why = ops_plan(d, ops_p);
      for (;;) {
        poison(st, d);
        std::string dnn_err;
        std::string err = once([&] { return ops(id, ops_p, args(st, d, 0, st.h(bC, 0)), &dnn_err); });
        if (context_lost) {
          ops_p.destroy();
          plan.destroy();
          row.ops_check = "ERROR(" + err + ")";
          return row;
        }
        std::string w;
        if (err.empty() && dnn_err.empty())
          row.ops_err = check_out(d, st.h(bC, 0), w);
        ops_ok = err.empty() && dnn_err.empty() && std::isfinite(row.ops_err) &&
                 row.ops_err <= kTolTc;
        if (!dnn_err.empty() && ops_p.cudnn && err.empty()) {
          // A cuDNN call failed here: the same passes as own kernels.
          why = dnn_err;
          ops_p.destroy();
          row.ops_err = NAN;
          continue;
        }
        if (ops_ok)
          row.ops_check = "ok";
        else if (!err.empty())
          row.ops_check = "ERROR(" + err + ")";
        else
          row.ops_check = "MISMATCH(" + (w.empty() ? fmt("%.2e", row.ops_err) : w) + ")";
        break;
      }
      row.ops_impl = ops_p.cudnn ? "cudnn" : "own (" + why + ")";
    }

    // 3. Timing. Each method is timed twice, in mirrored order (tc, lib,
    // ops, lt, cat, then cat, lt, ops, lib, tc), and keeps its lower median: on large
    // shapes the method timed first after the checks measured up to ~10%
    // faster (clocks), which a fixed order would give to one of them.
    std::string tc_err, lib_err, lt_err, cat_err, ops_err;
    auto keep = [](double ms, int reps, double &best, int &best_reps) {
      if (!(ms >= best)) {
        best = ms;
        best_reps = reps;
      }
    };
    auto time_tc = [&] {
      if (!tc_ok || !tc_err.empty() || context_lost)
        return;
      int reps = 0;
      double ms = time_calls([&](int i) { f.fn(args(st, d, i, st.h(bC, i))); }, st.n, reps,
                             tc_err);
      if (tc_err.empty())
        keep(ms, reps, row.tc_ms, row.tc_reps);
    };
    auto time_lib_path = [&] {
      if (!have_ref || !lib_err.empty() || context_lost)
        return;
      int reps = 0;
      double ms = time_lib([&](int i) { return lib(id, args(st, d, i, st.h(bC, i))); }, st,
                           reps, lib_err);
      if (lib_err.empty())
        keep(ms, reps, row.lib_ms, row.lib_reps);
    };
    auto time_lt = [&] {
      if (!lt_ok || !lt_err.empty() || context_lost)
        return;
      int reps = 0;
      double ms = time_lib([&](int i) { return lt_call(plan, args(st, d, i, st.h(bC, i))); },
                           st, reps, lt_err);
      if (lt_err.empty())
        keep(ms, reps, row.lt_ms, row.lt_reps);
    };
    auto time_cat = [&] {
      if (!cat_ok || !cat_err.empty() || context_lost)
        return;
      int reps = 0;
      double ms = time_lib([&](int i) { return cat(st, d, i, st.h(bC, i)); }, st, reps,
                           cat_err);
      if (cat_err.empty())
        keep(ms, reps, row.cat_ms, row.cat_reps);
    };
    auto time_ops = [&] {
      if (!ops_ok || !ops_err.empty() || context_lost)
        return;
      int reps = 0;
      std::string dnn_err;
      double ms = time_lib(
          [&](int i) { return ops(id, ops_p, args(st, d, i, st.h(bC, i)), &dnn_err); }, st,
          reps, ops_err);
      if (!dnn_err.empty() && ops_err.empty())
        ops_err = "ERROR(" + dnn_err + ")";
      if (ops_err.empty())
        keep(ms, reps, row.ops_ms, row.ops_reps);
    };
    time_tc();
    time_lib_path();
    time_ops();
    time_lt();
    time_cat();
    time_cat();
    time_lt();
    time_ops();
    time_lib_path();
    time_tc();
    plan.destroy();
    ops_p.destroy();
    if (!tc_err.empty()) {
      row.tc_ms = NAN;
      row.check = tc_err;
      if (context_lost)
        return row;
    }
    if (!lib_err.empty()) {
      row.lib_ms = NAN;
      if (row.check == "PASS")  // no baseline: not a PASS
        row.check = "LIB_" + lib_err;
    }
    if (!lt_err.empty()) {
      row.lt_ms = NAN;
      row.lt_check = lt_err;
    }
    if (!cat_err.empty()) {
      row.cat_ms = NAN;
      row.cat_check = cat_err;
    }
    if (!ops_err.empty()) {
      row.ops_ms = NAN;
      row.ops_check = ops_err;
    }
    return row;
  }
};

// --- Reports ----------------------------------------------------------------------------------
struct Ratios {  // geomean and minimum of one ratio over a group of rows
  double log_sum = 0, min = INFINITY;
  int n = 0;
  void add(double q) {
    if (std::isfinite(q) && q > 0) {
      log_sum += std::log(q);
      ++n;
      min = std::min(min, q);
    }
  }
  double geomean() const { return n ? std::exp(log_sum / n) : NAN; }
  double minimum() const { return n ? min : NAN; }
};

struct Agg {
  int rows = 0, pass = 0, base_bad = 0;
  Ratios lib, lt, cat, ops;
};

const Row *find_square(const std::vector<Row> &rows,
                       const std::pair<std::string, std::string> &key, int n) {
  for (auto &r : rows)
    if (r.func == key.first && r.set == key.second && r.d.M == n && r.d.N == n &&
        r.d.K1 == n)
      return &r;
  return nullptr;
}

std::string tf_pair(const Row *r) {
  if (!r)
    return "-";
  std::string a = std::isfinite(r->tc_ms) ? fmt("%.0f", tflops(r->d, r->tc_ms)) : "-";
  std::string b = std::isfinite(r->lib_ms) ? fmt("%.0f", tflops(r->d, r->lib_ms)) : "-";
  return a + "/" + b;
}

std::string k2_text(const Row &r) {
  return r.idiom == kGemmAddGemm ? std::to_string(r.d.K2) : "";
}

// A free-text CSV field: commas become semicolons.
std::string csv_safe(std::string t) {
  std::replace(t.begin(), t.end(), ',', ';');
  return t;
}

void write_csv_header(FILE *f) {
  fprintf(f, "idiom,func,set,M,N,K,K1,K2,tc_ms,tc_tflops,lib_ms,lib_tflops,"
             "lib_ratio,lt_ms,lt_ratio,cat_ms,cat_ratio,check,max_rel_err,"
             "lt_check,lt_rel_err,cat_check,cat_rel_err,tc_reps,lib_reps,"
             "lt_reps,cat_reps,buffer_sets,ops_ms,ops_ratio,ops_check,"
             "ops_rel_err,ops_reps,ops_impl\n");
}

void write_csv_row(FILE *f, const Row &r) {
  fprintf(f,
          "%s,%s,%s,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,"
          "%d,%d,%d,%d,%d,%s,%s,%s,%s,%d,%s\n",
          kIdiomNames[r.idiom], r.func.c_str(), r.set.c_str(), r.d.M, r.d.N, r.d.K,
          r.d.K1, k2_text(r).c_str(), fmt("%.6f", r.tc_ms).c_str(),
          fmt("%.2f", tflops(r.d, r.tc_ms)).c_str(), fmt("%.6f", r.lib_ms).c_str(),
          fmt("%.2f", tflops(r.d, r.lib_ms)).c_str(), fmt("%.4f", r.lib_ratio()).c_str(),
          fmt("%.6f", r.lt_ms).c_str(), fmt("%.4f", r.lt_ratio()).c_str(),
          fmt("%.6f", r.cat_ms).c_str(), fmt("%.4f", r.cat_ratio()).c_str(),
          r.check.c_str(), fmt("%.3e", r.tc_err).c_str(), r.lt_check.c_str(),
          fmt("%.3e", r.lt_err).c_str(), r.cat_check.c_str(),
          fmt("%.3e", r.cat_err).c_str(), r.tc_reps, r.lib_reps, r.lt_reps,
          r.cat_reps, r.nsets, fmt("%.6f", r.ops_ms).c_str(),
          fmt("%.4f", r.ops_ratio()).c_str(), r.ops_check.c_str(),
          fmt("%.3e", r.ops_err).c_str(), r.ops_reps, csv_safe(r.ops_impl).c_str());
  fflush(f);
}

const char *kProgressFmt = "%-28s %-6s %6s %6s %6s %8s %7s %8s %6s %8s %6s %8s %6s %8s %6s  %s\n";

void print_progress_header() {
  printf(kProgressFmt, "func", "set", "M", "N", "K", "tc_ms", "tc_TF", "lib_ms",
         "lib_x", "ops_ms", "ops_x", "lt_ms", "lt_x", "cat_ms", "cat_x", "check");
}

void print_progress(const Row &r) {
  std::string m = std::to_string(r.d.M), n = std::to_string(r.d.N),
              k = std::to_string(r.d.K);
  std::string status = r.check;
  if (!r.lt_check.empty() && r.lt_check != "ok")
    status += " lt:" + r.lt_check;
  if (!r.cat_check.empty() && r.cat_check != "ok")
    status += " cat:" + r.cat_check;
  if (!r.ops_check.empty() && r.ops_check != "ok")
    status += " ops:" + r.ops_check;
  if (!r.ops_impl.empty() && r.ops_impl != "cudnn")
    status += " ops_impl:" + r.ops_impl;
  printf(kProgressFmt, r.func.c_str(), r.set.c_str(), m.c_str(), n.c_str(), k.c_str(),
         fmt("%.4f", r.tc_ms).c_str(), fmt("%.1f", tflops(r.d, r.tc_ms)).c_str(),
         fmt("%.4f", r.lib_ms).c_str(), fmt("%.3f", r.lib_ratio()).c_str(),
         fmt("%.4f", r.ops_ms).c_str(), fmt("%.3f", r.ops_ratio()).c_str(),
         fmt("%.4f", r.lt_ms).c_str(), fmt("%.3f", r.lt_ratio()).c_str(),
         fmt("%.4f", r.cat_ms).c_str(), fmt("%.3f", r.cat_ratio()).c_str(),
         status.c_str());
  fflush(stdout);
}

std::string or_dash(const std::string &s) { return s.empty() ? "-" : s; }

// Writes the markdown file (when md_path is set) and prints the summary,
// last. Returns the exit status: nonzero when a row is not PASS or a
// baseline mismatched or errored.
int report(const std::vector<Row> &rows, const std::string &header,
           const std::string &md_path, bool quick, bool context_lost,
           long seconds) {
  std::vector<std::pair<std::string, std::string>> keys;
  std::map<std::pair<std::string, std::string>, Agg> agg;
  int failures = 0, base_bad = 0;
  for (auto &r : rows) {
    auto k = std::make_pair(r.func, r.set);
    if (!agg.count(k))
      keys.push_back(k);
    Agg &a = agg[k];
    ++a.rows;
    if (r.pass())
      ++a.pass;
    else
      ++failures;
    if (r.baseline_bad()) {
      ++a.base_bad;
      ++base_bad;
    }
    a.lib.add(r.lib_ratio());
    a.lt.add(r.lt_ratio());
    a.cat.add(r.cat_ratio());
    a.ops.add(r.ops_ratio());
  }
  const std::string skipped = FUSED_SKIPPED;
  const char *legend =
      "ratio = baseline time / tc time (> 1: the fused tc kernel is faster), "
      "over PASS rows. lib: cuBLAS GEMM(s) + separate pointwise kernels (one "
      "pass over C: bias and activation in one kernel); ops: the seed paper's "
      "baseline, one library call per pointwise operation (ReLU over A; the bias "
      "add, then the activation: two passes over C; the add of two GEMMs; cuDNN "
      "where available, GELU always an own kernel); lt: "
      "cuBLASLt with a fused bias epilogue (its GELU is the tanh form); cat: "
      "one cuBLAS GEMM over the concatenated K.";

  if (!md_path.empty()) {
    FILE *md = fopen(md_path.c_str(), "w");
    if (!md)
      die("cannot write " + md_path);
    fprintf(md, "# tc-rewrite fused-idiom benchmark\n\n%s  \n", header.c_str());
    fprintf(md, "%s Median of %d..%d timed calls after %d warm-ups, L2 flushed "
                "and inputs rotated; each method timed twice in mirrored order, the "
                "lower median kept; cuBLAS: cublasGemmEx, CUBLAS_COMPUTE_32F, "
                "default algorithm. gemm_add_gemm: K = K1 + K2, K2 = max(128, "
                "128 floor(K1 / 256)).%s\n\n",
            legend, kMinReps, kMaxReps, kWarmup,
            quick ? " `--quick` shape subset." : "");
    if (!skipped.empty())
      fprintf(md, "Not rewritten by tc-rewrite (skipped): %s\n\n", skipped.c_str());
    fprintf(md, "| func | set | rows | not PASS | lib geomean | lib min | ops geomean | "
                "ops min | lt geomean | "
                "lt min | cat geomean | cat min | TFLOP/s 4096^3 tc/lib | "
                "TFLOP/s 8192^3 tc/lib |\n"
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (auto &k : keys) {
      Agg &a = agg[k];
      fprintf(md, "| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
              k.first.c_str(), k.second.c_str(), a.rows, a.rows - a.pass,
              or_dash(fmt("%.3f", a.lib.geomean())).c_str(),
              or_dash(fmt("%.3f", a.lib.minimum())).c_str(),
              or_dash(fmt("%.3f", a.ops.geomean())).c_str(),
              or_dash(fmt("%.3f", a.ops.minimum())).c_str(),
              or_dash(fmt("%.3f", a.lt.geomean())).c_str(),
              or_dash(fmt("%.3f", a.lt.minimum())).c_str(),
              or_dash(fmt("%.3f", a.cat.geomean())).c_str(),
              or_dash(fmt("%.3f", a.cat.minimum())).c_str(),
              tf_pair(find_square(rows, k, 4096)).c_str(),
              tf_pair(find_square(rows, k, 8192)).c_str());
    }
    fprintf(md, "\n| func | set | M | N | K | K2 | tc ms | tc TFLOP/s | lib ms | "
                "lib ratio | ops ms | ops ratio | lt ms | lt ratio | cat ms | cat ratio | check | "
                "baselines |\n"
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                "---:|---|---|\n");
    for (auto &r : rows) {
      std::string base;
      if (!r.lt_check.empty())
        base += "lt " + r.lt_check;
      if (!r.cat_check.empty())
        base += (base.empty() ? "" : ", ") + std::string("cat ") + r.cat_check;
      if (!r.ops_check.empty())
        base += (base.empty() ? "" : ", ") + std::string("ops ") + r.ops_check + " " +
                r.ops_impl;
      fprintf(md, "| %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | "
                  "%s | %s | %s | %s |\n",
              r.func.c_str(), r.set.c_str(), r.d.M, r.d.N, r.d.K, k2_text(r).c_str(),
              fmt("%.4f", r.tc_ms).c_str(), fmt("%.1f", tflops(r.d, r.tc_ms)).c_str(),
              fmt("%.4f", r.lib_ms).c_str(), fmt("%.3f", r.lib_ratio()).c_str(),
              fmt("%.4f", r.ops_ms).c_str(), fmt("%.3f", r.ops_ratio()).c_str(),
              fmt("%.4f", r.lt_ms).c_str(), fmt("%.3f", r.lt_ratio()).c_str(),
              fmt("%.4f", r.cat_ms).c_str(), fmt("%.3f", r.cat_ratio()).c_str(),
              r.check.c_str(), base.c_str());
    }
    fclose(md);
  }

  printf("\n== summary ==\n%s\n", header.c_str());
  printf("%zu rows in %lds; %s\n", rows.size(), seconds, legend);
  if (!skipped.empty())
    printf("not rewritten by tc-rewrite (skipped): %s\n", skipped.c_str());
  printf("%-28s %-6s %4s %5s %8s %7s %8s %7s %8s %7s %8s %7s %11s\n", "func", "set",
         "rows", "!PASS", "lib_geo", "lib_min", "ops_geo", "ops_min", "lt_geo", "lt_min",
         "cat_geo", "cat_min", "TF@4096^3");
  for (auto &k : keys) {
    Agg &a = agg[k];
    printf("%-28s %-6s %4d %5d %8s %7s %8s %7s %8s %7s %8s %7s %11s\n", k.first.c_str(),
           k.second.c_str(), a.rows, a.rows - a.pass,
           or_dash(fmt("%.3f", a.lib.geomean())).c_str(),
           or_dash(fmt("%.3f", a.lib.minimum())).c_str(),
           or_dash(fmt("%.3f", a.ops.geomean())).c_str(),
           or_dash(fmt("%.3f", a.ops.minimum())).c_str(),
           or_dash(fmt("%.3f", a.lt.geomean())).c_str(),
           or_dash(fmt("%.3f", a.lt.minimum())).c_str(),
           or_dash(fmt("%.3f", a.cat.geomean())).c_str(),
           or_dash(fmt("%.3f", a.cat.minimum())).c_str(),
           tf_pair(find_square(rows, k, 4096)).c_str());
  }
  printf("(TF@4096^3: TFLOP/s tc/lib)\n");
  bool bad = failures || base_bad || context_lost;
  if (bad) {
    std::string msg = std::to_string(failures) + " rows not PASS";
    if (base_bad)
      msg += ", " + std::to_string(base_bad) + " rows with a baseline MISMATCH/ERROR";
    if (context_lost)
      msg += ", context lost";
    printf("%s\n", msg.c_str());
  } else {
    printf("all rows PASS\n");
  }
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> sets = {"paper", "square", "llm"};
  std::vector<std::string> func_filter, idiom_filter;
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
    else if (a == "--idioms")
      idiom_filter = split(value(), ',');
    else if (a == "--quick")
      quick = true;
    else if (a == "--graphs")
      graphs = true;
    else if (a == "--fractional-zero-points")
      g_fractional_zero_points = true;
    else if (a == "--ops-own-kernels")
      g_ops_own_kernels = true;
    else if (a == "--list")
      list_only = true;
    else if (a == "--csv")
      csv_path = value();
    else if (a == "--md")
      md_path = value();
    else if (a == "-h" || a == "--help") {
      printf("usage: fused_bench [--sets paper,square,llm,MxNxK] [--idioms name,...] "
             "[--funcs name,...] [--quick] [--fractional-zero-points] [--ops-own-kernels] "
             "[--graphs] [--csv out.csv] [--md out.md] [--list]\n"
             "  idioms: relu_gemm, gemm_bias_relu, gemm_bias_gelu, "
             "gemm_add_gemm, int8_linear, row_offset_gemm, column_offset_gemm\n"
             "  --fractional-zero-points draws int8_linear's zero points "
             "from [-2, 2] instead of the integers -8..8\n"
             "  --ops-own-kernels times the ops baseline's passes as this "
             "file's kernels even where cuDNN is built in (the passes without "
             "cuDNN's per-call cost)\n"
             "  --graphs times CUDA graphs of 20 calls (a build with "
             "--default-stream per-thread)\n"
             "  --list prints the functions and shapes and exits (no GPU "
             "needed)\n");
      return 0;
    } else
      die("unknown argument " + a);
  }

  const std::string skipped = FUSED_SKIPPED;
  std::vector<Func> all = available_funcs(), funcs;
  if (all.empty())
    die("no benchmark functions were compiled in (fused_registry.h lists none; "
        "did scripts/bench-prepare.sh rewrite any bench/fused/*.cu?)" +
        (skipped.empty() ? std::string() : " skipped: " + skipped));
  std::string names;
  for (auto &f : all)
    names += std::string(names.empty() ? "" : ", ") + f.name + " (" +
             kIdiomNames[f.idiom] + ")";
  for (auto &n : idiom_filter)
    if (idiom_of(n) < 0)
      die("unknown idiom " + n + " (relu_gemm, gemm_bias_relu, gemm_bias_gelu, "
          "gemm_add_gemm, int8_linear, row_offset_gemm, column_offset_gemm)");
  for (auto &n : func_filter)
    if (std::none_of(all.begin(), all.end(), [&](const Func &f) { return n == f.name; }))
      die("unknown or unavailable function " + n + "; available: " + names);
  for (auto &f : all) {
    bool by_func = func_filter.empty() ||
                   std::count(func_filter.begin(), func_filter.end(), f.name);
    bool by_idiom = idiom_filter.empty() ||
                    std::count(idiom_filter.begin(), idiom_filter.end(),
                               kIdiomNames[f.idiom]);
    if (by_func && by_idiom)
      funcs.push_back(f);
  }
  if (funcs.empty())
    die("no available function matches --funcs/--idioms; available: " + names);
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
    if (!skipped.empty())
      printf("skipped by bench-prepare: %s\n", skipped.c_str());
    printf("selected: %s\n", names_run.c_str());
    for (auto &ss : shape_sets) {
      printf("%s: %zu shapes:", ss.first.c_str(), ss.second.size());
      for (auto &s : ss.second)
        printf(" %dx%dx%d", s.M, s.N, s.K);
      printf("\n");
    }
    printf("gemm_add_gemm uses K1 = K, K2 = max(128, 128 * floor(K / 256))\n");
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
           "GPU: %s (sm_%d%d, %d SMs, L2 %.0f MiB), cuBLAS %d, cuBLASLt %zu, "
           "CUDA runtime %d, timing: %s",
           b.prop.name, b.prop.major, b.prop.minor, b.prop.multiProcessorCount,
           b.l2 / 1048576.0, cublas_version, cublasLtGetVersion(), runtime_version,
           graphs ? "CUDA graphs of 20 calls" : "calls behind a spin kernel");
  const std::string header = std::string(header_buf) + ", ops passes: " + b.ops_library();
  printf("%s\nfunctions: %s\n", header.c_str(), names_run.c_str());
  if (!skipped.empty())
    printf("not rewritten by tc-rewrite (skipped): %s\n", skipped.c_str());
  printf("ratio (_x) = baseline time / tc time (> 1: the fused tc kernel is "
         "faster); lib = cuBLAS + pointwise kernels, ops = cuBLAS + one pass per "
         "pointwise operation (the paper's baseline), lt = cuBLASLt epilogue, "
         "cat = one GEMM over concatenated K\n\n");

  FILE *csv = nullptr;
  if (!csv_path.empty()) {
    csv = fopen(csv_path.c_str(), "w");
    if (!csv)
      die("cannot write " + csv_path);
    write_csv_header(csv);
  }

  print_progress_header();
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
        print_progress(r);
      }
    }
  }
  if (csv)
    fclose(csv);
  if (b.context_lost)
    printf("\nfused_bench: the CUDA context was lost after a kernel fault; "
           "stopped early (%zu rows)\n", rows.size());

  return report(rows, header, md_path, quick, b.context_lost,
                (long)(time(nullptr) - start));
}
