// A pointwise prologue on an operand (ReLU on A) is applied to A's register
// fragments right after ldmatrix (tc::sm80::CpAsyncMmaMainloop's prologue); a prologue on both operands, or one that
// uses more than the element, is rejected.
// On wgmma with TMA stages (sm_90a), the kernels of tc/sm90 apply it: to
// wgmma's A fragments, or to each warpgroup's rows of each landed stage.
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
// The mma.sync components (tc/sm80/mainloop.cuh) apply it to A's fragments.
// CHECK: {{^ *}}tc::report_status(tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// CHECK-NEXT: {{^ *}}tc::sm80::OperandTile<__half, 128, tc::sm80::Major::K>,  // A
// CHECK-NEXT: {{^ *}}tc::sm80::OperandTile<__half, 128, tc::sm80::Major::MN>,  // B
// CHECK-NEXT: {{^ *}}64, 3, 2, 2, tc_relu_gemm_0_prologue_a>>(

// On sm_90a every kernel of the region is composed of the components
// (tc/sm90/roles.cuh); none is generated text. The 64-row tiles (one
// warpgroup) take A from registers: each warp's fragments of a k tile,
// transformed there, in two buffers by the tile's parity (RegisterA).
// TMA-NOT:    __global__
// TMA-LABEL:  static void tc_relu_gemm_0_launch(
// TMA:        case 0:  // 64x64 tiles
// TMA:        tc::sm90::RegisterA<tc_relu_gemm_0_prologue_a>>,
// The 192x192 tiles (three warpgroups) leave no registers for fragments:
// each warpgroup converts its 64 rows of each landed stage in place.
// TMA:        case 1:  // 192x192 tiles
// TMA:        tc::sm90::SharedOperands<tc_relu_gemm_0_prologue_a>>>(
// So do the 128x256 tiles (two warpgroups, one block per SM) from
// registers, beside a producer warpgroup that gives its registers to the
// consumers: their accumulators and two buffers of fragments exceed the
// 168 registers a thread that a producer warp would leave.
// TMA:        case 2:  // 128x256 tiles
// TMA:        tc::sm90::RegisterA<tc_relu_gemm_0_prologue_a>, tc::sm90::ProducerWarpgroup<40, 232>>,
// TMA-NEXT:   tc::sm90::PairsScheduler<tc::kPairWideTiles, true>>(
// TMA:        case 3:  // 64x128 tiles
// TMA:        tc::sm90::RegisterA<tc_relu_gemm_0_prologue_a>>,
// The default: persistent 128x128 tiles, A from registers beside a
// producer warpgroup and one epilogue warpgroup; it also takes the shapes
// whose operands TMA cannot map (no cp.async kernel).
// TMA:        default:
// TMA:        tc::sm90::RegisterA<tc_relu_gemm_0_prologue_a>, tc::sm90::ProducerWarpgroup<56, 200, 48>>,
// TMA-NEXT:   tc::sm90::PersistentScheduler>(
// TMA-NOT:    {{_cp_async_launch[(]}}

// ptxas keeps every kernel's wgmma asynchronous (none serialised because
// an instruction other than wgmma writes its registers mid-flight).
// PTXAS-NOT: C7513

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
