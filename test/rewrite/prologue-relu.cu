// A pointwise prologue on an operand (ReLU on A) is applied to A's register
// fragments right after ldmatrix; a prologue on both operands, or one that
// uses more than the element, is rejected.
// On wgmma with TMA stages (sm_90a), each consumer warpgroup applies it to
// its own rows of each landed stage of A instead, before its wgmma read them.
//
// RUN: not %tc-rewrite --mma-path=sync %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --input-file=%t.cu
// RUN: not %tc-rewrite %s -o %t.tma.cu 2>/dev/null
// RUN: FileCheck %s --input-file=%t.tma.cu --check-prefix=TMA
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.tma.cu -o %t.tma.o %}
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

void relu_gemm(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
// A maximum with 0 is exact on packed fp16 pairs: the functor also takes
// them (one __hmax2 per pair instead of a round trip through fp32).
// CHECK: {{^}}struct tc_relu_gemm_0_prologue_a {
// CHECK-NEXT: {{^ *}}static constexpr bool kPacked = true;
// CHECK-NEXT: {{^ *}}__device__ __forceinline__ float operator()(float tc_x) const {
// CHECK-NEXT: {{^ *}}return static_cast<float>(fmaxf(tc_x, 0.0f));
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: {{^ *}}template <typename T2>
// CHECK-NEXT: {{^ *}}__device__ __forceinline__ T2 operator()(T2 tc_x2) const {
// CHECK-NEXT: {{^ *}}return __hmax2(tc_x2, tc::splat2<T2>(0.0f));
// CHECK: {{^ *}}tc::apply_prologue<__half>(tc_frag_a[0][c{{[0-9]}}], tc_relu_gemm_0_prologue_a());

// The TMA kernel: 256 consumer threads and the producer warp, full and
// empty barriers per stage, as for the plain GEMM.
// TMA-LABEL: __launch_bounds__(288, 2) tc_relu_gemm_0_kernel(
// TMA-NOT:  tc_ready
// TMA:      {{^ *}}if (threadIdx.x >= 256) {  // the producer warp
// The consumers' zeros are fenced before the main loop (else ptxas
// serializes the wgmma); each warpgroup converts its 64 rows of the stage
// (4096 elements at 4096 * tc_warpgroup; two chunks a thread at a time at
// two blocks' register cap) and meets at its own barrier; the wgmma read A
// from the stage: no fragments, no prologue there.
// TMA:      {{^ *}}float tc_acc[1][16][4] = {};
// TMA-NEXT: {{^ *}}tc::fence_operands(tc_acc[0]);
// TMA:      {{^ *}}const int tc_warpgroup = tc_thread / 128;
// TMA:      {{^ *}}tc::mbarrier_wait(tc_full + 0, 0);  // the tile has landed
// TMA-NEXT: {{^ *}}tc::apply_prologue_to_tile<__half, 4096, 128, 2>(tc_smem_a + 0 * 8192 + 4096 * tc_warpgroup, tc_thread % 128, tc_relu_gemm_0_prologue_a());
// TMA-NEXT: {{^ *}}tc::fence_proxy_async();
// TMA-NEXT: {{^ *}}tc::warpgroup_sync(tc_warpgroup);
// TMA-NEXT: {{^ *}}tc::warpgroup_arrive(tc_acc[0]);
// TMA-NEXT: {{^ *}}tc::wgmma_m64k16<__half, 0, 1, 128>(
// TMA:      {{^ *}}tc::mbarrier_wait(tc_full + [[STAGE:\(\(unsigned\(c[0-9]\) - unsigned\(tc_k_begin\)\) % 3\)]], {{.*}});  // the tile has landed
// TMA-NEXT: {{^ *}}tc::apply_prologue_to_tile<__half, 4096, 128, 2>(tc_smem_a + [[STAGE]] * 8192 + 4096 * tc_warpgroup, tc_thread % 128, tc_relu_gemm_0_prologue_a());
// TMA-NOT:  apply_prologue<
// TMA-LABEL: static void tc_relu_gemm_0_launch(

void both(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: prologue-relu.cu:[[@LINE+1]]:9: error: both operands of the product have a prologue
        acc += fmaxf(__half2float(A[i * K + k]), 0.0f) * fmaxf(__half2float(B[k * N + j]), 0.0f);
      C[i * N + j] = __float2half(acc);
    }
}

// ReLU6 as a clamp: packed too (0 and 6 are exact in fp16).
void relu6_gemm(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fminf(fmaxf(__half2float(A[i * K + k]), 0.0f), 6.0f) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
// CHECK: {{^}}struct tc_relu6_gemm_0_prologue_a {
// CHECK-NEXT: {{^ *}}static constexpr bool kPacked = true;
// CHECK: {{^ *}}return __hmin2(__hmax2(tc_x2, tc::splat2<T2>(0.0f)), tc::splat2<T2>(6.0f));

// A maximum with 0.1, which fp16 does not hold exactly: fp32 only.
void clamp_low(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(__half2float(A[i * K + k]), 0.1f) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}
// CHECK: {{^}}struct tc_clamp_low_0_prologue_a {
// CHECK-NEXT: {{^ *}}static constexpr bool kPacked = false;
// CHECK-NEXT: {{^ *}}__device__ __forceinline__ float operator()(float tc_x) const {
// CHECK-NEXT: {{^ *}}return static_cast<float>(fmaxf(tc_x, 0.1f));
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: {{^}}};
