// A compile command that asks for SARIF or JSON diagnostics
// (-fdiagnostics-format=, from compile_commands.json or --extra-arg): the
// tool drops the option and reports refused regions as clang's text does
// (clang 22's SARIF printer crashed the tool on CUDA files). The other
// regions are still rewritten.
//
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite --extra-arg=-fdiagnostics-format=sarif %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite --extra-arg=-fdiagnostics-format --extra-arg=json %s -o %t.json.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// The frontend's spelling, behind -Xclang (each -Xclang goes with its word):
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite %s -o %t.xclang.cu -- -x cuda -Xclang -fdiagnostics-format -Xclang sarif 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not="error reading"
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite %s -o %t.xclang2.cu -- -x cuda -Xclang -fdiagnostics-format=sarif 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not="no input files"
// RUN: FileCheck %s --input-file=%t.xclang.cu

// DIAG: diagnostics-format.cu:[[@LINE+25]]:{{[0-9]+}}: error: operand 'A' has element type 'double'
// DIAG: note:
// CHECK: {{^  }}tc_good_0_launch(M, N, K, A, B, C, 0);

#include <cuda_fp16.h>

void good(int M, int N, int K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void bad(int M, int N, int K, const double *__restrict__ A,
         const double *__restrict__ B, double *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
