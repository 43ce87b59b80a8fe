// A region in a template: generated once per instantiation in the file, on
// the instantiated body, and the launchers of the instantiations overload
// one name, which the rewritten template calls (rewrite/TemplateRegions.h).
// Function templates (instantiated explicitly or by a call) and member
// functions of class templates. The refused forms are in
// test/diagnostics/templates.cu; the GPU check is test/gpu/regions/templates.cu.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// One launcher per instantiation, in the order the file instantiates them,
// all before the template (and its `template <class T>` line).
// CHECK:       {{^}}static void tc_gemm_t_0_launch(long long M, long long N, long long K, const __half *A, const __half *B, float *C, ::cudaStream_t tc_stream) {
// CHECK:       {{^}}static void tc_gemm_t_0_launch(long long M, long long N, long long K, const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, ::cudaStream_t tc_stream) {
// CHECK:       {{^}}template <class T>
// CHECK-NEXT:  {{^}}void gemm_t(
// CHECK:       {{^}}  // '#pragma tc' region computed by tc_gemm_t_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^}}  tc_gemm_t_0_launch(M, N, K, A, B, C, 0);
// EXPLAIN:     region tc_gemm_t_0_0 at templates.cu:{{[0-9]+}}
// EXPLAIN:       A = A (row-major, leading dimension K), B = B (row-major, leading dimension N), inputs __half
// EXPLAIN:     region tc_gemm_t_0_1 at templates.cu:{{[0-9]+}}
// EXPLAIN:       inputs __nv_bfloat16
template <class T>
void gemm_t(int M, int N, int K, const T *__restrict__ A, const T *__restrict__ B,
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
template void gemm_t<__half>(int, int, int, const __half *, const __half *, float *);
void use(int M, int N, int K, const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C) {
  gemm_t(M, N, K, A, B, C);
}

// A member function of a class template, defined outside the class: the
// sizes are the object's members (`this->M` in the call).
// CHECK:       {{^}}static void tc_forward_0_launch(long long M, long long N, long long K, const __half *X, const __half *W, __half *Y, ::cudaStream_t tc_stream) {
// CHECK:       {{^}}static void tc_forward_0_launch(long long M, long long N, long long K, const __nv_bfloat16 *X, const __nv_bfloat16 *W, __nv_bfloat16 *Y, ::cudaStream_t tc_stream) {
// CHECK:       {{^}}void Layer<T>::forward(
// CHECK:       {{^}}  // '#pragma tc' region computed by tc_forward_0_launch (tc-rewrite)
// CHECK-NEXT:  {{^}}  tc_forward_0_launch(this->M, this->N, this->K, X, W, Y, 0);
template <class T>
struct Layer {
  int M, N, K;
  void forward(const T *__restrict__ X, const T *__restrict__ W, T *__restrict__ Y) const;
};
template <class T>
void Layer<T>::forward(const T *__restrict__ X, const T *__restrict__ W,
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
template struct Layer<__half>;
template struct Layer<__nv_bfloat16>;
