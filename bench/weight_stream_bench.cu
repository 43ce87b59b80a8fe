// Benchmark of the decode component (tc/decode/weight_stream.cuh): a
// linear layer with int8 weights, Y = half((X (W - z)^T) * scale), against
// cuBLAS fp16 on weights already dequantised (what a server keeps when it
// does not quantise), at the M of LLM decoding on Llama-3-8B and -70B
// layer shapes. Both sides are timed as CUDA graphs of 20 calls replayed
// (median of 9 replays), cycling over enough buffer sets that the weights
// come from HBM, not L2. Reports each side's time, the ratio (cuBLAS time /
// the time of what generated launchers run on sm_90: TMA in 3 stages), and the bytes of W per second as a
// fraction of HBM bandwidth (--hbm-tbs, default 4.8: an H200); also W
// through three cp.async stages (M <= 16), through TMA in 3, 4 and 5 stages
// (weight_stream_tma.cuh; generated launchers on sm_90 take 3), each
// TMA depth at each forced split, W as wgmma's register operand
// (weight_stream_wgmma.cuh: 3 and 4 stages, 4 at each forced split), and
// the same layer with 4-bit weights in groups of 128
// (weight_stream_int4.cuh; on wgmma, weight_stream_int4_wgmma.cuh, 3 and
// 4 stages, and 3 with registers for two blocks an SM) against the same
// cuBLAS time.
//
// Usage: weight_stream_bench [--m 1,8,16] [--hbm-tbs 4.8] [--csv out.csv]
// Build: nvcc -std=c++17 -O3 -arch=sm_90a -I runtime_headers
//   bench/weight_stream_bench.cu -lcublas -lcuda
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <tc/decode/weight_stream.cuh>
#include <tc/decode/weight_stream_int4.cuh>
#include <tc/decode/weight_stream_int4_wgmma.cuh>
#include <tc/decode/weight_stream_wgmma.cuh>
#include <tc/decode/weight_stream_tma.cuh>
#include <tc/lane_store.cuh>
#include <tc/launch_facts.cuh>

#define CHECK_CUDA(x)                                                                  \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(2);                                                                    \
    }                                                                                  \
  } while (0)

namespace {

struct ScaledHalf {
  __half *y;
  const float *scale;  // null: 1
  long long n;
  __device__ void operator()(long long i, long long j, float sum) const {
    y[i * n + j] = __float2half(scale ? sum * scale[j] : sum);
  }
  __device__ void row(long long i, long long j0, const float (&sum)[8]) const {
    __half v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e)
      v[e] = __float2half(scale ? sum[e] * scale[j0 + e] : sum[e]);
    tc::store_lane_words<8>(&y[i * n + j0], v);
  }
};

__global__ void fill(__half *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = __float2half(static_cast<float>((i * 2654435761u + seed) % 2001) / 1000.0f - 1.0f);
}
__global__ void fill_bytes(int8_t *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = static_cast<int8_t>((i * 2246822519u + seed) >> 7);
}
__global__ void fill_float(float *p, size_t n, float base, float step) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = base + step * static_cast<float>(i % 17);
}
__global__ void dequantise(const int8_t *w, const float *zero, const float *scale, __half *out,
                           long long n, long long k) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n * k;
       i += (long long)gridDim.x * blockDim.x)
    out[i] = __float2half((static_cast<float>(w[i]) - zero[i / k]) * scale[i / k]);
}
// out[0] = max |a - b|, out[1] = max |b| (non-negative floats order as ints).
__global__ void max_difference(const __half *a, const __half *b, long long n, float *out) {
  float worst = 0, largest = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    worst = fmaxf(worst, fabsf(__half2float(a[i]) - __half2float(b[i])));
    largest = fmaxf(largest, fabsf(__half2float(b[i])));
  }
  atomicMax(reinterpret_cast<int *>(out), __float_as_int(worst));
  atomicMax(reinterpret_cast<int *>(out) + 1, __float_as_int(largest));
}

// Median ms of one call: graphs of 20 calls (call(r) for r = 0..19), 9 replays.
template <class Call>
double time_graph(cudaStream_t stream, Call call) {
  constexpr int kCalls = 20, kReplays = 9;
  cudaGraph_t graph;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int r = 0; r < kCalls; ++r)
    call(r);
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  CHECK_CUDA(cudaGraphLaunch(exec, stream));  // warm-up
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int i = 0; i < kReplays; ++i) {
    CHECK_CUDA(cudaEventRecord(start, stream));
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaEventRecord(stop, stream));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float t;
    CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t / kCalls);
  }
  std::sort(ms.begin(), ms.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  return ms[kReplays / 2];
}

