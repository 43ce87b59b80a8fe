// The generated code of a function's regions is this file's (an unnamed
// namespace), and the library names it uses are the library's whatever the
// enclosing namespace declares:
//  - another file's region in a function of the same name generates
//    entities of the same names (tc_gemm_0_epilogue, the kernel templates,
//    tc::sm90::launch_gemm instantiated with them); with external linkage
//    the linker merged them, and one file's launches ran the other's
//    kernels (sm_90a) or the link failed (sm_80);
//  - `ns::make_float2`, `ns::uint32_t`, `ns::cudaStream_t` captured the
//    generated code's calls and types (swapped columns; compile errors):
//    the generator writes `::make_float2`;
//  - a library call the region writes qualified (`std::tanh`) is the
//    library's: generated code names it from the global namespace
//    (`::tanh`), not as `tanh`, which found the user's ns::tanh; std::max
//    is its definition, `a < b ? b : a` (CUDA's max is fmaxf, which takes
//    the other argument where one is a NaN);
//  - the user's spellings keep their meaning: a scalar of the user's
//    `uint32_t` (int here) is an int, not the `::uint32_t` that a
//    using-declaration of the generated scope made it (a negative scale
//    became 2^32 minus it); types of values are written canonical.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.sm90.cu
// RUN: FileCheck %s --input-file=%t.sm90.cu --check-prefixes=CHECK,SM90
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --input-file=%t.sm80.cu --check-prefixes=CHECK,SM80
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.sm90.cu -o %t.sm90.ptx %}
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -ptx -Xcicc -O0 %t.sm80.cu -o %t.sm80.ptx %}

#include <algorithm>
#include <cmath>
#include <cuda_fp16.h>

namespace ns {
// Declarations of the user's that share the library's names.
using uint32_t = int;
struct cudaStream_t {};
struct dim3 {};
__host__ __device__ inline float2 make_float2(float a, float b) { return float2{b, a}; }

// CHECK: {{^}}namespace {  // this file's: the regions' kernels and launchers
// CHECK-NOT: {{^}}using
// SM90: {{^}}struct tc_gemm_0_epilogue {
// SM80: {{^}}struct tc_gemm_0_epilogue {
// CHECK: {{^}}static void tc_gemm_0_launch(long long M, long long N, long long K, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// SM80: {{^}}  tc::report_status(tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// CHECK: {{^}}}  // namespace
// CHECK-NEXT: {{^}}#ifdef __NVCC__
// CHECK-NEXT: {{^}}#pragma nv_diagnostic pop
// CHECK-NEXT: {{^}}#endif
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}void gemm(
void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
          float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
} // namespace ns

namespace ns {
// SM90: {{^}}struct tc_scaled_0_epilogue {
// CHECK: static_cast<float>(static_cast<int>(s))
// CHECK-NOT: static_cast<{{uint32_t}}>
// CHECK: {{^}}void scaled(
void scaled(int M, int N, int K, uint32_t s, const __half *__restrict__ A,
            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc * s;
    }
}
} // namespace ns

namespace ns {
__host__ __device__ inline float tanh(float x) { return x > 0.0f ? x : 0.0f; }

// SM90: {{^}}struct tc_activation_0_epilogue {
// CHECK: D[{{.*}}] = ::tanh(tc_value);
// CHECK: E[{{.*}}] = ((tc_value < 0.0f) ? 0.0f : tc_value);
// CHECK: {{^}}void activation(
void activation(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ D, float *__restrict__ E) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      D[i * N + j] = std::tanh(acc);
      E[i * N + j] = std::max(acc, 0.0f);
    }
}
} // namespace ns
