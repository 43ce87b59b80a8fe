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
/// range (tc::subscripts_fit, tc/subscript_range.cuh) and the report
/// (`Where`: the region's "file:line"). Empty without such arrays.
std::string narrowSubscriptCheck(const RegionModel &M, const IslModel &I,
                                 const std::string &Where);

/// For --explain: the arrays tested and their subscripts' bounds.
std::string explainNarrowSubscripts(const RegionModel &M, const IslModel &I);

} // namespace tc

#endif
