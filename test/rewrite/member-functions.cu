// A region in a member function defined outside its class is rewritten:
// its kernels and launcher go before the definition, at namespace scope
// (the semantic context is the class, the lexical one is not). Found by
// tc-fuzz-region (test/libfuzzer/findings/). A member function defined
// inside its class body stays rejected: test/diagnostics/pragma-placement.cu.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

namespace layers {
using half_t = __half; // named in the signature below, not visible where the kernels go
struct Gemm {
  void run(int M, int N, int K, const half_t *__restrict__ A,
           const half_t *__restrict__ B, float *__restrict__ C) const;
};
} // namespace layers

class Private {
  using index = int; // private: the kernels spell its canonical type
public:
  void run(index M, index N, index K, const __half *__restrict__ A,
           const __half *__restrict__ B, float *__restrict__ C);
};

// CHECK: {{^}}static void tc_run_0_launch(long long M, long long N, long long K, const __half *A,
// CHECK: {{^}}void layers::Gemm::run(
void layers::Gemm::run(int M, int N, int K, const half_t *__restrict__ A,
                       const half_t *__restrict__ B, float *__restrict__ C) const {
  // CHECK-NOT: {{^}}#pragma tc
  // CHECK: {{^}}  tc_run_0_launch(M, N, K, A, B, C, 0);
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// CHECK: {{^}}static void tc_run_1_launch(long long M, long long N, long long K, const __half *A,
void Private::run(index M, index N, index K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (index i = 0; i < M; ++i)
    for (index j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (index k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
