// tc/tuning.cuh - measuring a region's kernels in the program that runs it.
//
// Built with -DTC_TUNING and run with TC_TUNING_DB=FILE in the environment,
// a program times every kernel of a region's launcher the first time the
// launcher runs a shape of a new bucket (shape_bucket, tuned_choice.cuh)
// on a GPU, then runs the launch as usual; at exit it writes the times to
// FILE, a tuning database (docs/tuning.md). `tc-rewrite --tuning-db=FILE`
// then lists the fastest kernel of each bucket in the launcher. The
// shapes measured are thus the ones the program runs.
//
// Each kernel runs on the launch's own arrays: the bytes of the arrays
// the region reads from before it and writes (`C += A * B`) are saved
// before the first and put back before each kernel and after the last, so
// that the launch that follows computes from the values the program gave
// it; where they cannot be saved, nothing is measured. (Another stream's
// writes into those bytes during the measurement, into the gaps between a
// strided output's rows, are undone.) Not measured either: while a CUDA
// error is pending (it stays the program's), and while the launch's
// stream is captured into a graph. Each run writes FILE anew; pass the
// files of several runs to --tuning-db. Without TC_TUNING_DB nothing is
// measured.
#pragma once

#ifdef TC_TUNING

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>  // getpid

#include <cuda_runtime.h>

#include "alias_check.cuh"
#include "launch_facts.cuh"
#include "tuned_choice.cuh"

namespace tc {
namespace tuning {

// One measured launch: the milliseconds of each kernel (kernels[i]; a
// negative time where it failed to launch).
struct Record {
  std::string gpu, region;
  std::vector<std::string> kernels;
  long long m, n, k;
  std::vector<double> ms;
};

struct Database {
  std::mutex mutex;
  std::vector<Record> records;
  // The buckets (region, GPU, shape_bucket of m, n, k) a launch has taken
  // to measure: one measurement each, however many threads launch the
  // region at once, and none again after one that could not save the
  // arrays.
  std::set<std::string> claimed;
};

inline Database &database() {
  static Database *db = new Database;  // written at exit, after other statics may be gone
  return *db;
}

inline void write_json_string(std::FILE *f, const std::string &s) {
  std::fputc('"', f);
  for (unsigned char c : s) {
    if (c == '"' || c == '\\')
      std::fprintf(f, "\\%c", c);
    else if (c < 0x20)
      std::fprintf(f, "\\u%04x", c);
    else
      std::fputc(c, f);
  }
  std::fputc('"', f);
}

// Writes the records to $TC_TUNING_DB (atexit).
inline void write_database() {
  const char *path = std::getenv("TC_TUNING_DB");
  Database &db = database();
  std::lock_guard<std::mutex> lock(db.mutex);
  if (!path)
    return;
  // Written whole beside FILE, then renamed over it: a failed write (a full
  // disk) leaves FILE as it was, and programs that end together leave one
  // of their databases, not a mix.
  const std::string temporary =
      std::string(path) + ".tmp" + std::to_string(static_cast<long>(::getpid()));
  std::FILE *f = std::fopen(temporary.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "tc: cannot write the tuning database '%s'\n", path);
    return;
  }
  std::fprintf(f, "{\n  \"tc_tuning_database\": 1,\n  \"entries\": [");
  for (size_t r = 0; r < db.records.size(); ++r) {
    const Record &e = db.records[r];
    std::fprintf(f, "%s\n    {\"gpu\": ", r ? "," : "");
    write_json_string(f, e.gpu);
    std::fprintf(f, ", \"region\": ");
    write_json_string(f, e.region);
    std::fprintf(f, ",\n     \"shape\": [%lld, %lld, %lld], \"kernels\": [", e.m, e.n, e.k);
    for (size_t i = 0; i < e.kernels.size(); ++i) {
      std::fprintf(f, "%s", i ? ", " : "");
      write_json_string(f, e.kernels[i]);
    }
    std::fprintf(f, "],\n     \"ms\": [");
    for (size_t i = 0; i < e.ms.size(); ++i) {
      // JSON's number whatever the program's locale (printf's is not).
      char number[32];
      const auto end = std::to_chars(number, number + sizeof number - 1, e.ms[i]).ptr;
      *end = '\0';
      std::fprintf(f, "%s%s", i ? ", " : "", number);
    }
    std::fprintf(f, "]}");
  }
  std::fprintf(f, "\n  ]\n}\n");
  const bool written = !std::ferror(f);
  if (std::fclose(f) != 0 || !written || std::rename(temporary.c_str(), path) != 0) {
    std::remove(temporary.c_str());
    std::fprintf(stderr, "tc: cannot write the tuning database '%s'; it is left as it was\n",
                 path);
  }
}

// Whether this launch measures: tuning is on, no measurement is running
// on this thread (its launches are the measurement's), `stream` is not
// being captured into a graph (the measurement synchronises and
// allocates), and no launch of `region` has taken the shape's bucket on
// this GPU yet (this one takes it).
inline bool measures(const char *region, long long m, long long n, long long k,
                     cudaStream_t stream) {
  static const bool on = std::getenv("TC_TUNING_DB") != nullptr;
  if (!on || tuning_kernel() != kNotTuned || m < 1 || n < 1 || k < 1 ||
      cudaPeekAtLastError() != cudaSuccess)
    return false;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
      capture != cudaStreamCaptureStatusNone)
    return false;
  const std::string gpu = device_name(launch_facts().device.ordinal);
  Database &db = database();
  std::lock_guard<std::mutex> lock(db.mutex);
  const std::string bucket = std::string(region) + '\n' + gpu + '\n' +
                             std::to_string(shape_bucket(m)) + ' ' +
                             std::to_string(shape_bucket(n)) + ' ' +
                             std::to_string(shape_bucket(k));
  if (!db.claimed.insert(bucket).second)
    return false;
  static std::once_flag registered;
  std::call_once(registered, [] { std::atexit(write_database); });
  return true;
}

