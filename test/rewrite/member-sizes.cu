// Sizes read from members, as classes and parameter structs hold them:
// a struct by value (`d.m`), through a pointer and a nested struct
// (`p->dims.m`), and a method's own members (`M`, `this->N`). Each is a
// parameter of the launch, passed as written (`this->M` for a method's
// `M`), named in the definitions by its path (`d_m`, `p_dims_m`, `M`).
// The wrong ones: test/diagnostics/member-sizes.cu.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a %s --explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>


struct Dims {
  int m, n, k;
};
struct Problem {
  Dims dims;
  long long ldc;
};

// CHECK: {{^}}static void tc_by_value_0_launch(long long d_m, long long d_n, long long d_k, const __half *A, const __half *B, __half *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_by_value_0_launch(d.m, d.n, d.k, A, B, C, 0);
// EXPLAIN: region tc_by_value_0 at
// EXPLAIN-NEXT: context: [d.m, d.n, d.k] -> {
void by_value(Dims d, const __half *__restrict__ A, const __half *__restrict__ B,
              __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < d.m; ++i)
    for (int j = 0; j < d.n; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < d.k; ++k)
        acc += __half2float(A[i * d.k + k]) * __half2float(B[k * d.n + j]);
      C[i * d.n + j] = __float2half(acc);
    }
}

// CHECK: {{^}}static void tc_nested_0_launch(long long p_dims_m, long long p_dims_n, long long p_dims_k, long long p_ldc, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_nested_0_launch(p->dims.m, p->dims.n, p->dims.k, p->ldc, A, B, C, 0);
void nested(const Problem *p, const __half *__restrict__ A, const __half *__restrict__ B,
            float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < p->dims.m; ++i)
    for (int j = 0; j < p->dims.n; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < p->dims.k; ++k)
        acc += __half2float(A[i * p->dims.k + k]) * __half2float(B[j * p->dims.k + k]);
      C[i * p->ldc + j] = acc;
    }
}

struct Layer {
  int M, N, K;
  const __half *W;
  void forward(const __half *__restrict__ X, __half *__restrict__ Y) const;
};

// CHECK: {{^}}static void tc_forward_0_launch(long long M, long long N, long long K, const __half *X, const __half *Wr, __half *Y, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_forward_0_launch(this->M, this->N, this->K, X, Wr, Y, 0);
void Layer::forward(const __half *__restrict__ X, __half *__restrict__ Y) const {
  const __half *__restrict__ Wr = W;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < this->N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * __half2float(Wr[j * K + k]);
      Y[i * N + j] = __float2half(acc);
    }
}
