// Products in separate nests that cannot become one kernel
// (model/NestFusion.h): each region is diagnosed at the construct that
// prevents the fusion, and the file is left exactly as written.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not='error:'
// RUN: diff %s %t.cu

#include <cuda_fp16.h>
void no_temp(int M, int N, int K1, int K2, const __half *__restrict__ A,
            const __half *__restrict__ B, const __half *__restrict__ P,
            const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
            float *__restrict__ Z) {
#pragma tc temp(R)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[i * N + j] = 0.0f;
        for (int k = 0; k < K1; ++k)
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:11: error: the reductions into 'C' and 'R' cannot be fused: 'C' is not named in temp(...)
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:11: note: one kernel adds the products of separate nests in one accumulator and stores none of 'C', 'R': name them in temp(...) if the region's caller does not read them, or compute the products in separate regions
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

void read_alone(int M, int N, int K1, int K2, const __half *__restrict__ A,
            const __half *__restrict__ B, const __half *__restrict__ P,
            const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
            float *__restrict__ Z, float *__restrict__ W) {
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
      for (int j = 0; j < N; ++j) {
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:24: error: the reductions into 'C' and 'R' cannot be fused: 'C' is read apart from the sum of the products
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:24: note: products in separate nests become one kernel when their results are only added together: read 'C + R' as one term, e.g. '(C + R) + bias'
        W[i * N + j] = C[i * N + j];
      }
  }
}

void transposed(int N, int K1, int K2, const __half *__restrict__ A,
            const __half *__restrict__ B, const __half *__restrict__ P,
            const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
            float *__restrict__ Z) {
  int M = N;
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
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:39: error: the reductions into 'C' and 'R' cannot be fused: 'R' is added at another element than 'C'
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:39: note: the sum of the products reads each at the same output element
        Z[i * N + j] = C[i * N + j] + R[j * N + i];
  }
}

void prologue_between(int M, int N, int K1, int K2, const __half *__restrict__ A,
            const __half *__restrict__ B, const __half *__restrict__ X,
            __half *__restrict__ P,
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
      for (int k = 0; k < K2; ++k)
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:9: error: the reductions into 'C' and 'R' cannot be fused: this statement and a later product access the same element
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:9: note: the fused kernel runs every product in the first one's output loops, before this statement; keep what the products read unchanged in the region
        P[i * K2 + k] = X[i * K2 + k];
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

void other_rows(int M, int M2, int N, int K1, int K2, const __half *__restrict__ A,
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
    for (int i = 0; i < M2; ++i)
      for (int j = 0; j < N; ++j) {
        R[i * N + j] = 0.0f;
        for (int k = 0; k < K2; ++k)
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:11: error: the reductions into 'C' and 'R' cannot be fused: they run over different output elements
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:11: note: a region's nests become one kernel only as a sum of products over the same output loops; put each nest under a '#pragma tc' of its own
          R[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
  }
}

void bias_between(int M, int N, int K1, int K2, const __half *__restrict__ A,
            const __half *__restrict__ B, const __half *__restrict__ P,
            const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
            float *__restrict__ Z, const float *__restrict__ bias) {
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
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:24: error: the reductions into 'C' and 'R' cannot be fused: 'C' is read apart from the sum of the products
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:24: note: products in separate nests become one kernel when their results are only added together: read 'C + R' as one term, e.g. '(C + R) + bias'
        Z[i * N + j] = C[i * N + j] + bias[j] + R[i * N + j];
  }
}

void nonzero_init(int M, int N, int K1, int K2, const __half *__restrict__ A,
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
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:9: error: the reductions into 'C' and 'R' cannot be fused: 'R' starts at a value other than 0
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:9: note: a product fused into another's accumulator starts from 0; add other terms in the statement that adds the products
        R[i * N + j] = 1.0f;
        for (int k = 0; k < K2; ++k)
          R[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
  }
}

// R accumulates P * Q, is reset, then accumulates U * V: the source adds
// only U * V; the reset after R's first product is refused.
void reset_between_reductions(int M, int N, int K1, int K2, const __half *__restrict__ A,
       const __half *__restrict__ B, const __half *__restrict__ P,
       const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
       float *__restrict__ Z, const __half *__restrict__ U, const __half *__restrict__ V, int K3) {
#pragma tc temp(C, R)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[i * N + j] = 0.0f;
        for (int k = 0; k < K1; ++k)
          C[i * N + j] += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
      }

    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < K2; ++k)
          R[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:9: error: the reductions into 'C' and 'R' cannot be fused: 'R' is written again here
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:9: note: a product fused into another's accumulator is set to 0 once, before its reduction loop
        R[i * N + j] = 0.0f;
        for (int k = 0; k < K3; ++k)
          R[i * N + j] += __half2float(U[i * K3 + k]) * __half2float(V[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
  }
}

// A later product reads R, whose stores the fusion would drop.
void scratch_as_operand(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
       const float *__restrict__ P, const float *__restrict__ Q,
       const float *__restrict__ V, float *__restrict__ C, float *__restrict__ R,
       float *__restrict__ Z) {
#pragma tc temp(C, R) allow_tf32
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[i * N + j] = 0.0f;
        for (int k = 0; k < K; ++k)
          C[i * N + j] += A[i * K + k] * B[k * N + j];
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        R[i * N + j] = 0.0f;
        for (int k = 0; k < K; ++k)
          R[i * N + j] += P[i * K + k] * Q[k * N + j];
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < N; ++k)
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:27: error: the reductions into 'C' and 'R' cannot be fused: 'R' is read here, where the fused kernel does not keep it
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:27: note: the arrays that carry the products to their sum may be read only in that sum (C + R)
          R[i * N + j] += R[i * N + k] * V[k * N + j];
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
  }
}

