// tc-rewrite out-of-line-member-function.cu -o out.cu
// error: '#pragma tc' in a member function defined inside its class
// note: define the function outside the class body
// (Gemm::run is defined outside its class.)
#include <cuda_fp16.h>

struct Gemm {
  void run(int M, int N, int K, const __half *__restrict__ A,
           const __half *__restrict__ B, float *__restrict__ C);
};

void Gemm::run(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc tile(64, 64, 32)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
