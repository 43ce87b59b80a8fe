// Element reads and result stores (issue 3: "element reads through
// __half2float, __bfloat162float, (float), static_cast<float>, implicit
// conversion; stores through __float2half, __float2bfloat16, casts").
// Row-major; C = A * B in every function, only the spelling differs.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// (float) casts on fp16 reads, __float2half_rn store.
void conv_c_cast_f16(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (float)A[i * K + k] * (float)B[k * N + j];
      C[i * N + j] = __float2half_rn(acc);
    }
}

// static_cast<float> on fp16 reads, static_cast<__half> store.
void conv_static_cast_f16(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B,
                          __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += static_cast<float>(A[i * K + k]) *
               static_cast<float>(B[k * N + j]);
      C[i * N + j] = static_cast<__half>(acc);
    }
}

// float(...) functional casts, C-style (__half) store.
void conv_functional_cast_f16(int M, int N, int K,
                              const __half *__restrict__ A,
                              const __half *__restrict__ B,
                              __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += float(A[i * K + k]) * float(B[k * N + j]);
      C[i * N + j] = (__half)acc;
    }
}

// __half2float reads, implicit float -> __half store.
void conv_implicit_store_f16(int M, int N, int K, const __half *__restrict__ A,
                             const __half *__restrict__ B,
                             __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// __bfloat162float reads, __float2bfloat16 store.
void conv_bf16_intrinsics(int M, int N, int K,
                          const __nv_bfloat16 *__restrict__ A,
                          const __nv_bfloat16 *__restrict__ B,
                          __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
      C[i * N + j] = __float2bfloat16(acc);
    }
}

// static_cast<float> on bf16 reads, __float2bfloat16_rn store.
void conv_bf16_static_cast(int M, int N, int K,
                           const __nv_bfloat16 *__restrict__ A,
                           const __nv_bfloat16 *__restrict__ B,
                           __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += static_cast<float>(A[i * K + k]) *
               static_cast<float>(B[k * N + j]);
      C[i * N + j] = __float2bfloat16_rn(acc);
    }
}

// (float) casts on bf16 reads, static_cast<__nv_bfloat16> store.
void conv_bf16_c_cast(int M, int N, int K, const __nv_bfloat16 *__restrict__ A,
                      const __nv_bfloat16 *__restrict__ B,
                      __nv_bfloat16 *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += (float)A[i * K + k] * (float)B[k * N + j];
      C[i * N + j] = static_cast<__nv_bfloat16>(acc);
    }
}

// Mixed spellings in one product, (float) store into fp32.
void conv_mixed_f32(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * static_cast<float>(B[k * N + j]);
      C[i * N + j] = (float)acc;
    }
}
