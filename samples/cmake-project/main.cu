// Runs gemm() (gemm.cu, rewritten into a tensor-core kernel at build time)
// on random matrices and compares a sample of the result with a reference
// computed on the host. Exit status 0 when every sampled element matches.
#include "gemm.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                        \
  do {                                                                          \
    cudaError_t err_ = (call);                                                  \
    if (err_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));        \
      return 2;                                                                 \
    }                                                                           \
  } while (0)

int main(int argc, char **argv) {
  const int M = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int N = argc > 2 ? std::atoi(argv[2]) : 520;
  const int K = argc > 3 ? std::atoi(argv[3]) : 264;
  std::vector<__half> A(size_t(M) * K), B(size_t(K) * N), C(size_t(M) * N);
  std::srand(1);
  for (auto &x : A) x = __float2half(float(std::rand() % 17 - 8) / 8.0f);
  for (auto &x : B) x = __float2half(float(std::rand() % 17 - 8) / 8.0f);

  __half *dA, *dB, *dC;
  CHECK_CUDA(cudaMalloc(&dA, A.size() * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dC, C.size() * sizeof(__half)));
  CHECK_CUDA(cudaMemcpy(dA, A.data(), A.size() * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, B.data(), B.size() * sizeof(__half), cudaMemcpyHostToDevice));
  gemm(M, N, K, dA, dB, dC);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(C.data(), dC, C.size() * sizeof(__half), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int s = 0; s < 1000; ++s) {
    int i = std::rand() % M, j = std::rand() % N;
    float ref = 0.0f;
    for (int k = 0; k < K; ++k)
      ref += __half2float(A[size_t(i) * K + k]) * __half2float(B[size_t(k) * N + j]);
    float got = __half2float(C[size_t(i) * N + j]);
    if (std::fabs(got - ref) > 1e-2f * std::fabs(ref) + 1e-2f && bad++ < 5)
      std::fprintf(stderr, "C[%d][%d] = %g, expected %g\n", i, j, got, ref);
  }
  std::printf("gemm %dx%dx%d: %s\n", M, N, K, bad ? "MISMATCH" : "ok");
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return bad ? 1 : 0;
}
