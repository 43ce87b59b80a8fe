// Spellings of the user's names (the hygiene issue): the canonical GEMM with
// parameters, arrays, iterators and scalars named as the generator, isl and
// the runtime name their own things, and user macros of those names. Each
// function computes what its loops say, whatever the names: C = A * B
// (fp16 operands, row-major) unless its comment says otherwise.
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// The reduction size named `k` (the schedule's tuple variable), iterator kk.
void names_size_k(int M, int N, int k, const __half *__restrict__ A,
                  const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int kk = 0; kk < k; ++kk)
        acc += __half2float(A[i * k + kk]) * __half2float(B[kk * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// Y = X * W^T in bf16 (W stored N x K), fp32 out; long sizes M, N, k and
// `<=` bounds.
void names_xwt_long_k(long M, long N, long k, const __nv_bfloat16 *__restrict__ X,
                      const __nv_bfloat16 *__restrict__ W, float *__restrict__ Y) {
#pragma tc
  for (long r = 0; r <= M - 1; ++r)
    for (long c = 0; c <= N - 1; ++c) {
      float sum = 0.0f;
      for (long p = 0; p <= k - 1; ++p)
        sum += __bfloat162float(X[r * k + p]) * __bfloat162float(W[c * k + p]);
      Y[r * N + c] = sum;
    }
}

// All three sizes lower case, as the schedule's tuple names them (m, n, k),
// and the iterators named as isl's loop iterators (c0, c1, c2).
void names_sizes_mnk(int m, int n, int k, const __half *__restrict__ A,
                     const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int c0 = 0; c0 < m; ++c0)
    for (int c1 = 0; c1 < n; ++c1) {
      float acc = 0.0f;
      for (int c2 = 0; c2 < k; ++c2)
        acc += __half2float(A[c0 * k + c2]) * __half2float(B[c2 * n + c1]);
      C[c0 * n + c1] = acc;
    }
}

// Sizes named as the kernel's own parameters, iterators as isl keywords.
void names_generator_sizes(int tc_k_begin, int tc_k_end, int tc_splits,
                           const __half *__restrict__ A,
                           const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int min = 0; min < tc_k_begin; ++min)
    for (int max = 0; max < tc_k_end; ++max) {
      float acc = 0.0f;
      for (int mod = 0; mod < tc_splits; ++mod)
        acc += __half2float(A[min * tc_splits + mod]) *
               __half2float(B[mod * tc_k_end + max]);
      C[min * tc_k_end + max] = __float2half(acc);
    }
}

// Arrays named as the kernel's shared memory, accumulators and stages; sizes
// as the launcher's grid, stream and threads; the accumulator as the
// epilogue's value; iterators as the schedule's t, r and bm.
void names_generator_arrays(int tc_grid, int tc_stream, int tc_thread,
                            const __half *__restrict__ tc_smem,
                            const __half *__restrict__ tc_stage,
                            float *__restrict__ tc_acc) {
#pragma tc
  for (int t = 0; t < tc_grid; ++t)
    for (int r = 0; r < tc_stream; ++r) {
      float tc_value = 0.0f;
      for (int bm = 0; bm < tc_thread; ++bm)
        tc_value += __half2float(tc_smem[t * tc_thread + bm]) *
                    __half2float(tc_stage[bm * tc_stream + r]);
      tc_acc[t * tc_stream + r] = tc_value;
    }
}

// C = alpha * A * B + beta * C with the scalars named as generated locals and
// isl's words (floord, exists, infty as sizes).
void names_scalars(int floord, int exists, int infty, float tc_value, float c0,
                   const __half *__restrict__ A, const __half *__restrict__ B,
                   float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < floord; ++i)
    for (int j = 0; j < exists; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < infty; ++k)
        acc += __half2float(A[i * infty + k]) * __half2float(B[k * exists + j]);
      C[i * exists + j] = tc_value * acc + c0 * C[i * exists + j];
    }
}

// Macros of the names the generated code uses: a function-like `min` (the
// runtime's tc::min), an object-like `tc_value` and `stage`, defined where
// the kernels are inserted.
#define min(a, b) ((a) < (b) ? (a) : (b)) + broken
#define tc_value broken
#define stage broken
void names_macros(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}
#undef min
#undef tc_value
#undef stage

// A file-scope name that the first launcher of this function would take.
static int tc_names_file_scope_0_launch_calls = 0;
void names_file_scope(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
  ++tc_names_file_scope_0_launch_calls;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
