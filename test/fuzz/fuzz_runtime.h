// Host side of the fuzzer's GPU check (test/fuzz/gpu_prepare.py writes the
// per-case code that uses it). For each case and shape:
//   - every array gets guard bytes (0xFF: a NaN in fp16/bf16/fp32) before and
//     after its elements, optionally shifted by one element (misaligned);
//   - inputs hold dyadic values (multiples of 1/8 in [-1, 1], small integers
//     for 8-bit operands), so every product and every fp32 partial sum of the
//     matmul is exact in any order: the reference and the kernels agree
//     exactly up to the epilogue's functions and the output's rounding;
//   - the reference is the ORIGINAL function (its loop nest as written,
//     compiled for the host, a double scalar accumulator where the types
//     allow) run on host copies;
//   - the rewritten function runs on device copies of the same bytes; then
//     every output element is compared with the reference, relative to the
//     output's largest |value| (tolerance by output type, epilogue, and K),
//     the guards of every array, every input array and every temp(...) array
//     must be byte-for-byte as before.
// Built with -DFUZZ_EMULATE, "device" memory is host memory and the
// rewritten function is replaced by the original (a check of the harness
// itself, without a GPU).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#ifndef FUZZ_EMULATE
#include <cuda_runtime.h>
#else
#include <cuda_runtime_api.h>
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fz {

enum Type { kF32, kF16, kBF16, kI8, kU8, kI32 };
enum Kind { kIn, kOut, kTemp };
// value domains of inputs
enum Domain { kUnit, kInt8, kUint8, kZeroI8, kZeroU8, kZeroInt, kScale };

constexpr size_t kGuard = 256;

inline size_t type_size(Type t) {
  switch (t) {
    case kF32: case kI32: return 4;
    case kF16: case kBF16: return 2;
    default: return 1;
  }
}

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    return s;
  }
  int range(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }
};

inline void store(Type t, unsigned char *p, double v) {
  switch (t) {
    case kF32: { float f = (float)v; memcpy(p, &f, 4); break; }
    case kF16: { __half h = __float2half((float)v); memcpy(p, &h, 2); break; }
    case kBF16: { __nv_bfloat16 h = __float2bfloat16((float)v); memcpy(p, &h, 2); break; }
    case kI8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
    case kU8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case kI32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
  }
}

inline double load(Type t, const unsigned char *p) {
  switch (t) {
    case kF32: { float f; memcpy(&f, p, 4); return f; }
    case kF16: { __half h; memcpy(&h, p, 2); return __half2float(h); }
    case kBF16: { __nv_bfloat16 h; memcpy(&h, p, 2); return __bfloat162float(h); }
    case kI8: { int8_t x; memcpy(&x, p, 1); return x; }
    case kU8: { uint8_t x; memcpy(&x, p, 1); return x; }
    case kI32: { int32_t x; memcpy(&x, p, 4); return x; }
  }
  return 0;
}

inline double draw(Rng &r, Domain d) {
  switch (d) {
    case kUnit: return r.range(-8, 8) / 8.0;
    case kInt8: return r.range(-32, 32);
    case kUint8: return r.range(100, 150);
    case kZeroI8: return r.range(-32, 32) / 8.0;
    case kZeroU8: return r.range(960, 1040) / 8.0;
    case kZeroInt: return r.range(-8, 8);
    case kScale: return r.range(1, 16) / 64.0;
  }
  return 0;
}

struct Buf {
  std::string name;
  Type type;
  Kind kind;
  size_t n = 0, esize = 0, mis = 0;
  std::vector<unsigned char> init, ref, back;
  unsigned char *dev = nullptr;
  size_t bytes() const { return kGuard * 2 + (n + mis) * esize; }
  size_t off() const { return kGuard + mis * esize; }
  void *ref_ptr() { return ref.data() + off(); }
  void *dev_ptr() { return dev + off(); }
};

struct Result {
  std::string status = "PASS", kind = "pass", detail;
  double err = 0, tol = 0;
};

