//===- AliasCheck.h - the launcher's run-time test for overlapping arrays -===//
//
// The text of the test model/Aliasing.h plans: each array of a pair
// gets the bytes its accesses can touch (tc::accessed_bytes over isl's
// bounds of its subscripts, tc/alias_check.cuh), and where a written
// array's bytes meet another's the launcher runs the serial kernel
// (SerialKernel.h) and returns.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_ALIASCHECK_H
#define TC_TRANSFORMS_ALIASCHECK_H

#include "Aliasing.h"
#include "IslModel.h"
#include "Model.h"
#include <string>
#include <vector>

namespace tc {

/// `{a, b, s}` per dimension of array ArrayId: isl's bounds of its
/// subscript and the dimension's stride, in C.
std::vector<std::string> indexRanges(const RegionModel &M, const IslModel &I,
                                     unsigned ArrayId);

/// `tc::accessed_bytes(X, sizeof(*X), {...})`: the bytes of array ArrayId
/// that the region's accesses can touch, in C.
std::string accessedBytes(const RegionModel &M, const IslModel &I, unsigned ArrayId);

/// The launcher's statements: the byte ranges, and the test that runs
/// `SerialLaunch` (a statement) and returns where they meet. Empty without
/// pairs.
std::string aliasCheck(const RegionModel &M, const IslModel &I,
                       const std::vector<AliasPair> &Pairs, const std::string &SerialLaunch);

/// For --explain: each array's accessed elements, and the pairs tested.
std::string explainAliasCheck(const RegionModel &M, const IslModel &I,
                              const std::vector<AliasPair> &Pairs,
                              const std::string &SerialKernel);

} // namespace tc

#endif
