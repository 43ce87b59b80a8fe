// Loops as code writes them (test/gpu/regions_test.cu): 1-based with the
// iterator in the value, a row range from a size, downward loops, `!=`,
// and a downward column loop over an output that is its own operand (no
// __restrict__: the launcher runs the region as written, whose result
// depends on the columns' order).
#include <cuda_fp16.h>

void loops_one_based(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 1; i <= M; ++i)
    for (int j = 1; j <= N; ++j) {
      float acc = 0.0f;
      for (int k = 1; k <= K; ++k)
        acc += __half2float(A[(i - 1) * K + k - 1]) * __half2float(B[(k - 1) * N + j - 1]);
      C[(i - 1) * N + (j - 1)] = acc + 0.125f * (float)i;
    }
}

void loops_row_range(int lo, int hi, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = lo; i < hi; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i - lo) * K + k]) * __half2float(B[k * N + j]);
      C[(i - lo) * N + j] = __float2half(acc);
    }
}

void loops_reversed(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = M - 1; i >= 0; --i)
    for (int j = 0; N > j; j++) {
      float acc = 0.0f;
      for (int k = K - 1; k > -1; k--)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void loops_not_equal(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i != M; ++i)
    for (int j = 0; j != N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k != K; k += 1)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void loops_downward_columns(int M, int N, int K, const __half *A, const __half *B, __half *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = N - 1; j >= 0; --j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// Operands read as views into larger arrays (the launcher moves the
// pointers), and an output written one row down.
void loops_operand_views(int M, int N, int K, int r0, int c0, int lda,
                         const __half *__restrict__ A, const __half *__restrict__ B,
                         __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i + r0) * lda + k + c0]) * __half2float(B[(k + 1) * N + j + 2]);
      C[(i + 1) * N + j] = __float2half(acc);
    }
}

// Unsigned iterators and sizes in the value (`i - j` wraps in the source),
// counted down to `> 0`.
void loops_unsigned_values(unsigned M, unsigned N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = M; i > 0; --i)
    for (unsigned j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i - 1) * K + k]) * __half2float(B[k * N + j]);
      C[(i - 1) * N + j] = acc + 1e-9f * (float)(i - j) + 1e-9f * (float)(j - N);
    }
}

// Every other row (`i += 2`, the bound not a multiple of the step: a guard
// of the output), the value reading the source's i.
void loops_strided_rows(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc + 1e-3f * (float)i;
    }
}

// Every third k from 1 (A stored K x M, B K x N: the step scales their
// leading dimensions).
void loops_strided_k(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 1; k < K; k += 3)
        acc += __half2float(A[k * M + i]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Every other k of row-major A and B (A's elements gathered by the copier).
void loops_even_k(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
                  float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; k += 2)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Even rows with the reduction from the row on (k = i): the step scales i
// once in k's bound.
void loops_strided_triangle(int M, int N, int K, const __half *__restrict__ A,
                            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 1; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = i - 1; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Literal leading dimensions (A's rows 200 elements apart, B's and C's
// 64): split into rows like parameter ones. With N > 64, C's rows
// overlap and the loops as written run; with K > 200, A's row i reads
// into row i + 1, as the linear subscript says.
void loops_literal_strides(int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * 200 + k]) * __half2float(B[k * 64 + j]);
      C[i * 64 + j] = acc;
    }
}

// A batch loop only X reads: W shared by every batch (batch stride 0); and
// the same with the loop of X's rows outside the batch's.
void loops_shared_weights(int Bt, int M, int N, int K, const __half *__restrict__ X,
                          const __half *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(X[(b * M + i) * K + k]) * __half2float(W[k * N + j]);
        Y[(b * M + i) * N + j] = acc;
      }
}
void loops_shared_weights_rows_outside(int Bt, int M, int N, int K,
                                       const __half *__restrict__ X,
                                       const __half *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int b = 0; b < Bt; ++b)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(X[(i * Bt + b) * K + k]) * __half2float(W[k * N + j]);
        Y[(b * M + i) * N + j] = acc;
      }
}

// A batch whose tiles the split_k clause splits in three (the components'
// SplitScheduler on stacked batch entries), B[b] stored N x K.
void loops_batched_split(int Bt, int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc split_k(3)
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i) * K + k]) * __half2float(B[(b * N + j) * K + k]);
        C[(b * M + i) * N + j] = acc;
      }
}

// An output offset of either sign: C's rows are 64 apart, from element
// off. Unless 0 <= off and N + off <= 64 (each row inside its 64
// elements), rows may overlap and the loops as written run.
void loops_output_offset(int M, int N, int K, int off, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * 64 + j + off] = acc;
    }
}

// Literal strides beside parameters: A's rows 128 apart from row off,
// its batches M rows apart (stride 128 M); B's batches K rows of 64; C's
// batches M rows of 64 (overlapping rows for N > 64: the loops as
// written run).
void loops_literal_batched(int Bt, int M, int N, int K, int off, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int b = 0; b < Bt; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[(b * M + i + off) * 128 + k]) *
                 __half2float(B[(b * K + k) * 64 + j]);
        C[(b * M + i) * 64 + j] = acc;
      }
}
