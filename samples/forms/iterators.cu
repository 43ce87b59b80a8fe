// Iterator and size types, bounds and increments (issue 3: "iterator and
// size types int, long, size_t, int64_t, unsigned; < and <= bounds; ++i,
// i++, i += 1"). fp16 operands, row-major. C = A * B in every function.
#include <cstddef>
#include <cstdint>
#include <cuda_fp16.h>

// long, `<` bounds, `++i`; fp16 output.
void iter_long(long M, long N, long K, const __half *__restrict__ A,
               const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (long i = 0; i < M; ++i)
    for (long j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (long k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// size_t, `i++`; fp32 output.
void iter_size_t_postinc(size_t M, size_t N, size_t K,
                         const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (size_t i = 0; i < M; i++)
    for (size_t j = 0; j < N; j++) {
      float acc = 0.0f;
      for (size_t k = 0; k < K; k++)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// int64_t, `<=` bounds, `i += 1`; fp32 output.
void iter_int64_le_pluseq(int64_t M, int64_t N, int64_t K,
                          const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int64_t i = 0; i <= M - 1; i += 1)
    for (int64_t j = 0; j <= N - 1; j += 1) {
      float acc = 0.0f;
      for (int64_t k = 0; k <= K - 1; k += 1)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// unsigned, `++i`; fp16 output.
void iter_unsigned(unsigned M, unsigned N, unsigned K,
                   const __half *__restrict__ A, const __half *__restrict__ B,
                   __half *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// unsigned, `<=` bounds, `i++` (sizes >= 1: M - 1 does not wrap).
void iter_unsigned_le(unsigned M, unsigned N, unsigned K,
                      const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i <= M - 1; i++)
    for (unsigned j = 0; j <= N - 1; j++) {
      float acc = 0.0f;
      for (unsigned k = 0; k <= K - 1; k++)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// int, `<=` bounds, mixed increments; in place C += A * B.
void iter_int_le_mixed_inplace(int M, int N, int K,
                               const __half *__restrict__ A,
                               const __half *__restrict__ B,
                               float *__restrict__ C) {
#pragma tc
  for (int i = 0; i <= M - 1; i++)
    for (int j = 0; j <= N - 1; j += 1)
      for (int k = 0; k <= K - 1; ++k)
        C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
}

// size_t iterators against int sizes, fp32 output.
void iter_size_t_int_sizes(int M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B,
                           float *__restrict__ C) {
#pragma tc
  for (size_t i = 0; i < M; ++i)
    for (size_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (size_t k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// int iterators against long sizes, fp16 output.
void iter_int_long_sizes(long M, long N, long K, const __half *__restrict__ A,
                         const __half *__restrict__ B,
                         __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
