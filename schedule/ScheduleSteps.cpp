//===- ScheduleSteps.cpp --------------------------------------------------===//
#include "ScheduleSteps.h"
#include "IslBuild.h"
#include "llvm/ADT/STLExtras.h"
#include <isl/options.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>

namespace tc {

using namespace kernel_ids;

static std::string tupleName(const isl::set &S) {
  const char *N = isl_set_get_tuple_name(S.get());
  return N ? N : "";
}

static isl::set toSet(const isl::union_set &U) {
  return isl::manage(isl_set_from_union_set(U.copy()));
}

static isl::schedule intersectDomain(const isl::schedule &S, const isl::set &D) {
  return isl::manage(isl_schedule_intersect_domain(
      S.copy(), isl_union_set_from_set(D.copy())));
}

/// `Name[m, n, k]` of D's tuple, with D's parameters (and Extra after
/// them) where WithParams, else with none: the space a step's relation
/// is built on.
static isl::space tileSpace(const isl::set &D, bool WithParams,
                            const std::vector<std::string> &Extra = {}) {
  isl_space *Sp = D.get_space().release();
  if (!WithParams)
    Sp = isl_space_drop_all_params(Sp);
  Sp = isl_space_set_from_params(isl_space_params(Sp));
  Sp = isl_space_add_dims(Sp, isl_dim_set, 3);
  const char *Dims[] = {"m", "n", "k"};
  for (unsigned I = 0; I < 3; ++I)
    Sp = isl_space_set_dim_name(Sp, isl_dim_set, I, Dims[I]);
  Sp = isl_space_set_tuple_name(Sp, isl_dim_set, tupleName(D).c_str());
  isl::space R = isl::manage(Sp);
  for (const std::string &P : Extra)
    R = withParameter(R, P);
  return R;
}

std::string printTree(const isl::schedule &S) {
  isl_printer *P = isl_printer_to_str(S.ctx().get());
  P = isl_printer_set_yaml_style(P, ISL_YAML_STYLE_BLOCK);
  P = isl_printer_print_schedule(P, S.get());
  char *Str = isl_printer_get_str(P);
  std::string R = Str ? Str : "";
  free(Str);
  isl_printer_free(P);
  return R;
}

isl::set reductionDomain(const RegionModel &M, const MatmulIdiom &Idiom,
                         const IslModel &I, int SegmentAlign) {
  isl::ctx Ctx = I.Context.ctx();
  const std::string R = M.Stmts[Idiom.Reduction].Name;
  // Product p of a sum of matmuls continues k where product p - 1 ends,
  // rounded up to whole k tiles (SegmentAlign), so that no k tile mixes
  // two products: its k plus Offset, a function of the sizes.
  auto Segment = [&](unsigned Stmt, const std::string &IterK,
                     const std::vector<AffineExpr> &Before) {
    const Statement &S = M.Stmts[Stmt];
    auto Its = M.iterators(S);
    isl::set Instances = universeSet(Ctx, M, S.Name, Its);
    // A batch loop becomes the parameter tc_batch (blockIdx.z): each batch
    // element is one independent GEMM.
    isl::space Sp = Instances.get_space();
    if (!Idiom.IterBatch.empty())
      Sp = withParameter(Sp, Batch_);
    auto Dim = [&](const std::string &It) {
      return dimension(Sp, unsigned(llvm::find(Its, It) - Its.begin()));
    };
    isl::aff K = Dim(IterK);
    for (const AffineExpr &Extent : Before)
      K = K.add(floorDiv(affineFunction(Sp, Extent + AffineExpr::constant(SegmentAlign - 1)),
                         SegmentAlign)
                    .scale(isl::val(Ctx, SegmentAlign)));
    isl::map Reorder = functionMap(Sp, R, {Dim(Idiom.IterM), Dim(Idiom.IterN), K});
    if (!Idiom.IterBatch.empty())
      Reorder = Reorder.intersect_domain(equalSet(Dim(Idiom.IterBatch), parameter(Sp, Batch_)));
    return I.Domain.at(S.Name).apply(Reorder);
  };
  isl::set D = Segment(Idiom.Reduction, Idiom.IterK, {});
  std::vector<AffineExpr> Before{Idiom.ExtentK};
  for (auto &P : Idiom.MoreProducts) {
    D = D.unite(Segment(P.Reduction, P.IterK, Before));
    Before.push_back(P.ExtentK);
  }
  return D;
}

isl::set padToFullTiles(const isl::set &Domain, const KernelConfig &C) {
  // D' = T^-1(T(D)) with T the block-tile map: every point of a block tile
  // that holds at least one iteration. Operands are zero-filled outside the
  // arrays and the epilogue stores only the original domain.
  isl::space Sp = tileSpace(Domain, false);
  isl::map T = functionMap(Sp, "",
                           {floorDiv(dimension(Sp, 0), C.BlockM),
                            floorDiv(dimension(Sp, 1), C.BlockN),
                            floorDiv(dimension(Sp, 2), C.BlockK)});
  isl::set Tiles = Domain.apply(T);
  return Tiles.apply(T.reverse()).intersect_params(Domain.params());
}

isl::schedule initialSchedule(const isl::set &Domain) {
  isl::space Sp = tileSpace(Domain, false);
  isl::multi_union_pw_aff Band = isl::manage(isl_multi_union_pw_aff_from_multi_aff(
      multiFunction(Sp, "", {dimension(Sp, 0), dimension(Sp, 1), dimension(Sp, 2)}).release()));
  isl::schedule S = isl::schedule::from_domain(isl::union_set(Domain));
  isl::schedule_node N = S.root().child(0).insert_partial_schedule(Band);
  // m and n carry no dependence (checked on the model); k is the reduction,
  // reassociated by the tensor cores, so the band is permutable.
  isl_schedule_node *Raw = N.release();
  Raw = isl_schedule_node_band_set_permutable(Raw, 1);
  Raw = isl_schedule_node_band_member_set_coincident(Raw, 0, 1);
  Raw = isl_schedule_node_band_member_set_coincident(Raw, 1, 1);
  isl::schedule R = isl::manage(isl_schedule_node_get_schedule(Raw));
  isl_schedule_node_free(Raw);
  return R;
}

/// The outermost band node of a tree whose root has a single child chain.
static isl::schedule_node band(const isl::schedule &S, unsigned Depth) {
  isl::schedule_node N = S.root().child(0);
  for (unsigned D = 0; D < Depth; ++D)
    N = N.child(0);
  return N;
}

static isl::schedule tileBand(const isl::schedule &S, unsigned Depth,
                              std::vector<int> Sizes) {
  isl::schedule_node N = band(S, Depth);
  isl::space Sp = isl::manage(isl_schedule_node_band_get_space(N.get()));
  isl::multi_val MV = isl::multi_val::zero(Sp);
  for (size_t I = 0; I < Sizes.size(); ++I)
    MV = MV.set_at(I, isl::val(S.ctx(), Sizes[I]));
  isl_ctx *Ctx = S.ctx().get();
  isl_options_set_tile_scale_tile_loops(Ctx, 0);
  isl_options_set_tile_shift_point_loops(Ctx, 1);
  isl_schedule_node *T = isl_schedule_node_band_tile(N.release(), MV.release());
  isl::schedule R = isl::manage(isl_schedule_node_get_schedule(T));
  isl_schedule_node_free(T);
  return R;
}

isl::schedule tileForBlocks(const isl::schedule &S, const KernelConfig &C) {
  return tileBand(S, 0, {C.BlockM, C.BlockN, C.BlockK});
}

isl::schedule splitReductionTile(const isl::schedule &S) {
  isl_schedule_node *N = isl_schedule_node_band_split(band(S, 0).release(), 2);
  isl::schedule R = isl::manage(isl_schedule_node_get_schedule(N));
  isl_schedule_node_free(N);
  return R;
}

isl::schedule tileForWarps(const isl::schedule &S, const KernelConfig &C) {
  return tileBand(S, 2, {C.issuerTileM(), C.issuerTileN(), C.BlockK});
}

isl::schedule stripMineReduction(const isl::schedule &S, const KernelConfig &C) {
  return tileBand(S, 3, {C.issuerTileM(), C.issuerTileN(), C.MmaK});
}

isl::schedule contractToMma(const isl::schedule &S, const KernelConfig &C) {
  isl::space Sp = tileSpace(toSet(S.domain()), false);
  isl::aff Zero = constant(Sp, 0);
  isl::set Lattice = equalSet(modulo(dimension(Sp, 0), C.instrM()), Zero)
                         .intersect(equalSet(modulo(dimension(Sp, 1), C.instrN()), Zero))
                         .intersect(equalSet(modulo(dimension(Sp, 2), C.MmaK), Zero));
  return intersectDomain(S, Lattice);
}

isl::schedule mapToBlocksAndWarps(const isl::schedule &S, const KernelConfig &C) {
  isl::set D = toSet(S.domain());
  isl::aff M, N;
  auto Fixed = [&](const isl::space &Sp, const isl::aff &Tile, const char *Id) {
    return equalSet(Tile, parameter(Sp, Id));
  };
  if (C.wgmma()) {
    // Warpgroup g issues the instructions of rows [64 g, 64 g + 64) of the
    // block tile, each over all its columns (of a transposed tile,
    // KernelConfig::transposedTile: of columns [64 g, 64 g + 64), each over
    // all its rows).
    isl::space Sp = tileSpace(D, true, {BlockM, BlockN, Warpgroup});
    M = dimension(Sp, 0), N = dimension(Sp, 1);
    isl::aff Issued = C.transposedTile() ? floorDiv(modulo(N, C.BlockN), C.WgmmaM)
                                      : floorDiv(modulo(M, C.BlockM), C.WgmmaM);
    isl::set Map = Fixed(Sp, floorDiv(M, C.BlockM), BlockM)
                       .intersect(Fixed(Sp, floorDiv(N, C.BlockN), BlockN))
                       .intersect(Fixed(Sp, Issued, Warpgroup))
                       .intersect(rangeSet(parameter(Sp, Warpgroup), 0, C.warpgroups()));
    return intersectDomain(S, Map);
  }
  isl::space Sp = tileSpace(D, true, {BlockM, BlockN, WarpM, WarpN});
  M = dimension(Sp, 0), N = dimension(Sp, 1);
  isl::set Map = Fixed(Sp, floorDiv(M, C.BlockM), BlockM)
                     .intersect(Fixed(Sp, floorDiv(N, C.BlockN), BlockN))
                     .intersect(Fixed(Sp, floorDiv(modulo(M, C.BlockM), C.WarpM), WarpM))
                     .intersect(Fixed(Sp, floorDiv(modulo(N, C.BlockN), C.WarpN), WarpN))
                     .intersect(rangeSet(parameter(Sp, WarpM), 0, C.warpsM()))
                     .intersect(rangeSet(parameter(Sp, WarpN), 0, C.warpsN()));
  return intersectDomain(S, Map);
}

isl::schedule mapReductionToWarpGroups(const isl::schedule &S, const KernelConfig &C) {
  if (C.WarpSplitK == 1)
    return S;
  isl::space Sp = tileSpace(toSet(S.domain()), true, {WarpK});
  // The share of a group is contiguous, so that its fragments come from
  // neighbouring columns (rows) of the stage, and the same for every k
  // tile: a point's k step within its tile, divided by the share.
  const int Share = C.groupKSteps() * C.MmaK;
  isl::set Map =
      equalSet(floorDiv(modulo(dimension(Sp, 2), C.BlockK), Share), parameter(Sp, WarpK))
          .intersect(rangeSet(parameter(Sp, WarpK), 0, C.WarpSplitK));
  return intersectDomain(S, Map);
}

ComputeSchedule decomposeCompute(const RegionModel &M, const MatmulIdiom &Idiom,
                                 const IslModel &I, const KernelConfig &C) {
  ComputeSchedule CS;
  isl::set D = reductionDomain(M, Idiom, I, C.BlockK);
  CS.PaddedDomain = padToFullTiles(D, C);
  CS.Steps.push_back({"padToFullTiles (domain: " + islStr(CS.PaddedDomain) + ")", ""});
  isl::schedule S = initialSchedule(CS.PaddedDomain);
  CS.Steps.push_back({"initialSchedule", printTree(S)});
  S = tileForBlocks(S, C);
  CS.Steps.push_back({"tileForBlocks", printTree(S)});
  S = splitReductionTile(S);
  CS.Steps.push_back({"splitReductionTile", printTree(S)});
  // With wgmma the instruction issuer is a warpgroup, its tile 64 x BN.
  const char *Issuer = C.wgmma() ? " (warpgroups: 64 x BN)" : "";
  S = tileForWarps(S, C);
  CS.Steps.push_back({std::string("tileForWarps") + Issuer, printTree(S)});
  S = stripMineReduction(S, C);
  CS.Steps.push_back({"stripMineReduction", printTree(S)});
  S = contractToMma(S, C);
  CS.Steps.push_back({C.wgmma() ? "contractToMma (one point per m64n" +
                                      std::to_string(C.accumulatorCols()) + "k16 wgmma)"
                                : std::string("contractToMma"),
                      printTree(S)});
  S = mapToBlocksAndWarps(S, C);
  CS.Steps.push_back({C.wgmma() ? "mapToBlocksAndWarps (warpgroups)" : "mapToBlocksAndWarps",
                      printTree(S)});
  if (C.WarpSplitK > 1) {
    S = mapReductionToWarpGroups(S, C);
    CS.Steps.push_back({"mapReductionToWarpGroups (intra-block split-K p=" +
                            std::to_string(C.WarpSplitK) + ")",
                        printTree(S)});
  }
  CS.Tree = S;
  CS.ContractedDomain = toSet(S.domain());
  return CS;
}

} // namespace tc
