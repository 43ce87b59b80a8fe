// Regions written to break the domain forms (issue 50, item 3): guards,
// triangles, steps, unsigned and 64-bit iterators, in-place updates, each
// of signature (M, N, K, A, B, C). A helper wrote them as a new user would;
// the mis-rewrites they found are fixed and kept as lit and regions_test
// cases. Run (opt-in, on a GPU): make_driver.py's docstring. Three are
// refused (unsigned differences that may wrap) and left out of the driver.
#include <cuda_fp16.h>

// == guard on k inside the k loop: only the diagonal term k == i
void r02_keq_i(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        if (k == i)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// in-place accumulation (no zeroing) under a guard with an offset: i <= j + 2
void r05_inplace_guard(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (i <= j + 2)
        for (int k = 0; k < K; ++k)
          C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// triangular strictly-upper reduction k = i + 1 .. K-1 (bound by iterator and size)
void r07_k_from_ip1(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = i + 1; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// output loop j < i - 3 (rows 0..3 entirely empty), j also < N
void r08_j_lt_im3(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < i - 3 && j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// odd rows only: i = 1, 3, 5, ...
void r11_odd_rows(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 1; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// strided rows combined with a triangular reduction k >= i (i even)
void r16_stride_i_tri_k(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = i; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// 64-bit iterators with a triangular bound and long long indexing
void r20_int64_tri(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (long long i = 0; i < (long long)M; ++i)
    for (long long j = 0; j < (long long)N; ++j) {
      float acc = 0.0f;
      for (long long k = i; k < (long long)K; ++k)
        acc += __half2float(A[i * (long long)K + k]) * __half2float(B[k * (long long)N + j]);
      C[i * (long long)N + j] = acc;
    }
}

// always-true guards (i < M, k >= 0) on the body and in the k loop
void r22_guard_true(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (i < M && j >= 0) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          if (k >= 0)
            acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// guard on sizes only (M == N): everything or nothing depending on the shape
void r23_guard_sizes_eq(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (M == N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// guard with sizes and constants mixing i and j: 2 * i + j < N - 5 && i >= 2
void r24_guard_sizes_consts(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (2 * i + j < N - 5 && i >= 2) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// column-major output, guarded strictly lower (i > j), B transposed (B[j*K+k])
void r25_colmajor_bt_guard(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (i > j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
        C[j * M + i] = acc;
      }
}

// transposed B with triangular k starting at j (mask on B^T), column-major loop order
void r26_bt_k_from_j(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i) {
      float acc = 0.0f;
      for (int k = j; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}

// transposed A (A[k*M+i]) with k <= i guard inside the k loop
void r27_at_kle_i(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        if (k <= i)
          acc += __half2float(A[k * M + i]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// strided rows with a guard that is not a multiple of the step (i >= 5 with i even: 6, 8, ...)
void r31_stride_guard_ceil(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; ++j)
      if (i >= 5 && i <= M - 4) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// syrk-like j <= i with leading dimension N but i < M: output rows overlap when M > N
void r34_tri_rows_overlap(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j <= i; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(A[j * K + k]);
      C[i * N + j] = acc;
    }
}

// guarded epilogue arithmetic on the accumulator (i < j doubles acc), store unguarded
void r36_guarded_acc_update(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      if (i < j)
        acc = acc * 2.0f;
      C[i * N + j] = acc;
    }
}

// per-operand separable k guard: k >= i && k <= j inside the k loop
void r37_kguard_sep(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        if (k >= i && k <= j)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// guard i + k < K (both A's indices) and k + j < N (both B's indices)
void r38_kguard_sums(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        if (i + k < K && k + j < N)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// anti-diagonal == guard mixing i, j and a size: j == N - 1 - i
void r41_antidiag(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (j == N - 1 - i) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// downward reduction with exclusive lower bound k > i: k = K-1 .. i+1
void r42_k_down_gt_i(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = K - 1; k > i; --k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// in-place update with zeroing outside the guard: C = 0 everywhere, += only where k <= i
void r44_zero_then_guarded_inplace(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0.0f;
      for (int k = 0; k < K; ++k)
        if (k <= i)
          C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
    }
}

// a single k: k == K - 1 guard
void r45_k_last(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        if (k == K - 1)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// triangle j <= i with downward i loop and column-major output
void r49_down_i_colmajor_tri(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = M - 1; i >= 0; --i)
    for (int j = 0; j <= i && j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[j * M + i] = acc;
    }
}

// k starts at i - 2 (int) with a k >= 0 guard: k = max(0, i-2) .. K-1
void r50_k_from_im2_guard(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = i - 2; k < K; ++k)
        if (k >= 0)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// strided rows with a k >= i guard inside the k loop (not in the loop bound)
void r51_stride_i_kguard(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        if (k >= i)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// strided rows with an (i, j) guard around the body: i <= j
void r54_stride_i_guard_ij(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; ++j)
      if (i <= j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// strided rows, in-place accumulation with a triangular reduction k >= i
void r55_stride_i_inplace_tri(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; ++j)
      for (int k = i; k < K; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// in-place accumulation guarded inside the k loop by k <= j (mask on B), no zeroing
void r58_inplace_kguard_j(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        if (k <= j)
          C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// k-only guard with sizes and constants: 2 * k + 1 < K && k >= 3
void r59_kguard_sizes(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        if (2 * k + 1 < K && k >= 3)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// strided reduction k = 1, 4, ... with both operands k-major (A[k*M+i], B[k*N+j])
void r60_k_step3_kmajor(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 1; k < K; k += 3)
        acc += __half2float(A[k * M + i]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// strictly upper output loop j = i + 1 .. N-1
void r63_j_from_ip1(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = i + 1; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// strided columns j += 2 with B transposed and column-major output
void r65_stride_j_bt_colmajor(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int j = 0; j < N; j += 2)
    for (int i = 0; i < M; ++i) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[j * M + i] = acc;
    }
}

// strided columns j = 1, 3, ... (B^T, column-major C) with a triangular reduction k >= j
void r66_stride_j_tri_k(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int j = 1; j < N; j += 2)
    for (int i = 0; i < M; ++i) {
      float acc = 0.0f;
      for (int k = j; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
      C[j * M + i] = acc;
    }
}

// syrk-like, A read twice: k <= i masks the row operand only, not the A^T operand
void r71_syrk_kle_i(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < M && j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k <= i && k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(A[j * K + k]);
      C[i * N + j] = acc;
    }
}

// syrk-like with a triangular output j <= i and reduction k <= j (mask on the A^T operand)
void r72_syrk_tri_kle_j(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j <= i && j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k <= j && k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(A[j * K + k]);
      C[i * N + j] = acc;
    }
}

// rows i = 0, 3, 6, ... with a triangular reduction k = i + 1 .. K-1 (step 3 in a bound)
void r83_stride3_k_from_ip1(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; i += 3)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = i + 1; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// conjunction of two sizes in a loop bound: k < K && k < N
void r87_k_lt_two_sizes(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K && k < N; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// unsigned j < i - 3: for i < 3 the bound wraps and every column runs
void r56_unsigned_j_lt_im3(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < (unsigned)M; ++i)
    for (unsigned j = 0; j < i - 3 && j < (unsigned)N; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < (unsigned)K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// unsigned rows with an unsigned k loop whose bound is K - i (wraps to huge when i > K)
void r88_unsigned_k_lt_k_minus_i(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < (unsigned)M; ++i)
    for (unsigned j = 0; j < (unsigned)N; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < K - i && k < (unsigned)K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// unsigned reduction starting at i - 2: wraps (empty loop) for i < 2
void r18_unsigned_k_from_im2(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < (unsigned)M; ++i)
    for (unsigned j = 0; j < (unsigned)N; ++j) {
      float acc = 0.0f;
      for (unsigned k = i - 2; k < (unsigned)K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}


// accepted by tc-rewrite but left out of regions.cu to keep it at 40 functions

// unsigned reduction k from i - 2 with the same shape but the bound written as k + 2 >= i in a guard
void r82_unsigned_kguard_plus(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < (unsigned)M; ++i)
    for (unsigned j = 0; j < (unsigned)N; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < (unsigned)K; ++k)
        if (k + 2 >= i)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// guard written with negations and parentheses: -i >= -(j) (same as i <= j)
void r77_neg_guard(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (-i >= -(j)) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// guard i <= j around a triangular reduction k = i .. K-1
void r62_guard_and_tri_k(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (i <= j) {
        float acc = 0.0f;
        for (int k = i; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// nested ifs: i <= j, then j < N - 3
void r67_nested_ifs(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (i <= j) {
        if (j < N - 3) {
          float acc = 0.0f;
          for (int k = 0; k < K; ++k)
            acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
          C[i * N + j] = acc;
        }
      }
}

// superdiagonal == guard with an offset: j == i + 1
void r85_superdiag(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (j == i + 1) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// size-only inequality guard K >= M around the body
void r86_guard_k_ge_m(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (K >= M && i < K) {
        float acc = 0.0f;
        for (int k = 0; k <= i && k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
}

// rows i = 3, 7, 11, ... and i <= M - 2 (offset, stride 4, odd bound)
void r15_i_step4_off3(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 3; i <= M - 2; i += 4)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// unsigned triangular reduction k = i .. K-1 and unsigned step-2 rows
void r80_unsigned_stride_tri(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 1; i < (unsigned)M; i += 2)
    for (unsigned j = 0; j < (unsigned)N; ++j) {
      float acc = 0.0f;
      for (unsigned k = i; k < (unsigned)K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// 64-bit strided rows with a downward triangular reduction k = K-1 .. i
void r84_int64_stride_k_down_ge_i(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (long long i = 0; i < M; i += 2)
    for (long long j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (long long k = K - 1; k >= i; --k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}


void r12_k_step3_off1(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 1; k < K; k += 3)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void r35_k_step2_conj(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k <= i && k < K; k += 2)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void r43_big_steps(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; j += 200) {
      float acc = 0.0f;
      for (int k = 0; k < K; k += 64)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void r46_both_strided_tri(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 1; i < M; i += 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 1; k <= i && k < K; k += 2)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void x1_stride_i_k_from_i(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 2; i < M; i += 3)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = i - 2; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void x2_k_down_step2(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; k += 2)
        acc += __half2float(A[k * M + i]) * __half2float(B[j * K + k]);
      C[i * N + j] = acc;
    }
}

void x3_unsigned_bound_diff(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < (unsigned)M; ++i)
    for (unsigned j = 0; j <= (unsigned)N - 1; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < (unsigned)K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