// What the grid rule sees of the TMA kernel with kDepth stages.
template <int kDepth>
void print_tma_occupancy(const tc::DeviceFacts &facts) {
  namespace d = tc::decode;
  tc::decode::WeightStreamOccupancy o;
  constexpr auto kernel =
      d::weight_stream_tma_kernel<int8_t, 1, kDepth, d::ZeroPointRows<int8_t>, ScaledHalf>;
  if (d::column_block_occupancy<kernel, d::kTmaThreads, d::TmaStages<1, kDepth>::kBytes>(facts, o))
    std::printf("tma%d: %d bytes, %d blocks an SM, clusters of 2/4/8 at once: %d %d %d\n", kDepth,
                d::TmaStages<1, kDepth>::kBytes, o.blocks_per_sm, o.clusters.clusters[2],
                o.clusters.clusters[4], o.clusters.clusters[8]);
}

struct Layer {
  const char *model, *name;
  long long n, k;
};

}  // namespace

int main(int argc, char **argv) {
  std::vector<long long> ms = {1, 8, 16};
  double hbm_tbs = 4.8;
  const char *csv_path = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--m")) {
      ms.clear();
      for (char *t = std::strtok(argv[i + 1], ","); t; t = std::strtok(nullptr, ","))
        ms.push_back(std::atoll(t));
    } else if (!std::strcmp(argv[i], "--hbm-tbs")) {
      hbm_tbs = std::atof(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--csv")) {
      csv_path = argv[i + 1];
    }
  }
  const Layer layers[] = {
      {"llama3-8b", "qkv", 6144, 4096},      {"llama3-8b", "o", 4096, 4096},
      {"llama3-8b", "gate_up", 28672, 4096}, {"llama3-8b", "down", 4096, 14336},
      {"llama3-70b", "qkv", 10240, 8192},    {"llama3-70b", "o", 8192, 8192},
      {"llama3-70b", "gate_up", 57344, 8192}, {"llama3-70b", "down", 8192, 28672}};
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  const tc::DeviceFacts facts = tc::launch_facts().device;
  cublasHandle_t blas;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS)
    return 2;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasSetStream(blas, stream);
  FILE *csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
  if (csv)
    std::fprintf(csv, "gpu,model,layer,M,N,K,regs_us,smem3_us,tma3_us,tma4_us,tma5_us,"
                      "tma3_split1_us,tma3_split2_us,tma3_split4_us,tma3_split8_us,"
                      "tma4_split1_us,tma4_split2_us,tma4_split4_us,tma4_split8_us,"
                      "tma5_split1_us,tma5_split2_us,tma5_split4_us,tma5_split8_us,"
                      "cublas_fp16_us,ratio,tc_weight_tbs,hbm_fraction,max_rel_diff,"
                      "int4_g128_us,int4_g128_one_box_us,int4_g128_tma4_us,int4_g128_copy_us,wgmma3_us,wgmma4_us,wgmma4_split1_us,"
                      "wgmma4_split2_us,wgmma4_split4_us,wgmma4_split8_us,wgmma_max_rel_diff,"
                      "int4_split1_us,int4_split2_us,int4_split4_us,int4_split8_us,"
                      "int4_wgmma3_us,int4_wgmma4_us,int4_wgmma3_two_blocks_us\n");
  std::printf("GPU: %s (%d SMs), HBM taken as %.2f TB/s\n", prop.name, prop.multiProcessorCount,
              hbm_tbs);
  std::printf("%-10s %-8s %4s %6s %6s %8s %7s %7s %7s %7s %7s %9s %7s %7s %6s %8s\n",
              "model", "layer", "M", "N", "K", "regs us", "smem3", "tma3", "tma4", "tma5", "",
              "cuBLAS us", "ratio", "W TB/s", "HBM %", "max diff");
  print_tma_occupancy<3>(facts);
  print_tma_occupancy<4>(facts);
  print_tma_occupancy<5>(facts);
  double log_sum = 0, log_sum4 = 0, log_sum_wgmma = 0;
  int rows = 0;
  for (const Layer &l : layers) {
    // Buffer sets: weights of all of them at least 3x L2.
    const size_t w_bytes = l.n * l.k;
    const int sets = static_cast<int>(
        std::min<size_t>(8, std::max<size_t>(1, 3 * (size_t)prop.l2CacheSize / w_bytes + 1)));
    std::vector<int8_t *> w(sets);
    std::vector<__half *> wh(sets);
    // 4-bit weights (the int8 buffers' first N K / 2 bytes, rows of K / 2),
    // zero points and scales per group of 128.
    const long long groups = l.k / 128;
    __half *zero4, *scale4;
    CHECK_CUDA(cudaMalloc(&zero4, l.n * groups * 2));
    CHECK_CUDA(cudaMalloc(&scale4, l.n * groups * 2));
    fill<<<256, 256>>>(zero4, l.n * groups, 1u);
    fill<<<256, 256>>>(scale4, l.n * groups, 2u);
    float *zero, *scale;
    CHECK_CUDA(cudaMalloc(&zero, l.n * 4));
    CHECK_CUDA(cudaMalloc(&scale, l.n * 4));
    fill_float<<<256, 256>>>(zero, l.n, -8.0f, 1.0f);
    fill_float<<<256, 256>>>(scale, l.n, 1.0f / 256, 1.0f / 1024);
    for (int s = 0; s < sets; ++s) {
      CHECK_CUDA(cudaMalloc(&w[s], w_bytes));
      CHECK_CUDA(cudaMalloc(&wh[s], w_bytes * 2));
      fill_bytes<<<1024, 256>>>(w[s], w_bytes, 17u + s);
      dequantise<<<1024, 256>>>(w[s], zero, scale, wh[s], l.n, l.k);
    }
    for (long long m : ms) {
      __half *x, *y, *yref;
      float *diff;
      CHECK_CUDA(cudaMalloc(&x, m * l.k * 2));
      CHECK_CUDA(cudaMalloc(&y, m * l.n * 2));
      CHECK_CUDA(cudaMalloc(&yref, m * l.n * 2));
      CHECK_CUDA(cudaMalloc(&diff, 8));
      fill<<<256, 256>>>(x, m * l.k, 5u);
      CHECK_CUDA(cudaDeviceSynchronize());  // the fills ran on the legacy stream
      const float one = 1.0f, nil = 0.0f;
      // W's path: 0 registers one chunk ahead (what generated launchers
      // run), 3: three cp.async stages, 100 + d: TMA into d stages.
      // `split` 0: the grid's choice, else forced (where clusters allow).
      bool refused = false;  // by the last timed path: its time is not shown
      const auto tc_launch = [&](int r, int path, int split) {
        const int s = r % sets;
        const tc::decode::ZeroPointRows<int8_t> rows{zero};
        const ScaledHalf epi{y, scale, l.n};
        bool ok = false;
        namespace d = tc::decode;
        // Row tiles of 16 by M (the smem3 path: one).
        const auto by_tiles = [&](auto launch) {
          return m <= 16 ? launch(std::integral_constant<int, 1>{})
                 : m <= 32 ? launch(std::integral_constant<int, 2>{})
                           : launch(std::integral_constant<int, 4>{});
        };
        switch (path) {
        case 0:
          ok = by_tiles([&](auto t) {
            return d::launch_weight_stream_tiles<decltype(t)::value, 1, 0>(
                m, l.n, l.k, x, l.k, w[s], l.k, rows, epi, facts, stream, split);
          });
          break;
        case 3:
          ok = d::launch_weight_stream_tiles<1, 1, 3>(m, l.n, l.k, x, l.k, w[s], l.k, rows, epi,
                                                      facts, stream, split);
          break;
        case 103:
          ok = by_tiles([&](auto t) {
            return d::launch_weight_stream_tma<decltype(t)::value, 3>(
                m, l.n, l.k, x, l.k, w[s], l.k, rows, epi, facts, stream, split);
          });
          break;
        case 104:
          ok = by_tiles([&](auto t) {
            return d::launch_weight_stream_tma<decltype(t)::value, 4>(
                m, l.n, l.k, x, l.k, w[s], l.k, rows, epi, facts, stream, split);
          });
          break;
        case 203:
          ok = by_tiles([&](auto t) {
            return d::launch_weight_stream_wgmma<16 * decltype(t)::value, 3>(
                m, l.n, l.k, x, l.k, w[s], l.k, rows, epi, facts, stream, split);
          });
          break;
        case 204:
          ok = by_tiles([&](auto t) {
            return d::launch_weight_stream_wgmma<16 * decltype(t)::value, 4>(
                m, l.n, l.k, x, l.k, w[s], l.k, rows, epi, facts, stream, split);
          });
          break;
        default:
          ok = by_tiles([&](auto t) {
            return d::launch_weight_stream_tma<decltype(t)::value, 5>(
                m, l.n, l.k, x, l.k, w[s], l.k, rows, epi, facts, stream, split);
          });
        }
        refused = refused || !ok;
      };
      const auto tc_time = [&](int path, int split) {
        refused = false;
        const double ms = time_graph(stream, [&](int r) { tc_launch(r, path, split); });
        return refused ? std::nan("") : ms;
      };
      const auto tc_call = [&](int r) { tc_launch(r, 0, 0); };
      const auto blas_call = [&](int r) {
        const int s = r % sets;
        cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, (int)l.n, (int)m, (int)l.k, &one, wh[s],
                     CUDA_R_16F, (int)l.k, x, CUDA_R_16F, (int)l.k, &nil, yref, CUDA_R_16F,
                     (int)l.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      };
      tc_call(0);
      blas_call(0);
      CHECK_CUDA(cudaMemsetAsync(diff, 0, 8, stream));
      max_difference<<<256, 256, 0, stream>>>(y, yref, m * l.n, diff);
      float hd[2];
      CHECK_CUDA(cudaMemcpyAsync(hd, diff, 8, cudaMemcpyDeviceToHost, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      // The two round W' differently (fp16 (w - z) s against fp16 (w - z),
      // then s in fp32): a few fp16 steps of the largest output.
      const float worst = hd[0] / (hd[1] > 0 ? hd[1] : 1.0f);
      const double tc_ms1 = time_graph(stream, tc_call);
      const int paths[] = {3, 103, 104, 105};
      double path_ms[4];
      for (int i = 0; i < 4; ++i)
        path_ms[i] = tc_time(paths[i], 0);
      // What a generated launcher runs on sm_90 (TMA, kTmaDepth stages).
      const double tc_ms = std::isnan(path_ms[1]) ? tc_ms1 : path_ms[1];
      // Each forced split of the TMA depths, to test the grid's choice against.
      double forced[3][4];
      for (int v = 0; v < 3; ++v)
        for (int i = 0; i < 4; ++i)
          forced[v][i] = tc_time(103 + v, 1 << i);
      // The TMA kernel's result too, on the weights cuBLAS had (set 0).
      tc_launch(0, 104, 0);
      CHECK_CUDA(cudaMemsetAsync(diff, 0, 8, stream));
      max_difference<<<256, 256, 0, stream>>>(y, yref, m * l.n, diff);
      CHECK_CUDA(cudaMemcpyAsync(hd, diff, 8, cudaMemcpyDeviceToHost, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      const float worst_tma = hd[0] / (hd[1] > 0 ? hd[1] : 1.0f);
      // The wgmma kernel (W as wgmma's register operand): its result, its
      // times at 3 and 4 stages, and 4 stages at each forced split.
      tc_launch(0, 204, 0);
      CHECK_CUDA(cudaMemsetAsync(diff, 0, 8, stream));
      max_difference<<<256, 256, 0, stream>>>(y, yref, m * l.n, diff);
      CHECK_CUDA(cudaMemcpyAsync(hd, diff, 8, cudaMemcpyDeviceToHost, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      const float worst_wgmma = hd[0] / (hd[1] > 0 ? hd[1] : 1.0f);
      const double wgmma_ms[2] = {tc_time(203, 0), tc_time(204, 0)};
      double wgmma_forced[4];
      for (int i = 0; i < 4; ++i)
        wgmma_forced[i] = tc_time(204, 1 << i);
      const double blas_ms = time_graph(stream, blas_call);
      // The 4-bit layer (group 128): 3 stages of two 128-deep sub-chunks
      // (what generated launchers run), 4 such stages, and 3 stages of one.
      enum class Int4Path { kTma, kCopy, kWgmma, kWgmmaTwoBlocks };
      const auto int4_time = [&](auto depth, auto boxes, int split = 0,
                                 Int4Path path = Int4Path::kTma) {
        bool declined = false;
        const double ms = time_graph(stream, [&](int r) {
          const int s = r % sets;
          const tc::decode::GroupScales groups4{zero4, scale4, groups};
          const ScaledHalf epi{y, nullptr, l.n};
          const auto launch = [&](auto t) {
            constexpr int kTiles = decltype(t)::value, kDepth = decltype(depth)::value,
                          kBoxes = decltype(boxes)::value;
            const auto *bytes = reinterpret_cast<const uint8_t *>(w[s]);
            if (path == Int4Path::kCopy)
              return tc::decode::launch_weight_stream_int4_copy<false, kTiles, kDepth, kBoxes>(
                  m, l.n, l.k, x, l.k, bytes, l.k / 2, 128, groups4, epi, facts, stream, split);
            if (path == Int4Path::kWgmma)
              return tc::decode::launch_weight_stream_int4_wgmma<false, 16 * kTiles, kDepth>(
                  m, l.n, l.k, x, l.k, bytes, l.k / 2, 128, groups4, epi, facts, stream, split);
            if (path == Int4Path::kWgmmaTwoBlocks)
              return tc::decode::launch_weight_stream_int4_wgmma<false, 16 * kTiles, kDepth, 2>(
                  m, l.n, l.k, x, l.k, bytes, l.k / 2, 128, groups4, epi, facts, stream, split);
            return tc::decode::launch_weight_stream_int4<false, kTiles, kDepth, kBoxes>(
                m, l.n, l.k, x, l.k, bytes, l.k / 2, 128, groups4, epi, facts, stream, split);
          };
          declined = declined || !(m <= 16 ? launch(std::integral_constant<int, 1>{})
                                   : m <= 32 ? launch(std::integral_constant<int, 2>{})
                                             : launch(std::integral_constant<int, 4>{}));
        });
        return declined ? std::nan("") : ms;
      };
      using Three = std::integral_constant<int, 3>;
      using One = std::integral_constant<int, 1>;
      using Two = std::integral_constant<int, 2>;
      const double int4_ms = int4_time(Three{}, Two{});
      const double int4_ms4 = int4_time(std::integral_constant<int, 4>{}, Two{});
      const double int4_ms1 = int4_time(Three{}, One{});
      // What sm_80 runs (cp.async stages), with the grid's split here.
      const double int4_copy_ms = int4_time(Three{}, Two{}, 0, Int4Path::kCopy);
      const double int4_wgmma_ms[2] = {
          int4_time(Three{}, Two{}, 0, Int4Path::kWgmma),
          int4_time(std::integral_constant<int, 4>{}, Two{}, 0, Int4Path::kWgmma)};
      const double int4_wgmma_two_ms = int4_time(Three{}, Two{}, 0, Int4Path::kWgmmaTwoBlocks);
      double int4_forced[4];
      for (int i = 0; i < 4; ++i)
        int4_forced[i] = int4_time(Three{}, Two{}, 1 << i);
      const double ratio = blas_ms / tc_ms, tbs = w_bytes / (tc_ms * 1e-3) / 1e12;
      log_sum += std::log(ratio);
      log_sum4 += std::log(blas_ms / int4_ms);
      log_sum_wgmma += std::log(blas_ms / wgmma_ms[1]);
      ++rows;
      std::printf("%-10s %-8s %4lld %6lld %6lld %8.2f %7.2f %7.2f %7.2f %7.2f %7s %9.2f %7.3f "
                  "%7.2f %6.1f %8.1e%s\n",
                  l.model, l.name, m, l.n, l.k, tc_ms1 * 1e3, path_ms[0] * 1e3, path_ms[1] * 1e3,
                  path_ms[2] * 1e3, path_ms[3] * 1e3, "", blas_ms * 1e3, ratio, tbs,
                  100 * tbs / hbm_tbs, std::max(worst, worst_tma),
                  std::max(worst, worst_tma) > 1e-2 ? " MISMATCH" : "");
      std::printf("    splits 1/2/4/8, tma3: %.2f %.2f %.2f %.2f  tma4: %.2f %.2f %.2f %.2f  "
                  "tma5: %.2f %.2f %.2f %.2f us\n",
                  forced[0][0] * 1e3, forced[0][1] * 1e3, forced[0][2] * 1e3, forced[0][3] * 1e3,
                  forced[1][0] * 1e3, forced[1][1] * 1e3, forced[1][2] * 1e3, forced[1][3] * 1e3,
                  forced[2][0] * 1e3, forced[2][1] * 1e3, forced[2][2] * 1e3, forced[2][3] * 1e3);
      std::printf("    wgmma3: %.2f us  wgmma4: %.2f us, %.3fx cuBLAS fp16 (splits 1/2/4/8: %.2f "
                  "%.2f %.2f %.2f us), max diff %.1e%s\n",
                  wgmma_ms[0] * 1e3, wgmma_ms[1] * 1e3, blas_ms / wgmma_ms[1],
                  wgmma_forced[0] * 1e3, wgmma_forced[1] * 1e3, wgmma_forced[2] * 1e3,
                  wgmma_forced[3] * 1e3, worst_wgmma, worst_wgmma > 1e-2 ? " MISMATCH" : "");
      std::printf("    int4 (group 128), TMA 3 x 256 k: %.2f us, %.3fx cuBLAS fp16, %.2f TB/s of W;"
                  " TMA 4 x 256 k: %.2f us, %.3fx; TMA 3 x 128 k: %.2f us, %.3fx;"
                  " cp.async 3 x 256 k: %.2f us, %.3fx\n",
                  int4_ms * 1e3, blas_ms / int4_ms, w_bytes / 2 / (int4_ms * 1e-3) / 1e12,
                  int4_ms4 * 1e3, blas_ms / int4_ms4, int4_ms1 * 1e3, blas_ms / int4_ms1,
                  int4_copy_ms * 1e3, blas_ms / int4_copy_ms);
      std::printf("    int4 splits 1/2/4/8, TMA 3 x 256 k: %.2f %.2f %.2f %.2f us\n", int4_forced[0] * 1e3,
                  int4_forced[1] * 1e3, int4_forced[2] * 1e3, int4_forced[3] * 1e3);
      std::printf("    int4 wgmma, 3 x 256 k: %.2f us, %.3fx cuBLAS fp16, %.2f TB/s of W; "
                  "4 x 256 k: %.2f us, %.3fx; 3 x 256 k, two blocks an SM: %.2f us, %.3fx\n",
                  int4_wgmma_ms[0] * 1e3, blas_ms / int4_wgmma_ms[0],
                  w_bytes / 2 / (int4_wgmma_ms[0] * 1e-3) / 1e12, int4_wgmma_ms[1] * 1e3,
                  blas_ms / int4_wgmma_ms[1], int4_wgmma_two_ms * 1e3,
                  blas_ms / int4_wgmma_two_ms);
      if (csv) {
        std::fprintf(csv, "%s,%s,%s,%lld,%lld,%lld,%.3f", prop.name, l.model, l.name, m, l.n, l.k,
                     tc_ms1 * 1e3);
        for (double v : path_ms)
          std::fprintf(csv, ",%.3f", v * 1e3);
        for (auto &f : forced)
          for (double v : f)
            std::fprintf(csv, ",%.3f", v * 1e3);
        std::fprintf(csv, ",%.3f,%.4f,%.3f,%.3f,%.3e,%.3f", blas_ms * 1e3, ratio, tbs,
                     tbs / hbm_tbs, std::max(worst, worst_tma), int4_ms * 1e3);
        std::fprintf(csv, ",%.3f,%.3f,%.3f", int4_ms1 * 1e3, int4_ms4 * 1e3, int4_copy_ms * 1e3);
        std::fprintf(csv, ",%.3f,%.3f", wgmma_ms[0] * 1e3, wgmma_ms[1] * 1e3);
        for (double v : wgmma_forced)
          std::fprintf(csv, ",%.3f", v * 1e3);
        std::fprintf(csv, ",%.3e", worst_wgmma);
        for (double v : int4_forced)
          std::fprintf(csv, ",%.3f", v * 1e3);
        std::fprintf(csv, ",%.3f,%.3f,%.3f\n", int4_wgmma_ms[0] * 1e3, int4_wgmma_ms[1] * 1e3,
                     int4_wgmma_two_ms * 1e3);
      }
      cudaFree(x);
      cudaFree(y);
      cudaFree(yref);
      cudaFree(diff);
    }
    for (int s = 0; s < sets; ++s) {
      cudaFree(w[s]);
      cudaFree(wh[s]);
    }
    {
      cudaFree(zero4);
      cudaFree(scale4);
    }
    cudaFree(zero);
    cudaFree(scale);
  }
  std::printf("geomean ratio (cuBLAS fp16 time / TMA 3 time) over %d rows: %.3f\n", rows,
              std::exp(log_sum / rows));
  std::printf("geomean ratio (cuBLAS fp16 time / wgmma 4 time) over %d rows: %.3f\n", rows,
              std::exp(log_sum_wgmma / rows));
  std::printf("geomean ratio (cuBLAS fp16 time / int4 group-128 time) over %d rows: %.3f\n", rows,
              std::exp(log_sum4 / rows));
  if (csv)
    std::fclose(csv);
  return 0;
}
