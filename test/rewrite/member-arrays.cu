// Arrays reached through pointer members, as parameter structs and layers
// hold them: a struct by const reference (`p.A`), through a pointer and a
// nested struct (`q->ops.B`), and a method's own member (`W`, `this->W`).
// The launch passes each member as written; the definitions name it by its
// path (`p_A`, `q_ops_B`, `W`), the user's own `q_D` then `q_D_1`. A member's
// __restrict__ is not trusted: its array gets the overlap test.
// Also a scalar member in the epilogue (`p.alpha`), members of an
// anonymous union (`u.A`: no name for the union), and `(*pp).K`, passed
// as `pp->K`.
// The members that are refused: test/diagnostics/member-arrays.cu.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a %t.cu -o %t.again.cu
// RUN: diff %t.cu %t.again.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}

#include <cuda_fp16.h>

struct GemmArgs {
  const __half *A;
  const __half *B;
  float *__restrict__ C;
  int M, N, K;
};

// CHECK: {{^}}static void tc_by_reference_0_launch(long long p_M, long long p_N, long long p_K, const __half *p_A, const __half *p_B, float *p_C, ::cudaStream_t tc_stream) {
// CHECK: tc::accessed_bytes(p_C,
// CHECK: {{^}}  tc_by_reference_0_launch(p.M, p.N, p.K, p.A, p.B, p.C, 0);
void by_reference(const GemmArgs &p) {
#pragma tc
  for (int i = 0; i < p.M; ++i)
    for (int j = 0; j < p.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < p.K; ++k)
        acc += __half2float(p.A[i * p.K + k]) * __half2float(p.B[k * p.N + j]);
      p.C[i * p.N + j] = acc;
    }
}

struct Operands {
  const __half *A, *B;
};
struct Problem {
  Operands ops;
  __half *D;
};

// A view into a member (`a = q->ops.A + i * K`) and a user's own `q_D`.
// CHECK: {{^}}static void tc_nested_0_launch(long long M, long long N, long long K, const __half *q_ops_A, const __half *q_ops_B, __half *q_D, const __half *q_D_1, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_nested_0_launch(M, N, K, q->ops.A, q->ops.B, q->D, q_D, 0);
void nested(const Problem *q, const __half *q_D, int M, int N, int K) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const __half *a = q->ops.A + i * K;
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(a[k]) * __half2float(q->ops.B[j * K + k]);
      q->D[i * N + j] = __float2half(acc + __half2float(q_D[j]));
    }
}

struct Layer {
  int M, N, K;
  const __half *W;
  void forward(const __half *__restrict__ X, __half *__restrict__ Y) const;
};

// CHECK: {{^}}static void tc_forward_0_launch(long long M, long long N, long long K, const __half *X, const __half *W, __half *Y, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_forward_0_launch(this->M, this->N, this->K, X, this->W, Y, 0);
void Layer::forward(const __half *__restrict__ X, __half *__restrict__ Y) const {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * __half2float(W[j * K + k]);
      Y[i * N + j] = __float2half(acc);
    }
}

struct ScaledArgs {
  union {
    const __half *A;
    const void *raw;
  };
  const __half *B;
  float *C;
  float alpha;
  int M, N, K;
};

// CHECK: {{^}}static void tc_scaled_0_launch(long long u_M, long long u_N, long long pp_K, float u_alpha, const __half *u_A, const __half *u_B, float *u_C, ::cudaStream_t tc_stream) {
// CHECK: {{^}}  tc_scaled_0_launch(u.M, u.N, pp->K, u.alpha, u.A, u.B, u.C, 0);
void scaled(const ScaledArgs &u, const ScaledArgs *pp) {
#pragma tc
  for (int i = 0; i < u.M; ++i)
    for (int j = 0; j < u.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < (*pp).K; ++k)
        acc += __half2float(u.A[i * (*pp).K + k]) * __half2float(u.B[k * u.N + j]);
      u.C[i * u.N + j] = u.alpha * acc;
    }
}
