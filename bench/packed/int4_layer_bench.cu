// The rewritten int4 layer (bench/packed/int4_layer.cu, rewritten to
// int4_layer.tc.cu) against cuBLAS fp16 on the weights dequantised ahead
// of time, the alternative a serving system has, in one process. Each
// side: a CUDA graph of 20 calls, replayed 7 times, the median per call.
// Every row is checked first: the two outputs within 2e-3 of max|ref|.
// Prints a Markdown table: time per call, cuBLAS / tc, and the weights'
// bytes per second (int4 for tc, fp16 for cuBLAS).
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

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  CHECK(cublasSetStream(h, s));
  std::printf("GPU: %s\n\n", prop.name);
  std::printf("| M | N | K | tc (us) | cuBLAS fp16 (us) | cuBLAS / tc | tc int4 W GB/s | cuBLAS fp16 W GB/s | check |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  std::mt19937 rng(51);
  const std::vector<std::array<int, 2>> layers{{4096, 4096}, {14336, 4096}, {4096, 14336}};
  for (auto [N, K] : layers)
    for (int M : {1, 16, 64, 256}) {
      const int groups = K / 128, ldw = K / 2;
      std::vector<__half> x(size_t(M) * K), z(size_t(N) * groups), sc(size_t(N) * groups),
          w(size_t(N) * K);
      std::vector<uint8_t> q(size_t(N) * ldw);
      std::uniform_real_distribution<float> u(-1, 1);
      for (auto &v : x) v = __float2half(u(rng));
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
      __half *dx, *dz, *ds, *dw, *dy, *dr;
      uint8_t *dq;
      CHECK(cudaMalloc(&dx, x.size() * 2));
      CHECK(cudaMalloc(&dz, z.size() * 2));
      CHECK(cudaMalloc(&ds, sc.size() * 2));
      CHECK(cudaMalloc(&dw, w.size() * 2));
      CHECK(cudaMalloc(&dq, q.size()));
      CHECK(cudaMalloc(&dy, size_t(M) * N * 2));
      CHECK(cudaMalloc(&dr, size_t(M) * N * 2));
      CHECK(cudaMemcpy(dx, x.data(), x.size() * 2, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dz, z.data(), z.size() * 2, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(ds, sc.data(), sc.size() * 2, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dw, w.data(), w.size() * 2, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dq, q.data(), q.size(), cudaMemcpyHostToDevice));
      const float one = 1, zero = 0;
      auto tc = [&] { int4_layer(M, N, K, dx, dq, dz, ds, dy, s); };
      auto lib = [&] {
        cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, dw, CUDA_R_16F, K, dx, CUDA_R_16F,
                     K, &zero, dr, CUDA_R_16F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      };
      // The stream's kept buffer for the copy is made outside the capture.
      tc();
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
      const float t_tc = graph_us(s, tc);
      const float t_lib = graph_us(s, lib);
      std::printf("| %d | %d | %d | %.2f | %.2f | %.3f | %.0f | %.0f | %s |\n", M, N, K, t_tc,
                  t_lib, t_lib / t_tc, double(N) * K / 2 / (t_tc * 1e3), double(N) * K * 2 / (t_lib * 1e3),
                  pass ? "PASS" : "FAIL");
      cudaFree(dx); cudaFree(dz); cudaFree(ds); cudaFree(dw); cudaFree(dq); cudaFree(dy); cudaFree(dr);
    }
  return 0;
}
