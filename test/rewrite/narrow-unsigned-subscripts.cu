// Subscripts the source computes in 32-bit unsigned arithmetic wrap modulo
// 2^32 where the kernels' 64-bit integers do not (`A[i * K + k]` over
// `unsigned`: with i K >= 2^32 the source reads near the array's start).
// The launcher tests, before any kernel, that each such array's
// subscripts stay in [0, 2^32), and reports tc::Status::AssumptionViolated
// otherwise (tc/subscript_range.cuh); size_t subscripts and an unsigned
// iterator alone need no test. A part of a subscript computed unsigned
// beside a part that may be negative is refused (test/diagnostics).
//
// RUN: %tc-rewrite %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu --implicit-check-not='{{^ *}}#pragma tc'
// RUN: %tc-rewrite --explain %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: %if nvcc && full-tier %{ %nvcc -std=c++17 --expt-relaxed-constexpr -I%tc-include \
// RUN:   -gencode arch=compute_90a,code=sm_90a -c %t.cu -o %t.o %}

#include <cstddef>
#include <cuda_fp16.h>

// CHECK-LABEL: {{^}}static void tc_flat_0_launch(
// CHECK:       {{^  }}// The source computes subscripts of A in 32-bit unsigned arithmetic, which wraps
// CHECK-NEXT:  {{^  }}// where the kernels' 64-bit integers do not (tc/subscript_range.cuh).
// CHECK-NEXT:  {{^  }}if (((((M >= 1) && (N >= 1)) && (K >= 1))) &&
// CHECK-NEXT:  {{^      }}!tc::subscripts_fit<32>(tc::Subscripts::kFlat, {{[{][{]}}0, (M - 1), K}, {0, (K - 1), 1}})) {
// CHECK-NEXT:  {{^    }}tc::report_error(tc::Status::AssumptionViolated, "{{.*}}narrow-unsigned-subscripts.cu:{{[0-9]+}}", "'#pragma tc' region: a subscript of 'A' that the source computes in 32-bit unsigned arithmetic wraps around for these sizes; the kernels would not");
// CHECK-NEXT:  {{^    }}return;
// CHECK-NEXT:  {{^  }}}
// CHECK:       {{^      }}!tc::subscripts_fit<32>(tc::Subscripts::kFlat, {{[{][{]}}0, (K - 1), N}, {0, (N - 1), 1}})) {
// CHECK:       {{^      }}!tc::subscripts_fit<32>(tc::Subscripts::kFlat, {{[{][{]}}0, (M - 1), N}, {0, (N - 1), 1}})) {
// CHECK:       {{^  }}if (!(((M >= 1) && (N >= 1))))
// EXPLAIN: subscripts of A computed in 32-bit unsigned arithmetic: the launcher tests that the flat index of {min, max, stride} {0, (M - 1), K}, {0, (K - 1), 1} stays in [0, 2^32)
void flat(unsigned M, unsigned N, unsigned K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A row's pointer `A + i * K` and its `a[k - 1]` over k from 1: the part
// computed unsigned is row i times its stride, tested alone.
// CHECK-LABEL: {{^}}static void tc_row_pointer_0_launch(
// CHECK:       {{^      }}!tc::subscripts_fit<32>(tc::Subscripts::kFlat, {{[{][{]}}0, (M - 1), K}})) {
// CHECK:       {{^  }}if (!(((M >= 1) && (N >= 1))))
void row_pointer(unsigned M, unsigned N, unsigned K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      const __half *a = A + i * K;
      float acc = 0.0f;
      for (int k = 1; k <= (int)K; ++k)
        acc += __half2float(a[k - 1]) * __half2float(B[(k - 1) * (long long)N + j]);
      C[(size_t)i * N + j] = acc;
    }
}

