// Host emulation of the few CUDA runtime calls test/gpu/forms_correctness.cu
// makes, for scripts/forms-host-check.sh: "device" memory is host memory, so
// the driver can run against the UNREWRITTEN samples/forms/*.cu (plain serial
// loops, compiled by the host compiler) on a machine without a GPU. That
// checks each Form descriptor against the source loop it describes (the
// reference semantics), and that the guard, padding and NaN checks accept a
// correct result, before any GPU time is spent.
//
// Only the calls the driver uses are defined, with the signatures of
// cuda_runtime_api.h; nothing links libcudart.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

struct CUstream_st {};
struct CUevent_st {
  std::chrono::steady_clock::time_point t;
};

namespace {
CUstream_st g_streams[8];
int g_next_stream = 0;
}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMalloc(void **p, size_t n) {
  *p = std::aligned_alloc(256, (n + 255) / 256 * 256);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t CUDARTAPI cudaFree(void *p) {
  std::free(p);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaMemset(void *p, int v, size_t n) {
  std::memset(p, v, n);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaMemcpy(void *d, const void *s, size_t n, enum cudaMemcpyKind) {
  std::memmove(d, s, n);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind,
                                      cudaStream_t) {
  std::memmove(d, s, n);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t CUDARTAPI cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t CUDARTAPI cudaGetLastError(void) { return cudaSuccess; }
const char *CUDARTAPI cudaGetErrorName(cudaError_t e) {
  return e == cudaSuccess ? "cudaSuccess" : "cudaError (host emulation)";
}
cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *e) {
  *e = new CUevent_st{};
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  e->t = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int) {
  *s = &g_streams[g_next_stream++ % 8];
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *prop, int) {
  std::memset(prop, 0, sizeof *prop);
  std::strcpy(prop->name, "host emulation (unrewritten serial loops)");
  return cudaSuccess;
}

}  // extern "C"
