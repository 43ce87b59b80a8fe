//===- KernelConfig.h - tile sizes, warps, pipeline depth -----------------===//
//
// The shape of the generated kernel. `chooseKernelConfig` applies the
// default rule and the region's clauses, and rejects combinations the
// schedule cannot realise (with a located diagnostic at the pragma).
//
// Default rule (documented in README): 128x128x32 block tiles, 64x64 warp
// tiles (4 warps), 4 cp.async stages; smaller tiles when the output is
// small, so that the grid still fills the GPU.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_KERNELCONFIG_H
#define TC_TRANSFORMS_KERNELCONFIG_H

#include "MatmulIdiom.h"
#include <string>

namespace tc {

enum class GpuArch { SM80, SM86, SM89, SM90a };
std::optional<GpuArch> parseArch(llvm::StringRef Name);
const char *archName(GpuArch A);

struct KernelConfig {
  int BlockM = 128, BlockN = 128, BlockK = 32;
  int WarpM = 64, WarpN = 64;
  int Stages = 4;
  // The instruction: mma.sync.aligned.m16n8k16 with fp32 accumulators.
  static constexpr int MmaM = 16, MmaN = 8, MmaK = 16;
  GpuArch Arch = GpuArch::SM90a;

  int warpsM() const { return BlockM / WarpM; }
  int warpsN() const { return BlockN / WarpN; }
  int threads() const { return 32 * warpsM() * warpsN(); }
  int fragmentsM() const { return WarpM / MmaM; }
  int fragmentsN() const { return WarpN / MmaN; }
  /// Bytes of shared memory for the operand stages (16-bit elements).
  int sharedBytes() const { return Stages * (BlockM + BlockN) * BlockK * 2; }
  std::string describe() const;
};

llvm::Expected<KernelConfig> chooseKernelConfig(const RegionModel &M,
                                                const MatmulIdiom &Idiom,
                                                clang::SourceLocation PragmaLoc,
                                                GpuArch Arch);

} // namespace tc

#endif
