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
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.tma.cu -o %t.tma.o 2>&1 | FileCheck %s --check-prefix=PTXAS --allow-empty %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

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
// CHECK-NEXT: {{^ *}}return static_cast<float>(::fmaxf(tc_x, 0.0f));
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: {{^ *}}template <typename T2>
// CHECK-NEXT: {{^ *}}__device__ __forceinline__ T2 operator()(T2 tc_x2) const {
// CHECK-NEXT: {{^ *}}return __hmax2(tc_x2, tc::splat2<T2>(0.0f));
// CHECK: {{^ *}}tc::apply_prologue<__half>(tc_frag_a[0][c{{[0-9]}}], tc_relu_gemm_0_prologue_a());

// So do the 128x256 tiles (two warpgroups, one block per SM), beside a
// producer warpgroup that gives its registers to the consumers: their
// accumulators and two buffers of fragments exceed the 168 registers a
// thread that a producer warp would leave.
// TMA-LABEL: __launch_bounds__(384, 1) tc_relu_gemm_0_wide_kernel(
// TMA:      {{^ *}}if (::threadIdx.x >= 256) {  // the producer warpgroup: few registers
// TMA-NEXT: {{^ *}}tc::release_registers<40>();
// TMA:      {{^ *}}tc::claim_registers<232>();  // the consumers' share
// TMA:      {{^ *}}::uint32_t tc_frag_a[2][4][4];  // by the tile's parity
// TMA:      {{^ *}}tc::wgmma_m64k16_rs<__half, 1, 256>(tc_acc[0], tc_frag_a[0][0], {{.*}});
// TMA-NOT:  apply_prologue_to_tile
// TMA-LABEL: static void tc_relu_gemm_0_wide_launch(

// The 64-row tile alternatives (one warpgroup) take A from registers
// instead: each thread's fragments of a k tile, transformed in registers,
// in two buffers by the tile's parity, so that tile t's are loaded while
// tile t - 1's group still reads the other; nothing is written back to the
// stage, so no fence or barrier comes before the wgmma. The loop runs over
// whole pairs of tiles, both halves unguarded, and a last tile of even use
// comes alone after it (else ptxas serialises the wgmma, C7513).
// TMA-LABEL: __launch_bounds__(160, 2) tc_relu_gemm_0_narrow_kernel(
// TMA:      {{^ *}}::uint32_t tc_frag_a[2][4][4];  // by the tile's parity
// TMA:      {{^ *}}for (int c0 = 0; c0 < {{.*}}; c0 += 1) {
// TMA-NEXT: {{^ *}}tc::mbarrier_wait(tc_full + {{.*}});  // the tile has landed
// TMA-NEXT: {{^ *}}tc_frag_load_a.load(tc_frag_a[0][0], tc_smem_a + {{.*}}, 0, 0);
// TMA-NEXT: {{^ *}}tc::apply_prologue<__half>(tc_frag_a[0][0], tc_relu_gemm_0_prologue_a());
// TMA:      {{^ *}}tc::apply_prologue<__half>(tc_frag_a[0][3], tc_relu_gemm_0_prologue_a());
// TMA-NEXT: {{^ *}}tc::warpgroup_arrive(tc_acc[0]);
// TMA-NEXT: {{^ *}}tc::wgmma_m64k16_rs<__half, 1, 128>(tc_acc[0], tc_frag_a[0][0], {{.*}});
// TMA:      {{^ *}}tc::wgmma_m64k16_rs<__half, 1, 128>(tc_acc[0], tc_frag_a[0][3], {{.*}});
// TMA-NEXT: {{^ *}}tc::wgmma_commit();
// TMA-NEXT: {{^ *}}tc::wgmma_wait<1>(tc_acc[0]);  // tile t - 1's group has retired
// TMA-NEXT: {{^ *}}tc::fence_fragments(tc_frag_a[1]);  // which read its fragments until here
// TMA-NEXT: {{^ *}}if ({{.*}}) {
// TMA-NEXT: {{^ *}}tc::release_stage_in_cluster({{.*}});  // tile t - 1's stage, in both blocks of a pair
// TMA-NEXT: {{^ *}}}
// TMA-NEXT: {{^ *}}tc::mbarrier_wait(tc_full + {{.*}});  // the tile has landed
// TMA-NEXT: {{^ *}}tc_frag_load_a.load(tc_frag_a[1][0], tc_smem_a + {{.*}}, 0, 0);
// TMA:      {{^ *}}tc::fence_fragments(tc_frag_a[0]);  // which read its fragments until here
// TMA:      {{^ *}}}
// TMA-NEXT: {{^ *}}}
// TMA-NEXT: {{^ *}}if ({{.*}}) {
// TMA-NEXT: {{^ *}}tc::mbarrier_wait(tc_full + {{.*}});  // the tile has landed
// TMA-NEXT: {{^ *}}tc_frag_load_a.load(tc_frag_a[0][0], tc_smem_a + {{.*}}, 0, 0);
// TMA:      {{^ *}}tc::wgmma_wait<0>(tc_acc[0]);  // the last tile's wgmma
// TMA-NOT:  apply_prologue_to_tile
// TMA-LABEL: static void tc_relu_gemm_0_narrow_launch(

// ptxas keeps every kernel's wgmma asynchronous (none serialised because
// an instruction other than wgmma writes its registers mid-flight).
// PTXAS-NOT: C7513

// The TMA kernel: 256 consumer threads and the producer warp, full and
// empty barriers per stage, as for the plain GEMM.
// TMA-LABEL: __launch_bounds__(288, 2) tc_relu_gemm_0_kernel(
// TMA-NOT:  tc_ready
// TMA:      {{^ *}}if (::threadIdx.x >= 256) {  // the producer warp
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
// CHECK-NEXT: {{^ *}}return static_cast<float>(::fmaxf(tc_x, 0.1f));
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: {{^}}};

// ReLU on A as an if on a local of the k loop (frontend/Extraction.cpp
// rebinds the local; its reads are the one element of A): the same
// prologue, as a conditional.
void relu_gemm_if(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        float a = __half2float(A[i * K + k]);
        if (a < 0.0f)
          a = 0.0f;
        acc += a * __half2float(B[k * N + j]);
      }
      C[i * N + j] = __float2half(acc);
    }
}
// CHECK-LABEL: {{^}}struct tc_relu_gemm_if_0_prologue_a {
// CHECK:       {{^ *}}return static_cast<float>(((tc_x < 0.0f) ? static_cast<float>(0.0f) : tc_x));
// TMA-LABEL:   {{^}}struct tc_relu_gemm_if_0_prologue_a {
