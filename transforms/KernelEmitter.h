//===- KernelEmitter.h - CUDA text of the kernel and its host launcher ---===//
#ifndef TC_TRANSFORMS_KERNELEMITTER_H
#define TC_TRANSFORMS_KERNELEMITTER_H

#include "KernelConfig.h"

namespace tc {

struct GeneratedRegion {
  std::string Definitions; // kernel and launcher, placed before the function
  std::string Call;        // the statement that replaces the region
  std::string Explain;     // schedule steps for --explain
};

/// Runs the schedule steps and code generation for a recognised matmul.
/// `Name` is a unique identifier stem (e.g. "tc_gemm_0"). Each of `Alts`
/// (alternativeKernels) becomes a further kernel and launcher
/// `<Name><Suffix>`, to which the region's launcher hands the shapes its
/// predicate (tc/tile_choice.cuh) accepts, the first that does.
llvm::Expected<GeneratedRegion>
generateRegion(const RegionModel &M, const MatmulIdiom &Idiom, const IslModel &I,
               const KernelConfig &C, const std::string &Name,
               const std::string &SourceLocation,
               const std::vector<AlternativeKernel> &Alts = {});

} // namespace tc

#endif
