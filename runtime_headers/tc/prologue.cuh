// tc/prologue.cuh - pointwise functions of an operand, applied to fragments.
//
// A region may transform an operand's elements before the product
// (`fmaxf(A[i][k], 0)`: ReLU on A). The tensor cores read the operand from
// registers, so the function is applied there, right after ldmatrix: no
// extra pass over shared memory and no extra barrier. Each 32-bit fragment
// register holds two 16-bit elements (or one tf32 value); the function maps
// float to float.
#pragma once

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace tc {

template <typename T, int N, typename F>
__device__ __forceinline__ void apply_prologue(uint32_t (&r)[N], F f) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if constexpr (sizeof(T) == 4) {
      r[i] = __float_as_uint(f(__uint_as_float(r[i])));
    } else {
      T lo, hi;
      const uint16_t lo_bits = static_cast<uint16_t>(r[i] & 0xffffu);
      const uint16_t hi_bits = static_cast<uint16_t>(r[i] >> 16);
      memcpy(&lo, &lo_bits, 2);
      memcpy(&hi, &hi_bits, 2);
      lo = T(f(static_cast<float>(lo)));
      hi = T(f(static_cast<float>(hi)));
      uint16_t a, b;
      memcpy(&a, &lo, 2);
      memcpy(&b, &hi, 2);
      r[i] = static_cast<uint32_t>(a) | (static_cast<uint32_t>(b) << 16);
    }
  }
}

}  // namespace tc
