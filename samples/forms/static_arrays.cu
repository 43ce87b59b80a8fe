// Statically shaped 2-D arrays through pointers to rows (issue 3:
// "statically shaped 2-D arrays and pointers to rows (const __half (*A)[K],
// A[i][k]), constexpr and parameter sizes"). Row lengths are constexpr; the
// row counts are parameters (M, and N or K where they are not a row length),
// except in static_full, where every size is constexpr.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace forms {
constexpr int kK64 = 64, kN128 = 128;  // aligned rows (fast copy path)
constexpr int kK37 = 37, kN45 = 45;    // unaligned rows (element-wise path)
constexpr int kM96 = 96, kN80 = 80, kK48 = 48;
}  // namespace forms

// Pointers to rows, aligned: A[M][64], B[64][128], C[M][128] (fp32).
void static_rows_aligned(int M, const __half (*__restrict__ A)[forms::kK64],
                         const __half (*__restrict__ B)[forms::kN128],
                         float (*__restrict__ C)[forms::kN128]) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < forms::kN128; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < forms::kK64; ++k)
        acc += __half2float(A[i][k]) * __half2float(B[k][j]);
      C[i][j] = acc;
    }
}

// Pointers to rows, unaligned: A[M][37], B[37][45], C[M][45] (fp16).
void static_rows_unaligned(int M, const __half (*__restrict__ A)[forms::kK37],
                           const __half (*__restrict__ B)[forms::kN45],
                           __half (*__restrict__ C)[forms::kN45]) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < forms::kN45; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < forms::kK37; ++k)
        acc += __half2float(A[i][k]) * __half2float(B[k][j]);
      C[i][j] = __float2half(acc);
    }
}

// Row types through aliases, B column-major (B[N][K] read as B[j][k]),
// bf16: A[M][64], B[128][64], C[M][128] (bf16).
using Bf16RowK64 = __nv_bfloat16[forms::kK64];
using Bf16RowN128 = __nv_bfloat16[forms::kN128];
void static_rows_bcol_bf16(int M, const Bf16RowK64 *__restrict__ A,
                           const Bf16RowK64 *__restrict__ B,
                           Bf16RowN128 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < forms::kN128; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < forms::kK64; ++k)
        acc += __bfloat162float(A[i][k]) * __bfloat162float(B[j][k]);
      C[i][j] = __float2bfloat16(acc);
    }
}

// Pointers to rows with an initialisation statement:
// C[i][j] = 0; C[i][j] += A[i][k] * B[k][j] (A[M][37], B[37][45], C[M][45]).
void static_rows_init(int M, const __half (*__restrict__ A)[forms::kK37],
                      const __half (*__restrict__ B)[forms::kN45],
                      float (*__restrict__ C)[forms::kN45]) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < forms::kN45; ++j) {
      C[i][j] = 0.0f;
      for (int k = 0; k < forms::kK37; ++k)
        C[i][j] += __half2float(A[i][k]) * __half2float(B[k][j]);
    }
}

// Every size constexpr: A[96][48], B[48][80], C[96][80] (fp32).
void static_full(const __half (*__restrict__ A)[forms::kK48],
                 const __half (*__restrict__ B)[forms::kN80],
                 float (*__restrict__ C)[forms::kN80]) {
#pragma tc
  for (int i = 0; i < forms::kM96; ++i)
    for (int j = 0; j < forms::kN80; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < forms::kK48; ++k)
        acc += __half2float(A[i][k]) * __half2float(B[k][j]);
      C[i][j] = acc;
    }
}
