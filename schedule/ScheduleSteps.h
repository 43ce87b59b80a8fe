//===- ScheduleSteps.h - schedule-tree transformations of the matmul -----===//
//
// The compute decomposition of the paper (Sec. IV, Figs. 3-7), one named
// function per step, each returning a schedule tree that --explain prints:
//
//   padToFullTiles        domain rounded up to whole block tiles
//   initialSchedule       one permutable band [m, n, k]           (Fig. 3)
//   tileForBlocks         band tiled by BM x BN x BK               (Fig. 4)
//   splitReductionTile    [bm, bn] | [bk]: blocks vs. main loop    (Fig. 14)
//   tileForWarps          point band tiled by WM x WN              (Fig. 4)
//   stripMineReduction    k strip-mined by the mma depth 16        (Fig. 6)
//   contractToMma         one point per 16x8x16 mma                (Fig. 7)
//   mapToBlocksAndWarps   tile loops fixed to block/warp ids       (Fig. 5)
//                         (with wgmma the issuer is a warpgroup: tiles
//                         64 x BN, one point per m64nNk16 instruction)
//   mapReductionToWarpGroups  with warp_split_k(P): the k steps of a tile
//                         split into P contiguous shares, share z fixed
//                         to warp group z (intra-block split-K)
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_SCHEDULESTEPS_H
#define TC_TRANSFORMS_SCHEDULESTEPS_H

#include "KernelConfig.h"
#include "IslModel.h"

namespace tc {

/// Names of the isl parameters that stand for the kernel's thread indices.
namespace kernel_ids {
inline const char *BlockM = "tc_block_m", *BlockN = "tc_block_n",
                  *WarpM = "tc_warp_m", *WarpN = "tc_warp_n",
                  *Thread = "tc_thread", *LaneRow = "tc_lane_row",
                  *LaneCol = "tc_lane_col", *Batch_ = "tc_batch",
                  *KBegin = "tc_k_begin", *KEnd = "tc_k_end",
                  *WarpK = "tc_warp_k", // warp group (intra-block split-K)
                  // uses of the TMA stages by a persistent block's earlier tiles
                  *KOrigin = "tc_k_origin",
                  *Warpgroup = "tc_warpgroup"; // issuer of wgmma
}

struct ScheduleStep {
  std::string Name;
  std::string Tree; // isl's YAML-like block notation
};

struct ComputeSchedule {
  isl::set PaddedDomain;    // R[m, n, k] over whole block tiles
  isl::set ContractedDomain; // one point per mma, one block, one warp
  isl::schedule Tree;
  std::vector<ScheduleStep> Steps;
};

isl::set padToFullTiles(const isl::set &Domain, const KernelConfig &C);
isl::schedule initialSchedule(const isl::set &Domain);
isl::schedule tileForBlocks(const isl::schedule &S, const KernelConfig &C);
isl::schedule splitReductionTile(const isl::schedule &S);
isl::schedule tileForWarps(const isl::schedule &S, const KernelConfig &C);
isl::schedule stripMineReduction(const isl::schedule &S, const KernelConfig &C);
isl::schedule contractToMma(const isl::schedule &S, const KernelConfig &C);
isl::schedule mapToBlocksAndWarps(const isl::schedule &S, const KernelConfig &C);
/// Keeps the mma k steps of warp group tc_warp_k: in each k tile, steps
/// [z * KS/P, (z + 1) * KS/P) for z = tc_warp_k (KS = C.kSteps(),
/// P = C.WarpSplitK). The identity when P = 1.
isl::schedule mapReductionToWarpGroups(const isl::schedule &S, const KernelConfig &C);

/// The reduction statement's domain with its dimensions ordered (m, n, k)
/// whatever the source loop order: R[m, n, k]. For a sum of matmuls, the
/// union of the products' domains, each product's k starting where the
/// previous one's ends rounded up to a multiple of SegmentAlign (the k tile).
isl::set reductionDomain(const RegionModel &M, const MatmulIdiom &Idiom,
                         const IslModel &I, int SegmentAlign);

/// All steps above, in order, recorded for --explain.
ComputeSchedule decomposeCompute(const RegionModel &M, const MatmulIdiom &Idiom,
                                 const IslModel &I, const KernelConfig &C);

/// Text of a schedule tree.
std::string printTree(const isl::schedule &S);

} // namespace tc

#endif
