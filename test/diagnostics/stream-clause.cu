// stream(expr) is passed on to the launch as written: a name must be a
// cudaStream_t declared before the region, an integer must be 0. Other
// expressions (members, calls, macros) are left to the compiler. A region
// with an error stays as written; the others are rewritten.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.cu
// OUT: {{^}}#pragma tc stream(ss[q++])
// OUT: {{^}}#pragma tc stream(missing)
// OUT: {{^}}#pragma tc stream(42)
// OUT: {{^}}#pragma tc stream(s)
// OUT: tc_parameter_0_launch(M, N, K, A, B, C, s);
// OUT: tc_local_0_launch(M, N, K, A, B, C, mine);
// OUT: tc_global_0_launch(M, N, K, A, B, C, global_stream);
// OUT: tc_zero_0_launch(M, N, K, A, B, C, 0);
// OUT: tc_per_thread_0_launch(M, N, K, A, B, C, ((cudaStream_t)0x2));
// OUT: tc_run_0_launch(M, N, K, A, B, C, stream_);

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define GEMM_BODY                                                              \
  for (int i = 0; i < M; ++i)                                                  \
    for (int j = 0; j < N; ++j) {                                              \
      float acc = 0.f;                                                         \
      for (int k = 0; k < K; ++k)                                              \
        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);        \
      C[i * N + j] = acc;                                                      \
    }

#define ARGS                                                                   \
  int M, int N, int K, const __half *__restrict__ A,                           \
      const __half *__restrict__ B, float *__restrict__ C

// An increment or assignment: the launch would evaluate it once, where
// the loops as written never do. (A malformed clause is said before the
// regions' errors.)
void side_effect(ARGS, cudaStream_t *ss, int q) {
// DIAG: {{.*}}stream-clause.cu:[[@LINE+2]]:23: error: '++' in clause 'stream' is a side effect
// DIAG: {{.*}}stream-clause.cu:[[@LINE+1]]:23: note: the launch evaluates the clause once, where the loops as written never do; compute the value before the region
#pragma tc stream(ss[q++])
  GEMM_BODY
}

void undeclared(ARGS) {
// DIAG: {{.*}}stream-clause.cu:[[@LINE+2]]:12: error: stream(missing): no variable 'missing' is declared before the region
// DIAG: {{.*}}stream-clause.cu:[[@LINE+1]]:12: note: stream(...) takes a cudaStream_t: a variable declared before the region, 0, cudaStreamPerThread, or an expression of that type
#pragma tc stream(missing)
  GEMM_BODY
}

void integer(ARGS) {
// DIAG: {{.*}}stream-clause.cu:[[@LINE+1]]:12: error: stream(42): an integer other than 0 is not a stream
#pragma tc stream(42)
  GEMM_BODY
}

void wrong_type(ARGS, int s) {
// DIAG: {{.*}}stream-clause.cu:[[@LINE+1]]:12: error: stream(s): 's' has type 'int', not cudaStream_t
#pragma tc stream(s)
  GEMM_BODY
}

// Accepted: a parameter, a local, a global, 0, a predefined stream (the
// clause holds its expansion), a member of the enclosing class.
cudaStream_t global_stream;
void parameter(ARGS, cudaStream_t s) {
#pragma tc stream(s)
  GEMM_BODY
}
void local(ARGS) {
  cudaStream_t mine = nullptr;
#pragma tc stream(mine) sync
  GEMM_BODY
}
void global(ARGS) {
#pragma tc stream(global_stream)
  GEMM_BODY
}
void zero(ARGS) {
#pragma tc stream(0)
  GEMM_BODY
}
void per_thread(ARGS) {
#pragma tc stream(cudaStreamPerThread)
  GEMM_BODY
}
struct Layer {
  cudaStream_t stream_;
  void run(ARGS);
};
void Layer::run(ARGS) {
#pragma tc stream(stream_)
  GEMM_BODY
}
