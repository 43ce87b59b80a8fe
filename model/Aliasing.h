//===- Aliasing.h - arrays that may overlap, and the bytes each touches ---===//
//
// Pointers that are not __restrict__ may point into the same memory. The
// kernels reorder the region's accesses, so a written array that overlaps
// another array of the region would change the result. Instead of refusing
// such regions (the pointers of most C++ code are not __restrict__), the
// launcher tests at run time whether the arrays' accessed bytes meet, the
// way Polly versions its code, and runs the region as written where they do.
// This file decides which pairs need the test and bounds each array's
// subscripts over the region with isl; the launcher's text is
// codegen/AliasCheck.h's.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_ALIASING_H
#define TC_ANALYSIS_ALIASING_H

#include "IslModel.h"
#include "Model.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <utility>
#include <vector>

namespace tc {

/// A written array and another array of the region that it may overlap
/// (not a __restrict__ parameter beside another parameter, and neither a
/// local of the region).
struct AliasPair {
  unsigned Written = 0, Other = 0; // array ids
};

/// The pairs the launcher must test, in array order; each unordered pair
/// once. A RegionError at the written array's declaration where no test
/// can keep the region's meaning (RegionModel::ReadsMovedPastStores).
llvm::Expected<std::vector<AliasPair>> aliasPairs(const RegionModel &M);

/// The elements of array `ArrayId` that the region's accesses touch, a
/// set over the sizes; none where it does not access the array.
std::optional<isl::set> accessedElements(const RegionModel &M, const IslModel &I,
                                         unsigned ArrayId);

/// The smallest and largest value of each subscript of array `ArrayId` over
/// the region's accesses to it, as functions of the sizes (isl_set_dim_min
/// and _max of the accessed elements), outermost dimension first. The
/// sizes with known values are substituted. Empty where the region does
/// not access the array.
std::vector<std::pair<isl::pw_aff, isl::pw_aff>>
subscriptBounds(const RegionModel &M, const IslModel &I, unsigned ArrayId);

} // namespace tc

#endif
