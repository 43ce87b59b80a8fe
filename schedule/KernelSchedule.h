//===- KernelSchedule.h - the whole kernel as one isl schedule tree ------===//
//
// Starting from the decomposed compute statement (ScheduleSteps.h), adds
// the statements that move data (paper Sec. V) and orders everything in
// one schedule tree, from which isl generates the kernel body:
//
//   insertCopies          global -> shared copies of each k tile, one
//                         16-byte chunk per statement instance, spread
//                         cyclically over the block's threads
//   insertPipeline        the copy of tile t runs S-1 iterations ahead
//                         (cp.async groups: wait, copy, commit)
//   insertFragmentLoads   shared -> register fragments (ldmatrix) per mma
//                         k step
//   insertWarpgroupMma,   (wgmma, sm_90a) instead of the two above: one
//   insertWarpgroupPipeline  m64nNk16 per k step and warpgroup, reading
//                         the stage; tile t + S - 1 copied while tile t's
//                         group runs (a converted operand: loaded into
//                         registers then, landed in its stage in the
//                         next iteration)
//   insertTmaConsumerLoop,  (wgmma with TMA) a producer warp fills the
//   insertTmaProducerLoop   stages through mbarriers; the warpgroups wait
//                         for tile t, run it with one group in flight and
//                         release tile t - 1's stage (a prologue on A:
//                         each warpgroup applies it to its rows of tile
//                         t's stage before the wgmma)
//   insertWarpGroupReduction  with warp_split_k(P): warp groups 1 .. P-1
//                         put their accumulators into shared memory, group
//                         0 adds them (intra-block split-K)
//   insertEpilogue        accumulator elements -> output, guarded by the
//                         original domain; staged through shared memory
//                         when it fits, so that consecutive threads store
//                         consecutive elements (coalesced); in persistent
//                         kernels the stores form a tree of their own
//                         (Storer), run by the epilogue warpgroups while
//                         the consumers go on with the next tile
//
// Each statement carries a text template whose {placeholders} are affine
// functions of its domain, printed by isl in terms of the AST iterators.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_KERNELSCHEDULE_H
#define TC_TRANSFORMS_KERNELSCHEDULE_H

#include "ScheduleSteps.h"
#include <optional>

namespace tc {

/// A value that a statement's text takes at each of its instances.
struct StatementArg {
  std::string Name;
  isl::pw_aff Value;
  /// A pipeline counter (a stage, or the parity of a stage's phase): printed
  /// in 32-bit unsigned arithmetic (printCounterExpr). In 64-bit signed
  /// arithmetic its division by the stage count sat on the main loop's
  /// critical path, worst for stage counts that are not powers of two
  /// (docs/design/kernel-config.md).
  bool Counter = false;
};

struct KernelStatement {
  std::string Name;
  isl::set Domain;
  /// {name} in Template is replaced by the printed function.
  std::vector<StatementArg> Args;
  /// If set, {guard} in Template is replaced by this condition.
  std::optional<isl::set> Guard;
  std::string Template;
};

struct KernelSchedule {
  std::vector<KernelStatement> Statements;
  isl::schedule Tree;
  /// With TMA (KernelConfig::Tma): the producer warp's loop, which fills
  /// the stages that Tree's main loop consumes.
  std::optional<isl::schedule> Producer;
  /// With persistent tiles (KernelConfig::PersistentTiles): the epilogue
  /// warpgroups' stores of each tile that Tree stages, and their context
  /// (tc_thread counts their threads).
  std::optional<isl::schedule> Storer;
  std::optional<isl::set> StorerContext;
  isl::set Context; // parameters, including the thread-index parameters
  isl::set GridTiles; // [tile_m, tile_n] of all blocks
  std::vector<ScheduleStep> Steps;
};

/// Text templates the schedule needs from code generation.
struct StatementTexts {
  std::string SetupA, SetupB, CopyA, CopyB, Wait, Commit, LoadA, LoadB, Mma, Store;
  // An operand converted while copying, in two phases
  // (KernelConfig::splitConvertingCopies): CopyX loads a chunk into
  // registers, LandX converts it into its stage one iteration later.
  std::string LandA, LandB;
  // wgmma main loop: warpgroup arrive, one k step's instruction, commit of
  // the tile's group, wait for it.
  std::string Arrive, Wgmma, MmaCommit, MmaWait;
  // TMA stages: the consumers' wait for a full stage and release of the
  // previous tile's; the producer's wait for an empty stage and its copies,
  // one text per product of a sum of matmuls (each product's own maps).
  std::string FullWait, Release, EmptyWait;
  // A consumer warpgroup's work on a landed stage before its wgmma: apply
  // A's prologue to its rows, publish them to the async proxy.
  std::string ConvertStage;
  // (KernelConfig::RawFragmentsB) A k tile's fragments of wgmma's A, one
  // per k step, converted from B's raw tile.
  std::string LoadRawB;
  std::vector<std::string> TmaLoad;
  // TMA kernels: a part of a k-split tile combines with the others after
  // staging its partial sums (tc/tile_schedule.cuh).
  std::string CombineParts;
  // Sum of matmuls: switches the copiers to product p + 1's operands.
  std::vector<std::string> Rebase;
  // Staged epilogue (KernelConfig::stagedEpilogue): accumulators -> shared
  // memory, then coalesced per-element stores.
  std::string Drain, Stage, StageSync, StagedStore;
  // Staged epilogue in vectors of VectorLanes consecutive elements of a row
  // (0: none): StagedStoreVector for the vectors wholly inside the output,
  // StagedStore for the elements of the partial ones.
  std::string StagedStoreVector;
  int VectorLanes = 0;
  // Intra-block split-K (KernelConfig::WarpSplitK > 1): a fragment's
  // partial sum to its {slot} of shared memory, the barrier after the
  // stores, group 0's addition of a slot, the barrier after the additions.
  std::string PartialStore, PartialSync, PartialAdd, PartialDone;
};

KernelSchedule buildKernelSchedule(const RegionModel &M, const MatmulIdiom &Idiom,
                                   const IslModel &I, const ComputeSchedule &CS,
                                   const KernelConfig &C, const StatementTexts &T);

/// The block tiles [tile_m, tile_n] holding output elements of a kernel of
/// C's tiles (KernelSchedule::GridTiles), without building its schedule:
/// what a launcher of the sm_90 components needs.
isl::set gridTiles(const RegionModel &M, const MatmulIdiom &Idiom, const IslModel &I,
                   const KernelConfig &C);

/// Generates the kernel body from `Tree` (KS.Tree, KS.Producer, ...) under
/// `Context` (default KS.Context); statements print through their templates.
std::string generateKernelBody(const KernelSchedule &KS, const isl::schedule &Tree,
                               const RegionModel &M, unsigned Indent,
                               const isl::set *Context = nullptr);

/// An expression valid in host code for an isl piecewise function of the
/// parameters (e.g. the grid size), printed by isl.
std::string printParametricExpr(const isl::pw_aff &F, const isl::set &Context);

} // namespace tc

#endif
