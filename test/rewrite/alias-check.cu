// Pointers without __restrict__: the launcher tests the bytes each array's
// accesses touch (isl's bounds of its subscripts, tc/alias_check.cuh) and,
// where an output's meet another array's, runs the region as written on
// one thread (the serial kernel: isl's AST of the original order). The
// GPU test is test/gpu/regions_test.cu.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --arch=sm_80 %s -o %t.sm80.cu
// RUN: FileCheck %s --input-file=%t.sm80.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_80,code=sm_80 -c %t.sm80.cu -o %t.sm80.o %}
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN

#include <cuda_fp16.h>

// The serial kernel: the original loops (64-bit iterators), the local
// accumulator a variable of its own, no __restrict__.
// CHECK-LABEL: {{^}}__global__ void __launch_bounds__(1) tc_plain_0_serial_kernel(long long M, long long N, long long K, const __half *A, const __half *B, __half *C) {
// CHECK-NEXT:  {{^  }}float acc{};
// CHECK-NEXT:  {{^  }}for (long long [[I:c[0-9]+]] = 0; [[I]] < M; [[I]] += 1) {
// CHECK-NEXT:  {{^    }}for (long long [[J:c[0-9]+]] = 0; [[J]] < N; [[J]] += 1) {
// CHECK-NEXT:  {{^      }}acc = 0.0f;
// CHECK-NEXT:  {{^      }}for (long long [[K:c[0-9]+]] = 0; [[K]] < K; [[K]] += 1) {
// CHECK-NEXT:  {{^        }}acc = (acc + (::__half2float(A[(long long)(([[I]])) * (K) + (([[K]]))]) * ::__half2float(B[(long long)(([[K]])) * (N) + (([[J]]))])));
// CHECK:       {{^      }}C[(long long)(([[I]])) * (N) + (([[J]]))] = ::__float2half(acc);
// The entry launcher tests C against A and B after the empty-output return.
// CHECK-LABEL: {{^}}static void tc_plain_0_launch(
// CHECK:       return;  // no output element
// CHECK-NEXT:  // The arrays are not __restrict__
// CHECK:       const tc::ByteRange tc_bytes_0 = tc::accessed_bytes(A, sizeof(*A), {{[{][{]}}0, (M - 1), K}, {0, (K - 1), 1}});
// CHECK-NEXT:  const tc::ByteRange tc_bytes_1 = tc::accessed_bytes(B, sizeof(*B), {{[{][{]}}0, (K - 1), N}, {0, (N - 1), 1}});
// CHECK-NEXT:  const tc::ByteRange tc_bytes_2 = tc::accessed_bytes(C, sizeof(*C), {{[{][{]}}0, (M - 1), N}, {0, (N - 1), 1}});
// CHECK-NEXT:  if (tc::overlap(tc_bytes_2, tc_bytes_0) ||
// CHECK-NEXT:      tc::overlap(tc_bytes_2, tc_bytes_1)) {
// CHECK-NEXT:    tc_plain_0_serial_kernel<<<1, 1, 0, tc_stream>>>(M, N, K, A, B, C);
// CHECK-NEXT:    return;
// CHECK-NEXT:  }
// CHECK:       {{^}}void plain(
// CHECK:       {{^  }}tc_plain_0_launch(M, N, K, A, B, C, 0);
void plain(int M, int N, int K, const __half *A, const __half *B, __half *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// PolyBench style: the constant row lengths are in the bounds; a scalar
// and the in-place read of Y travel to the serial kernel too.
// CHECK-LABEL: {{^}}__global__ void __launch_bounds__(1) tc_rows_0_serial_kernel(long long M, float beta, const __half *X, const __half *W, float *Y) {
// CHECK:       for (long long [[J:c[0-9]+]] = 0; [[J]] <= 95; [[J]] += 1) {
// CHECK:       Y[(long long)(({{c[0-9]+}})) * (96) + (([[J]]))] = (acc + (beta * Y[
// CHECK-LABEL: {{^}}static void tc_rows_0_launch(
// CHECK:       tc::accessed_bytes(X, sizeof(*X), {{[{][{]}}0, (M - 1), 64}, {0, 63, 1}});
// CHECK:       tc::accessed_bytes(W, sizeof(*W), {{[{][{]}}0, 63, 96}, {0, 95, 1}});
// CHECK:       tc::accessed_bytes(Y, sizeof(*Y), {{[{][{]}}0, (M - 1), 96}, {0, 95, 1}});
// CHECK:       tc_rows_0_serial_kernel<<<1, 1, 0, tc_stream>>>(M, beta, X, W, Y);
// CHECK:       {{^}}void rows(
// CHECK:       {{^  }}tc_rows_0_launch(M, beta, reinterpret_cast<const __half *>(X), reinterpret_cast<const __half *>(W), reinterpret_cast<float *>(Y), 0);
constexpr int kDepth = 64, kCols = 96;
void rows(int M, float beta, const __half (*X)[kDepth], const __half (*W)[kCols],
          float (*Y)[kCols]) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < kCols; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < kDepth; ++k)
        acc += __half2float(X[i][k]) * __half2float(W[k][j]);
      Y[i][j] = acc + beta * Y[i][j];
    }
}