class Case {
 public:
  Case(const char *id, int shape, uint64_t seed, bool mis) : id_(id), shape_(shape), rng_(seed), mis_(mis) {}
  ~Case() {
    release();
#ifndef FUZZ_EMULATE
    if (stream_) cudaStreamDestroy(stream_);
#endif
  }

  // An array of n elements; its pointer for the reference and the device.
  Buf &array(const char *name, Type t, Kind k, long long n, Domain d = kUnit) {
    bufs_.emplace_back(new Buf());
    Buf &b = *bufs_.back();
    b.name = name; b.type = t; b.kind = k; b.n = (size_t)(n > 0 ? n : 0);
    b.esize = type_size(t); b.mis = mis_ ? 1 : 0;
    b.init.assign(b.bytes(), 0xFF);
    for (size_t i = 0; i < b.n; ++i) store(t, b.init.data() + b.off() + i * b.esize, draw(rng_, d));
    b.ref = b.init;
    return b;
  }
  float scalar(const double *choices, int count) { return (float)choices[rng_.range(0, count - 1)]; }

  // Device copies of every array's bytes (guards included), for one variant
  // (rewrite) of the function.
  bool to_device(const char *variant) {
    release();
    variant_ = variant;
    for (auto &p : bufs_) {
      Buf &b = *p;
#ifdef FUZZ_EMULATE
      b.dev = (unsigned char *)malloc(b.bytes());
      memcpy(b.dev, b.init.data(), b.bytes());
#else
      if (!cuda(cudaMalloc(&b.dev, b.bytes()), "cudaMalloc")) return false;
      if (!cuda(cudaMemcpy(b.dev, b.init.data(), b.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy")) return false;
#endif
    }
    return true;
  }

  // Runs the rewritten function; false on a CUDA error (sticky: the caller
  // reports it and the process must end).
  bool run_device(const std::function<void()> &call, const char *shape_text = "") {
    // the runner reads this line to name the launch that hung or crashed
    printf("RUN %s %s %d %s%s\n", id_.c_str(), variant_.c_str(), shape_, shape_text, mis_ ? ",mis" : "");
    fflush(stdout);
#ifdef FUZZ_EMULATE
    call();
#else
    cudaGetLastError();
    call();
    if (!cuda(cudaGetLastError(), "launch")) return false;
    if (!cuda(cudaDeviceSynchronize(), "synchronize")) return false;
#endif
    for (auto &p : bufs_) {
      Buf &b = *p;
      b.back.resize(b.bytes());
#ifdef FUZZ_EMULATE
      memcpy(b.back.data(), b.dev, b.bytes());
#else
      if (!cuda(cudaMemcpy(b.back.data(), b.dev, b.bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy back"))
        return false;
#endif
    }
    return true;
  }

  // Compares and prints the RESULT line.
  Result check(double tol_base, long long k_total) {
    Result r;
    double tol = tol_base + (double)k_total * 4.8e-7;  // K * 8 ulp(1) of fp32
    r.tol = tol;
    for (auto &p : bufs_) {
      Buf &b = *p;
      // the reference must stay inside the extents the generator computed
      if (!guards_intact(b, b.ref)) fail(r, "ref-extent", b.name + ": the reference wrote outside the array's extent");
      if (!guards_intact(b, b.back)) fail(r, "guard", b.name + ": guard bytes around the array were overwritten");
      if (b.kind == kIn && b.back != b.init) fail(r, "input-modified", b.name + ": an input array was written");
#ifndef FUZZ_EMULATE
      if (b.kind == kTemp && b.back != b.init) fail(r, "temp-written", b.name + ": a temp(...) array was written");
      if (b.kind != kOut) continue;
#else
      if (b.kind == kIn) continue;  // the original loops do write temp(...) arrays
#endif
      double max_ref = 0, max_err = 0;
      size_t bad = 0, first_bad = 0, worst = 0;
      for (size_t i = 0; i < b.n; ++i) {
        const unsigned char *pr = b.ref.data() + b.off() + i * b.esize;
        const unsigned char *pd = b.back.data() + b.off() + i * b.esize;
        if (memcmp(pr, pd, b.esize) == 0) {
          double v = load(b.type, pr);
          if (std::isfinite(v)) max_ref = std::max(max_ref, std::fabs(v));
          continue;
        }
        double vr = load(b.type, pr), vd = load(b.type, pd);
        if (std::isnan(vr) && std::isnan(vd)) continue;
        if (!std::isfinite(vr) || !std::isfinite(vd)) {
          if (!bad++) first_bad = i;
          continue;
        }
        max_ref = std::max(max_ref, std::fabs(vr));
        double e = std::fabs(vr - vd);
        if (e > max_err) { max_err = e; worst = i; }
      }
      double rel = max_err / (max_ref > 0 ? max_ref : 1.0);
      r.err = std::max(r.err, rel);
      char buf[512];
      if (bad) {
        const unsigned char *pr = b.ref.data() + b.off() + first_bad * b.esize;
        const unsigned char *pd = b.back.data() + b.off() + first_bad * b.esize;
        snprintf(buf, sizeof buf, "%s: %zu elements differ in finiteness, first [%zu] ref %g got %g", b.name.c_str(),
                 bad, first_bad, load(b.type, pr), load(b.type, pd));
        fail(r, "nonfinite", buf);
      } else if (rel > tol) {
        const unsigned char *pr = b.ref.data() + b.off() + worst * b.esize;
        const unsigned char *pd = b.back.data() + b.off() + worst * b.esize;
        snprintf(buf, sizeof buf, "%s: max error %.3g of max|ref| %.3g at [%zu]: ref %.8g got %.8g", b.name.c_str(),
                 rel, max_ref, worst, load(b.type, pr), load(b.type, pd));
        fail(r, "mismatch", buf);
      }
    }
    return r;
  }

  void report(const Result &r, const char *shape_text) {
    printf("RESULT %s %s %d %s %s err=%.3g tol=%.3g shape=%s%s %s\n", id_.c_str(), variant_.c_str(), shape_,
           r.status.c_str(), r.kind.c_str(), r.err, r.tol, shape_text, mis_ ? ",mis" : "", r.detail.c_str());
    fflush(stdout);
  }
  void report_error(const char *kind, const std::string &detail, const char *shape_text) {
    Result r;
    r.status = "FAIL";
    r.kind = kind;
    r.detail = detail;
    report(r, shape_text);
  }
  const std::string &error() const { return error_; }
  void set_variant(const char *v) { variant_ = v; }

#ifndef FUZZ_EMULATE
  cudaStream_t stream() {
    if (!stream_) cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    return stream_;
  }
#else
  cudaStream_t stream() { return nullptr; }
#endif

 private:
  bool cuda(cudaError_t e, const char *what) {
#ifndef FUZZ_EMULATE
    if (e != cudaSuccess) {
      error_ = std::string(what) + ": " + cudaGetErrorString(e);
      return false;
    }
#else
    (void)e; (void)what;
#endif
    return true;
  }
  static bool guards_intact(const Buf &b, const std::vector<unsigned char> &v) {
    for (size_t i = 0; i < b.off(); ++i)
      if (v[i] != 0xFF) return false;
    for (size_t i = b.off() + b.n * b.esize; i < v.size(); ++i)
      if (v[i] != 0xFF) return false;
    return true;
  }
  static void fail(Result &r, const char *kind, const std::string &detail) {
    if (r.status == "PASS") {
      r.status = "FAIL";
      r.kind = kind;
      r.detail = detail;
    } else {
      r.detail += "; " + detail;
    }
  }
  void release() {
    for (auto &p : bufs_) {
      if (!p->dev) continue;
#ifdef FUZZ_EMULATE
      free(p->dev);
#else
      cudaFree(p->dev);
#endif
      p->dev = nullptr;
    }
  }

  std::string id_, variant_, error_;
  int shape_;
  Rng rng_;
  bool mis_;
  std::vector<std::unique_ptr<Buf>> bufs_;
#ifndef FUZZ_EMULATE
  cudaStream_t stream_ = nullptr;
#endif
};

}  // namespace fz
