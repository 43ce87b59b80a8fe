//===- ScheduleSteps.cpp --------------------------------------------------===//
#include "ScheduleSteps.h"
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

static std::string params(const isl::set &S) {
  // "[M, N, K, tc_block_m, ...]" as parsed by isl, reused for new objects.
  std::string P = "[";
  isl::space Sp = S.space();
  unsigned N = isl_space_dim(Sp.get(), isl_dim_param);
  for (unsigned I = 0; I < N; ++I)
    P += std::string(I ? ", " : "") +
         isl_space_get_dim_name(Sp.get(), isl_dim_param, I);
  return P + "]";
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
  // A batch loop becomes the parameter tc_batch (blockIdx.z): each batch
  // element is one independent GEMM.
  std::string Params = M.paramList();
  if (!Idiom.IterBatch.empty()) {
    Params.pop_back();
    Params += std::string(Params.size() > 1 ? ", " : "") + Batch_ + "]";
  }
  const std::string R = M.Stmts[Idiom.Reduction].Name;
  // Product p of a sum of matmuls continues k where product p - 1 ends,
  // rounded up to whole k tiles (SegmentAlign), so that no k tile mixes
  // two products.
  auto Segment = [&](unsigned Stmt, const std::string &IterK, const std::string &Offset) {
    const Statement &S = M.Stmts[Stmt];
    auto Its = M.iterators(S);
    std::string Tuple = "[";
    for (size_t P = 0; P < Its.size(); ++P)
      Tuple += (P ? ", " : "") + Its[P];
    Tuple += "]";
    std::string Batch =
        Idiom.IterBatch.empty() ? "" : " : " + Idiom.IterBatch + " = " + Batch_;
    isl::map Reorder(I.Context.ctx(), Params + " -> { " + S.Name + Tuple + " -> " + R +
                                          "[" + Idiom.IterM + ", " + Idiom.IterN + ", " +
                                          IterK + Offset + "]" + Batch + " }");
    return I.Domain.at(S.Name).apply(Reorder);
  };
  isl::set D = Segment(Idiom.Reduction, Idiom.IterK, "");
  std::string Offset;
  std::string A = std::to_string(SegmentAlign);
  AffineExpr PrevK = Idiom.ExtentK;
  for (auto &P : Idiom.MoreProducts) {
    Offset += " + " + A + " * floor((" + PrevK.str() + " + " + std::to_string(SegmentAlign - 1) +
              ") / " + A + ")";
    D = D.unite(Segment(P.Reduction, P.IterK, Offset));
    PrevK = P.ExtentK;
  }
  return D;
}

isl::set padToFullTiles(const isl::set &Domain, const KernelConfig &C) {
  // D' = T^-1(T(D)) with T the block-tile map: every point of a block tile
  // that holds at least one iteration. Operands are zero-filled outside the
  // arrays and the epilogue stores only the original domain.
  std::string Name = tupleName(Domain);
  isl::map T(Domain.ctx(),
             "{ " + Name + "[m, n, k] -> [floor(m / " + std::to_string(C.BlockM) +
                 "), floor(n / " + std::to_string(C.BlockN) + "), floor(k / " +
                 std::to_string(C.BlockK) + ")] }");
  isl::set Tiles = Domain.apply(T);
  return Tiles.apply(T.reverse()).intersect_params(Domain.params());
}

isl::schedule initialSchedule(const isl::set &Domain) {
  std::string Name = tupleName(Domain);
  isl::multi_union_pw_aff Band(Domain.ctx(), "[{ " + Name + "[m, n, k] -> [(m)] }, { " +
                                                 Name + "[m, n, k] -> [(n)] }, { " +
                                                 Name + "[m, n, k] -> [(k)] }]");
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
  isl::set D = toSet(S.domain());
  std::string Name = tupleName(D);
  isl::set Lattice(S.ctx(), "{ " + Name + "[m, n, k] : m mod " +
                                std::to_string(C.instrM()) + " = 0 and n mod " +
                                std::to_string(C.instrN()) + " = 0 and k mod " +
                                std::to_string(C.MmaK) + " = 0 }");
  return intersectDomain(S, Lattice);
}

isl::schedule mapToBlocksAndWarps(const isl::schedule &S, const KernelConfig &C) {
  isl::set D = toSet(S.domain());
  std::string Name = tupleName(D);
  auto Str = [](int X) { return std::to_string(X); };
  std::string P = params(D);
  P.pop_back();
  if (C.wgmma()) {
    // Warpgroup g issues the instructions of rows [64 g, 64 g + 64) of the
    // block tile, each over all its columns (of a transposed tile,
    // KernelConfig::RawFragmentsB: of columns [64 g, 64 g + 64), each over
    // all its rows).
    P += std::string(", ") + BlockM + ", " + BlockN + ", " + Warpgroup + "]";
    std::string Issued = C.RawFragmentsB ? "floor((n mod " + Str(C.BlockN) + ") / "
                                         : "floor((m mod " + Str(C.BlockM) + ") / ";
    isl::set Map(S.ctx(), P + " -> { " + Name + "[m, n, k] : floor(m / " + Str(C.BlockM) +
                              ") = " + BlockM + " and floor(n / " + Str(C.BlockN) + ") = " +
                              BlockN + " and " + Issued + Str(C.WgmmaM) + ") = " + Warpgroup +
                              " and 0 <= " + Warpgroup + " < " + Str(C.warpgroups()) + " }");
    return intersectDomain(S, Map);
  }
  P += std::string(", ") + BlockM + ", " + BlockN + ", " + WarpM + ", " + WarpN + "]";
  isl::set Map(S.ctx(),
               P + " -> { " + Name + "[m, n, k] : floor(m / " + Str(C.BlockM) +
                   ") = " + BlockM + " and floor(n / " + Str(C.BlockN) + ") = " +
                   BlockN + " and floor((m mod " + Str(C.BlockM) + ") / " +
                   Str(C.WarpM) + ") = " + WarpM + " and floor((n mod " +
                   Str(C.BlockN) + ") / " + Str(C.WarpN) + ") = " + WarpN +
                   " and 0 <= " + WarpM + " < " + Str(C.warpsM()) + " and 0 <= " +
                   WarpN + " < " + Str(C.warpsN()) + " }");
  return intersectDomain(S, Map);
}

isl::schedule mapReductionToWarpGroups(const isl::schedule &S, const KernelConfig &C) {
  if (C.WarpSplitK == 1)
    return S;
  isl::set D = toSet(S.domain());
  std::string Name = tupleName(D);
  std::string P = params(D);
  P.pop_back();
  P += std::string(", ") + WarpK + "]";
  // The share of a group is contiguous, so that its fragments come from
  // neighbouring columns (rows) of the stage, and the same for every k
  // tile: a point's k step within its tile, divided by the share.
  std::string Share = std::to_string(C.groupKSteps() * C.MmaK);
  isl::set Map(S.ctx(), P + " -> { " + Name + "[m, n, k] : floor((k mod " +
                            std::to_string(C.BlockK) + ") / " + Share + ") = " + WarpK +
                            " and 0 <= " + WarpK + " < " +
                            std::to_string(C.WarpSplitK) + " }");
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
                                      std::to_string(C.BlockN) + "k16 wgmma)"
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
