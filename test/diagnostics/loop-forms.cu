// Loop forms the region cannot take (the accepted ones:
// test/rewrite/loop-origins.cu, loop-strides.cu): a step that is not a
// constant, a strided `!=` or unsigned downward loop,
// a condition that runs against the increment, an unsigned iterator
// counting down to `>= 0`, an iterator narrower than int that wraps around
// its type
// (the source's loop never ends). The file is left as written. Triangular
// nests and guards: test/diagnostics/guards.cu.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

// A step that is not a constant.
void variable_step(int M, int N, int K, int S, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: loop-forms.cu:[[@LINE+2]]:30: error: loop increment must be '++i', 'i++', 'i += c' or, downwards, '--i', 'i--', 'i -= c', with a constant c
      // DIAG: note: a loop's step must be an integer literal
      for (int k = 0; k < K; k += S)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void strided_not_equal(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    // DIAG: loop-forms.cu:[[@LINE+2]]:21: error: a strided loop's condition must not be '!='
    // DIAG: note: a step may pass the bound; write 'i < upper' or 'i <= upper'
    for (int j = 0; j != N; j += 2) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void strided_unsigned_down(unsigned M, int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+2]]:32: error: a downward strided loop over the unsigned 'i' may wrap below 0
  // DIAG: note: count a signed iterator down, or count upwards
  for (unsigned i = M; i >= 1; i -= 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i - 1) * K + k]) * __half2float(B[k * N + j]);
      C[(i - 1) * N + j] = acc;
    }
}

