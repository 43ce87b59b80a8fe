// PolyBench's gemm: i-k-j order, `C *= beta` in a j loop of its own before
// the k loop, `C += alpha * A * B` in the k-j nest. Both j loops are named
// j, as PolyBench writes them.
//
// Fails: "loop iterator 'j' reuses the name of another loop's iterator"
// at the second j loop; with distinct names (loop-order-ikj-init-nest.cu)
// it fails later.
//
// RUN: %tc-rewrite --mma-path=sync %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK:      {{^}}#include <tc/tc.cuh>
// CHECK:      {{^}}struct tc_kernel_gemm_0_epilogue {
// CHECK:      {{^ *}}float tc_value = {{.*}}C[{{.*}}]{{.*}}beta
// CHECK:      {{^ *}}tc_value += static_cast<float>(alpha) * tc_sum;
// CHECK:      {{^  }}tc_kernel_gemm_0_launch(

#include <cuda_fp16.h>

void kernel_gemm(int M, int N, int K, float alpha, float beta,
                 const __half *__restrict__ A, const __half *__restrict__ B,
                 float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++)
      C[i * N + j] *= beta;
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++)
        C[i * N + j] += alpha * (float)A[i * K + k] * (float)B[k * N + j];
  }
}
