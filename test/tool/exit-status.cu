// Exit statuses: 0 when every region was rewritten; 1 when a region was
// rejected or a file does not parse (then nothing is written for it); 2
// for a usage error, such as an input that cannot be read.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/exit-status.py 0 %tc-rewrite %S/Inputs/gemm.cu -o %t/good.cu
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite %s -o %t/rejected.cu
// RUN: diff %s %t/rejected.cu
//
// A file that does not parse: the compiler's error, a line saying the file
// was not rewritten, status 1 and no output.
// RUN: %python %S/Inputs/exit-status.py 1 %tc-rewrite %S/Inputs/does-not-parse.cu -o %t/broken.cu 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not ls %t/broken.cu
// PARSE: does-not-parse.cu:{{[0-9]+}}:{{[0-9]+}}: error: use of undeclared identifier 'undeclared'
// PARSE: tc-rewrite: '{{.*}}does-not-parse.cu' was not rewritten because it does not parse
//
// A missing input file.
// RUN: %python %S/Inputs/exit-status.py 2 %tc-rewrite %t/missing.cu -o %t/missing.out.cu
// RUN: not ls %t/missing.out.cu

#include <cuda_fp16.h>

void rejected(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += __half2float(A[i * i]) * __half2float(B[k * N + j]);
}
