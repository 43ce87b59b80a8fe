// tc/convert.cuh - scalar conversions between storage types and fp32.
//
// The generated epilogue works in fp32 (the mma accumulator type) and converts
// once per element on load of C / store of D; no thread layout is involved.
// from_float rounds to nearest-even (the _rn intrinsics).
#pragma once

#include <cstdint>
#include <type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace tc {

__host__ __device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__host__ __device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
__host__ __device__ __forceinline__ float to_float(float x) { return x; }
// 8-bit weights (tile_convert.cuh): exact in fp32.
__host__ __device__ __forceinline__ float to_float(int8_t x) { return static_cast<float>(x); }
__host__ __device__ __forceinline__ float to_float(uint8_t x) { return static_cast<float>(x); }

// Only the specialisations below are usable; any other T fails to compile.
template <class T>
__host__ __device__ __forceinline__ T from_float(float x) {
  static_assert(sizeof(T) == 0, "tc::from_float: T must be __half, __nv_bfloat16 or float");
  (void)x;
  return T{};
}

template <>
__host__ __device__ __forceinline__ __half from_float<__half>(float x) {
  return __float2half_rn(x);
}
template <>
__host__ __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}
template <>
__host__ __device__ __forceinline__ float from_float<float>(float x) {
  return x;
}

// Whether a conversion f takes the element's k too, f(x, outer, k) (a
// masked operand's): a functor says so (`static constexpr bool kMasked`),
// a kernel's lambda by its signature. (A functor's __device__ operator()
// is not invocable in clang's host pass, which still instantiates this.)
template <typename F, typename = void>
struct declares_mask : std::false_type {};
template <typename F>
struct declares_mask<F, std::void_t<decltype(F::kMasked)>> : std::bool_constant<F::kMasked> {};
template <typename F>
inline constexpr bool conversion_takes_k =
    declares_mask<F>::value || std::is_invocable_v<F, float, long long, long long>;

// Whether a conversion by the row binds a row once: `f.row(r, inside)`, a
// function of the element alone, with the values row r reads loaded (none
// where `inside` is false), for a consumer whose rows stay fixed.
template <typename F, typename = void>
struct binds_rows : std::false_type {};
template <typename F>
struct binds_rows<F, std::void_t<decltype(std::declval<const F &>().row(0ll, true))>>
    : std::true_type {};
template <typename F>
inline constexpr bool conversion_binds_rows = binds_rows<F>::value;

}  // namespace tc
