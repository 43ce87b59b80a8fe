// '#pragma tc' must precede a for nest or a { } block inside a function
// body. At file scope, at the end of a block, before another statement,
// and before a loop that computes no matmul, it is rejected at the pragma
// or the statement.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

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
