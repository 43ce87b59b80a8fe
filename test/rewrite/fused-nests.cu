// Products in separate loop nests whose results are only added in a later
// nest (`C = A·B`, `R = P·Q` into temp(C, R), then `Z = C + R`) are the sum
// of matmuls of the one-nest spelling (Inputs/fused-nests-one-nest.cu): the
// isl model is fused (model/NestFusion.h) and the kernels are the same,
// byte for byte, apart from the file name in their comments. The scratch
// arrays never reach memory.
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: %tc-rewrite %S/Inputs/fused-nests-one-nest.cu -o %t.one.cu
// RUN: sed -e 's/fused-nests-one-nest\.cu/F.cu/; s/fused-nests\.cu/F.cu/' %t.cu | sed -n '/^\/\/ F.cu:[0-9]*: .#pragma tc. region of .arrays./,/^void arrays/p' > %t.kernels
// RUN: sed -e 's/fused-nests-one-nest\.cu/F.cu/; s/fused-nests\.cu/F.cu/' %t.one.cu | sed -n '/^\/\/ F.cu:[0-9]*: .#pragma tc. region of .arrays./,/^void arrays/p' > %t.one.kernels
// RUN: sed -i -e 's/F.cu:[0-9]*/F.cu/' %t.kernels %t.one.kernels
// RUN: diff %t.kernels %t.one.kernels
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^}}#pragma tc'
// RUN: %tc-rewrite --explain %s | FileCheck %s --check-prefix=EXPLAIN
// No kernel of the fused regions reads or writes the scratch arrays C, R
// and S; only the serial kernels (the region as written, for overlapping
// arrays) do:
// RUN: sed -e '/_serial_kernel(/,/^}/d' %t.cu | grep -v '^ *//' | not grep -n '[^_A-Za-z0-9][CRS]\['
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cuda_fp16.h>

// Scratch arrays accumulated in place.
void arrays(int M, int N, int K1, int K2, const __half *__restrict__ A,
            const __half *__restrict__ B, const __half *__restrict__ P,
            const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
            float *__restrict__ Z) {
#pragma tc temp(C, R)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[i * N + j] = 0.0f;
        for (int k = 0; k < K1; ++k)
          C[i * N + j] += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        R[i * N + j] = 0.0f;
        for (int k = 0; k < K2; ++k)
          R[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
  }
}
// CHECK-LABEL: void arrays(
// CHECK: {{^ *}}tc_arrays_0_launch(M, N, K1, K2, C, A, B, P, Q, Z, 0);
// EXPLAIN-LABEL: {{^}}region tc_arrays_0 at
// EXPLAIN:      {{^}}  fusion into one accumulator: C for the products of C + R
// EXPLAIN-NEXT: {{^}}    S3 joins S1's output loops (i_1 -> i, j_1 -> j) and accumulates into C
// EXPLAIN-NEXT: {{^}}    dropped S2 (R = 0)
// EXPLAIN-NEXT: {{^}}    S4 reads the sum C + R as C
// EXPLAIN-NEXT: {{^}}    order: the fused schedule keeps all 4 dependence relations of the region but those of the merged arrays
// EXPLAIN-NEXT: {{^}}  the fused model:
// EXPLAIN:      {{^}}  S3: add(R2, mul(__half2float(R0), __half2float(R1)))
// EXPLAIN-NEXT: {{^}}    domain: [M, N, K1, K2] -> { S3[i, j, k_1] : {{.*}} }
// EXPLAIN-NEXT: {{^}}    write:  [M, N, K1, K2] -> { S3[i, j, k_1] -> C[i, j] : {{.*}} }
// EXPLAIN:      {{^}}  S4: R0
// EXPLAIN:      {{^}}  matmul over (i, j) reducing k: M = M, N = N, K = K1
// EXPLAIN:      {{^}}    plus P * Q reducing k_1: K = K2 (S3, k tiles after the previous product's)

