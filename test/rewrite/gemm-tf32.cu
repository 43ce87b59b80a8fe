// fp32 operands with the allow_tf32 clause: rounded to tf32 on the tensor
// cores (mma.m16n8k8 tf32), fp32 accumulation and result.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx %t.cu -o %t.ptx %}
// RUN: %if nvcc && full-tier %{ FileCheck %s --check-prefix=PTX --input-file=%t.ptx %}

// B is stored N-major: at M <= 128 the launcher hands the shape to the
// mma.sync kernels, which read it as stored; wgmma's kernels read a
// K-major copy (gemm-tf32-wgmma.cu).
// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_sgemm_0_sync_epilogue {
// CHECK:      {{^}}static void tc_sgemm_0_sync_launch(
// CHECK:      {{^}}  tc::report_status(tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// CHECK-NEXT: {{^}}          tc::sm80::OperandTile<float, 128, tc::sm80::Major::K>,  // A
// CHECK:      {{^}}static void tc_sgemm_0_launch(
// CHECK:      {{^}}    tc_sgemm_0_sync_launch(M, N, K, A, B, C, tc_stream);
// CHECK:      {{^}}void sgemm(
// CHECK:      {{^  }}tc_sgemm_0_launch(M, N, K, A, B, C, 0);

// PTX-DAG: mma.sync.aligned.{{.*}}.tf32.tf32.f32
// PTX-DAG: wgmma.mma_async.sync.aligned.{{.*}}.tf32.tf32

void sgemm(int M, int N, int K, const float *__restrict__ A,
           const float *__restrict__ B, float *__restrict__ C) {
#pragma tc allow_tf32
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
