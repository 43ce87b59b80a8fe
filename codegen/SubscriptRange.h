//===- SubscriptRange.h - the launcher's test that no subscript wraps -----===//
//
// The model reads a subscript as an integer (`A[i * K + k]` is i K + k)
// and the kernels compute it in 64 bits. Where the source computes it in
// a narrower unsigned type (RegionModel::NarrowSubscripts), it wraps
// modulo 2^32 where the integer does not, and the two read different
// elements. So the launcher first tests, over isl's bounds of each such
// array's subscripts, that they stay in [0, 2^32) for the launch's sizes;
// where they do not, it reports tc::Status::AssumptionViolated and runs
// nothing (no kernel, the serial one included, wraps as the source does).
// Likewise a value of the sizes in a loop's bound or an `if` (`j < N + D`).
//
//===----------------------------------------------------------------------===//
#ifndef TC_CODEGEN_SUBSCRIPTRANGE_H
#define TC_CODEGEN_SUBSCRIPTRANGE_H

#include "IslModel.h"
#include "Model.h"
#include <string>

namespace tc {

/// The launcher's statements: for each array of M.NarrowSubscripts that
/// the region accesses at the launch's sizes, the test of its subscripts'
/// range (tc::subscripts_fit, tc/subscript_range.cuh); for each value of
/// M.NarrowValues the test of its range (tc::value_fits); and the report (`Where`: the region's "file:line").
/// `EverySize` is M's model over every size, not only those the kernels
/// assume (the serial kernel, which runs for the others, computes in 64
/// bits too). Empty without such arrays and values.
std::string narrowArithmeticCheck(const RegionModel &M, const IslModel &EverySize,
                                  const std::string &Where);

/// For --explain: the arrays and values tested, and the bounds tested.
std::string explainNarrowArithmetic(const RegionModel &M, const IslModel &EverySize);

} // namespace tc

#endif
