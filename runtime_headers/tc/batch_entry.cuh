// tc/batch_entry.cuh - a batch's epilogue functor at one batch entry.
//
// The epilogue functor of a batch of GEMMs (tc::sm90::launch_batched_gemm,
// tc::sm80::launch_batched_gemm) takes the entry first,
//   void operator()(long long batch, long long i, long long j, float acc) const;
//   void row(long long batch, long long i, long long j0, const float (&acc)[8]) const;
// and the kernels hand each tile's elements to it through
// BatchEntryEpilogue, with the entry of the tile: the epilogues see the
// functor of one GEMM.
#pragma once

namespace tc {

template <class F>
struct BatchEntryEpilogue {
  const F &f;
  long long batch;
  __device__ void operator()(long long i, long long j, float acc) const { f(batch, i, j, acc); }
  __device__ void row(long long i, long long j0, const float (&acc)[8]) const {
    f.row(batch, i, j0, acc);
  }
};

}  // namespace tc