// 64-bit subscripts, and unsigned iterators alone: nothing to test.
// CHECK-LABEL: {{^}}static void tc_wide_0_launch(
// CHECK-NOT:   {{^ +}}!tc::subscripts_fit
// CHECK:       {{^  }}if (!(((M >= 1) && (N >= 1))))
void wide(size_t M, size_t N, size_t K, const __half *__restrict__ A,
          const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (size_t i = 0; i < M; ++i)
    for (size_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (size_t k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// CHECK-LABEL: {{^}}static void tc_shaped_0_launch(
// CHECK-NOT:   {{^ +}}!tc::subscripts_fit
// CHECK:       {{^  }}if (!((M >= 1)))
void shaped(unsigned M, const __half (*__restrict__ A)[64], const __half (*__restrict__ B)[64],
            float (*__restrict__ C)[64]) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < 64; ++k)
        acc += __half2float(A[i][k]) * __half2float(B[k][j]);
      C[i][j] = acc;
    }
}

// A statically shaped array's subscript computed unsigned: each
// dimension's bounds are tested.
// CHECK-LABEL: {{^}}static void tc_shaped_offset_0_launch(
// CHECK:       {{^      }}!tc::subscripts_fit<32>(tc::Subscripts::kEach, {{[{][{]}}(2 * o), ((M + (2 * o)) - 1), 64}, {0, 63, 1}})) {
void shaped_offset(unsigned M, unsigned o, const __half (*__restrict__ A)[64],
                   const __half (*__restrict__ B)[64], float (*__restrict__ C)[64]) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < 64; ++k)
        acc += __half2float(A[i + 2 * o][k]) * __half2float(B[k][j]);
      C[i][j] = acc;
    }
}

// A bound and a start of sizes alone computed unsigned (`N + D`, `lo + 1`:
// the source's loops run to (N + D) mod 2^32 and from (lo + 1) mod 2^32):
// each value is tested, whatever the loops run.
// CHECK-LABEL: {{^}}static void tc_sized_bounds_0_launch(
// CHECK:       {{^  }}// The source computes 'N + D' in 32-bit unsigned arithmetic, which wraps
// CHECK-NEXT:  {{^  }}// where the model's integers do not (tc/subscript_range.cuh).
// CHECK-NEXT:  {{^  }}if (!tc::value_fits<32>({{[{][{]}}1, {N}}, {1, {D}}})) {
// CHECK-NEXT:  {{^    }}tc::report_error(tc::Status::AssumptionViolated, "{{.*}}", "'#pragma tc' region: a bound or condition that the source computes in 32-bit unsigned arithmetic wraps around for these sizes; the kernels would not");
// CHECK:       {{^  }}if (!tc::value_fits<32>({{[{][{]}}1, {}}, {1, {lo}}})) {
// EXPLAIN: 'N + D' computed in 32-bit unsigned arithmetic: the launcher tests that N + D stays in [0, 2^32)
void sized_bounds(unsigned M, unsigned N, unsigned D, unsigned K, unsigned lo,
                  const __half *__restrict__ A, const __half *__restrict__ B,
                  float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = lo + 1; j < N + D; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * 65536 + j]);
      C[(size_t)i * 65536 + j] = acc;
    }
}

