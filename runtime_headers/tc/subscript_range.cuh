// tc/subscript_range.cuh - the launchers' test that no subscript the source
// computes in a narrow unsigned type wraps.
//
// `A[i * K + k]` over `unsigned int` is (i K + k) mod 2^32 in the source;
// the kernels compute i K + k in 64 bits. The two read the same element
// exactly where the integer stays in [0, 2^32). tc-rewrite emits, for each
// array indexed so, isl's bounds of its subscripts over the region (as the
// alias test does, tc/alias_check.cuh) and this test; where it fails, the
// launcher reports tc::Status::AssumptionViolated and runs nothing. The
// same for a value of the sizes computed so in a loop's bound or an `if`
// (`j < N + D`), which the model takes as the integer.
//
// Host code only (the launchers); no thread layout is involved.
#pragma once

#include <initializer_list>

#include "alias_check.cuh"  // IndexRange

namespace tc {

// How the source indexes the array: one flat subscript (a pointer's, which
// the model delinearised into the dimensions), or a subscript for each
// dimension (a statically shaped array, `A[i][k]`).
enum class Subscripts { kFlat, kEach };

// Whether every subscript of `dims` is in [0, 2^Bits): the flat index by
// interval arithmetic over the dimensions (min * stride and max * stride of
// each), or each dimension's bounds. A product or sum beyond 64 bits does
// not fit either.
template <int Bits, int Rank>
inline bool subscripts_fit(Subscripts how, const IndexRange (&dims)[Rank]) {
  static_assert(Bits > 0 && Bits < 64, "a type narrower than the kernels' 64 bits");
  constexpr long long kEnd = 1ll << Bits;
  if (how == Subscripts::kEach) {
    for (const IndexRange &d : dims)
      if (d.min < 0 || d.max >= kEnd)
        return false;
    return true;
  }
  long long lo = 0, hi = 0;
  for (const IndexRange &d : dims) {
    long long a, b;
    if (__builtin_mul_overflow(d.min, d.stride, &a) || __builtin_mul_overflow(d.max, d.stride, &b))
      return false;
    if (a > b) {
      const long long t = a;
      a = b;
      b = t;
    }
    if (__builtin_add_overflow(lo, a, &lo) || __builtin_add_overflow(hi, b, &hi))
      return false;
  }
  return lo >= 0 && hi < kEnd;
}

// One term of a value of the sizes: coefficient * the product of factors.
struct ValueTerm {
  long long coefficient;
  std::initializer_list<long long> factors;
};

// Whether the sum of `terms` (`N + D`: {{1, {N}}, {1, {D}}}), a value the
// source computes in a `Bits`-bit unsigned type in a loop's bound or an
// `if`, is in [0, 2^Bits). A product or sum beyond 64 bits is not.
template <int Bits>
inline bool value_fits(std::initializer_list<ValueTerm> terms) {
  static_assert(Bits > 0 && Bits < 64, "a type narrower than the model's 64 bits");
  long long sum = 0;
  for (const ValueTerm &t : terms) {
    long long product = t.coefficient;
    for (long long f : t.factors)
      if (__builtin_mul_overflow(product, f, &product))
        return false;
    if (__builtin_add_overflow(sum, product, &sum))
      return false;
  }
  return sum >= 0 && sum < (1ll << Bits);
}

}  // namespace tc