void against_increment(int M, int N, int K, const __half *__restrict__ A,
                       const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+2]]:23: error: a downward loop's condition must compare the iterator with '>' or '>=' against a lower bound
  // DIAG: note: write 'i >= lower' or 'i > lower'
  for (int i = M - 1; i < M; --i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void unsigned_down(int M, int N, int K, const __half *__restrict__ A,
                   const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+2]]:28: error: a downward loop over the unsigned 'i' with this condition never ends or never runs
  // DIAG: note: count down to the bound with '>': 'for (unsigned i = n; i > 0; --i)'
  for (unsigned i = M - 1; i >= 0; --i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// An unsigned start below 0 wraps: the source's loop does not run there.
void unsigned_start_difference(int M, int N, int K, const __half *__restrict__ A,
                               const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < (unsigned)M; ++i)
    for (unsigned j = 0; j < (unsigned)N; ++j) {
      float acc = 0.0f;
      // DIAG: loop-forms.cu:[[@LINE+2]]:25: error: 'i - 2' is computed unsigned and may be negative
      // DIAG: note: there the source wraps it to a large value and its loop or condition runs differently from the integers' one; use signed types, or move the subtracted term to the other side of the comparison
      for (unsigned k = i - 2; k < (unsigned)K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A further conjunct that wraps holds for every j: `j < N` alone bounds.
void unsigned_conjunct_difference(int M, int N, int K, const __half *__restrict__ A,
                                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < (unsigned)M; ++i)
    // DIAG: loop-forms.cu:[[@LINE+1]]:30: error: 'i - 3' is computed unsigned and may be negative
    for (unsigned j = 0; j < i - 3 && j < (unsigned)N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// Downwards, a bound that wraps stops the loop at once.
void unsigned_down_difference(int M, int N, int K, const __half *__restrict__ A,
                              const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+1]]:28: error: '(unsigned)N - 4u' is computed unsigned and may be negative
  for (unsigned i = M; i > (unsigned)N - 4u; --i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A signed iterator from a difference, compared with an unsigned size: at
// i = 0 the source converts -1 to a huge value and the loop does not run.
void signed_start_unsigned_bound(int M, int N, size_t K, const __half *__restrict__ A,
                                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: loop-forms.cu:[[@LINE+1]]:27: error: 'k' is computed unsigned and may be negative
      for (int k = i - 1; k < K; ++k)
        if (k >= 0)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// An upward loop's own bound may wrap only where the wrapped loop would
// run past its arrays: here the guard inside keeps it in bounds.
void wrapped_bound_guarded(unsigned M, unsigned N, unsigned K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: loop-forms.cu:[[@LINE+2]]:32: error: 'K - i' is computed unsigned and may be negative
      // DIAG: note: where it wraps, the loop runs on and the condition on 'k' inside keeps it in bounds, unlike the integers' loop; use signed types
      for (unsigned k = 0; k < K - i; ++k)
        if (k < K)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A downward loop with a step of 2 reads A's rows backwards: no view does.
void downward_strided(int M, int N, int K, const __half *__restrict__ A,
                      const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = M - 1; i >= 0; i -= 2)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: loop-forms.cu:[[@LINE+2]]:29: error: operand 'A' is read backwards along loop 'i'{{$}}
        // DIAG-NEXT: {{^}}{{.*}}[[@LINE+1]] |
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// So does a reversed subscript in an upward loop.
void reversed_subscript(int M, int N, int K, const __half *__restrict__ A,
                        const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: loop-forms.cu:[[@LINE+2]]:29: error: operand 'A' is read backwards along loop 'k'{{$}}
        // DIAG: note: a view's rows and columns go upwards as their loops run: a reversed subscript ('K - 1 - k') or a downward loop with a step other than 1 has none (a downward loop with a step of 1 is accepted)
        acc += __half2float(A[i * K + (K - 1 - k)]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// An iterator narrower than int wraps around its type's range: with '!='
// from a start past the bound the source runs 250 to 255 and then 0 to 3;
// a bound beyond the type's range never ends, nor does a step past it
// (250, 253, then 0, 3, ...: the step computes in int, the assignment
// converts back), up or down; a bound of run-time value may be beyond it.
void narrow_iterator_wraps(int N, int K, const __half *__restrict__ A,
                           const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+2]]:31: error: the loop over 'i' of type 'unsigned char' may start past its bound: the source wraps it around its type's range then
  // DIAG: note: count with '<', or declare the iterator 'int'
  for (unsigned char i = 250; i != 4; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void narrow_iterator_never_ends(int M, int N, const __half *__restrict__ A,
                                const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      // DIAG: loop-forms.cu:[[@LINE+2]]:25: error: the loop over 'k' of type 'short' never ends: the source wraps it around its type's range from 32767 on
      // DIAG: note: declare the iterator 'int'
      for (short k = 0; k <= 32767; ++k)
        acc += __half2float(A[i * 32768 + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void narrow_iterator_steps_past(int N, int K, const __half *__restrict__ A,
                                const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+2]]:31: error: the loop over 'i' of type 'unsigned char' never ends: the source wraps it around its type's range from 253 on
  // DIAG: note: declare the iterator 'int'
  for (unsigned char i = 250; i < 254; i += 3)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void narrow_iterator_steps_below(int N, int K, const __half *__restrict__ A,
                                 const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+1]]:28: error: the loop over 'i' of type 'signed char' never ends: the source wraps it around its type's range from -128 on
  for (signed char i = 10; i >= -128; --i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(i + 128) * K + k]) * __half2float(B[k * N + j]);
      C[(i + 128) * N + j] = acc;
    }
}

void narrow_iterator_run_time_bound(int M, int N, int K, const __half *__restrict__ A,
                                    const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+1]]:21: error: the loop over 'i' of type 'short' may pass its type's range, where the source wraps it: its bound is not a constant
  for (short i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// An unsigned int wraps without promotion: from 4294967293, `i += 3`
// gives 0 (the source then runs on to 4294967292).
void unsigned_iterator_steps_past(int N, int K, const __half *__restrict__ A,
                                  const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  // DIAG: loop-forms.cu:[[@LINE+1]]:34: error: the loop over 'i' of type 'unsigned int' never ends: the source wraps it around its type's range from 4294967293 on
  for (unsigned i = 4294967290u; i < 4294967294u; i += 3)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[(long long)i * K + k]) * __half2float(B[k * N + j]);
      C[(long long)i * N + j] = acc;
    }
}

// A counter stepped in the body as well as in its header.
void counter_stepped_in_body(int M, int N, int K, const __half *__restrict__ A,
                             const __half *__restrict__ B, float *__restrict__ C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) {
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        // DIAG: loop-forms.cu:[[@LINE+2]]:10: error: the body changes the loop counter 'k'
        // DIAG: note: step a loop only in its header ('k += 2')
        k++;
      }
      C[i * N + j] = acc;
    }
}
