// The canonical GEMM (as in samples/gemm.cu): fp16 operands, a scalar fp32
// accumulator declared in the (i, j) loop, an fp16 result, all row-major.
// The nest becomes a launcher call; kernel and launcher are defined before
// the function and <tc/tc.cuh> is included after the last #include.
//
// Check lines are anchored ({{^ *}}) so that they never match their own
// copies: the tool keeps every comment of this file in its output.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// The kernel really multiplies on the tensor cores: mma.sync, ldmatrix and
// cp.async survive nvcc's optimiser (a dead main loop would remove them).
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx %t.cu -o %t.ptx %}
// RUN: %if nvcc && full-tier %{ FileCheck %s --check-prefix=PTX --input-file=%t.ptx %}

// CHECK:      {{^}}#include <cuda_fp16.h>
// CHECK-NEXT: {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_gemm_0_epilogue {
// CHECK:      {{^ *}}C[{{.*}}tc_m{{.*}}tc_n{{.*}}] = ::__float2half(tc_value);
// CHECK:      {{^}}static void tc_gemm_0_launch(
// CHECK:      {{^ *}}tc::report_status(tc::sm80::launch_gemm<tc::sm80::CpAsyncMmaMainloop<
// CHECK:      {{^}}void gemm(int M, int N, int K, const __half *__restrict__ A,
// CHECK:      {{^  }}// '#pragma tc' region computed by tc_gemm_0_launch (tc-rewrite)
// CHECK-NEXT: {{^  }}tc_gemm_0_launch(M, N, K, A, B, C, 0);
// CHECK-NEXT: {{^}}}

// PTX: .entry {{.*}}gemm_kernel
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

#include <cuda_fp16.h>

void gemm(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
