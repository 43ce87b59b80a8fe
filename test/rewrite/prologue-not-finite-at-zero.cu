// Partial k tiles are padded with zeros, and a prologue applied to the
// landed tiles or fragments also sees those zeros: the other operand's zero
// padding keeps the padded products zero only where the prologue is finite
// at 0. One that is not (1 / x, logf(x), or one whose value at 0 overflows
// the 16-bit stage) is applied by the copier instead, to the elements inside
// the matrix only, with exact zeros for the padding; one finite at 0
// (expf(x) is 1 there) stays on the landed tiles or fragments. On sm_90a,
// a K-major A lands raw, and the consumers convert its register fragments
// by each element's row, the padding an exact 0 (tc::sm90::Converted in
// tc::sm90::RegisterA), each row's values loaded once (row()); a B keeps
// the cp.async kernels, which convert while copying.
//
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --input-file=%t.sm80.cu --check-prefix=SM80
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 -I%tc-include -gencode arch=compute_80,code=sm_80 -c %t.sm80.cu -o %t.sm80.o %}
// RUN: not %tc-rewrite %s --extra-arg=-DWGMMA_CLAUSE -o %t.clause.cu 2>&1 | FileCheck %s --check-prefix=CLAUSE

#include <cuda_fp16.h>

void recip_a(int M, int N, int K, const __half *__restrict__ A,
             const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (1.0f / __half2float(A[i * K + k])) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
// EXPLAIN-LABEL: region tc_recip_a_0
// EXPLAIN: A = A (row-major, leading dimension K, prologue (1.0f / __half2float(A[i][k])), prologue applied while copying (not finite at the zero padding))
// CHECK-LABEL: region of 'recip_a'
// CHECK-NOT: apply_prologue
// CHECK: {{^}}// applied where it lands, by the element's place (tc::sm90::Converted).
// CHECK-NEXT: {{^}}struct tc_recip_a_0_operand_a {
// CHECK: {{^}}  __device__ float operator()(float tc_x, long long tc_row) const {
// CHECK-NEXT: {{^}}    return static_cast<float>((1.0f / tc_x));
// CHECK: {{^}}  __device__ auto row(long long tc_row, bool tc_inside) const {
// CHECK-NEXT: {{^}}    return [=, *this](float tc_x) -> float { return static_cast<float>((1.0f / tc_x)); };
// CHECK: {{^}}          tc::sm90::RegisterA<tc::sm90::Converted<tc_recip_a_0_operand_a>>>,
// CHECK: {{^}}      tc::sm90::Producer::kTma, {tc_recip_a_0_operand_a{M, N, K, A, B, C}, {}}))
// CHECK-NOT: apply_prologue
// CHECK-LABEL: void recip_a(
// On sm_80 the mma.sync components' converted tile (ConvertedOperandTile)
// applies the region's functor as it copies.
// SM80-LABEL: region of 'recip_a'
// SM80-NOT: apply_prologue
// SM80: {{^}}struct tc_recip_a_0_operand_a {
// SM80: {{^}}  __device__ float operator()(float tc_x, long long tc_row) const {
// SM80-NEXT: {{^}}    return static_cast<float>((1.0f / tc_x));
// SM80: tc::sm80::ConvertedOperandTile<__half, __half, 128, tc::sm80::Major::K, tc_recip_a_0_operand_a>,  // A
// SM80: {A, K, tc_recip_a_0_operand_a{M, N, K, A, B, C}},
// SM80-NOT: apply_prologue
// SM80-LABEL: void recip_a(

void log_b(int M, int N, int K, const __half *__restrict__ A,
           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * logf(__half2float(B[j * K + k]));
      C[i * N + j] = acc;
    }
}
// EXPLAIN-LABEL: region tc_log_b_0
// EXPLAIN: B = B (column-major, leading dimension K, prologue logf(__half2float(B[j][k])), prologue applied while copying (not finite at the zero padding))
// A K-major B converted by its place: the tile computed transposed, B as
// wgmma's A converted in its register fragments, the output staged
// transposed (KernelConfig::ConvertsLandedB).
// CHECK-LABEL: region of 'log_b'
// CHECK-NOT: apply_prologue
// CHECK: {{^}}struct tc_log_b_0_operand_b {
// CHECK: {{^}}    return static_cast<float>(::logf(tc_x));
// CHECK: {{^}}  __device__ auto row(long long tc_row, bool tc_inside) const {
// CHECK: {{^}}            tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // B, transposed: C^T = B^T A^T
// CHECK-NEXT: {{^}}            tc::sm90::OperandTile<__half, 64, tc::sm90::Major::K>,  // A
// CHECK: {{^}}  if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // B, transposed: C^T = B^T A^T
// CHECK-NEXT: {{^}}          tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A
// CHECK: {{^}}          tc::sm90::RegisterA<tc::sm90::Converted<tc_log_b_0_operand_b>>, tc::sm90::ProducerWarpgroup<64, 216>>,
// CHECK-NEXT: {{^}}      tc::sm90::StreamUnitsScheduler>({N, M, K}, B, K, A, K, tc::sm90::TransposedOutput<tc_log_b_0_epilogue>{tc_log_b_0_epilogue{M, N, K, A, B, C}}, tc_stream,
// CHECK-NEXT: {{^}}      tc::sm90::Producer::kTma, {tc_log_b_0_operand_b{M, N, K, A, B, C}, {}}))
// CHECK-NOT: apply_prologue
// CHECK-NOT: __global__
// CHECK-LABEL: void log_b(

