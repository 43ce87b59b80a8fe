// tc/stream_buffer.cuh - device buffers a launcher keeps from launch to
// launch, one per (device, stream, use).
//
// Launches on one stream run in order, so they may share a scratch buffer:
// the split tiles' counters and slots (tile_schedule.cuh), an operand's
// aligned copy (operand_repack.cuh). Keeping it saves an allocation and a
// free per launch (a second and third operation on the stream, measurable
// against kernels of 10-40 us). A buffer grows when a launch needs more;
// growing frees the old one with cudaFree, which waits for the kernels
// still using it. The buffers live until the process ends.
//
// The per-thread default stream (cudaStreamPerThread, or stream 0 where
// the program is built with --default-stream per-thread) is one handle for
// a different stream in each host thread, and those run at once: its
// buffers are each host thread's own.
//
// A stream being captured into a CUDA graph gets none: a graph would keep
// the buffer's address while this cache reuses it (a launch on the stream
// beside a replay on another) or frees it (growing), and cudaMalloc and
// cudaMemset are not allowed while a stream is captured. The callers then
// do without (whole tiles instead of split ones, the cp.async kernel
// instead of an aligned copy for TMA).
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <thread>
#include <tuple>

namespace tc {

// What a launcher keeps a buffer for; one buffer per use and stream.
enum StreamBufferUse : int {
  kSplitCounters = 0,  // allocated zeroed, left at zero by the kernels
  kSplitSlots = 1,
  kRepackedOperand = 2,  // + the operand's index in the region
  kDequantizedOperand = 64,  // a packed operand's values (packed.cuh)
};

// Whether `stream` is the calling host thread's per-thread default stream:
// cudaStreamPerThread, or stream 0 where it is not the legacy stream (a
// program built with --default-stream per-thread).
// (What stream 0 is does not change while the program runs: asked once,
// not at each launch.)
__host__ inline bool is_per_thread_stream(cudaStream_t stream) {
  if (stream == cudaStreamPerThread)
    return true;
  if (stream != nullptr)
    return false;
  static const bool zero_is_per_thread = [] {
    unsigned long long id = 0, legacy = 0;
    if (cudaStreamGetId(nullptr, &id) != cudaSuccess ||
        cudaStreamGetId(cudaStreamLegacy, &legacy) != cudaSuccess) {
      (void)cudaGetLastError();  // this query's error, handled here
      return false;
    }
    return id != legacy;
  }();
  return zero_is_per_thread;
}

// At least `bytes` of device memory for `use` on `stream` of the current
// device, zero-filled when first allocated if `zeroed`; nullptr when the
// memory cannot be had or the stream is being captured.
__host__ inline void *stream_buffer(cudaStream_t stream, int use, size_t bytes, bool zeroed) {
  struct Buffer {
    void *data = nullptr;
    size_t bytes = 0;
  };
  static std::mutex mutex;
  static std::map<std::tuple<int, cudaStream_t, int, std::thread::id>, Buffer> buffers;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
    (void)cudaGetLastError();  // this query's error, handled here
    return nullptr;
  }
  if (capture != cudaStreamCaptureStatusNone)
    return nullptr;
  int device = 0;
  cudaGetDevice(&device);
  std::lock_guard<std::mutex> lock(mutex);
  const std::thread::id owner =
      is_per_thread_stream(stream) ? std::this_thread::get_id() : std::thread::id();
  Buffer &b = buffers[std::make_tuple(device, stream, use, owner)];
  if (b.bytes >= bytes && b.data)
    return b.data;
  if (b.data)
    cudaFree(b.data);
  b = Buffer();
  void *data = nullptr;
  // A failure's error is handled here (the caller goes on without the
  // buffer), not left for the program's next cudaGetLastError.
  if (cudaMalloc(&data, bytes > 0 ? bytes : 1) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  if (zeroed && cudaMemset(data, 0, bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    cudaFree(data);
    return nullptr;
  }
  b.data = data;
  b.bytes = bytes;
  return data;
}

}  // namespace tc
