// Regions in templates (test/gpu/regions_test.cu): a function template
// instantiated for __half and __nv_bfloat16, a member function of a class
// template, and a template over an int that scales the result.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

template <class T>
void templ_gemm(int M, int N, int K, const T *__restrict__ A, const T *__restrict__ B,
                float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += float(A[i * K + k]) * float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
template void templ_gemm<__half>(int, int, int, const __half *, const __half *, float *);
template void templ_gemm<__nv_bfloat16>(int, int, int, const __nv_bfloat16 *,
                                        const __nv_bfloat16 *, float *);

template <class T>
struct TemplLayer {
  int M, N, K;
  void apply(const T *__restrict__ X, const T *__restrict__ W, T *__restrict__ Y) const;
};
template <class T>
void TemplLayer<T>::apply(const T *__restrict__ X, const T *__restrict__ W,
                            T *__restrict__ Y) const {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += float(X[i * K + k]) * float(W[j * K + k]);
      Y[i * N + j] = T(acc);
    }
}
template struct TemplLayer<__half>;
template struct TemplLayer<__nv_bfloat16>;

template <int Scale>
void templ_scaled(int M, int N, int K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += float(A[i * K + k]) * float(B[k * N + j]);
      C[i * N + j] = Scale * acc;
    }
}
template void templ_scaled<3>(int, int, int, const __half *, const __half *, float *);
