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
/// `Name` is a unique identifier stem (e.g. "tc_gemm_0"). With `Wide`
/// (wideTileAlternative), a second kernel and launcher `<Name>_wide` are
/// generated from it, and the region's launcher hands large shapes to it
/// (tc::prefer_wide_tiles).
llvm::Expected<GeneratedRegion>
generateRegion(const RegionModel &M, const MatmulIdiom &Idiom, const IslModel &I,
               const KernelConfig &C, const std::string &Name,
               const std::string &SourceLocation,
               const std::optional<KernelConfig> &Wide = std::nullopt);

} // namespace tc

#endif