// Locals of the same name in each nest, copied to scratch arrays; the sum
// is one term of the epilogue's: `(C + R) + bias`.
void locals(int M, int N, int K1, int K2, const __half *__restrict__ A,
            const __half *__restrict__ B, const __half *__restrict__ P,
            const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
            __half *__restrict__ Z, const float *__restrict__ bias) {
#pragma tc temp(C, R)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K1; ++k)
          acc += __half2float(A[i * K1 + k]) * __half2float(B[j * K1 + k]);
        C[i * N + j] = acc;
      }
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < N; ++c) {
        float acc = 0.0f;
        for (int k = 0; k < K2; ++k)
          acc += __half2float(P[r * K2 + k]) * __half2float(Q[c * K2 + k]);
        R[r * N + c] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = __float2half(fmaxf(C[i * N + j] + R[i * N + j] + bias[j], 0.0f));
  }
}
// The sum is the accumulator, which the copy to C (S2) names:
// CHECK-LABEL: {{^}}struct tc_locals_0_epilogue {
// CHECK: {{^ *}}const float tc_temp_[[S:S[0-9]+]] = tc_value;
// CHECK: = ::__float2half(::fmaxf((tc_temp_[[S]] + tc::read_only(bias[((tc_n))])), 0.0f));
// CHECK-LABEL: void locals(
// CHECK: {{^ *}}tc_locals_0_launch(M, N, K1, K2, A, B, C, P, Q, Z, bias, 0);
// EXPLAIN-LABEL: {{^}}region tc_locals_0 at
// EXPLAIN:      {{^}}  array acc_1: float (scalar accumulator, expanded over its loops)
// EXPLAIN:      {{^}}  fusion into one accumulator: acc for the products of C + R
// EXPLAIN-NEXT: {{^}}    S4 joins S1's output loops (r -> i, c -> j) and accumulates into acc
// EXPLAIN-NEXT: {{^}}    dropped S3 (acc_1 = 0)
// EXPLAIN-NEXT: {{^}}    dropped S5 (R = acc_1)
// EXPLAIN-NEXT: {{^}}    S6 reads the sum C + R as C

// Three products, the first initialised in a nest of its own, the last
// added in its own nest; the arrays are not __restrict__, so the launcher
// tests them for overlap and runs the region as written where they meet.
void three(int M, int N, int K1, int K2, int K3, const __half *A, const __half *B,
           const __half *P, const __half *Q, const __half *U, const __half *V,
           float *C, float *R, float *S, float *Z) {
#pragma tc temp(C, R, S)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        C[i * N + j] = 0.0f;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < K1; ++k)
          C[i * N + j] += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        R[i * N + j] = 0.0f;
        for (int k = 0; k < K2; ++k)
          R[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        S[i * N + j] = 0.0f;
        for (int k = 0; k < K3; ++k)
          S[i * N + j] += __half2float(U[i * K3 + k]) * __half2float(V[k * N + j]);
        Z[i * N + j] = (C[i * N + j] + S[i * N + j]) + R[i * N + j];
      }
  }
}
// The serial kernel writes the scratch arrays, as the source does.
// CHECK-LABEL: {{^}}__global__ void __launch_bounds__(1) tc_three_0_serial_kernel(
// CHECK: {{^ *}}R[(long long)((c1)) * (N) + ((c3))] = 0.0f;
// CHECK: {{^ *}}Z[(long long)((c1)) * (N) + ((c3))] = ((C[(long long)((c1)) * (N) + ((c3))] + S[(long long)((c1)) * (N) + ((c3))]) + R[(long long)((c1)) * (N) + ((c3))]);
// CHECK-LABEL: void three(
// CHECK: {{^ *}}tc_three_0_launch(M, N, K1, K2, K3, C, A, B, R, P, Q, S, U, V, Z, 0);
// EXPLAIN-LABEL: {{^}}region tc_three_0 at
// EXPLAIN:      {{^}}  fusion into one accumulator: C for the products of C + R + S
// EXPLAIN-NEXT: {{^}}    S3 joins S1's output loops (i_2 -> i_1, j_2 -> j_1) and accumulates into C
// EXPLAIN-NEXT: {{^}}    S5 joins S1's output loops (i_3 -> i_1, j_3 -> j_1) and accumulates into C
// EXPLAIN:      {{^}}  alias check (no __restrict__): where these overlap, tc_three_0_serial_kernel runs the region as written on one thread

