// The rewritten int4 layer (bench/packed/int4_layer.cu, rewritten to
// int4_layer.tc.cu) against cuBLAS fp16 on the weights dequantised ahead
// of time, the alternative a serving system has, in one process. Each
// side: a CUDA graph of 20 calls, replayed 7 times, the median per call.
// Every row is checked first: the two outputs within 2e-3 of max|ref|.
// Prints a Markdown table: time per call, cuBLAS / tc, and the weights'
// bytes per second (int4 for tc, fp16 for cuBLAS), then the geomean per M.
// The calls of a graph cycle through copies of the weights that together
// exceed two L2s, so that no call finds its weights in L2. Built with
// TC_DEBUG_SWITCHES: TC_DECODE=0 runs the layer without the decode kernel
// (the dequantised copy and the GEMM kernels) for comparison.
//
// Usage: int4_layer_bench   (built by scripts/packed-bench.sh)
#include "int4_layer.tc.cu"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <vector>

#define CHECK(x)                                                                      \
  do {                                                                                \
    auto e_ = (x);                                                                    \
    if (e_ != 0) {                                                                    \
      std::fprintf(stderr, "%s:%d: error %d\n", __FILE__, __LINE__, int(e_));         \
      std::exit(2);                                                                   \
    }                                                                                 \
  } while (0)

namespace {
template <class F>
float graph_us(cudaStream_t s, F &&call) {
  cudaGraph_t g;
  cudaGraphExec_t e;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  for (int r = 0; r < 20; ++r)
    call();
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphLaunch(e, s));  // warm
  CHECK(cudaStreamSynchronize(s));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < 7; ++r) {
    cudaEventRecord(a, s);
    CHECK(cudaGraphLaunch(e, s));
    cudaEventRecord(b, s);
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms * 1000.0f / 20);
  }
  std::sort(t.begin(), t.end());
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  return t[t.size() / 2];
}
}  // namespace