// Finite at 0 in float, but 1e5 overflows the fp16 stage.
void offset_a(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (__half2float(A[i * K + k]) + 1.0e5f) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
// EXPLAIN-LABEL: region tc_offset_a_0
// EXPLAIN: prologue applied while copying (not finite at the zero padding)

void exp_a(int M, int N, int K, const __half *__restrict__ A,
           const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += expf(__half2float(A[i * K + k])) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
// EXPLAIN-LABEL: region tc_exp_a_0
// EXPLAIN-NOT: applied while copying
// EXPLAIN: kernel:
// CHECK-LABEL: struct tc_exp_a_0_prologue_a {
// CHECK: tc::sm90::RegisterA<tc_exp_a_0_prologue_a>
// CHECK-LABEL: void exp_a(

// fp32 operands (tf32): the copier converts in fp32 stages.
void recip_a_tf32(int M, int N, int K, const float *__restrict__ A,
                  const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (1.0f / A[i * K + k]) * B[k * N + j];
      C[i * N + j] = acc;
    }
}
// EXPLAIN-LABEL: region tc_recip_a_tf32_0
// EXPLAIN: prologue applied while copying (not finite at the zero padding)
// CHECK-LABEL: region of 'recip_a_tf32'
// CHECK-NOT: apply_prologue
// CHECK: {{^}}struct tc_recip_a_tf32_0_operand_a {
// CHECK: {{^}}    return static_cast<float>((1.0f / tc_x));
// CHECK: tc::sm80::ConvertedOperandTile<float, float, 128, tc::sm80::Major::K, tc_recip_a_tf32_0_operand_a>,  // A
// CHECK-NOT: apply_prologue
// CHECK-LABEL: void recip_a_tf32(

// On an M-major A, the copier's stages are not laid out for wgmma: asked
// for with the mma clause, the region is rejected and says why.
#ifdef WGMMA_CLAUSE
void recip_a_col_wgmma(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc mma(wgmma)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (1.0f / __half2float(A[k * M + i])) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
// CLAUSE: prologue-not-finite-at-zero.cu:[[@LINE-9]]:12: error: this region cannot use wgmma
// CLAUSE: note: the prologue of an M/N-major operand is not finite at 0, so the copier applies it
#endif
