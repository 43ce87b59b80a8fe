// Members that are not arrays of the region: an array stored in the
// object (host memory), an array of pointers, a reference to an array, a
// static data member, a member of an object the region declares, a
// pointer reached through a call or a subscript, and a __constant__
// object, which the launching host code cannot read. Members named with
// a qualifier (`l.Base::A`: the launch would pass `l.A`, another member
// where the derived class hides the base's) and volatile members are
// refused, sizes too. Each region is left as written. The accepted members: test/rewrite/member-arrays.cu.
//
// RUN: rm -f %t.cu
// RUN: not %tc-rewrite %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: diff %s %t.cu

#include <cuda_fp16.h>

struct Weights {
  float bias[64];
  const __half *A, *B;
  int M, N, K;
};

void stored_array(const Weights &w, float *C) {
#pragma tc
  for (int i = 0; i < w.M; ++i)
    for (int j = 0; j < w.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < w.K; ++k)
        acc += __half2float(w.A[i * w.K + k]) * __half2float(w.B[k * w.N + j]);
      // DIAG: {{.*}}member-arrays.cu:[[@LINE+2]]:32: error: 'w.bias' is an array stored in its object, which the kernels cannot read
      // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:32: note: arrays of a tc region must be device memory: make the member a pointer to it
      C[i * w.N + j] = acc + w.bias[j];
    }
}

void declared_in_region(const Weights &w, float *C) {
#pragma tc
  for (int i = 0; i < w.M; ++i)
    for (int j = 0; j < w.N; ++j) {
      // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:15: error: only scalar accumulators may be declared inside a '#pragma tc' region
      Weights v = w;
      float acc = 0.0f;
      for (int k = 0; k < w.K; ++k)
        acc += __half2float(v.A[i * w.K + k]) * __half2float(w.B[k * w.N + j]);
      C[i * w.N + j] = acc;
    }
}

const Weights &layer(int l);

void through_call(int M, int N, int K, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+2]]:38: error: indirect access: the array is the member 'layer(0).A'
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:38: note: copy the pointer into a variable before the region ('auto *A = layer(0).A;') and index that
        acc += __half2float(layer(0).A[i * K + k]) * __half2float(layer(0).B[k * N + j]);
      C[i * N + j] = acc;
    }
}

void through_subscript(const Weights *ws, int M, int N, int K, float *C) {
#pragma tc
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:35: error: indirect access: the array is the member 'ws[1].A'
        acc += __half2float(ws[1].A[i * K + k]) * __half2float(ws[1].B[k * N + j]);
      C[i * N + j] = acc;
    }
}

__constant__ Weights g;

void constant_object(float *C) {
#pragma tc
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+2]]:29: error: 'g' is a __constant__ variable, which the host code that launches the kernels cannot read
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:29: note: pass its value or the address of its memory (cudaGetSymbolAddress) in a variable of the host, or declare it __managed__
        acc += __half2float(g.A[i * 64 + k]) * __half2float(g.B[k * 64 + j]);
      C[i * 64 + j] = acc;
    }
}

// A size of a __constant__ object: the host's copy is not the device's.
void constant_size(const __half *A, const __half *B, float *C) {
#pragma tc
  // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:23: error: 'g' is a __constant__ variable, which the host code that launches the kernels cannot read
  for (int i = 0; i < g.M; ++i)
    for (int j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        acc += __half2float(A[i * 64 + k]) * __half2float(B[k * 64 + j]);
      C[i * 64 + j] = acc;
    }
}

struct Hidden {
  const __half *A;
  int K;
};
struct Hiding : Hidden {
  const __half *A, *B;
  float *C;
  int M, N, K;
};

void qualified_member(const Hiding &l) {
#pragma tc
  for (int i = 0; i < l.M; ++i)
    for (int j = 0; j < l.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < l.K; ++k)
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+2]]:39: error: 'l.Hidden::A' is named with a qualifier
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:39: note: the generated launcher takes a member as 'object.member'; copy it to a local variable before the region
        acc += __half2float(l.Hidden::A[i * l.K + k]) * __half2float(l.B[k * l.N + j]);
      l.C[i * l.N + j] = acc;
    }
}

void qualified_size(const Hiding &l) {
#pragma tc
  for (int i = 0; i < l.M; ++i)
    for (int j = 0; j < l.N; ++j) {
      float acc = 0.0f;
      // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:37: error: 'l.Hidden::K' is named with a qualifier
      for (int k = 0; k < l.Hidden::K; ++k)
        acc += __half2float(l.A[i * l.K + k]) * __half2float(l.B[k * l.N + j]);
      l.C[i * l.N + j] = acc;
    }
}

struct VolatileOut {
  const __half *A, *B;
  volatile float *C;
  int M, N, K;
};

void volatile_member(const VolatileOut &p) {
#pragma tc
  for (int i = 0; i < p.M; ++i)
    for (int j = 0; j < p.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < p.K; ++k)
        acc += __half2float(p.A[i * p.K + k]) * __half2float(p.B[k * p.N + j]);
      // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:9: error: 'p.C' is volatile
      p.C[i * p.N + j] = acc;
    }
}

struct Odd {
  const __half *in[2];
  const __half (&ref)[4096];
  static const __half table[64];
  const __half *B;
  float *C;
};

void array_of_pointers(const Odd &o, float *C) {
#pragma tc
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+2]]:31: error: the array is a pointer of 'o.in', an array in its object, which the kernels cannot read
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:31: note: copy the pointer into a variable before the region ('auto *p0 = o.in[0];') and index that
        acc += __half2float(o.in[0][i * 64 + k]) * __half2float(o.B[k * 64 + j]);
      C[i * 64 + j] = acc;
    }
}

void reference_to_array(const Odd &o, float *C) {
#pragma tc
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:31: error: 'o.ref' is a reference to an array
        acc += __half2float(o.ref[i * 64 + k]) * __half2float(o.B[k * 64 + j]);
      C[i * 64 + j] = acc;
    }
}

void static_member(const Odd &o, float *C) {
#pragma tc
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        // DIAG: {{.*}}member-arrays.cu:[[@LINE+1]]:31: error: 'o.table' is a static data member, an array in host memory
        acc += __half2float(o.table[k]) * __half2float(o.B[k * 64 + j]);
      C[i * 64 + j] = acc;
    }
}
