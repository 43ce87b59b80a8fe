// '#pragma tc' must precede a for nest or a { } block inside a function
// body. At file scope, at the end of a block, before another statement,
// and before a loop that computes no matmul, it is rejected at the pragma
// or the statement.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

// DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+2]]:1: error: '#pragma tc' does not precede a statement in a function body
// DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: note: place it directly before a 'for' loop nest or a '{ }' block of nests
#pragma tc
int global_counter;

void before_assignment(int *x) {
#pragma tc
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+2]]:3: error: '#pragma tc' must precede a 'for' loop nest or a '{ }' block of loop nests
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:3: note: place the pragma directly before the outermost loop
  *x = 1;
}

void before_local_assignment(float *y) {
  float x;
#pragma tc
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:3: error: '#pragma tc' must precede a 'for' loop nest or a '{ }' block of loop nests
  x = 1;
  *y = x;
}

void at_end_of_body() {
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: error: '#pragma tc' does not precede a statement in a function body
#pragma tc
}

void no_matmul(int M, float *y) {
#pragma tc
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+2]]:3: error: no matrix multiplication found in the region
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:3: note: a '#pragma tc' region must accumulate a product, e.g. 'acc += A[i * K + k] * B[k * N + j]'
  for (int i = 0; i < M; ++i)
    y[i] = 0.0f;
}

struct InClass {
  void run(int M, int N, int K, const float *__restrict__ A,
           const float *__restrict__ B, float *__restrict__ C) {
    // The definitions would become members of the class.
    // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+2]]:1: error: '#pragma tc' in a member function defined inside its class
    // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: note: define the function outside the class body
#pragma tc allow_tf32
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += A[i * K + k] * B[k * N + j];
        C[i * N + j] = acc;
      }
  }
};

// Two pragmas before one nest: which clauses count is not guessed; both stay
// (found by tc-fuzz-region: the second kernel was emitted and never called).
void two_pragmas(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: note: the first is here; write all clauses on one '#pragma tc' line
#pragma tc tile(64, 64, 32)
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: error: more than one '#pragma tc' before one statement
#pragma tc stages(2)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

// A region inside another's: the outer replacement would swallow the inner.
void nested_pragmas(int M, int N, int K, const __half *__restrict__ A,
                    const __half *__restrict__ B, float *__restrict__ C) {
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: note: the enclosing region starts here; remove one of the two pragmas
#pragma tc
  {
    // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: error: '#pragma tc' inside the region of another '#pragma tc'
#pragma tc tile(64, 64, 32)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
  }
}

// Anywhere inside another region, not only before a statement of a block.
void nested_in_loop_body(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: note: the enclosing region starts here; remove one of the two pragmas
#pragma tc
  for (int i = 0; i < M; ++i)
    // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: error: '#pragma tc' inside the region of another '#pragma tc'
#pragma tc tile(64, 64, 32)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}

struct WithFriend {
  friend void befriended(int M, int N, int K, const float *__restrict__ A,
                         const float *__restrict__ B, float *__restrict__ C) {
    // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+2]]:1: error: '#pragma tc' in a friend function defined inside a class
    // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: note: define the function outside the class body
#pragma tc allow_tf32
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += A[i * K + k] * B[k * N + j];
        C[i * N + j] = acc;
      }
  }
};

// A macro's _Pragma("tc") as the unbraced body of an if: diagnosed like
// one written there (it was ignored: the host loop stayed, and the tool
// reported success).
#define GEMM_IN_MACRO(A, B, C)                                                   \
  _Pragma("tc") for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) {        \
    float acc = 0.0f;                                                            \
    for (int k = 0; k < K; ++k)                                                  \
      acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);            \
    C[i * N + j] = acc;                                                          \
  }
void macro_body_of_if(int M, int N, int K, bool c, const __half *__restrict__ X,
                      const __half *__restrict__ Y, float *__restrict__ Z) {
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:10: error: '#pragma tc' before the unbraced body of 'if'
  if (c) GEMM_IN_MACRO(X, Y, Z)
}

// A pragma written before an unbraced loop body: said so, with the cure.
void body_of_for(int R, int M, int N, int K, const __half *__restrict__ X,
                 const __half *__restrict__ Y, float *__restrict__ Z) {
  for (int r = 0; r < R; ++r)
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+2]]:1: error: '#pragma tc' before the unbraced body of 'for'
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: note: the region's statement must be in a '{ }' block: put braces around the pragma and its loop nest
#pragma tc
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(X[i * K + k]) * __half2float(Y[k * N + j]);
        Z[(r * M + i) * N + j] = acc;
      }
}

// Regions in a constructor, a destructor and a conversion function:
// diagnosed as such.
struct Layer {
  float *out;
  Layer(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
        float *__restrict__ C);
  ~Layer();
};
Layer::Layer(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,
             float *__restrict__ C)
    : out(C) {
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+2]]:1: error: '#pragma tc' region in a constructor
  // DIAG-DAG: {{.*}}pragma-placement.cu:[[@LINE+1]]:1: note: move the loop nest into a function that it calls
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
