// Variables the launcher, host code, cannot read: a `__constant__`,
// `__device__` or `__shared__` variable names its host shadow there (not the
// value cudaMemcpyToSymbol wrote, nor an address the kernels may read), an
// array of static storage without them is host memory, and
// a non-const reference to a scalar may change while the region runs,
// where the kernels read its value at the launch. `__managed__` memory and
// constexpr scalars are the same on both sides. The rejected regions stay
// as written.
//
// RUN: rm -f %t.cu %t.ok.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not='error:'
// RUN: diff %s %t.cu
// RUN: %tc-rewrite %s -o %t.ok.cu -extra-arg=-DACCEPTED
// RUN: FileCheck %s --check-prefix=ACCEPTED --input-file=%t.ok.cu
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.ok.cu -o %t.ok.ptx %}

#include <cuda_fp16.h>

__constant__ float c_alpha;
__constant__ float c_bias[4096];
__device__ float d_bias[4096];
__device__ __managed__ float m_bias[4096];
constexpr __device__ float k_scale = 0.5f;
float h_scale[4096];
float /* not __managed__ */ h_commented[4096];
static const float h_bias[4] = {1.0f, 2.0f, 3.0f, 4.0f};

#define GEMM(EPILOGUE)                                                                        \
  for (int i = 0; i < M; ++i)                                                                 \
    for (int j = 0; j < N; ++j) {                                                             \
      float acc = 0.0f;                                                                       \
      for (int k = 0; k < K; ++k)                                                             \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);                       \
      C[i * N + j] = EPILOGUE;                                                                \
    }

#ifndef ACCEPTED
void constant_scalar(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(c_alpha * acc)
  // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'c_alpha' is a __constant__ variable, which the host code that launches the kernels cannot read
  // DIAG: note: pass its value or the address of its memory (cudaGetSymbolAddress) in a variable of the host, or declare it __managed__
}

void constant_array(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(acc + c_bias[j])
  // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'c_bias' is a __constant__ variable
}

void device_array(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(acc + d_bias[j])
  // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'd_bias' is a __device__ variable
}

// Arrays of static storage without __device__ are host memory: the
// launcher would pass their host addresses to the kernels.
void host_array(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(acc * h_scale[j])
  // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'h_scale' is an array in host memory (a variable of static storage)
  // DIAG: note: arrays of a tc region must be device memory: copy it to memory of cudaMalloc and pass that pointer, or declare it __managed__
}

void host_array_managed_in_comment(int M, int N, int K, const __half *__restrict__ A,
                                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(acc * h_commented[j])
  // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'h_commented' is an array in host memory
}

void host_const_array(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(acc + h_bias[2])
  // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'h_bias' is an array in host memory
}

struct Scaled {
  static float column_scale[4096];
  void static_member_array(int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
    GEMM(acc * column_scale[j])
    // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'column_scale' is an array in host memory
  }
};

void static_local_array(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
  static float local_scale[4096];
#pragma tc
  GEMM(acc * local_scale[j])
  // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'local_scale' is an array in host memory
}

void mutable_reference(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C, float &alpha) {
#pragma tc
  GEMM(alpha * acc)
  // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'alpha' is a reference to a non-const scalar
  // DIAG: note: the kernels read a scalar's value at the launch: bind it to a 'const' reference, or pass it by value
}

void reference_to_output(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
  const float &c00 = C[0];
#pragma tc
  GEMM(acc + c00)
  // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'c00' is a reference to memory that the region may write
  // DIAG: note: the kernels read a scalar's value at the launch, where the loops read the referent as the region changes it: copy the value into a variable before the region
}

// A size bound to an element the region writes: the loops read the bound
// (the leading dimension) anew after each store.
void size_reference_to_output(int M, int K, const __half *__restrict__ A,
                              const __half *__restrict__ B, int *__restrict__ C) {
  const int &N = C[0];
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      // DIAG: device-variables.cu:[[#@LINE-1]]:{{[0-9]+}}: error: 'N' is a reference to memory that the region may write
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * 64 + j]);
      C[i * 64 + j] = (int)acc;
    }
}
#else
// A reference bound to a temporary or to a variable is its value; a scoped
// enumeration is passed as its integer.
enum class Activation { None, Relu };
// ACCEPTED: {{^}}static void tc_bound_values_0_launch(long long M, long long N, long long K, int act, float twice, float alias,
// ACCEPTED: {{^}}  tc_bound_values_0_launch(M, N, K, static_cast<int>(act), twice, alias, A, B, C, 0);
void bound_values(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C, float x, Activation act) {
  auto &&twice = x * 2.0f;
  const float &alias = x;
#pragma tc
  GEMM(act == Activation::Relu ? fmaxf(acc * twice + alias, 0.0f) : acc)
}

// ACCEPTED: {{^}}static void tc_managed_array_0_launch(long long M, long long N, long long K, const __half *A, const __half *B, float *C, const float *m_bias, ::cudaStream_t tc_stream) {
void managed_array(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(acc + m_bias[j])
}

// ACCEPTED: {{^}}static void tc_constexpr_scalar_0_launch(long long M, long long N, long long K, float k_scale, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
void constexpr_scalar(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  GEMM(k_scale * acc)
}
#endif
