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
