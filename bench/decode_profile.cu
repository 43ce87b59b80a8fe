// Decode-kernel launches to look at under Nsight Compute: one layer of
// M x N x K with 4-bit weights (group 128, unsigned) or 8-bit weights, the
// kernel the generated launchers take (TMA, 3 stages) or a variant.
//   ncu --clock-control none -k regex:weight_stream -s 2 -c 1 \
//     --section WarpStateStats --section SchedulerStats --section Occupancy \
//     ./decode_profile int4|int4_one_box|int4_copy|int4_wgmma|int4_wgmma2|int8 M N K
// Build: nvcc -std=c++17 -O3 -arch=sm_90a -I runtime_headers
//   bench/decode_profile.cu -lcuda
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <tc/decode/weight_stream_int4.cuh>
#include <tc/decode/weight_stream_int4_wgmma.cuh>
#include <tc/decode/weight_stream_tma.cuh>
#include <tc/launch_facts.cuh>

namespace {

struct HalfOut {
  __half *y;
  long long n;
  __device__ void operator()(long long i, long long j, float sum) const {
    y[i * n + j] = __float2half(sum);
  }
  __device__ void row(long long i, long long j0, const float (&sum)[8]) const {
#pragma unroll
    for (int e = 0; e < 8; ++e)
      y[i * n + j0 + e] = __float2half(sum[e]);
  }
};

__global__ void fill(__half *p, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = __float2half(static_cast<float>((i * 2654435761u) % 2001) / 1000.0f - 1.0f);
}
__global__ void fill_bytes(uint8_t *p, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = static_cast<uint8_t>((i * 2246822519u) >> 7);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: decode_profile int4|int4_one_box|int4_copy|int4_wgmma|int4_wgmma2|int8 M N K\n");
    return 2;
  }
  const char *kind = argv[1];
  const long long m = std::atoll(argv[2]), n = std::atoll(argv[3]), k = std::atoll(argv[4]);
  if (m < 1 || m > 16 || n < 1 || k < 128 || k % 128) {
    std::fprintf(stderr, "M in 1..16, K a multiple of 128\n");
    return 2;
  }
  const long long groups = k / 128;
  __half *x, *y, *zero, *scale;
  uint8_t *w;
  float *zero8;
  cudaMalloc(&x, m * k * 2);
  cudaMalloc(&y, m * n * 2);
  cudaMalloc(&w, n * k);
  cudaMalloc(&zero, n * groups * 2);
  cudaMalloc(&scale, n * groups * 2);
  cudaMalloc(&zero8, n * 4);
  fill<<<256, 256>>>(x, m * k);
  fill<<<256, 256>>>(zero, n * groups);
  fill<<<256, 256>>>(scale, n * groups);
  fill_bytes<<<1024, 256>>>(w, n * k);
  cudaMemset(zero8, 0, n * 4);
  const tc::DeviceFacts facts = tc::launch_facts().device;
  const tc::decode::GroupScales group_scales{zero, scale, groups};
  const HalfOut out{y, n};
  namespace d = tc::decode;
  const auto launch = [&]() -> int {  // 1 launched, 0 declined, -1 unknown kernel
    if (!std::strcmp(kind, "int4"))
      return d::launch_weight_stream_int4<false, 1, d::kTmaDepth, 2>(
          m, n, k, x, k, w, k / 2, 128, group_scales, out, facts, nullptr);
    if (!std::strcmp(kind, "int4_one_box"))
      return d::launch_weight_stream_int4<false, 1, d::kTmaDepth, 1>(
          m, n, k, x, k, w, k / 2, 128, group_scales, out, facts, nullptr);
    if (!std::strcmp(kind, "int4_copy"))
      return d::launch_weight_stream_int4_copy<false, 1, d::kTmaDepth>(
          m, n, k, x, k, w, k / 2, 128, group_scales, out, facts, nullptr);
    if (!std::strcmp(kind, "int4_wgmma"))
      return d::launch_weight_stream_int4_wgmma<false, 16, d::kTmaDepth>(
          m, n, k, x, k, w, k / 2, 128, group_scales, out, facts, nullptr);
    if (!std::strcmp(kind, "int4_wgmma2"))  // registers for two blocks an SM
      return d::launch_weight_stream_int4_wgmma<false, 16, d::kTmaDepth, 2>(
          m, n, k, x, k, w, k / 2, 128, group_scales, out, facts, nullptr);
    if (!std::strcmp(kind, "int8"))
      return d::launch_weight_stream_tma<1, d::kTmaDepth>(
          m, n, k, x, k, reinterpret_cast<const int8_t *>(w), k,
          d::ZeroPointRows<int8_t>{zero8}, out, facts, nullptr);
    return -1;
  };
  int launched = 1;
  for (int r = 0; r < 5 && launched == 1; ++r)
    launched = launch();
  if (launched < 0) {
    std::fprintf(stderr, "unknown kernel %s\n", kind);
    return 2;
  }
  const bool ok = launched == 1;
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s %lld x %lld x %lld: %s, %s", kind, m, n, k, ok ? "launched" : "declined",
              cudaGetErrorString(e));
  // With TC_PROFILE_TIME set, a rough time (not the benchmark's): 50
  // launches queued back to back after the 5 above.
  if (ok && e == cudaSuccess && std::getenv("TC_PROFILE_TIME")) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    for (int r = 0; r < 50; ++r)
      launch();
    cudaEventRecord(stop);
    e = cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    std::printf(", %.2f us a launch", ms * 1e3f / 50);
  }
  std::printf("\n");
  return ok && e == cudaSuccess ? 0 : 1;
}
