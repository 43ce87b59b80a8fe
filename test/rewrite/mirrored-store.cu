// An output stored mirrored along its rows, `C[i * N + (N - 1 - j)]`:
// delinearised as row i, column N - 1 - j (always in [0, N)), not as row
// i + 1, column -1 - j, which left its row and was refused. The epilogue
// stores each element at the source's address.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

// CHECK: {{^    }}C[(long long)((tc_m)) * (N) + (N - (tc_n) - 1)] = tc_value;
// CHECK: {{^  }}tc_mirrored_0_launch(M, N, K, A, B, C, 0);

#include <cuda_fp16.h>

void mirrored(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
              float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + (N - 1 - j)] = acc;
    }
}
