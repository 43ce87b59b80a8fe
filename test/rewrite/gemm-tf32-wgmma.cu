// fp32 operands under allow_tf32 on sm_90a: stored K-major (X W^T: A
// [m][k], B [n][k]) they take wgmma's tf32 instruction in the sm_90
// components' kernels (k tiles of 32 elements, one 128-byte swizzled row),
// both operands rounded to tf32 first (RoundToTf32: to nearest, as
// mma.sync's fragments; wgmma alone would truncate): A's wgmma fragments
// in registers where they fit beside the accumulators, else A's landed
// stages, and B's landed stages.
// wgmma reads tf32 operands K-major only: another layout, and what the
// components cannot compute for tf32 (a prologue, a mask, a guard of the
// output, the split_k clause), keeps mma.sync. An M/N-major operand is
// staged from a transposed copy made at each launch: by default only for
// the shapes where the copy pays (tc::prefer_transposed_copies), the
// launcher handing the others to the region's mma.sync kernels; for every
// shape where wgmma is asked for (the clause, --mma-path=wgmma).
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a --explain %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --check-prefix=SM80 --input-file=%t.sm80.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_runtime.h>

// SM80-NOT: {{^[^/]*}}tc::sm90::
// SM80:     {{^}}void xwt_split(

// EXPLAIN-LABEL: region tc_xwt_0
// EXPLAIN:       main loop: wgmma: sm_90a, tf32 operands (rounded to nearest first, wgmma alone would truncate them: A where an A prologue goes, as below; B in its landed stages; an operand from a transposed copy by that copy); A K-major, B K-major stages;{{.*}}; A from registers
// EXPLAIN:       composed: tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<tc::sm90::OperandTile<float, 128, tc::sm90::Major::K>, tc::sm90::OperandTile<float, 128, tc::sm90::Major::K>, 4, tc::sm90::RegisterA<tc::sm90::RoundToTf32, tc::sm90::RoundToTf32>, tc::sm90::ProducerWarpgroup<48, 200, 64>>, tc::sm90::PersistentScheduler>
// EXPLAIN:       wgmma.mma_async.m64n{{[0-9]+}}k8 (tf32, fp32 accumulation
// CHECK-LABEL: {{^}}static void tc_xwt_0_launch(
// CHECK-NOT:   {{^}}}
// CHECK:       {{^  }}if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT:  {{^ +}}tc::sm90::OperandTile<float, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT:  {{^ +}}tc::sm90::OperandTile<float, 128, tc::sm90::Major::K>,  // B
// CHECK-NEXT:  {{^ +}}4,
// CHECK-NEXT:  {{^ +}}tc::sm90::RegisterA<tc::sm90::RoundToTf32, tc::sm90::RoundToTf32>, tc::sm90::ProducerWarpgroup<48, 200, 64>>,
// CHECK-NEXT:  {{^ +}}tc::sm90::PersistentScheduler>({M, N, K}, X, K, W, K, tc_xwt_0_epilogue{
void xwt(int M, int N, int K, const float *__restrict__ X, const float *__restrict__ W,
         const float *__restrict__ bias, float *__restrict__ Y) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += X[i * K + k] * W[j * K + k];
      Y[i * N + j] = fmaxf(acc + bias[j], 0.0f);
    }
}

// A sum of K-major products and a batch: composed too.
// EXPLAIN-LABEL: region tc_xwt_sum_0
// EXPLAIN:       composed: tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<tc::sm90::OperandTile<float,
// CHECK-LABEL: {{^}}static void tc_xwt_sum_0_launch(
// CHECK:       tc::sm90::Products<float, 2>
void xwt_sum(int M, int N, int K, int L, const float *__restrict__ X,
             const float *__restrict__ W, const float *__restrict__ P,
             const float *__restrict__ Q, float *__restrict__ Y) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += X[i * K + k] * W[j * K + k];
      for (int l = 0; l < L; ++l)
        acc += P[i * L + l] * Q[j * L + l];
      Y[i * N + j] = acc;
    }
}

// EXPLAIN-LABEL: region tc_xwt_batched_0
// EXPLAIN:       composed: tc::sm90::launch_batched_gemm<tc::sm90::TmaWgmmaMainloop<tc::sm90::OperandTile<float,
void xwt_batched(int Bt, int M, int N, int K, const float *__restrict__ X,
                 const float *__restrict__ W, float *__restrict__ Y) {
#pragma tc allow_tf32
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += X[(long)b * M * K + i * K + k] * W[(long)b * N * K + j * K + k];
        Y[(long)b * M * N + i * N + j] = acc;
      }
}

// Row-major B (N-major): wgmma reads it from a transposed copy where M >
// 128 (the product reads the copy more than once); mma.sync below that.
// EXPLAIN-LABEL: region tc_nn_0
// EXPLAIN:       shapes where the output's rows are at most 128: the product reads B once (tc::prefer_transposed_copies): tc_nn_0_sync_launch
// EXPLAIN:       main loop: mma.sync: shapes where the transposed copy would cost more than the product
// EXPLAIN:       other shapes: the wgmma kernels, reading B from a K-major copy
// EXPLAIN:       main loop: wgmma: {{.*}}(B stored N-major: staged from a transposed copy made at each launch)

// CHECK:       {{^}}struct tc_nn_0_sync_epilogue {
// CHECK:       {{^}}static void tc_nn_0_sync_launch(
// CHECK-LABEL: {{^}}static void tc_nn_0_launch(
// CHECK-NEXT:  {{^}}  // Operands stored M- or N-major
// CHECK:       {{^}}  if (!tc::prefer_transposed_copies(M, N, false, true)) {
// CHECK-NEXT:  {{^}}    tc_nn_0_sync_launch(M, N, K, A, B, C, tc_stream);
// CHECK-NEXT:  {{^}}    return;
// CHECK-NOT:   {{^}}}
// CHECK:       tc::sm90::OperandTile<float, 128, tc::sm90::Major::K, false, true>,  // B
void nn(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
        float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// A prologue, a guard of the output, the split_k clause: mma.sync.
// EXPLAIN-LABEL: region tc_xwt_relu_a_0
// EXPLAIN:       main loop: mma.sync: a tf32 operand with a prologue uses mma.sync
void xwt_relu_a(int M, int N, int K, const float *__restrict__ X,
                const float *__restrict__ W, float *__restrict__ Y) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += fmaxf(X[i * K + k], 0.0f) * W[j * K + k];
      Y[i * N + j] = acc;
    }
}

// EXPLAIN-LABEL: region tc_xwt_lower_0
// EXPLAIN:       main loop: mma.sync: a tf32 region with a guard of the output uses mma.sync
void xwt_lower(int N, int K, const float *__restrict__ X, const float *__restrict__ W,
               float *__restrict__ Y) {
#pragma tc allow_tf32
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += X[i * K + k] * W[j * K + k];
      Y[i * N + j] = acc;
    }
}

// EXPLAIN-LABEL: region tc_xwt_split_0
// EXPLAIN:       main loop: mma.sync: the tile, stages and split_k clauses of a tf32 region are mma.sync's
void xwt_split(int M, int N, int K, const float *__restrict__ X, const float *__restrict__ W,
               float *__restrict__ Y) {
#pragma tc allow_tf32 split_k(4)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += X[i * K + k] * W[j * K + k];
      Y[i * N + j] = acc;
    }
}
