// BiasRelu: the GPU tests' epilogue functor (the interface of
// tc/staged_tile.cuh): Y[i][j] = max(acc + bias[j], 0), fp32, row pitch ldy.
#pragma once

struct BiasRelu {
  float *y;
  const float *bias;
  long long ldy;
  __device__ float value(long long j, float acc) const { return fmaxf(acc + bias[j], 0.0f); }
  __device__ void operator()(long long i, long long j, float acc) const {
    y[i * ldy + j] = value(j, acc);
  }
  __device__ void row(long long i, long long j0, const float (&acc)[8]) const {
#pragma unroll
    for (int v = 0; v < 8; ++v)
      y[i * ldy + j0 + v] = value(j0 + v, acc[v]);
  }
};