// A signed stride in a row's offset computed unsigned (`A + i * lda`, lda
// an int): that part, row i times lda, is tested alone (a negative lda
// makes it negative).
// CHECK-LABEL: {{^}}static void tc_signed_stride_0_launch(
// CHECK:       {{^      }}!tc::subscripts_fit<32>(tc::Subscripts::kFlat, {{[{][{]}}0, (M - 1), lda}})) {
void signed_stride(unsigned M, unsigned N, unsigned K, int lda, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      const __half *a = A + i * lda;
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(a[k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Subscripts and bounds computed unsigned in locals bound once: their
// bindings' arithmetic, tested as if written in place.
// CHECK-LABEL: {{^}}static void tc_bound_locals_0_launch(
// CHECK:       {{^      }}!tc::subscripts_fit<32>(tc::Subscripts::kFlat, {{[{][{]}}0, (M - 1), K}})) {
// CHECK:       {{^  }}if (!tc::value_fits<32>({{[{][{]}}1, {N}}, {1, {D}}})) {
void bound_locals(unsigned M, unsigned N, unsigned D, unsigned K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i) {
    const unsigned end = N + D;
    for (unsigned j = 0; j < end; ++j) {
      const size_t row = i * K;
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[row + k]) * __half2float(B[(size_t)k * 65536 + j]);
      C[(size_t)i * 65536 + j] = acc;
    }
  }
}

// A batch's offset in size_t beside parts computed unsigned: each part is
// tested alone (`i * K`: row i times its stride; `(M - 1 - i)`: the
// index), not the whole, which may exceed 2^32 in size_t.
// CHECK-LABEL: {{^}}static void tc_batched_offsets_0_launch(
// CHECK:       {{^      }}!tc::subscripts_fit<32>(tc::Subscripts::kFlat, {{[{][{]}}0, (M - 1), K}})) {
// CHECK:       {{^      }}!tc::subscripts_fit<32>(tc::Subscripts::kEach, {{[{][{]}}0, (M - 1), N}})) {
// EXPLAIN: subscripts of A computed in 32-bit unsigned arithmetic: the launcher tests that the flat index of {min, max, stride} {0, (M - 1), K} stays in [0, 2^32)
void batched_offsets(unsigned Bt, unsigned M, unsigned N, unsigned K,
                     const __half *__restrict__ A, const __half *__restrict__ B,
                     float *__restrict__ C) {
#pragma tc
  for (unsigned b = 0; b < Bt; ++b)
    for (unsigned i = 0; i < M; ++i)
      for (unsigned j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (unsigned k = 0; k < K; ++k)
          acc += __half2float(A[(size_t)b * M * K + i * K + k]) *
                 __half2float(B[(size_t)b * K * N + (size_t)k * N + j]);
        C[(size_t)b * M * N + (size_t)(M - 1 - i) * N + j] = acc;
      }
}

// A guard of iterators computed unsigned, `j < i + U`: for i + U >= 2^32
// the source's bound wraps to a small one and it computes fewer elements.
// A wrap only shrinks the value, so the launcher tests it at the largest i
// where statements run (isl's maximum over the domains): below that no
// wrap, above it no statement.
// CHECK-LABEL: {{^}}static void tc_iterator_bound_0_launch(
// CHECK:       {{^  }}// The source computes 'i + U' in 32-bit unsigned arithmetic, which wraps
// CHECK:       {{^  }}if (((((M >= 1) && (N >= 1)) && ((M + U) >= 2))) &&
// CHECK-NEXT:  {{^      }}!tc::value_fits<32>({{[{][{]}}1, {U}}, {1, {(long long)((M - 1))}}})) {
// CHECK-NEXT:  {{^    }}tc::report_error(tc::Status::AssumptionViolated,
// EXPLAIN: 'i + U' computed in 32-bit unsigned arithmetic: the launcher tests that U + i at the largest i where statements run stays in [0, 2^32)
void iterator_bound(unsigned M, unsigned N, unsigned K, unsigned U,
                    const __half *__restrict__ A, const __half *__restrict__ B,
                    float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j)
      if (j < i + U) {
        float acc = 0.0f;
        for (unsigned k = 0; k < K; ++k)
          acc += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * N + j]);
        C[(size_t)i * N + j] = acc;
      }
}

// A triangular loop's bound, `j < i + 1`: at most M, tested all the same.
// CHECK-LABEL: {{^}}static void tc_lower_triangle_0_launch(
// CHECK:       {{^      }}!tc::value_fits<32>({{[{][{]}}1, {}}, {1, {(long long)((M - 1))}}})) {
void lower_triangle(unsigned M, unsigned K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < i + 1; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * M + j]);
      C[(size_t)i * M + j] = acc;
    }
}

