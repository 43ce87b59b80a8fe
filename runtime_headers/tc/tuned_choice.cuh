// tc/tuned_choice.cuh - a region's kernel as measured on a GPU.
//
// A program built with -DTC_TUNING times each of a region's kernels at
// the shapes it runs and writes the times as a tuning database
// (tuning.cuh, docs/tuning.md). A rewrite given that database
// (`--tuning-db`) lists in the launcher, for each GPU name and shape
// bucket measured, the kernel that was fastest there; tuned_kernel finds
// the launch's entry, and choose_kernel (kernel_choice.cuh) takes it
// before its rules, which still choose for every GPU and bucket the table
// does not name. Pure functions, tested on the host.
#pragma once

#include "device_facts.cuh"

namespace tc {

// Where a launch's shape was measured: on the GPU named `gpu`
// (cudaDeviceProp::name), outputs whose rows, columns and reduction fall
// in buckets m, n and k (shape_bucket) ran fastest with the launcher's
// candidate `kernel` (-1: its own kernel).
struct TunedKernel {
  const char *gpu;
  int m, n, k;
  int kernel;
};

// The half-octave bucket of an extent x >= 1: 2 floor(log2 x), plus one
// from 1.5 times that power of two on (4096 -> 24, 6144 and 8191 -> 25).
// Extents below 1 share bucket -1. Shapes in one bucket fill rounds of
// SMs alike enough that one kernel serves them; finer buckets would need
// a measurement for every shape.
constexpr int shape_bucket(long long x) {
  if (x < 1)
    return -1;
  int log2 = 0;
  while ((x >> log2) > 1)
    ++log2;
  const bool upper = log2 > 0 && ((x >> (log2 - 1)) & 1);
  return 2 * log2 + (upper ? 1 : 0);
}

inline bool same_gpu_name(const char *a, const char *b) {
  if (!a || !b)
    return false;
  while (*a && *a == *b)
    ++a, ++b;
  return *a == *b;
}

// The kernel of the first of `count` entries for GPU `gpu` and the
// shape's buckets, or kNotTuned.
inline int tuned_kernel(const TunedKernel *table, int count, const char *gpu, long long m,
                        long long n, long long k) {
  const int bm = shape_bucket(m), bn = shape_bucket(n), bk = shape_bucket(k);
  for (int i = 0; i < count; ++i)
    if (table[i].m == bm && table[i].n == bn && table[i].k == bk &&
        same_gpu_name(table[i].gpu, gpu))
      return table[i].kernel;
  return kNotTuned;
}

}  // namespace tc
