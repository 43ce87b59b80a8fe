// tc/isl_ast.cuh - integer helpers named by isl's printed C AST.
//
// isl prints floord/ceild/min/max calls in loop bounds and guards; the
// generated kernels qualify them as tc::floord etc.  Semantics follow isl:
// floord(a, b) = floor(a / b) and ceild(a, b) = ceil(a / b) for b > 0 and any
// sign of a (C's '/' truncates toward zero, which is wrong for negative a).
// No thread layout is involved; everything is __host__ __device__ constexpr
// so host tests and the rewriter's own constant folding see the same values.
//
// The two-type templates exist because isl mixes iterators (often long long
// in generated code) with int literals, e.g. min(c0 + 31, 1023): the result
// takes the usual arithmetic conversion (std::common_type), as C would.
#pragma once

#include <type_traits>

namespace tc {

template <typename T, typename U>
__host__ __device__ __forceinline__ constexpr typename std::common_type<T, U>::type floord(T a,
                                                                                            U b) {
  static_assert(std::is_integral<T>::value && std::is_integral<U>::value,
                "tc::floord: integer operands");
  using R = typename std::common_type<T, U>::type;
  // Written via '/' and '%' (not -((-a + b - 1) / b)) so a == INT_MIN does
  // not overflow.  For b > 0, a % b < 0 exactly when a < 0 and b does not
  // divide a, which is when truncation rounded up.
  return static_cast<R>(a) / static_cast<R>(b) -
         (static_cast<R>(a) % static_cast<R>(b) < 0 ? R(1) : R(0));
}

template <typename T, typename U>
__host__ __device__ __forceinline__ constexpr typename std::common_type<T, U>::type ceild(T a,
                                                                                           U b) {
  static_assert(std::is_integral<T>::value && std::is_integral<U>::value,
                "tc::ceild: integer operands");
  using R = typename std::common_type<T, U>::type;
  return static_cast<R>(a) / static_cast<R>(b) +
         (static_cast<R>(a) % static_cast<R>(b) > 0 ? R(1) : R(0));
}

template <typename T, typename U>
__host__ __device__ __forceinline__ constexpr typename std::common_type<T, U>::type min(T a, U b) {
  using R = typename std::common_type<T, U>::type;
  return static_cast<R>(b) < static_cast<R>(a) ? static_cast<R>(b) : static_cast<R>(a);
}

template <typename T, typename U>
__host__ __device__ __forceinline__ constexpr typename std::common_type<T, U>::type max(T a, U b) {
  using R = typename std::common_type<T, U>::type;
  return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(b) : static_cast<R>(a);
}

}  // namespace tc