// The same guard in loops that do not count from 0: the source's i is the
// model's counter plus the loop's start (5 here; from M down to 1 below),
// and the test takes the source's largest i, M - 1 and M.
// CHECK-LABEL: {{^}}static void tc_iterator_bound_from_5_0_launch(
// CHECK:       {{^      }}!tc::value_fits<32>({{[{][{]}}1, {U}}, {1, {(long long)((M - 1))}}})) {
void iterator_bound_from_5(unsigned M, unsigned N, unsigned K, unsigned U,
                           const __half *__restrict__ A, const __half *__restrict__ B,
                           float *__restrict__ C) {
#pragma tc
  for (unsigned i = 5; i < M; ++i)
    for (unsigned j = 0; j < N; ++j)
      if (j < i + U) {
        float acc = 0.0f;
        for (unsigned k = 0; k < K; ++k)
          acc += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * N + j]);
        C[(size_t)i * N + j] = acc;
      }
}
// CHECK-LABEL: {{^}}static void tc_iterator_bound_downward_0_launch(
// CHECK:       {{^      }}!tc::value_fits<32>({{[{][{]}}1, {U}}, {1, {(long long)(M)}}})) {
void iterator_bound_downward(unsigned M, unsigned N, unsigned K, unsigned U,
                             const __half *__restrict__ A, const __half *__restrict__ B,
                             float *__restrict__ C) {
#pragma tc
  for (unsigned i = M; i > 0; --i)
    for (unsigned j = 0; j < N; ++j)
      if (j < i + U) {
        float acc = 0.0f;
        for (unsigned k = 0; k < K; ++k)
          acc += __half2float(A[(size_t)(i - 1) * K + k]) * __half2float(B[(size_t)k * N + j]);
        C[(size_t)(i - 1) * N + j] = acc;
      }
}

// An upward loop's start of iterators (`j = i + 16` over `unsigned`) is
// computed where the loop is reached, also for the last i, where the
// integers' loop runs no statement and the source's, wrapped, would run
// from 0: tested at the largest i of the enclosing loop (its guards left
// out), not where statements run.
// CHECK-LABEL: {{^}}static void tc_strict_upper_0_launch(
// CHECK:       {{^  }}// The source computes 'i + 16' in 32-bit unsigned arithmetic, which wraps
// CHECK:       {{^  }}if (((M >= 1)) &&
// CHECK-NEXT:  {{^      }}!tc::value_fits<32>({{[{][{]}}16, {}}, {1, {(long long)((M - 1))}}})) {
// EXPLAIN: 'i + 16' computed in 32-bit unsigned arithmetic: the launcher tests that 16 + i at the largest i where the loop over j is reached stays in [0, 2^32)
void strict_upper(unsigned M, unsigned N, unsigned K, const __half *__restrict__ A,
                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = i + 16; j < N; ++j) {
      float acc = 0.0f;
      for (unsigned k = 0; k < K; ++k)
        acc += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * N + j]);
      C[(size_t)i * N + j] = acc;
    }
}

// A part computed unsigned whose expansion has a negative term (`(b * K +
// (k - 1)) * N`, k from 1: the term -N), but which is a product of parts
// that are not negative: accepted, B's flat index tested as a whole (the
// part is no greater than it).
// CHECK-LABEL: {{^}}static void tc_batched_from_one_0_launch(
// CHECK:       {{^}}  // The source computes subscripts of B in 32-bit unsigned arithmetic, which wraps
// EXPLAIN: subscripts of B computed in 32-bit unsigned arithmetic: the launcher tests that the flat index of {min, max, stride} {0, (batches - 1), N * K}, {0, (K - 1), N}, {0, (N - 1), 1} stays in [0, 2^32)
void batched_from_one(int batches, int M, long long N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int b = 0; b < batches; ++b)
    for (int i = 0; i < M; ++i)
      for (long long j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (unsigned k = 1; k <= K; ++k)
          acc += __half2float(A[(b * K + (k - 1)) * M + i]) *
                 __half2float(B[(b * K + (k - 1)) * N + j]);
        C[(b * M + i) * N + j] = acc;
      }
}