// R takes T = P * Q only from column 1: the sum reads R's entry value in
// column 0.
void partial_copy(int M, int N, int K1, int K2, const __half *__restrict__ A,
       const __half *__restrict__ B, const __half *__restrict__ P,
       const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
       float *__restrict__ Z, float *__restrict__ T) {
#pragma tc temp(C, R, T)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[i * N + j] = 0.0f;
        for (int k = 0; k < K1; ++k)
          C[i * N + j] += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        T[i * N + j] = 0.0f;
        for (int k = 0; k < K2; ++k)
          T[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 1; j < N; ++j)
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:9: error: the reductions into 'C' and 'T' cannot be fused: this does not store every element of 'R' that the sum reads
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:9: note: store the product's result to the whole output, outside the reduction loop
        R[i * N + j] = T[i * N + j];
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
  }
}

// The copy inside the k loop never runs where K2 is 0.
void copy_in_reduction_loop(int M, int N, int K1, int K2, const __half *__restrict__ A,
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
        float acc = 0.0f;
        for (int k = 0; k < K2; ++k) {
          acc += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:11: error: the reductions into 'C' and 'acc' cannot be fused: this does not store every element of 'R' that the sum reads
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:11: note: store the product's result to the whole output, outside the reduction loop
          R[i * N + j] = acc;
        }
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
  }
}

// double accumulators copied to float arrays: the copy rounds.
void double_locals(int M, int N, int K1, int K2, const __half *__restrict__ A,
       const __half *__restrict__ B, const __half *__restrict__ P,
       const __half *__restrict__ Q, float *__restrict__ C, float *__restrict__ R,
       float *__restrict__ Z) {
#pragma tc temp(C, R)
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double acc = 0.0;
        for (int k = 0; k < K1; ++k)
          acc += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:9: error: the reductions into 'acc' of two nests cannot be fused: 'C' of type 'float' takes the product's result, of type 'double'
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:9: note: the arrays that carry the products to their sum have the accumulator's type
        C[i * N + j] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double acc = 0.0;
        for (int k = 0; k < K2; ++k)
          acc += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);
        R[i * N + j] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[i * N + j] = C[i * N + j] + R[i * N + j];
  }
}

// T1 stores the product transposed, T2 does not: the sum would pair other
// elements of the two products.
void mixed_layouts(int M, int N, int K1, int K2, const __half *__restrict__ A,
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
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:9: error: the reductions into 'acc' of two nests cannot be fused: 'T2' holds the product's elements in another order than 'T1'
        // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:9: note: store the products' results with the same layout
        T2[i * N + j] = acc;
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        Z[j * M + i] = T1[j * M + i] + T2[i * N + j];
  }
}

// Two independent products in one block (not a sum): each needs a region
// of its own. The message names the locals as written, not the model's
// acc_1.
void independent_products(int M, int N, int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C,
                          float *__restrict__ E) {
#pragma tc
  {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);
        C[i * N + j] = acc;
      }
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < M; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+2]]:11: error: the reductions into 'acc' of two nests cannot be fused: they run over different output elements
          // DIAG: {{.*}}fused-nests.cu:[[@LINE+1]]:11: note: a region's nests become one kernel only as a sum of products over the same output loops; put each nest under a '#pragma tc' of its own
          acc += __half2float(B[k * N + i]) * __half2float(A[j * K + k]);
        E[i * M + j] = acc;
      }
  }
}