// The bytes of `ranges`, saved on the device and put back on `stream`.
class SavedBytes {
public:
  SavedBytes(std::initializer_list<ByteRange> ranges, cudaStream_t stream) : stream_(stream) {
    for (ByteRange r : ranges) {
      if (r.end <= r.begin)
        continue;
      void *copy = nullptr;
      if (cudaMalloc(&copy, r.end - r.begin) != cudaSuccess) {
        ok_ = false;
        continue;
      }
      saved_.push_back({r, copy});
      ok_ &= cudaMemcpyAsync(copy, reinterpret_cast<void *>(r.begin), r.end - r.begin,
                             cudaMemcpyDeviceToDevice, stream) == cudaSuccess;
    }
  }
  // Whether every range was saved: else the kernels must not run again.
  bool ok() const { return ok_; }
  bool restore() const {
    bool ok = true;
    for (const auto &s : saved_)
      ok &= cudaMemcpyAsync(reinterpret_cast<void *>(s.range.begin), s.copy,
                            s.range.end - s.range.begin, cudaMemcpyDeviceToDevice,
                            stream_) == cudaSuccess;
    return ok;
  }
  ~SavedBytes() {
    cudaStreamSynchronize(stream_);
    for (const auto &s : saved_)
      cudaFree(s.copy);
  }

private:
  struct Saved {
    ByteRange range;
    void *copy;
  };
  cudaStream_t stream_;
  std::vector<Saved> saved_;
  bool ok_ = true;
};

// While it lives: this thread's launches run `kernel` (tuning_kernel),
// and it may call what a graph capture in relaxed mode allows (another
// thread's or stream's capture must not end in this measurement).
class Measuring {
public:
  Measuring() { cudaThreadExchangeStreamCaptureMode(&mode_); }
  ~Measuring() {
    tuning_kernel() = kNotTuned;
    cudaThreadExchangeStreamCaptureMode(&mode_);
  }
  void run(int kernel) { tuning_kernel() = kernel; }

private:
  cudaStreamCaptureMode mode_ = cudaStreamCaptureModeRelaxed;
};

// Times `launch()` under each kernel of `kernels` (the launcher's own,
// then its candidates in order: ChoiceOptions::kernel -1, 0, 1, ...) and
// records the times of `region` at the shape. `written`: the bytes the
// region writes, put back before each kernel and after the last.
template <class Launch>
void measure(const char *region, std::initializer_list<const char *> kernels, long long m,
             long long n, long long k, cudaStream_t stream,
             std::initializer_list<ByteRange> written, Launch &&launch) {
  Record e{device_name(launch_facts().device.ordinal), region, {}, m, n, k, {}};
  Measuring measuring;
  SavedBytes saved(written, stream);
  if (!saved.ok()) {
    saved.restore();
    cudaGetLastError();  // the measurement's own error (nothing was pending)
    return;
  }
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  int index = -1;
  for (const char *name : kernels) {
    e.kernels.push_back(name);
    measuring.run(index++);
    if (!saved.restore())
      break;
    cudaGetLastError();  // the last kernel's (nothing was pending)
    launch();  // once untimed: first-launch set-up
    // Enough launches back to back for about 2 ms, at least 3.
    cudaEventRecord(start, stream);
    launch();
    cudaEventRecord(stop, stream);
    float once = 0;
    int reps = 3;
    if (cudaEventSynchronize(stop) == cudaSuccess && cudaEventElapsedTime(&once, start, stop) ==
                                                         cudaSuccess && once > 0)
      reps = once >= 2.0f / 3 ? 3 : int(2.0f / once) + 1;
    cudaEventRecord(start, stream);
    for (int r = 0; r < reps; ++r)
      launch();
    cudaEventRecord(stop, stream);
    float total = 0;
    const bool ok = cudaEventSynchronize(stop) == cudaSuccess &&
                    cudaEventElapsedTime(&total, start, stop) == cudaSuccess &&
                    cudaGetLastError() == cudaSuccess;
    e.ms.push_back(ok ? double(total) / reps : -1.0);
  }
  const bool restored = saved.restore();
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (!restored || e.ms.size() != kernels.size())
    return;
  Database &db = database();
  std::lock_guard<std::mutex> lock(db.mutex);
  db.records.push_back(std::move(e));
}

}  // namespace tuning
}  // namespace tc

#endif  // TC_TUNING