// Leading dimensions bound the bytes; a bias array is tested as well.
// CHECK-LABEL: {{^}}static void tc_strided_0_launch(
// CHECK:       tc_bytes_0 = tc::accessed_bytes(A, sizeof(*A), {{[{][{]}}0, (M - 1), lda}, {0, (K - 1), 1}});
// CHECK-NEXT:  tc_bytes_1 = tc::accessed_bytes(C, sizeof(*C), {{[{][{]}}0, (M - 1), ldc}, {0, (N - 1), 1}});
// CHECK-NEXT:  tc_bytes_2 = tc::accessed_bytes(bias, sizeof(*bias), {{[{][{]}}0, (N - 1), 1}});
// CHECK-NEXT:  if (tc::overlap(tc_bytes_1, tc_bytes_0) ||
// CHECK-NEXT:      tc::overlap(tc_bytes_1, tc_bytes_2)) {
void strided(int M, int N, int K, const __half *A, int lda, const __half *__restrict__ B,
             int ldb, const float *bias, float *C, int ldc) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * lda + k]) * __half2float(B[k * ldb + j]);
      C[i * ldc + j] = acc + bias[j];
    }
}

// A __restrict__ output is known apart from every other array: no test.
// CHECK-LABEL: {{^}}static void tc_restricted_0_launch(
// CHECK-NOT:   tc::overlap
// CHECK:       {{^}}void restricted(
void restricted(int M, int N, int K, const __half *A, const __half *B, __half *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = __float2half(acc);
    }
}

// A pointer based on a __restrict__ parameter (a local bound to it plus an
// offset, a reference to it) may overlap it, as C allows: tested.
// CHECK-LABEL: {{^}}static void tc_based_on_restrict_0_launch(
// CHECK:       {{^      }}tc::overlap(tc_bytes_2, tc_bytes_3)) {
// CHECK:       {{^}}void based_on_restrict(
void based_on_restrict(int M, int N, int K, const __half *__restrict__ A,
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
// CHECK-LABEL: {{^}}static void tc_restrict_reference_0_launch(
// CHECK:       {{^      }}tc::overlap(tc_bytes_2, tc_bytes_3)) {
void restrict_reference(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ buf) {
  float *__restrict__ const &C = buf;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[(i + 1) * N + j] = acc + buf[i * N + j];
    }
}
// A parameter the function sets to a pointer based on a __restrict__ one.
// CHECK-LABEL: {{^}}static void tc_reassigned_parameter_0_launch(
// CHECK:       {{^  }}if (tc::overlap(tc_bytes_1, tc_bytes_0)) {
void reassigned_parameter(int M, int N, int K, __half *__restrict__ buf, const __half *A,
                          const __half *B) {
  A = buf + 16;
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      buf[i * N + j] = __float2half(acc);
    }
}

// EXPLAIN-LABEL: region tc_plain_0 at
// EXPLAIN:       alias check (no __restrict__): where these overlap, tc_plain_0_serial_kernel runs the region as written on one thread
// EXPLAIN-NEXT:    C and A
// EXPLAIN-NEXT:    C and B
// EXPLAIN-NEXT:    A accessed in {min, max, stride} {0, (M - 1), K}, {0, (K - 1), 1}
// EXPLAIN-LABEL: region tc_strided_0 at
// EXPLAIN:       alias check
// EXPLAIN-NEXT:    C and A
// EXPLAIN-NEXT:    C and bias
// EXPLAIN-LABEL: region tc_restricted_0 at
// EXPLAIN-NOT:   alias check
// EXPLAIN-LABEL: region tc_based_on_restrict_0 at
// EXPLAIN:       alias check
// EXPLAIN:         C and buf
