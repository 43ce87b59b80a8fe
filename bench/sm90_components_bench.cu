// The sm_90 component kernel (tc/sm90/gemm_kernel.cuh) against the
// generated kernel of the same 128x128x64 tiles, 3 TMA stages
// (bench/kernels/gemm_rowrow_tile128.cu, rewritten), and cuBLAS, on fp16
// C = A B with A and B row-major. Each is timed in one process as 20 calls
// queued behind a spin kernel (median of 7; the generated and component
// kernels twice, the better kept); the outputs are compared with cuBLAS's.
//
//   nvcc -std=c++17 -O3 -I runtime_headers -I bench -gencode arch=compute_90a,code=sm_90a \
//     bench/sm90_components_bench.cu gemm_rowrow_tile128.tc.cu -lcublas -lcuda
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include "bench_common.h"  // spin
#include "tc/sm90/gemm_kernel.cuh"

void bench_gemm_rowrow_tile128(const __half *A, const __half *B, __half *C, int M, int N, int K);

namespace {

using StoreHalf = tc::sm90::StoreEpilogue<__half>;

using Mainloop = tc::sm90::TmaWgmmaMainloop<tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,
                                            tc::sm90::OperandTile<__half, 128, tc::sm90::Major::MN>,
                                            3>;

__global__ void fill(__half *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = __float2half((int((i * 2654435761u + seed) % 9u) - 4) * 0.125f);
}

// Median ms of one call: 20 calls queued behind a spin kernel on the
// default stream, between two events, 7 times.
double time_ms(const std::function<void()> &call) {
  call();  // warm-up, and the launchers' one-time set-up
  cudaDeviceSynchronize();
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int r = 0; r < 7; ++r) {
    spin<<<1, 1>>>(2000000);
    cudaEventRecord(e0, 0);
    for (int i = 0; i < 20; ++i)
      call();
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    float t;
    cudaEventElapsedTime(&t, e0, e1);
    ms.push_back(t / 20);
  }
  std::sort(ms.begin(), ms.end());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return ms[3];
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cublasHandle_t h;
  cublasCreate(&h);
  const int shapes[][3] = {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096},
                           {8192, 8192, 8192}, {3840, 2176, 1408}, {1536, 3712, 4096},
                           {2944, 1024, 2688}, {4096, 14336, 4096}, {5124, 9124, 2560}};
  std::printf("%s, sm_90 components vs the generated kernel of the same tiles vs cuBLAS\n",
              prop.name);
  std::printf("| M x N x K | components TFLOP/s | generated TFLOP/s | cuBLAS TFLOP/s | "
              "components / generated | components / cuBLAS | max diff |\n|---|---|---|---|---|---|---|\n");
  std::vector<double> r_gen, r_blas;
  for (auto &sh : shapes) {
    const int M = sh[0], N = sh[1], K = sh[2];
    __half *A, *B, *C1, *C2, *C3;
    cudaMalloc(&A, (size_t)M * K * 2);
    cudaMalloc(&B, (size_t)K * N * 2);
    cudaMalloc(&C1, (size_t)M * N * 2);
    cudaMalloc(&C2, (size_t)M * N * 2);
    cudaMalloc(&C3, (size_t)M * N * 2);
    fill<<<1024, 256>>>(A, (size_t)M * K, 1);
    fill<<<1024, 256>>>(B, (size_t)K * N, 2);
    const float one = 1, zero = 0;
    auto comp = [&] {
      if (!tc::sm90::launch_gemm<Mainloop>({M, N, K}, A, K, B, N, StoreHalf{C1, N}, 0))
        std::printf("launch_gemm refused %dx%dx%d\n", M, N, K);
    };
    auto gen = [&] { bench_gemm_rowrow_tile128(A, B, C2, M, N, K); };
    auto blas = [&] {
      // Row-major C = A B is column-major C^T = B^T A^T.
      cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16F, N, A, CUDA_R_16F, K,
                   &zero, C3, CUDA_R_16F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    // Each kernel twice, in the order c g b g c (the better of its two), so
    // that neither side gains from going first or last.
    const double t_comp1 = time_ms(comp), t_gen1 = time_ms(gen), t_blas = time_ms(blas);
    const double t_gen = std::min(t_gen1, time_ms(gen)), t_comp = std::min(t_comp1, time_ms(comp));
    std::vector<__half> h1((size_t)M * N), h2((size_t)M * N), h3((size_t)M * N);
    cudaMemcpy(h1.data(), C1, h1.size() * 2, cudaMemcpyDeviceToHost);
    cudaMemcpy(h2.data(), C2, h2.size() * 2, cudaMemcpyDeviceToHost);
    cudaMemcpy(h3.data(), C3, h3.size() * 2, cudaMemcpyDeviceToHost);
    double diff = 0;
    for (size_t i = 0; i < h1.size(); ++i)
      diff = std::max({diff, (double)std::fabs(__half2float(h1[i]) - __half2float(h3[i])),
                       (double)std::fabs(__half2float(h2[i]) - __half2float(h3[i]))});
    const double flop = 2.0 * M * N * K;
    auto tf = [&](double ms) { return flop / ms / 1e9; };
    std::printf("| %dx%dx%d | %.1f | %.1f | %.1f | %.3f | %.3f | %.3g |\n", M, N, K, tf(t_comp),
                tf(t_gen), tf(t_blas), t_gen / t_comp, t_blas / t_comp, diff);
    r_gen.push_back(t_gen / t_comp);
    r_blas.push_back(t_blas / t_comp);
    for (void *p : {(void *)A, (void *)B, (void *)C1, (void *)C2, (void *)C3})
      cudaFree(p);
  }
  auto geo = [](const std::vector<double> &v) {
    double l = 0;
    for (double x : v) l += std::log(x);
    return std::exp(l / v.size());
  };
  std::printf("geomean: components / generated %.3f, components / cuBLAS %.3f\n", geo(r_gen),
              geo(r_blas));
  return 0;
}
