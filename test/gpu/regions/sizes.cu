// Sizes written the ways C++ code holds them (test/gpu/regions_test.cu):
// struct members by value and through a pointer, a method's own members,
// enumerators, constant expressions and const references. The driver runs
// each rewritten function on the GPU and as written on the host.
#include <cuda_fp16.h>

struct Dims {
  int m, n, k;
};
struct Problem {
  Dims dims;
  long long ldc;
};

void sizes_by_value(Dims d, const __half *__restrict__ A, const __half *__restrict__ B,
                    __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < d.m; ++i)
    for (int j = 0; j < d.n; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < d.k; ++k)
        acc += __half2float(A[i * d.k + k]) * __half2float(B[k * d.n + j]);
      C[i * d.n + j] = __float2half(acc);
    }
}

// B stored N x K; the output's pitch from the struct.
void sizes_nested(const Problem *p, const __half *__restrict__ A, const __half *__restrict__ B,
                  float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < p->dims.m; ++i)
    for (int j = 0; j < p->dims.n; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < p->dims.k; ++k)
        acc += __half2float(A[i * p->dims.k + k]) * __half2float(B[j * p->dims.k + k]);
      C[i * p->ldc + j] = acc;
    }
}

struct SizesLayer {
  int M, N, K;
  const __half *W;  // N x K
  void forward(const __half *__restrict__ X, __half *__restrict__ Y) const;
};

void SizesLayer::forward(const __half *__restrict__ X, __half *__restrict__ Y) const {
  const __half *__restrict__ Wr = W;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < this->N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(X[i * K + k]) * __half2float(Wr[j * K + k]);
      Y[i * N + j] = __float2half(acc);
    }
}

enum { kSizesCols = 136, kSizesDepth = 40 };
enum class SizesTile : long { Rows = 72 };
constexpr int sizes_twice(int x) { return 2 * x; }

void sizes_by_enumerator(const __half *__restrict__ A, const __half *__restrict__ B,
                         float *__restrict__ C, int M, int K) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < kSizesCols; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * kSizesCols + j]);
      C[i * kSizesCols + j] = acc;
    }
}

void sizes_by_constant_expressions(const __half *__restrict__ A, const __half *__restrict__ B,
                                   float *__restrict__ C, int N) {
#pragma tc
  for (int i = 0; i < static_cast<long>(SizesTile::Rows); ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < sizes_twice(kSizesDepth / 2); ++k)
        acc += __half2float(A[i * kSizesDepth + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void sizes_by_const_reference(const __half *__restrict__ A, const __half *__restrict__ B,
                              float *__restrict__ C, const int &M, const int &N, const long &K) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Every size a constant: the kernels have no size parameter (until session
// 71 the mapping's isl text "[, tc_block_m, ...]" refused these on the
// mma.sync path and, for the text kernels, on sm_90a too). A triangular
// product, an operand prologue and a sum of two products.
void sizes_constant_triangular(const __half *__restrict__ A, const __half *__restrict__ B,
                               float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < 200; ++i)
    for (int j = 0; j < 136; ++j) {
      float acc = 0.0f;
      for (int k = 0; k <= i; ++k)
        acc += __half2float(A[i * 200 + k]) * __half2float(B[k * 136 + j]);
      C[i * 136 + j] = acc;
    }
}

void sizes_constant_prologue(const __half *__restrict__ A, const __half *__restrict__ B,
                             float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < 130; ++i)
    for (int j = 0; j < 72; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 88; ++k)
        acc += fmaxf(__half2float(A[i * 88 + k]), 0.0f) * __half2float(B[k * 72 + j]);
      C[i * 72 + j] = acc;
    }
}

void sizes_constant_sum(const __half *__restrict__ A, const __half *__restrict__ B,
                        const __half *__restrict__ P, const __half *__restrict__ Q,
                        float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < 96; ++i)
    for (int j = 0; j < 136; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 40; ++k)
        acc += __half2float(A[i * 40 + k]) * __half2float(B[k * 136 + j]);
      for (int k = 0; k < 24; ++k)
        acc += __half2float(P[i * 24 + k]) * __half2float(Q[k * 136 + j]);
      C[i * 136 + j] = acc;
    }
}

// Sizes the source converts: the launch passes static_cast<int>(M), and
// both n and static_cast<int>(n) where the region reads both.
void sizes_converted(unsigned M, size_t n, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < (int)M; ++i)
    for (int j = 0; j < static_cast<int>(n); ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * n + j]);
      C[i * n + j] = acc;
    }
}

// Arrays and sizes through a parameter struct's members, which the launch
// passes as written (not __restrict__: the overlap test runs first).
struct SizesGemmArgs {
  const __half *A, *B;
  float *C;
  int M, N, K;
};

void sizes_member_arrays(const SizesGemmArgs &p) {
#pragma tc
  for (int i = 0; i < p.M; ++i)
    for (int j = 0; j < p.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < p.K; ++k)
        acc += __half2float(p.A[i * p.K + k]) * __half2float(p.B[k * p.N + j]);
      p.C[i * p.N + j] = acc;
    }
}

// An output stored mirrored along its rows: column N - 1 - j of row i
// (delinearised into its row, not as row i + 1 and column -1 - j).
void sizes_mirrored_columns(int M, int N, int K, const __half *__restrict__ A,
                            const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + (N - 1 - j)] = acc;
    }
}

// An output based on a __restrict__ parameter, one row further: each row
// adds the row above as the loops left it (a running sum), which C allows
// (C is based on buf). The overlap test finds it; the serial kernel runs.
void sizes_based_on_restrict(int M, int N, int K, const __half *__restrict__ A,
                             const __half *__restrict__ B, float *__restrict__ buf) {
  float *C = buf + N;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc + buf[i * N + j];
    }
}
