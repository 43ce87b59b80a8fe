//===- SerialKernel.h - the region as written, on one GPU thread ----------===//
//
// What a launcher runs where the region's arrays overlap (Aliasing.h): the
// region's statements in their original order, on one thread, so that
// every read sees every write the source order puts before it. isl
// generates the loops from the model's original schedule (as PPCG prints a
// program's own order); each statement is its expression tree, printed as
// the epilogues print it, with the region's locals as locals of the
// kernel. Correct, not fast: one thread of one SM.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_SERIALKERNEL_H
#define TC_TRANSFORMS_SERIALKERNEL_H

#include "IslModel.h"
#include "Model.h"
#include <string>
#include <utility>
#include <vector>

namespace tc {

/// A kernel parameter: its type, as the launcher declares it (no
/// __restrict__: the arrays overlap), and its name.
struct KernelParameter {
  std::string Type, Name;
};

/// The statements' code: isl's AST of the original schedule, with each
/// statement's text; 64-bit iterators, indented by Indent.
std::string serialBody(const RegionModel &M, const IslModel &I, unsigned Indent);

/// `__global__ void <Name>(Params) { <locals> <serialBody> }`.
std::string serialKernel(const RegionModel &M, const IslModel &I, const std::string &Name,
                         const std::vector<KernelParameter> &Params);

} // namespace tc

#endif