// Two locals in one nest, added in the statement that stores: the same
// fusion, in place.
void two_locals(int M, int N, int K1, int K2, const __half *__restrict__ A1,
                const __half *__restrict__ B1, const __half *__restrict__ A2,
                const __half *__restrict__ B2, float *__restrict__ Y) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc1 = 0.0f;
      float acc2 = 0.0f;
      for (int k = 0; k < K1; ++k)
        acc1 += __half2float(A1[i * K1 + k]) * __half2float(B1[j * K1 + k]);
      for (int k = 0; k < K2; ++k)
        acc2 += __half2float(A2[i * K2 + k]) * __half2float(B2[j * K2 + k]);
      Y[i * N + j] = acc1 + acc2;
    }
}
// CHECK-LABEL: void two_locals(
// CHECK: {{^ *}}tc_two_locals_0_launch(M, N, K1, K2, A1, B1, A2, B2, Y, 0);
// EXPLAIN-LABEL: {{^}}region tc_two_locals_0 at
// EXPLAIN:      {{^}}  fusion into one accumulator: acc1 for the products of acc1 + acc2
// EXPLAIN-NEXT: {{^}}    S3 (in S2's output loops) and accumulates into acc1
// EXPLAIN-NEXT: {{^}}    dropped S1 (acc2 = 0)
// EXPLAIN-NEXT: {{^}}    S4 reads the sum acc1 + acc2 as acc1

// Leading dimensions: the launcher checks the source's row assumptions,
// R's (ldr >= N) too, though the fused kernel does not access R.
void leading_dimensions(int M, int N, int K1, int K2, int ldc, int ldr, const __half *__restrict__ A,
       const __half *__restrict__ B, const __half *__restrict__ P,
       const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
       float *__restrict__ Z) {
#pragma tc temp(C, R)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[i * ldc + j] = 0.0f;
        for (int k = 0; k < K1; ++k)
          C[i * ldc + j] += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        R[i * ldr + j] = 0.0f;
        for (int k = 0; k < K2; ++k)
          R[i * ldr + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * ldc + j] + R[i * ldr + j];
  }
}
// CHECK-LABEL: static void tc_leading_dimensions_0_launch(
// CHECK:      if (!(((((M >= 1) && (ldc >= N)) && (ldr >= N)) || (M == 0)))) {
// CHECK-NEXT:   tc_leading_dimensions_0_serial_kernel<<<1, 1, 0, tc_stream>>>(M, N, ldc, K1, ldr, K2, C, A, B, R, P, Q, Z);
// CHECK-NEXT:   return;

// Column-major scratch arrays: each copy stores the product transposed,
// the same way, and the sum reads them alike.
void column_major(int M, int N, int K1, int K2, const __half *__restrict__ A,
              const __half *__restrict__ B, const __half *__restrict__ P,
              const __half *__restrict__ Q, float *__restrict__ T1, float *__restrict__ T2,
              float *__restrict__ Z) {
#pragma tc temp(T1, T2)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K1; ++k)
          acc += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
        T1[j * M + i] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K2; ++k)
          acc += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
        T2[j * M + i] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[j * M + i] = T1[j * M + i] + T2[j * M + i];
  }
}
// CHECK-LABEL: void column_major(
// CHECK: {{^ *}}tc_column_major_0_launch(M, N, K1, K2, A, B, T1, P, Q, Z, 0);
// EXPLAIN-LABEL: {{^}}region tc_column_major_0 at
// EXPLAIN:      {{^}}  fusion into one accumulator: acc for the products of T1 + T2
// EXPLAIN:      {{^}}    dropped S5 (T2 = acc_1)
