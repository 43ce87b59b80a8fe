// fp32 operands with the allow_tf32 clause: rounded to tf32 on the tensor
// cores, fp32 accumulation and result. On sm_90a the sm_90 components'
// wgmma (m64nNk8 tf32), B (stored N-major) staged K-major from a
// transposed copy; on sm_80 mma.m16n8k8 tf32.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --check-prefix=SM80 --input-file=%t.sm80.cu
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx %t.cu -o %t.ptx %}
// RUN: %if nvcc && full-tier %{ FileCheck %s --check-prefix=PTX --input-file=%t.ptx %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^  }}if (!tc::sm90::launch_gemm<tc::sm90::TmaWgmmaMainloop<
// CHECK-NEXT: {{^ +}}tc::sm90::OperandTile<float, 128, tc::sm90::Major::K>,  // A
// CHECK-NEXT: {{^ +}}tc::sm90::OperandTile<float, 128, tc::sm90::Major::K, false, true>,  // B
// CHECK:      {{^}}void sgemm(
// CHECK:      {{^  }}tc_sgemm_0_launch(M, N, K, A, B, C, 0);

// SM80:      {{^}}__global__ void __launch_bounds__({{[0-9]+}}) tc_sgemm_0_kernel(
// SM80-SAME: const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C
// SM80:      {{^ *}}tc::mma_{{.*}}tf32(

// PTX: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k8.f32.tf32.tf32
// PTX: cvt.rna.tf32.f32

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
