//===- KernelEmitter.h - CUDA text of the kernel and its host launcher ---===//
#ifndef TC_TRANSFORMS_KERNELEMITTER_H
#define TC_TRANSFORMS_KERNELEMITTER_H

#include "IslModel.h"
#include "KernelConfig.h"
#include "PackedOperand.h"
#include "TuningDatabase.h"
#include <functional>

namespace tc {

struct GeneratedRegion {
  std::string Definitions; // kernel and launcher, placed before the function
  std::string Call;        // the statement that replaces the region
  std::string Explain;     // schedule steps for --explain
};

/// Builds the region's isl model in a given context (the same model each
/// time: IslModel::build with the region's assumptions).
using IslModelBuilder = std::function<llvm::Expected<IslModel>(isl::ctx)>;

/// Runs the schedule steps and code generation for a recognised matmul.
/// `Name` is a unique identifier stem (e.g. "tc_gemm_0"). Each of `Alts`
/// (alternativeKernels) becomes a further kernel and launcher
/// `<Name><Suffix>`, to which the region's launcher hands the shapes its
/// predicate (tc/tile_choice.cuh) accepts, the first that does.
/// Each kernel is generated from its own model, built by `Model` in an isl
/// context of its own, on up to `Threads` threads (0: one per core): the
/// text does not depend on how many run at once. Without `Explains`, the
/// schedule steps of kernels that only the explanation would show (further
/// kernels composed of the components) are not computed; the rewrite is
/// the same. `I` is the region's model in the caller's context, from
/// which the facts that every kernel shares are read once. `Tuning`: the
/// region's key and kernels for tuning runs (tc/tuning.cuh), and the
/// measured choices the launcher lists before its rules.
/// Shapes that a region's launcher hands to another launcher with the same
/// parameters, `<Launcher>_launch` (the region's kernels of another
/// family): for an fp32 region whose operands the wgmma kernels read from
/// transposed copies, the mma.sync kernels where
/// tc::prefer_transposed_copies(M, N, CopiesA, CopiesB) does not hold
/// (tc/kernel_choice.cuh).
struct LauncherHandOver {
  std::string Launcher;
  bool CopiesA = false, CopiesB = false;
};

llvm::Expected<GeneratedRegion>
generateRegion(const RegionModel &M, const MatmulIdiom &Idiom, const IslModel &I,
               const IslModelBuilder &Model, const KernelConfig &C, const std::string &Name,
               const std::string &SourceLocation,
               const std::vector<AlternativeKernel> &Alts = {}, unsigned Threads = 1,
               bool Explains = true, const RegionTuning &Tuning = {},
               const std::optional<LauncherHandOver> &HandOver = std::nullopt,
               const DequantizedOperand *Dequantized = nullptr);

} // namespace tc

#endif
