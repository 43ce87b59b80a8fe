// tc/alias_check.cuh - the launchers' run-time test for overlapping arrays.
//
// A region whose pointers are not __restrict__ may be called with arrays
// that overlap; the kernels reorder accesses, so the launcher first tests
// whether the bytes a written array's accesses can touch meet those of any
// other array of the region. isl bounds each subscript over the region's
// domain (tc-rewrite emits the bounds as expressions of the sizes); the
// bytes follow by interval arithmetic over the delinearised dimensions,
// which over-approximates and so never misses an overlap. Where two ranges
// meet, the launcher runs the region's serial kernel instead.
//
// Host code only (the launchers); no thread layout is involved.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tc {

/// The bounds of one subscript over the region, and the dimension's
/// stride in elements (any sign).
struct IndexRange {
  long long min, max, stride;
};

/// The bytes [begin, end) of an array that the region may access.
struct ByteRange {
  std::uintptr_t begin, end;
};

/// The bytes of `base`'s accesses: each dimension adds the lower and the
/// upper of min * stride and max * stride; the end includes the last
/// element's bytes. A dimension with max < min (no access) is taken as
/// accessing its bounds anyway: larger, never smaller.
template <int Rank>
inline ByteRange accessed_bytes(const void *base, std::size_t element_bytes,
                                const IndexRange (&dims)[Rank]) {
  long long lo = 0, hi = 0;
  for (const IndexRange &d : dims) {
    long long a = d.min * d.stride, b = d.max * d.stride;
    lo += a < b ? a : b;
    hi += a < b ? b : a;
  }
  // Unsigned arithmetic: a negative offset wraps to the address below base.
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(base);
  const std::uintptr_t bytes = static_cast<std::uintptr_t>(element_bytes);
  return {at + static_cast<std::uintptr_t>(lo) * bytes,
          at + static_cast<std::uintptr_t>(hi + 1) * bytes};
}

/// Whether two byte ranges share a byte.
inline bool overlap(ByteRange a, ByteRange b) { return a.begin < b.end && b.begin < a.end; }

}  // namespace tc
