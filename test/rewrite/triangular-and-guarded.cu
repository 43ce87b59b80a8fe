// Triangular and guarded nests (model/DomainBox.h, model/OperandMasks.h):
// loops bounded by another loop (`k = i`, `j <= i`), conjunctions in a loop
// condition (`k <= i && k < K`) and `if`s around statements run as the box
// of the loops. A guard of k and the row masks A, one of k and the column
// masks B (the elements the loops read, isl's projection of the domain:
// the copier loads no other and stores zeros in their place); a guard of the
// row and column is the output's (the epilogue stores inside it only). The
// kernels' k loops and grids come from the guarded domain (isl), so tiles
// outside it are skipped. --explain shows the masks. The refused forms are
// in test/diagnostics/guards.cu; the GPU check is test/gpu/regions/domains.cu.
//
// RUN: %tc-rewrite --arch=sm_90a %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_90a --explain %s 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -ptx -Xcicc -O0 %t.cu -o %t.ptx %}
// On sm_80 a masked operand is the mma.sync components' converted tile,
// whose functor says it is masked (clang's host pass cannot call its
// __device__ operator() to find out): the output parses, and a second
// rewrite leaves it as it is.
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --input-file=%t.sm80.cu --check-prefix=SM80
// RUN: %tc-rewrite --arch=sm_80 %t.sm80.cu -o %t.sm80.again.cu
// RUN: cmp %t.sm80.cu %t.sm80.again.cu
// SM80-LABEL: {{^}}struct tc_domains_trmm_0_operand_a {
// SM80:       {{^}}  static constexpr bool kMasked = true;
// SM80-NEXT:  {{^}}  __device__ bool needs(long long tc_row, long long tc_k) const {
// SM80:       {{^}}  __device__ float operator()(float tc_x, long long tc_row, long long tc_k) const {
// SM80-NEXT:  {{^}}    return needs(tc_row, tc_k) ? static_cast<float>(tc_x) : 0.0f;
// SM80:       tc::sm80::ConvertedOperandTile<__half, __half, 128, tc::sm80::Major::K, tc_domains_trmm_0_operand_a>,  // A

#include <cuda_fp16.h>

// TRMM: A upper triangular (k from i), C = A * B.
// CHECK-LABEL: region of 'domains_trmm'
// CHECK:       const auto tc_needs_a = [&](long long tc_row, long long tc_k) -> bool {
// CHECK-NEXT:    return -(tc_row) + (tc_k) >= 0;
// CHECK:       tc_copy_a.{{issue|land}}({{.*}}, tc_convert_a, tc_needs_a);
// EXPLAIN-LABEL: region tc_domains_trmm_0
// EXPLAIN:       domain: [N, P] -> { S1[i, j, k] : {{.*}}i <= k < N }
// EXPLAIN:       A = A (row-major, leading dimension N, masked to -i + k >= 0 while copying), B = B (row-major, leading dimension P)
void domains_trmm(int N, int P, const __half *__restrict__ A, const __half *__restrict__ B,
                  float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < P; ++j) {
      float acc = 0.0f;
      for (int k = i; k < N; ++k)
        acc += __half2float(A[i * N + k]) * __half2float(B[k * P + j]);
      C[i * P + j] = acc;
    }
}

// SYRK: the lower triangle of C = A * A^T; the upper one is left as it was.
// CHECK-LABEL: region of 'domains_syrk'
// CHECK:       if ((tc_m) - (tc_n) >= 0) {
// CHECK-NEXT:    float tc_value = tc_sum;
// EXPLAIN-LABEL: region tc_domains_syrk_0
// EXPLAIN:       output elements stored where i - j >= 0
void domains_syrk(int N, int K, const __half *__restrict__ A, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(A[j * K + k]);
      C[i * N + j] = acc;
    }
}

// SYRK into C with its own leading dimension: the column j runs to i, so
// rows of C overlap where ldc < N (the later row's stores win); the
// launcher runs the loops as written there.
// CHECK-LABEL: static void tc_domains_syrk_ldc_0_launch(
// CHECK:       if (!((ldc >= N))) {
// CHECK-NEXT:    tc_domains_syrk_ldc_0_serial_kernel<<<1, 1, 0, tc_stream>>>(N, K, ldc, A, C);
// CHECK-NEXT:    return;
// EXPLAIN-LABEL: region tc_domains_syrk_ldc_0
// EXPLAIN:       sizes where rows of a written array overlap: !((ldc >= N)) runs tc_domains_syrk_ldc_0_serial_kernel
void domains_syrk_ldc(int N, int K, int ldc, const __half *__restrict__ A,
                      float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(A[j * K + k]);
      C[i * ldc + j] = acc;
    }
}

// A guard around the body: the upper triangle (and diagonal) of a product
// with a bias, stored as __half.
// Rows i >= N hold no output element: A's mask keeps them unread.
// CHECK-LABEL: region of 'domains_guarded'
// CHECK:       return N - (tc_row) - 1 >= 0;
// CHECK:       if (-(tc_m) + (tc_n) >= 0) {
// EXPLAIN-LABEL: region tc_domains_guarded_0
// EXPLAIN:       A = A (row-major, leading dimension K, masked to N - i - 1 >= 0 while copying)
// EXPLAIN:       output elements stored where -i + j >= 0
void domains_guarded(int M, int N, int K, const __half *__restrict__ A,
                     const __half *__restrict__ B, const float *__restrict__ bias,
                     __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      if (i <= j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = __float2half(acc + bias[j]);
      }
}

// A conjunction in the loop condition (A lower trapezoidal); for M < K the
// box would read A beyond its last row's elements: the region runs as
// written there.
// EXPLAIN-LABEL: region tc_domains_conjunction_0
// EXPLAIN:       A = A (row-major, leading dimension K, masked to i - k >= 0 while copying), B = B (row-major, leading dimension N, masked to M - k - 1 >= 0 while copying)
void domains_conjunction(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k <= i && k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A guard inside the reduction on k and the column (B's mask), B stored
// N x K, accumulated in place into C.
// EXPLAIN-LABEL: region tc_domains_mask_b_0
// EXPLAIN:       A = A (row-major, leading dimension K, masked to N - k + 6 >= 0 while copying), B = B (column-major, leading dimension K, masked to j - k + 7 >= 0 while copying)
void domains_mask_b(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        if (k < j + 8)
          C[i * N + j] += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);
}
