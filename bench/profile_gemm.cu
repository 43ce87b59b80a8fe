// A single GEMM launch to look at under Nsight Compute:
//   ncu --clock-control none --section WarpStateStats ... ./profile_gemm M N K [cublas]
// Links one rewritten bench kernel (bench_gemm_f16_rc: A row-major, B
// column-major, C row-major); with `cublas` it launches cublasGemmEx on the
// same operands instead, so that one ncu run can show which kernel, grid and
// cluster shape cuBLAS picks for the shape.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// Another function of the same signature and layouts (a tile-clause variant
// of bench/kernels/gemm_rowcol_tiles.cu): -DTC_PROFILE_FUNC=name.
#ifndef TC_PROFILE_FUNC
#define TC_PROFILE_FUNC bench_gemm_f16_rc
#endif
void TC_PROFILE_FUNC(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, __half *__restrict__ C);

int main(int argc, char **argv) {
  int M = argc > 1 ? atoi(argv[1]) : 4096, N = argc > 2 ? atoi(argv[2]) : 4096,
      K = argc > 3 ? atoi(argv[3]) : 4096;
  bool use_cublas = argc > 4 && strcmp(argv[4], "cublas") == 0;
  std::vector<__half> h((size_t)M * K > (size_t)K * N ? (size_t)M * K : (size_t)K * N);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = __float2half((float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f);
  __half *A, *B, *C;
  cudaMalloc(&A, sizeof(__half) * M * K);
  cudaMalloc(&B, sizeof(__half) * K * N);
  cudaMalloc(&C, sizeof(__half) * M * N);
  cudaMemcpy(A, h.data(), sizeof(__half) * M * K, cudaMemcpyHostToDevice);
  cudaMemcpy(B, h.data(), sizeof(__half) * K * N, cudaMemcpyHostToDevice);
  cublasHandle_t handle = nullptr;
  if (use_cublas && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "profile_gemm: cublasCreate failed\n");
    return 1;
  }
  const float alpha = 1.0f, beta = 0.0f;
  for (int r = 0; r < 3; ++r) {
    if (use_cublas)
      // Row-major C = A B as column-major C^T = B^T A^T (B column-major: op T).
      cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16F, K, A,
                   CUDA_R_16F, K, &beta, C, CUDA_R_16F, N, CUBLAS_COMPUTE_32F,
                   CUBLAS_GEMM_DEFAULT);
    else
      TC_PROFILE_FUNC(M, N, K, A, B, C);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("profile_gemm %dx%dx%d (%s): %s\n", M, N, K, use_cublas ? "cuBLAS" : "tc",
         cudaGetErrorString(e));
  return e != cudaSuccess;
}
