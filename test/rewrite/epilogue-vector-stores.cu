// The staged epilogue stores vectors of consecutive elements of a row
// (tc/lane_store.cuh): 8 fp16 or 4 fp32 lanes (16 bytes), 4 lanes when an
// fp32 and an fp16 output are written together; the elements of the last,
// partial vector of a row element by element; an output that is not
// contiguous along n (column-major C) element by element throughout.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// fp16 C: vectors of 8, wholly inside the output, then the rest of a row.
// The generated text kernels (here the cp.async kernel of an operand
// gathered while copied, its elements 2 apart, with 1/x): a vector wherever isl's guard puts it
// wholly inside the output, the last columns one by one.
// CHECK-LABEL: {{^}}__global__ void __launch_bounds__(256, 2) tc_gemm_f16_recip_b_0_kernel(
// CHECK:       {{^}}  if (N >= (((8 * (tc_thread % 16)) + (128 * tc_block_n)) + 8)) {
// CHECK:       {{^ *}}const long long tc_m = {{.*}}, tc_n0 = ((8 * (tc_thread % 16)) + (128 * tc_block_n));
// CHECK:       {{^ *}}__half tc_lanes_0[8];
// The lane's column is not declared where the epilogue does not read it.
// CHECK:       {{^ *}}for (int tc_v = 0; tc_v < 8; ++tc_v) {
// CHECK-NEXT:  {{^ *}}const float tc_sum = tc_sums[tc_v];
// CHECK:       {{^ *}}tc_lanes_0[tc_v] = ::__float2half(tc_value);
// CHECK:       {{^ *}}tc::store_lanes<8>(&C[(long long)((tc_m)) * (N) + ((tc_n0))], tc_lanes_0);
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half(tc_value);
// CHECK-LABEL: {{^}}void gemm_f16_recip_b(
// The sm_90 components' staged epilogue (tc/sm90/epilogue.cuh) calls the
// region's functor: row() for the eight columns of a thread that are
// wholly inside the output, operator() for the last ones.
// CHECK-LABEL: {{^}}struct tc_gemm_f16_0_epilogue {
// CHECK:       {{^}}  __device__ void operator()(long long tc_m, long long tc_n, float tc_sum) const {
// CHECK:       {{^ *}}C[(long long)((tc_m)) * (N) + ((tc_n))] = ::__float2half(tc_value);
// CHECK:       {{^}}  __device__ void row(long long tc_m, long long tc_n0, const float (&tc_sums)[8]) const {
// CHECK-NEXT:  {{^ *}}__half tc_lanes_0[8];
// CHECK:       {{^ *}}tc::store_lane_words<8>(&C[(long long)((tc_m)) * (N) + ((tc_n0))], tc_lanes_0);
// CHECK-LABEL: {{^}}void gemm_f16(

// fp32 C and fp16 D = relu(C): 4 lanes each.
// CHECK-LABEL: {{^}}struct tc_gemm_two_0_epilogue {
// CHECK:       {{^ *}}float tc_lanes_0[4];
// CHECK-NEXT:  {{^ *}}__half tc_lanes_1[4];
// CHECK:       {{^ *}}tc::store_lane_words<4>(&C[{{.*}}((tc_n0))], tc_lanes_0);
// CHECK-NEXT:  {{^ *}}tc::store_lane_words<4>(&D[{{.*}}((tc_n0))], tc_lanes_1);
// CHECK-LABEL: {{^}}void gemm_two(

// Column-major C: element-wise stores only.
// CHECK-LABEL: {{^}}struct tc_gemm_ccol_0_epilogue {
// CHECK-NOT:   store_lanes
// CHECK:       {{^ *}}C[(long long)((tc_n)) * (M) + ((tc_m))] = ::__float2half(tc_value);
// CHECK-LABEL: {{^}}void gemm_ccol(

// A bias by column: the lane's column tc_n indexes it.
// CHECK-LABEL: {{^}}struct tc_gemm_bias_0_epilogue {
// CHECK:       {{^ *}}for (int tc_v = 0; tc_v < 8; ++tc_v) {
// CHECK-NEXT:  {{^ *}}const long long tc_n = tc_n0 + tc_v;
// CHECK-NEXT:  {{^ *}}const float tc_sum = tc_sums[tc_v];
// CHECK:       {{^ *}}tc_lanes_0[tc_v] = ::__float2half((tc_value + tc::read_only(bias[((tc_n))])));
// CHECK-LABEL: {{^}}void gemm_bias(

#include <cuda_fp16.h>

void gemm_f16_recip_b(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * (1.0f / __half2float(B[2 * (j * K + k)]));
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_f16(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc stages(3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc);
    }
}

void gemm_two(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C,
              __half *__restrict__ D) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
      D[i * N + j] = __float2half(fmaxf(acc, 0.0f));
    }
}

void gemm_ccol(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[j * M + i] = __float2half(acc);
    }
}

void gemm_bias(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, const float *__restrict__ bias,
               __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = __float2half(acc + bias[j]);
    }
}
