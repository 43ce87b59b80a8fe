//===- ComponentKernel.h - kernels composed of the tc/sm90 components ----===//
//
// A kernel whose whole structure the runtime's components express needs no
// generated body: tc/sm90/gemm_kernel.cuh composes the tile schedule, the
// TMA producer, the wgmma main loop and the staged epilogue, and a region
// contributes only what is its own:
//   - its epilogue functor (output element (i, j) from its sum, and the
//     eight elements (i, j0 .. j0 + 7) of a row at once),
//   - the operand tiles' types (element, rows of the block tile, which
//     index is contiguous), the stages,
//   - the extents and leading dimensions it passes at launch.
// This file decides which kernels those are (a pure function of the kernel
// configuration, the idiom and the clauses) and prints the region's parts.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_COMPONENTKERNEL_H
#define TC_TRANSFORMS_COMPONENTKERNEL_H

#include "KernelConfig.h"
#include "MatmulIdiom.h"
#include "PackedOperand.h"
#include <optional>
#include <string>
#include <vector>

namespace tc {

/// Why the kernel of `C` for this region is not composed of the sm_90
/// components (tc::sm90::launch_gemm), or an empty string where it is. It
/// is where the kernel is TMA + wgmma with one producer warp, 64-deep k
/// tiles, one ring of stages, B's tile split in halves of whole panels for
/// pairs, and a staged epilogue (in warpgroups of its own for persistent
/// blocks), and the region a sum of one or more products (tc/sm90/products.cuh) of
/// 16-bit floating-point operands in one layout (or tf32 operands staged
/// K-major), or a batch of such GEMMs, its
/// operands as stored or with a prologue that the main loop's policies
/// apply (tc/sm90/roles.cuh: a functor of the element alone, on the landed
/// stages or on A's fragments; not one converted while copying): the
/// output's guards are then the rectangle the idiom requires (i < M,
/// j < N), which the staged epilogue applies.
std::string sm90ComponentMismatch(const KernelConfig &C, const MatmulIdiom &Idiom,
                                  const RegionClauses &Clauses);

inline bool composesSm90Gemm(const KernelConfig &C, const MatmulIdiom &Idiom,
                             const RegionClauses &Clauses) {
  return sm90ComponentMismatch(C, Idiom, Clauses).empty();
}

/// `C` with its stages as the kernel lays them out: where it is composed
/// of the sm_90 components and lands a raw 8-bit tile, at the components'
/// sizes (KernelConfig::ComponentStages), so that --explain states the
/// shared memory the kernel takes.
inline KernelConfig laidOut(const KernelConfig &C, const MatmulIdiom &Idiom,
                            const RegionClauses &Clauses) {
  if (!(C.RawFragmentsA || C.RawFragmentsB) || !composesSm90Gemm(C, Idiom, Clauses))
    return C;
  KernelConfig Composed = C;
  Composed.ComponentStages = true;
  return Composed;
}

/// Why the kernel of `C` for this region is not composed of the mma.sync
/// components (tc::sm80::launch_gemm, tc/sm80/gemm_kernel.cuh), or an empty
/// string where it is: a cp.async + mma.sync kernel (m16n8k16, or m16n8k8
/// for fp32 operands as tf32) whose tiles the components' copies and
/// fragments divide (each thread copies whole rows of 16-byte chunks, warp
/// tiles of whole pairs of n8 tiles; with warp_split_k, groups of warps
/// sharing each tile's k steps evenly), and the region's products (one,
/// or a sum of them in the first one's layouts; a batch or not) of 16-bit
/// floating-point (or tf32) operands, k contiguous or not, each as stored,
/// or in a single product converted while it is copied (8-bit weights, a
/// prologue of the element's row or column or one not finite at 0, a
/// mask: not packed 4-bit, strided or transposed), and a prologue of the
/// element on one 16-bit operand of a single product applied to its
/// fragments; its output guarded by the rectangle alone.
std::string sm80ComponentMismatch(const KernelConfig &C, const MatmulIdiom &Idiom,
                                  const RegionClauses &Clauses);

inline bool composesSm80Gemm(const KernelConfig &C, const MatmulIdiom &Idiom,
                             const RegionClauses &Clauses) {
  return sm80ComponentMismatch(C, Idiom, Clauses).empty();
}

/// Whether the kernels apply an operand's prologue to its fragments or
/// landed stages (a function of the element alone, finite at 0), not
/// while copying it.
inline bool fragmentPrologue(const OperandView &V) {
  return !V.Prologue.empty() && !V.ConvertWhileCopying;
}

/// The names sm80MainloopType spells besides the configuration's: the
/// prefix of the region's functors, and each operand's element type as
/// the source spells it (read by a converted operand's copier).
struct Sm80Names {
  std::string Region;
  std::string SourceA = "", SourceB = "";
};

/// The functor of a converted operand (tc::sm80::ConvertedOperandTile,
/// tc::sm90::Converted): `<Region>_operand_a` (`_b`).
inline std::string convertedOperandFunctorName(const std::string &Region, bool IsA) {
  return Region + (IsA ? "_operand_a" : "_operand_b");
}

/// `tc::sm80::CpAsyncMmaMainloop<A tile, B tile, k tile, stages, warps
/// along m, warps along n[, prologues]>` of `C` for the region's operands:
/// an operand's tile `OperandTile<T, rows, major>`, or, converted while
/// copied, `ConvertedOperandTile<its source type, T, rows, major, its
/// functor>`; a fragment prologue the functor `<Region>_prologue_a`
/// (`_b`). With `OperandPerLine`, each argument on a line of its own (8
/// spaces in).
std::string sm80MainloopType(const KernelConfig &C, const MatmulIdiom &Idiom,
                             bool OperandPerLine = false, const Sm80Names &Names = {});

/// The kernels a region instantiates: the one its launcher ends in and the
/// further ones it dispatches to (alternativeKernels, in their order).
struct RegionKernels {
  KernelConfig Default;
  std::vector<AlternativeKernel> Alternatives;
};

/// The kernels of a region whose default kernel `C` has the further kernels
/// `Alts`. Where both the default and its persistent alternative
/// (tc::prefer_persistent_tiles, or with A's prologue on its fragments
/// tc::prefer_persistent_fragment_tiles) are composed of the sm_90
/// components, the
/// persistent kernel becomes the default, and the 64x128 tiles of two
/// blocks per SM (tc::prefer_narrow_tiles) go: on the shapes that took the
/// 128x128 tiles of two blocks per SM or those 64x128 tiles, the
/// persistent kernel measured 0.98-1.01x of them
/// (docs/design/tile-choice.md, prefer_persistent_tiles), and each kernel
/// less is an instantiation less for nvcc. Otherwise unchanged, but that
/// an alternative of stages at the components' sizes
/// (KernelConfig::ComponentStages) goes where it is not composed of them.
RegionKernels regionKernels(const KernelConfig &C, std::vector<AlternativeKernel> Alts,
                            const MatmulIdiom &Idiom, const RegionClauses &Clauses);

/// Whether the region's default kernel `C` and every further TMA kernel of
/// `Alts` are composed of the sm_90 components, the default one that
/// copies what TMA cannot map (tc::sm90::kCopiesUnmapped: all but a
/// non-persistent kernel with a producer warpgroup): the default then
/// takes every shape, those whose alternative cannot launch too, and the
/// region needs no cp.async kernel.
/// A batch of GEMMs, and an operand that lands raw to be converted by each
/// element's place (KernelConfig::ConvertsLandedOperands), take TMA stages
/// in the components' kernels only (tc::sm90::launch_batched_gemm,
/// tc::sm90::Converted); the generated TMA kernels have no batch
/// coordinate and convert no such stage. A TMA kernel of Kernels that is
/// not composed (a clause asks for what the components lack) gives way:
/// the default to its cp.async twin, an alternative to the others.
void keepTmaOnComponents(RegionKernels &Kernels, const MatmulIdiom &Idiom,
                         const RegionClauses &Clauses);

/// For an fp32 region (allow_tf32) with an operand stored M- or N-major,
/// the idiom as the sm_90 components would stage it: each such operand
/// K-major from a transposed copy (OperandView::StagedTransposed). Nothing
/// where no operand is, in a batch, or where the products of a sum would
/// not share their tiles (a prologue or a conversion keeps the staged
/// idiom off wgmma in chooseKernelConfig).
std::optional<MatmulIdiom> tf32StagedKMajor(const MatmulIdiom &Idiom);

/// Whether the region's tf32 wgmma kernels are all composed of the sm_90
/// components, the default the persistent kernel: the generated (text)
/// kernels have no tf32 wgmma, so a region whose kernels are not takes
/// mma.sync instead. True for any other region.
bool tf32KernelsComposed(const RegionKernels &Kernels, const MatmulIdiom &Idiom,
                         const RegionClauses &Clauses);

bool componentKernelsTakeEveryShape(const KernelConfig &C,
                                    const std::vector<AlternativeKernel> &Alts,
                                    const MatmulIdiom &Idiom, const RegionClauses &Clauses);

/// Why the region is not a layer the decode component
/// (tc/decode/launch.cuh) takes at few rows (decode_kernel), or an empty string
/// where it is: Y = epilogue(A B) with A fp16 as stored (k contiguous, no
/// prologue), B 8-bit with k contiguous and the element-minus-offset
/// prologue (tc::OffsetRow), one product, no batch, no guard of the output,
/// on sm_80 or later, without a clause that fixes the kernel (tile, warp,
/// stages, split_k, warp_split_k, mma).
std::string weightStreamMismatch(const KernelConfig &C, const MatmulIdiom &Idiom,
                                 const RegionClauses &Clauses);

/// The same for a layer of packed 4-bit weights and the 4-bit decode
/// kernel (tc::decode::launch_nibble_decode), `Idiom` the region that reads
/// the dequantised copy (model/PackedOperand.h): A as above, B the copy as
/// stored (the packed factor (w - z) * s, D.Groups, whole), groups of a
/// multiple of 32 k (any architecture: TMA stages where built for sm_90,
/// cp.async stages on sm_80).
std::string nibbleStreamMismatch(const KernelConfig &C, const MatmulIdiom &Idiom,
                                 const RegionClauses &Clauses, const DequantizedOperand &D);

/// `tc::sm90::OperandTile<element, rows, major>` of operand A (IsA) or B
/// in `C`'s stages.
std::string sm90OperandTileType(const KernelConfig &C, const MatmulIdiom &Idiom, bool IsA);

/// The main loop's policies beyond its defaults (tc/sm90/roles.cuh), each
/// after a comma: the consumers' (SharedOperands with the operand whose
/// prologue is applied to the landed stages, or RegisterA with A's), named
/// `<Region>_prologue_a` / `_b`, and the producer's (ProducerWarpgroup with
/// its register counts). Empty for a plain GEMM's kernel.
std::string sm90MainloopPolicies(const KernelConfig &C, const MatmulIdiom &Idiom,
                                 const std::string &Region);

/// `tc::sm90::TmaWgmmaMainloop<A tile, B tile, stages[, policies]>` of
/// `C`'s tiles for the region's operands (policies:
/// sm90MainloopPolicies); with `OperandPerLine`, each argument on a line
/// of its own (8 spaces in), the tiles labelled A and B, as a launcher
/// prints it. A transposed kernel (KernelConfig::transposedTile) has the
/// region's B as its A tile (an 8-bit one, RawFragmentsB, as raw bytes of
/// `WeightType`: RawOperandTile), the region's A as its B tile; an 8-bit A
/// (RawFragmentsA) is raw bytes of `WeightType` too.
std::string sm90MainloopType(const KernelConfig &C, const MatmulIdiom &Idiom,
                             bool OperandPerLine = false, const std::string &Region = "",
                             const std::string &WeightType = "signed char");

/// Whether `C`'s schedule is launch_gemm's default scheduler
/// (TilesScheduler), which a launch then does not name.
bool usesDefaultSm90Scheduler(const KernelConfig &C, const RegionClauses &Clauses);

/// The rule by which the launcher of a kernel built for pairs takes them
/// (tc::PairRule in tc/schedule_choice.cuh).
std::string pairRuleName(const KernelConfig &C);

/// The tile scheduler of `C`'s schedule (tc/sm90/tile_scheduler.cuh):
/// `PairsScheduler<rule, stream units>` for pairs, else
/// `StreamUnitsScheduler` or `TilesScheduler`; inside
/// `ClusterPartsScheduler<floor, ...>` where the kernel launches cluster
/// parts (not under a split_k clause).
std::string sm90SchedulerType(const KernelConfig &C, const RegionClauses &Clauses);

/// A member of the epilogue functor: one of the kernel's parameters, its
/// type printed with the trailing space or `*` (`long long `, `const
/// __half *__restrict__ `).
struct FunctorMember {
  std::string Type, Name;
};

/// The text of an epilogue functor `Name` for tc/sm90/epilogue.cuh.
/// `Element` computes output element (tc_m, tc_n) from `tc_sum`. `Lanes`
/// (0: none) is the width of `LaneBody`, which computes and stores the
/// elements (tc_m, tc_n0 + v), v < Lanes, from `tc_sums[v]` at once; the
/// row of eight is `8 / Lanes` of them, or eight elements one by one.
/// Batched: both take the batch entry `tc_batch` first.
std::string epilogueFunctorText(const std::string &Name, const std::string &Comment,
                                const std::vector<FunctorMember> &Members,
                                const std::string &Element, const std::string &LaneBody,
                                int Lanes, bool Batched = false);

} // namespace tc

#endif
