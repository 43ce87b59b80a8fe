// A single GEMM launch to look at under Nsight Compute:
//   ncu --clock-control none --section WarpStateStats ... ./profile_gemm M N K
// Links one rewritten bench kernel (bench_gemm_f16_rc).
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

void bench_gemm_f16_rc(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, __half *__restrict__ C);

int main(int argc, char **argv) {
  int M = argc > 1 ? atoi(argv[1]) : 4096, N = argc > 2 ? atoi(argv[2]) : 4096,
      K = argc > 3 ? atoi(argv[3]) : 4096;
  std::vector<__half> h((size_t)M * K > (size_t)K * N ? (size_t)M * K : (size_t)K * N);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = __float2half((float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f);
  __half *A, *B, *C;
  cudaMalloc(&A, sizeof(__half) * M * K);
  cudaMalloc(&B, sizeof(__half) * K * N);
  cudaMalloc(&C, sizeof(__half) * M * N);
  cudaMemcpy(A, h.data(), sizeof(__half) * M * K, cudaMemcpyHostToDevice);
  cudaMemcpy(B, h.data(), sizeof(__half) * K * N, cudaMemcpyHostToDevice);
  for (int r = 0; r < 3; ++r)
    bench_gemm_f16_rc(M, N, K, A, B, C);
  cudaError_t e = cudaDeviceSynchronize();
  printf("profile_gemm %dx%dx%d: %s\n", M, N, K, cudaGetErrorString(e));
  return e != cudaSuccess;
}
