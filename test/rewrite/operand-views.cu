// Operands read at an offset from the plain iterators: a view that starts
// elsewhere in the array (`A[(i + r0) * lda + k + c0]`, a block of a larger
// matrix; `B[(k + 1) * N + j + 2]`). The launcher moves the pointer to the
// view's first element after the alias check (which bounds the array as the
// source indexes it), and the kernels are those of the plain spelling. An
// array read elsewhere as well keeps the diagnostic. GPU check:
// test/gpu/regions/loops.cu (loops_operand_views).
//
// RUN: not %tc-rewrite %s -o %t.cu 2> %t.err
// RUN: FileCheck %s --input-file=%t.cu
// RUN: FileCheck %s --check-prefix=DIAG --input-file=%t.err
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: not %tc-rewrite --explain %s 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN

#include <cuda_fp16.h>

// CHECK-LABEL: {{^}}static void tc_block_0_launch(
// CHECK:       return;  // no output element
// The tuning statement runs this launcher again: before the pointers move.
// CHECK-NEXT:  {{^}}#ifdef TC_TUNING
// CHECK:       {{^}}#endif
// CHECK-NEXT:  {{^  }}A += (long long)(r0) * (lda) + (long long)(c0);  // where the operand's view starts
// CHECK-NEXT:  B += (long long)(1) * (N) + (long long)(2);  // where the operand's view starts
// CHECK:       {{^}}void block(
// CHECK:       {{^  }}tc_block_0_launch(M, N, K, r0, lda, c0, A, B, C, 0);
// EXPLAIN-LABEL: region tc_block_0 at
// EXPLAIN:       matmul over (i, j) reducing k: M = M, N = N, K = K
// EXPLAIN:       operand A: a view at offset [r0, c0]; the launcher moves the pointer there
// EXPLAIN-NEXT:  operand B: a view at offset [1, 2]; the launcher moves the pointer there
void block(int M, int N, int K, int r0, int c0, int lda, const __half *__restrict__ A,
           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i + r0) * lda + k + c0]) * __half2float(B[(k + 1) * N + j + 2]);
      C[i * N + j] = acc;
    }
}

// Without __restrict__ the alias check comes first, on the unmoved pointer.
// CHECK-LABEL: {{^}}static void tc_block_aliased_0_launch(
// CHECK:       {{^  }}const tc::ByteRange tc_bytes_0 = tc::accessed_bytes(A, sizeof(*A), {{[{][{]}}r0, ((M + r0) - 1), lda}, {c0, ((K + c0) - 1), 1}});
// CHECK:       return;
// CHECK-NEXT:  }
// CHECK-NEXT:  {{^}}#ifdef TC_TUNING
// CHECK:       {{^}}#endif
// CHECK-NEXT:  A += (long long)(r0) * (lda) + (long long)(c0);
void block_aliased(int M, int N, int K, int r0, int c0, int lda, const __half *A,
                   const __half *B, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i + r0) * lda + k + c0]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// The same array as both operands, one of them at an offset: refused.
// DIAG: operand-views.cu:[[@LINE+8]]:29: error: operand 'A' is read at an offset from the plain iterators and elsewhere in the region
// DIAG: note: the kernel reads an offset operand through a pointer moved to the offset
void gram(int M, int N, int K, const __half *__restrict__ A, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i + 1) * K + k]) * __half2float(A[j * K + k]);
      C[i * N + j] = acc;
    }
}
