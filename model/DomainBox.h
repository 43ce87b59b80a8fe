//===- DomainBox.h - loops with bounds of the sizes, the rest as guards --===//
//
// Triangular nests (`for (int k = i; k < N; ++k)`, `for (int j = 0; j <= i;
// ++j)`) have loops whose bounds name another loop. The kernels tile
// boxes: each such loop gets the smallest box over the region, bounds that
// are affine functions of the sizes (isl_set_dim_min/_max of the loop's
// projection), and its own bounds move to the statements inside it as
// guards (Statement::Guards), next to those of `if`s and loop conditions
// joined by `&&`. Every statement's isl domain is unchanged, so the model
// means what the source does; which guards a kernel can honour (masks of
// an operand, a guard of the output) is the idiom's to decide
// (MatmulIdiom.h).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_DOMAINBOX_H
#define TC_ANALYSIS_DOMAINBOX_H

#include "IslModel.h"
#include <optional>

namespace tc {

/// M with the bounds of each loop that names another loop replaced by its
/// box (shifted to start at 0, LoopOrigins.h), or nothing where every loop
/// is already bounded by the sizes. A RegionError at a loop whose box is
/// not one affine function of the sizes.
llvm::Expected<std::optional<RegionModel>> boxDomains(const RegionModel &M, const IslModel &I);

/// The one affine piece of Bound as an expression of the sizes, or nothing
/// where it has more pieces, divisions or rational coefficients.
std::optional<AffineExpr> affineOfSizes(const isl::pw_aff &Bound);

} // namespace tc

#endif
