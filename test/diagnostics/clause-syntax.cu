// Malformed clauses are reported at the offending token of the pragma
// line (column checked), with a note where one helps.
// (That the file is still written and its other regions rewritten is
// checked by clause-syntax-other-regions.cu.)
//
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG

#include <cuda_fp16.h>

#define GEMM_NEST                                                              \
  for (int i = 0; i < M; ++i)                                                  \
    for (int j = 0; j < N; ++j) {                                              \
      float acc = 0.0f;                                                        \
      for (int k = 0; k < K; ++k)                                              \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);        \
      C[i * N + j] = __float2half(acc);                                        \
    }

void tile_two_sizes(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+2]]:12: error: clause 'tile' takes 3 sizes, 2 given
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:12: note: write tile(BM, BN, BK), e.g. tile(128, 128, 32)
#pragma tc tile(128, 128)
  GEMM_NEST
}

void tile_names(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+2]]:17: error: expected a positive integer in clause 'tile'
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:17: note: sizes must be integer literals
#pragma tc tile(a, b, c)
  GEMM_NEST
}

void unknown_clause(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+2]]:12: error: unknown clause 'foo' in '#pragma tc'
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:12: note: clauses are tile(BM,BN,BK), warp(WM,WN), stages(S), split_k(P), warp_split_k(P), mma(m16n8k16), stream(expr), sync, temp(...), allow_tf32
#pragma tc foo
  GEMM_NEST
}

void unknown_after_valid(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:31: error: unknown clause 'stage' in '#pragma tc'
#pragma tc tile(128, 128, 32) stage(3)
  GEMM_NEST
}

void warp_one_size(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+2]]:12: error: clause 'warp' takes 2 sizes, 1 given
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:12: note: write warp(WM, WN), e.g. warp(64, 64)
#pragma tc warp(64)
  GEMM_NEST
}

void stages_two(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:12: error: clause 'stages' takes one integer
#pragma tc stages(2, 3)
  GEMM_NEST
}

void size_zero(int M, int N, int K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+2]]:17: error: invalid size '0' in clause 'tile'
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:17: note: sizes must be integers from 1 to 4096
#pragma tc tile(0, 128, 32)
  GEMM_NEST
}

void size_malformed(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+2]]:17: error: invalid size '12abc' in clause 'tile'
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:17: note: sizes must be integers from 1 to 4096
#pragma tc tile(12abc, 128, 32)
  GEMM_NEST
}

void size_too_large(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:22: error: invalid size '8192' in clause 'tile'
#pragma tc tile(128, 8192, 32)
  GEMM_NEST
}

void missing_paren(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:30: error: expected ',' or ')' in clause 'tile'
#pragma tc tile(128, 128, 32 stages(3)
  GEMM_NEST
}

void no_paren(int M, int N, int K, const __half *__restrict__ A,
              const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:17: error: expected '(' after 'tile'
#pragma tc tile 128
  GEMM_NEST
}

void empty_stream(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:12: error: clause 'stream' needs an argument
#pragma tc stream()
  GEMM_NEST
}

void unclosed_stream(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:20: error: expected ')' to close clause 'stream'
#pragma tc stream(s
  GEMM_NEST
}

void not_a_name(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, __half *__restrict__ C) {
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:12: error: expected a clause name in '#pragma tc'
#pragma tc "tile"
  GEMM_NEST
}

void clause_twice(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, __half *__restrict__ C) {
  // Which of two values was meant is not guessed (it was the last one).
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+2]]:34: error: clause 'tile' is given twice in '#pragma tc'
  // DIAG: {{.*}}clause-syntax.cu:[[@LINE+1]]:12: note: 'tile' is first given here
#pragma tc tile(64, 64, 32) sync tile(128, 128, 32)
  GEMM_NEST
}
