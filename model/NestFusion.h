//===- NestFusion.h - one kernel for reductions in separate loop nests ----===//
//
// `C = A·B` and `R = P·Q` computed in loop nests of their own into scratch
// arrays, and added in a later nest (`Z = C + R`), are the sum of matmuls
// `acc += A·B; acc += P·Q; Z = acc` spelled in three nests. This step builds
// that one-nest model: each later product joins the first product's output
// loops and accumulates into its accumulator, the scratch arrays'
// initialisations and copies go, and the sum `C + R` becomes a read of the
// one accumulator. The matmul idiom then serves it with one kernel, whose
// scratch arrays never reach memory.
//
// Two conditions decide it:
//  - Algebra: the products' results meet only in one sum, element by
//    element (the same output element of each), and the arrays that carry
//    them are dead after the region (locals or temp(...)). Adding the
//    products into one accumulator reassociates a floating-point sum, as
//    the kernels' reduction order does anyway.
//  - Order (isl): every dependence of the region as written, apart from
//    those of the merged arrays, goes forwards in the fused schedule.
// Where a region has reductions into different accumulators and either
// condition fails, a diagnostic says which and where.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_NESTFUSION_H
#define TC_ANALYSIS_NESTFUSION_H

#include "IslModel.h"
#include "Model.h"
#include "RegionError.h"
#include <optional>
#include <string>

namespace tc {

struct NestFusion {
  /// The one-nest model; its AsWritten is the region as written.
  RegionModel Fused;
  /// What was merged and why it is legal, for --explain.
  std::string Explain;
};

/// The fused model of a region whose reductions accumulate into different
/// arrays, or std::nullopt where all reductions share one accumulator (or
/// there are none): the idiom sees the region as written. A RegionError
/// where the reductions cannot be fused.
llvm::Expected<std::optional<NestFusion>> fuseReductionNests(const RegionModel &M,
                                                              const IslModel &I);

} // namespace tc

#endif