// Llama-3 8B and 70B layers (N, K: qkv, o, gate_up, down), as issue 51
// lists them.
const std::vector<std::array<int, 2>> kLayers{{6144, 4096},  {4096, 4096},  {28672, 4096},
                                              {4096, 14336}, {10240, 8192}, {8192, 8192},
                                              {57344, 8192}, {8192, 28672}};

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  CHECK(cublasSetStream(h, s));
  const char *decode = std::getenv("TC_DECODE");
  std::printf("GPU: %s; L2 %d MB; TC_DECODE=%s\n\n", prop.name, prop.l2CacheSize >> 20,
              decode ? decode : "(unset)");
  std::printf("| M | N | K | sets | tc (us) | cuBLAS fp16 (us) | cuBLAS / tc | tc int4 W GB/s | cuBLAS fp16 W GB/s | check |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  std::mt19937 rng(51);
  std::map<int, std::vector<double>> ratios;  // by M
  for (const auto &layer : kLayers) {
    const int N = layer[0], K = layer[1];
    const int groups = K / 128, ldw = K / 2;
    // Weight sets cycled through by the calls of a graph, so that the int4
    // weights of one call are not in L2 from the last (two L2s of them).
    const size_t q_bytes = size_t(N) * ldw;
    const int sets = int(std::min<size_t>(16, (2 * size_t(prop.l2CacheSize) + q_bytes - 1) / q_bytes));
    std::vector<__half> z(size_t(N) * groups), sc(size_t(N) * groups), w(size_t(N) * K);
    std::vector<uint8_t> q(q_bytes);
    std::uniform_real_distribution<float> u(-1, 1);
    for (auto &v : q) v = uint8_t(rng() & 255);
    for (auto &v : z) v = __float2half(float(rng() % 16));
    for (auto &v : sc) v = __float2half(0.001f + 0.01f * std::fabs(u(rng)));
    // The weights dequantised ahead of time, as the source computes them.
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        const int n = (q[size_t(j) * ldw + k / 2] >> (4 * (k % 2))) & 15;
        w[size_t(j) * K + k] = __float2half((float(n) - __half2float(z[size_t(j) * groups + k / 128])) *
                                            __half2float(sc[size_t(j) * groups + k / 128]));
      }
    // Every set holds the same weights (the check reads set 0).
    std::vector<__half *> dz(sets), ds(sets), dw(sets);
    std::vector<uint8_t *> dq(sets);
    for (int t = 0; t < sets; ++t) {
      CHECK(cudaMalloc(&dz[t], z.size() * 2));
      CHECK(cudaMalloc(&ds[t], sc.size() * 2));
      CHECK(cudaMalloc(&dw[t], w.size() * 2));
      CHECK(cudaMalloc(&dq[t], q.size()));
      CHECK(cudaMemcpy(dz[t], z.data(), z.size() * 2, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(ds[t], sc.data(), sc.size() * 2, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dw[t], w.data(), w.size() * 2, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dq[t], q.data(), q.size(), cudaMemcpyHostToDevice));
    }
    for (int M : {1, 16, 32, 64, 128, 256}) {
      std::vector<__half> x(size_t(M) * K);
      for (auto &v : x) v = __float2half(u(rng));
      __half *dx, *dy, *dr;
      CHECK(cudaMalloc(&dx, x.size() * 2));
      CHECK(cudaMalloc(&dy, size_t(M) * N * 2));
      CHECK(cudaMalloc(&dr, size_t(M) * N * 2));
      CHECK(cudaMemcpy(dx, x.data(), x.size() * 2, cudaMemcpyHostToDevice));
      const float one = 1, zero = 0;
      int call = 0;
      auto tc = [&] {
        const int t = call++ % sets;
        int4_layer(M, N, K, dx, dq[t], dz[t], ds[t], dy, s);
      };
      auto lib = [&] {
        const int t = call++ % sets;
        cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, dw[t], CUDA_R_16F, K, dx,
                     CUDA_R_16F, K, &zero, dr, CUDA_R_16F, N, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT);
      };
      // The stream's kept buffer for the copy is made outside the capture.
      call = 0;
      tc();
      call = 0;
      lib();
      CHECK(cudaStreamSynchronize(s));
      std::vector<__half> y(size_t(M) * N), r(size_t(M) * N);
      CHECK(cudaMemcpy(y.data(), dy, y.size() * 2, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(r.data(), dr, r.size() * 2, cudaMemcpyDeviceToHost));
      double max_ref = 1e-6, max_err = 0;
      for (size_t i = 0; i < y.size(); ++i) {
        max_ref = std::max(max_ref, std::fabs(double(__half2float(r[i]))));
        max_err = std::max(max_err, std::fabs(double(__half2float(y[i]) - __half2float(r[i]))));
      }
      const bool pass = max_err / max_ref <= 2e-3;
      // (Captured, the launcher takes the copy's memory from the stream's
      // pool: cudaMallocAsync and cudaFreeAsync nodes in the graph.)
      call = 0;
      const float t_tc = graph_us(s, tc);
      call = 0;
      const float t_lib = graph_us(s, lib);
      std::printf("| %d | %d | %d | %d | %.2f | %.2f | %.3f | %.0f | %.0f | %s |\n", M, N, K, sets,
                  t_tc, t_lib, t_lib / t_tc, double(N) * K / 2 / (t_tc * 1e3),
                  double(N) * K * 2 / (t_lib * 1e3), pass ? "PASS" : "FAIL");
      if (pass)
        ratios[M].push_back(t_lib / t_tc);
      cudaFree(dx); cudaFree(dy); cudaFree(dr);
    }
    for (int t = 0; t < sets; ++t) {
      cudaFree(dz[t]); cudaFree(ds[t]); cudaFree(dw[t]); cudaFree(dq[t]);
    }
  }
  std::printf("\n| M | layers | cuBLAS / tc, geomean |\n|---|---|---|\n");
  for (auto &[M, r] : ratios) {
    double l = 0;
    for (double v : r) l += std::log(v);
    std::printf("| %d | %zu | %.3f |\n", M, r.size(), std::exp(l / r.size()));
  }
  return 0;
}
