//===- KernelSchedule.cpp -------------------------------------------------===//
#include "KernelSchedule.h"
#include "AstPrinter.h"
#include "IslBuild.h"
#include <cassert>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <isl/ast_build.h>
#include <isl/schedule.h>

namespace tc {
namespace {

using namespace kernel_ids;

std::string str(long X) { return std::to_string(X); }

/// `[] -> { : }`: no parameters.
isl::space noParams(isl::ctx Ctx) {
  return isl::manage(isl_space_params_alloc(Ctx.get(), 0));
}

//===----------------------------------------------------------------------===//
// The kernel's isl objects, built through isl's API (IslBuild.h). Each is
// built as isl's parser built the text that described it before, so that
// the objects, the printed trees and the generated code stay the same:
// the parameters in the order declared, a dimension that an expression
// defines anonymous, a relation's defined dimensions and then each
// conjunct of its formula intersected in the order written (a chain
// `a <= b < c` is one conjunct), and a band's pieces added in order.
//===----------------------------------------------------------------------===//

/// A tuple `Name[Dims]` over some parameters, the parameters alone (a
/// formula `{ : ... }`), or a relation `Domain -> Range`, wrapped so that
/// its formula involves both. A dimension whose name is empty is
/// anonymous; a name that is no dimension's is a parameter's.
class Tuple {
public:
  Tuple(const isl::space &Params, const std::string &Name, const std::vector<std::string> &Dims)
      : Names(Dims), NDomain(0) {
    isl_space *S = isl_space_add_dims(isl_space_set_from_params(Params.copy()), isl_dim_set,
                                      unsigned(Dims.size()));
    for (size_t D = 0; D < Dims.size(); ++D)
      if (!Dims[D].empty())
        S = isl_space_set_dim_name(S, isl_dim_set, unsigned(D), Dims[D].c_str());
    if (!Name.empty())
      S = isl_space_set_tuple_name(S, isl_dim_set, Name.c_str());
    if (!S)
      isl::exception::throw_last_error(Params.ctx());
    Sp = isl::manage(S);
  }
  /// The parameters alone.
  explicit Tuple(const isl::space &Params) : Sp(Params), NDomain(0) {}
  /// `Domain -> Range`.
  Tuple(const Tuple &Domain, const Tuple &Range)
      : Names(Domain.Names), NDomain(unsigned(Domain.Names.size())) {
    Names.insert(Names.end(), Range.Names.begin(), Range.Names.end());
    isl_space *S = isl_space_wrap(
        isl_space_map_from_domain_and_range(Domain.Sp.copy(), Range.Sp.copy()));
    if (!S)
      isl::exception::throw_last_error(Domain.Sp.ctx());
    Sp = isl::manage(S);
  }

  /// The dimension Name (the domain's where both have it), else the
  /// parameter.
  isl::aff operator()(const std::string &Name) const {
    for (size_t D = 0; D < Names.size(); ++D)
      if (Names[D] == Name)
        return dimension(Sp, unsigned(D));
    return parameter(Sp, Name);
  }
  isl::aff operator()(int Value) const { return constant(Sp, Value); }
  isl::aff dim(unsigned Pos) const { return dimension(Sp, Pos); }

  const isl::space &space() const { return Sp; }
  isl::set universe() const { return isl::set::universe(Sp); }
  const std::vector<std::string> &names() const { return Names; }
  /// The dimensions of a relation's domain (0 for a tuple).
  unsigned domainDims() const { return NDomain; }

private:
  isl::space Sp;
  std::vector<std::string> Names;
  unsigned NDomain;
};

/// A as isl's parser leaves an expression it has read: a piecewise sum
/// from zero, whose integer divisions are simplified on their (universe)
/// domain (floor((m mod 128) / 256) is 0).
isl::aff simplified(const isl::aff &A) {
  isl::pw_aff Zero(constant(isl::manage(isl_aff_get_domain_space(A.get())), 0));
  isl_aff *R = isl_pw_aff_as_aff(isl_pw_aff_add(Zero.release(), isl::pw_aff(A).release()));
  if (!R)
    isl::exception::throw_last_error(A.ctx());
  return isl::manage(R);
}

isl::aff operator+(const isl::aff &A, const isl::aff &B) { return simplified(A.add(B)); }
isl::aff operator-(const isl::aff &A, const isl::aff &B) { return simplified(A.sub(B)); }
isl::aff operator+(const isl::aff &A, long C) { return simplified(A.add_constant(C)); }
isl::aff operator-(const isl::aff &A, long C) { return simplified(A.add_constant(-C)); }
isl::aff operator*(long F, const isl::aff &A) { return simplified(A.scale(F)); }
/// `A mod D` and `floor(A / D)`, as isl's text has them.
isl::aff operator%(const isl::aff &A, long D) { return simplified(modulo(A, D)); }
isl::aff floorOf(const isl::aff &A, long D) { return simplified(floorDiv(A, D)); }

isl::pw_aff fn(const isl::aff &A) { return isl::pw_aff(simplified(A)); }

/// The comparison of A and B, as the parser builds it: the universe of
/// their domain intersected with the comparison.
isl::set compare(const isl::aff &A, const isl::aff &B,
                 isl_set *(*Op)(isl_pw_aff *, isl_pw_aff *)) {
  isl::set U = isl::set::universe(isl::manage(isl_aff_get_domain_space(A.get())));
  return U.intersect(isl::manage(Op(fn(A).release(), fn(B).release())));
}
isl::set eq(const isl::aff &A, const isl::aff &B) { return compare(A, B, isl_pw_aff_eq_set); }
isl::set le(const isl::aff &A, const isl::aff &B) { return compare(A, B, isl_pw_aff_le_set); }
isl::set lt(const isl::aff &A, const isl::aff &B) { return compare(A, B, isl_pw_aff_lt_set); }
isl::set ge(const isl::aff &A, const isl::aff &B) { return compare(A, B, isl_pw_aff_ge_set); }
isl::set gt(const isl::aff &A, const isl::aff &B) { return compare(A, B, isl_pw_aff_gt_set); }

/// One conjunct of a formula: a comparison, or a chain of them.
struct Conjunct {
  Conjunct(isl::set S) : Parts{std::move(S)} {}
  Conjunct(std::vector<isl::set> P) : Parts(std::move(P)) {}
  std::vector<isl::set> Parts;
};
/// `Lo <= X < Hi`.
Conjunct within(const isl::aff &Lo, const isl::aff &X, const isl::aff &Hi) {
  return std::vector<isl::set>{le(Lo, X), lt(X, Hi)};
}

/// Base restricted by a formula, the conjunction of Conjuncts.
isl::set where(const isl::set &Base, const std::vector<Conjunct> &Conjuncts) {
  isl::set Res = Base;
  for (size_t I = 0; I < Conjuncts.size(); ++I) {
    isl::set Part = Base;
    for (const isl::set &S : Conjuncts[I].Parts)
      Part = Part.intersect(S);
    Res = I ? Res.intersect(Part) : Part;
  }
  return Res;
}
/// `{ T : Conjuncts }`.
isl::set where(const Tuple &T, const std::vector<Conjunct> &Conjuncts) {
  return where(T.universe(), Conjuncts);
}

/// `{ Domain -> Range : Conjuncts }` of relation tuple Rel, each
/// anonymous dimension of the range (in order) equal to its function in
/// Defs.
isl::map relation(const Tuple &Rel, const std::vector<isl::aff> &Defs,
                  const std::vector<Conjunct> &Conjuncts = {}) {
  isl::set Base = Rel.universe();
  size_t Def = 0;
  for (size_t D = Rel.domainDims(); D < Rel.names().size(); ++D) {
    if (!Rel.names()[D].empty())
      continue;
    isl::aff Zero = Defs.at(Def++) - Rel.dim(unsigned(D));
    Base = Base.intersect(isl::manage(isl_pw_aff_zero_set(fn(Zero).release())));
  }
  assert(Def == Defs.size() && "a function for each anonymous dimension");
  return where(Base, Conjuncts).unwrap();
}

/// `[{ pieces of member 0 }, { pieces of member 1 }, ...]` over Params: a
/// band, each member a union of functions on statement tuples.
isl::multi_union_pw_aff band(const isl::space &Params,
                             const std::vector<std::vector<isl::aff>> &Members) {
  isl_ctx *Ctx = Params.ctx().get();
  isl_union_pw_aff_list *List = isl_union_pw_aff_list_alloc(Ctx, 0);
  for (const std::vector<isl::aff> &Pieces : Members) {
    // (From the empty union, as isl's parser: the order of the pieces
    // in the union's table, and so in the printed tree, follows.)
    isl_union_pw_aff *U = isl_union_pw_aff_empty(Params.copy());
    for (const isl::aff &Piece : Pieces)
      U = isl_union_pw_aff_add_pw_aff(U, fn(Piece).release());
    List = isl_union_pw_aff_list_add(List, U);
  }
  isl_space *Sp = isl_space_add_dims(isl_space_set_from_params(Params.copy()), isl_dim_set,
                                     unsigned(Members.size()));
  isl_multi_union_pw_aff *B = isl_multi_union_pw_aff_from_union_pw_aff_list(Sp, List);
  if (!B)
    isl::exception::throw_last_error(Params.ctx());
  return isl::manage(B);
}

isl::schedule sequence(const isl::schedule &A, const isl::schedule &B) {
  return isl::manage(isl_schedule_sequence(A.copy(), B.copy()));
}

/// S with the band Band, which it takes, as it took the band it parsed:
/// isl floors a band's functions in place only where nothing else holds
/// them. A shared band is duplicated first, into new tables, and its
/// pieces come out in another order (the tree that --explain prints).
isl::schedule withBand(const isl::schedule &S, isl::multi_union_pw_aff Band) {
  return isl::manage(isl_schedule_insert_partial_schedule(S.copy(), Band.release()));
}

isl::schedule leaf(const isl::set &D) {
  return isl::schedule::from_domain(isl::union_set(D));
}

/// Sets the AST loop type of the outermost band of S (one member).
isl::schedule withLoopType(const isl::schedule &S, isl_ast_loop_type Type) {
  isl_schedule_node *Node = isl_schedule_get_root(S.get());
  Node = isl_schedule_node_child(Node, 0);
  Node = isl_schedule_node_band_member_set_ast_loop_type(Node, 0, Type);
  isl_schedule *Result = isl_schedule_node_get_schedule(Node);
  isl_schedule_node_free(Node);
  return isl::manage(Result);
}

isl::set rename(const isl::set &S, const char *Name) {
  return isl::manage(isl_set_set_tuple_name(S.copy(), Name));
}

class Builder {
public:
  Builder(const RegionModel &M, const MatmulIdiom &Idiom, const IslModel &I,
          const ComputeSchedule &CS, const KernelConfig &C,
          const StatementTexts &T)
      : M(M), Idiom(Idiom), I(I), CS(CS), C(C), T(T),
        Ctx(I.Context.ctx()), R(M.Stmts[Idiom.Reduction].Name),
        Params(ids()), NoParams(noParams(Ctx)) {}

  KernelSchedule run() {
    KS.Context = threadContext();
    // Split-K: a block computes the k tiles [tc_k_begin, tc_k_end).
    Tuple ToTile(tuple(R, {"m", "n", "k"}), tuple("", {""}));
    Tuple Tiles = tuple("", {"t"});
    KTiles = CS.PaddedDomain.apply(relation(ToTile, {floorOf(ToTile("k"), C.BlockK)}))
                 .intersect(where(Tiles, {within(Tiles(KBegin), Tiles("t"), Tiles(KEnd))}));
    Output = outputDomain();
    KS.GridTiles = gridTiles(Output);
    // The grid launches exactly the tiles that hold output elements, so a
    // block's own tile is one of them: isl drops the "is my tile empty"
    // guards, which would otherwise split the main loop into basic blocks
    // that the instruction scheduler cannot interleave.
    Tuple Mine = tuple("", {"bm", "bn"});
    KS.Context = KS.Context.intersect(
        KS.GridTiles
            .intersect(where(Mine, {eq(Mine("bm"), Mine(BlockM)), eq(Mine("bn"), Mine(BlockN))}))
            .params());
    if (C.Tma) {
      isl::schedule Main = insertTmaConsumerLoop(insertWarpgroupMma());
      KS.Producer = insertTmaProducerLoop();
      KS.Tree = sequence(Main, insertEpilogue());
      KS.Steps.push_back({"producer schedule (TMA copies into the stages)",
                          printTree(*KS.Producer)});
      if (KS.Storer)
        KS.Steps.push_back({"epilogue warpgroups' schedule (stores of each staged tile)",
                            printTree(*KS.Storer)});
      KS.Steps.push_back({"consumer schedule (wgmma pipeline, epilogue)", printTree(KS.Tree)});
      return KS;
    }
    auto [Setup, Copies] = insertCopies();
    isl::schedule Main;
    if (C.wgmma()) {
      Main = insertWarpgroupPipeline(Copies, insertWarpgroupMma());
    } else {
      isl::schedule Compute = insertFragmentLoads();
      Main = insertPipeline(Copies, Compute);
    }
    isl::schedule Epilogue = insertEpilogue();
    KS.Tree = sequence(sequence(Setup, Main), Epilogue);
    KS.Steps.push_back({"kernel schedule (copies, pipeline, fragment loads, "
                        "epilogue)",
                        printTree(KS.Tree)});
    return KS;
  }

  /// The block tiles that hold elements of Output (outputDomain()).
  isl::set gridTiles(const isl::set &Output) { return Output.apply(storeTile()); }
  isl::set gridTiles() { return gridTiles(outputDomain()); }

private:
  /// `Name[Dims]` over the kernel's parameters (ids()), and without
  /// parameters (the bands').
  Tuple tuple(const std::string &Name, const std::vector<std::string> &Dims) const {
    return Tuple(Params, Name, Dims);
  }
  Tuple bare(const std::string &Name, const std::vector<std::string> &Dims) const {
    return Tuple(NoParams, Name, Dims);
  }

  /// A stage or phase argument: a StatementArg::Counter in TMA kernels,
  /// whose stages count uses from tc_k_begin (a long long). The cp.async
  /// kernels' stages are t mod S over their int loop iterator, already
  /// 32-bit; they keep the signed text (unsigned, the sm_80 mma.sync kernel
  /// of 128x256 tiles spilled at 255 registers).
  StatementArg counter(std::string Name, const isl::aff &Value) const {
    return {std::move(Name), fn(Value), C.Tma};
  }

  /// Params and the region's parameters.
  isl::space withModelParams() const {
    isl::space Sp = Params;
    for (const Parameter &P : M.Params)
      Sp = withParameter(Sp, P.Name);
    return Sp;
  }

  /// The kernel's parameters: the block's and the thread's coordinates,
  /// its k tiles, and those of the configuration, in this order.
  isl::space ids() const {
    std::vector<const char *> Names = {BlockM, BlockN,  WarpM,   WarpN,  Thread,
                                       LaneRow, LaneCol, Batch_, KBegin, KEnd};
    if (splitAcrossWarps())
      Names.push_back(WarpK);
    if (C.wgmma())
      Names.push_back(Warpgroup);
    if (C.PersistentTiles)
      Names.push_back(KOrigin);
    isl::space Sp = noParams(Ctx);
    for (const char *N : Names)
      Sp = withParameter(Sp, N);
    return Sp;
  }

  bool splitAcrossWarps() const { return C.WarpSplitK > 1; }

  isl::set threadContext() {
    Tuple P(Params);
    std::vector<Conjunct> Ids = {ge(P(BlockM), P(0)),
                                 ge(P(BlockN), P(0)),
                                 within(P(0), P(WarpM), P(C.warpsM())),
                                 within(P(0), P(WarpN), P(C.warpsN())),
                                 within(P(0), P(Thread), P(C.threads())),
                                 within(P(0), P(LaneRow), P(8)),
                                 within(P(0), P(LaneCol), P(4)),
                                 ge(P(Batch_), P(0)),
                                 within(P(0), P(KBegin), P(KEnd))};
    if (splitAcrossWarps())
      Ids.push_back(within(P(0), P(WarpK), P(C.WarpSplitK)));
    if (C.wgmma())
      Ids.push_back(within(P(0), P(Warpgroup), P(C.warpgroups())));
    if (C.PersistentTiles)
      Ids.push_back(ge(P(KOrigin), P(0)));
    return where(P, Ids).intersect_params(I.Context);
  }

  void add(KernelStatement S) { KS.Statements.push_back(std::move(S)); }

  /// A copy's chunk index i = floor(L / threads) of a thread's chunks, with
  /// L = chunks-per-row * r + c, on a tuple of r and c.
  isl::aff chunk(const Tuple &X, int ChunksPerRow) const {
    return floorOf(ChunksPerRow * X("r") + X("c"), C.threads());
  }

  /// A global coordinate of a copy's chunk, on its setup tuple [r, c].
  using Coordinate = std::function<isl::aff(const Tuple &)>;

  /// One operand's copy: rows x chunks of the shared tile of k tile t,
  /// spread over the threads; chunk index i = floor(L / threads) of a
  /// thread's chunks, with L = chunks-per-row * r + c. The per-thread setup
  /// of each chunk runs once before the main loop (SetupX), the copy
  /// itself (CopyX) once per k tile.
  std::pair<isl::schedule, isl::schedule>
  copyOperand(const char *Name, const char *SetupName, int Rows, int ChunksPerRow,
              const std::string &SetupTemplate, const std::string &Template,
              const std::string &LandTemplate, const Coordinate &GlobalRow,
              const Coordinate &GlobalCol) {
    auto Box = [&](const Tuple &X) {
      return std::vector<Conjunct>{
          within(X(0), X("r"), X(Rows)), within(X(0), X("c"), X(ChunksPerRow)),
          eq((ChunksPerRow * X("r") + X("c")) % C.threads(), X(Thread))};
    };
    Tuple Copy = tuple(Name, {"t", "r", "c"});
    Tuple SetupTuple = tuple(SetupName, {"r", "c"});
    Tuple ToCopy(tuple("", {"t"}), tuple(Name, {"", "r", "c"}));
    isl::set D = KTiles.apply(relation(ToCopy, {ToCopy("t")}, Box(ToCopy)));
    isl::set SD = where(SetupTuple, Box(SetupTuple));
    KernelStatement S;
    S.Name = Name;
    S.Domain = D;
    S.Template = Template;
    S.Args = {counter("stage", Copy("t") % C.Stages),
              {"i", fn(chunk(Copy, ChunksPerRow))},
              {"t", fn(Copy("t"))}};
    add(S);
    KernelStatement Setup;
    Setup.Name = SetupName;
    Setup.Domain = SD;
    Setup.Template = SetupTemplate;
    Setup.Args = {{"i", fn(chunk(SetupTuple, ChunksPerRow))},
                  {"r", fn(SetupTuple("r"))},
                  {"c", fn(C.vector() * SetupTuple("c"))},
                  {"grow", fn(GlobalRow(SetupTuple))},
                  {"gcol", fn(GlobalCol(SetupTuple))}};
    add(Setup);
    CopyChunks[Name] = ChunksPerRow;
    // Consecutive threads take consecutive chunks: coalesced global reads.
    isl::schedule Copies =
        withBand(leaf(D), band(NoParams, {{chunk(bare(Name, {"t", "r", "c"}), ChunksPerRow)}}));
    // The wgmma main loop has no k-step band to unroll them with: the
    // chunk loop is unrolled itself, so that chunk indices are constants.
    if (C.wgmma())
      Copies = withLoopType(Copies, isl_ast_loop_unroll);
    if (!LandTemplate.empty()) {
      // The second phase of a converted operand's copy: the same chunks,
      // converted from the registers the copy loaded into tile t's stage.
      std::string LandName = "Land" + std::string(Name).substr(4);
      Tuple Land = tuple(LandName, {"t", "r", "c"});
      isl::set LD = rename(D, LandName.c_str());
      add({LandName, LD,
           {counter("stage", Land("t") % C.Stages),
            {"i", fn(chunk(Land, ChunksPerRow))},
            {"t", fn(Land("t"))}},
           {}, LandTemplate});
      isl::schedule Landed = withLoopType(
          withBand(leaf(LD), band(NoParams, {{chunk(bare(LandName, {"t", "r", "c"}),
                                                    ChunksPerRow)}})),
          isl_ast_loop_unroll);
      Lands = Lands.is_null() ? Landed : sequence(Lands, Landed);
      LandNames.push_back(LandName);
    }
    return {withBand(leaf(SD),
                     band(NoParams, {{chunk(bare(SetupName, {"r", "c"}), ChunksPerRow)}})),
            Copies};
  }

  /// Returns (setup before the main loop, copies in the main loop).
  std::pair<isl::schedule, isl::schedule> insertCopies() {
    // A's shared tile is [BM][BK] when k is contiguous in memory, else
    // [BK][BM]; likewise B's is [BN][BK] or [BK][BN]. Global coordinates
    // are those of k tile 0.
    int V = C.vector();
    auto Row = [](const Tuple &X) { return X("r"); };
    auto Chunk = [V](const Tuple &X) { return V * X("c"); };
    auto BlockRowA = [&](const Coordinate &Within) {
      return [&, Within](const Tuple &X) { return C.BlockM * X(BlockM) + Within(X); };
    };
    auto BlockRowB = [&](const Coordinate &Within) {
      return [&, Within](const Tuple &X) { return C.BlockN * X(BlockN) + Within(X); };
    };
    // Converted operands land one iteration after their loads on the wgmma
    // loop (T.LandX is then set).
    auto A = Idiom.A.ReductionIsContiguous
                 ? copyOperand("CopyA", "SetupA", C.BlockM, C.BlockK / V, T.SetupA,
                               T.CopyA, T.LandA, BlockRowA(Row), Chunk)
                 : copyOperand("CopyA", "SetupA", C.BlockK, C.BlockM / V, T.SetupA,
                               T.CopyA, T.LandA, Row, BlockRowA(Chunk));
    auto B = Idiom.B.ReductionIsContiguous
                 ? copyOperand("CopyB", "SetupB", C.BlockN, C.BlockK / V, T.SetupB,
                               T.CopyB, T.LandB, BlockRowB(Row), Chunk)
                 : copyOperand("CopyB", "SetupB", C.BlockK, C.BlockN / V, T.SetupB,
                               T.CopyB, T.LandB, Row, BlockRowB(Chunk));
    return {sequence(A.first, B.first), sequence(A.second, B.second)};
  }

  /// The k steps per tile of one warp group, over which the step band of
  /// the main loop runs.
  int kSteps() const { return C.groupKSteps(); }
  /// A k step kk of the tile (of the Mma, LoadA, LoadB tuples) as the step
  /// of its warp group's share, kk - KS/P * tc_warp_k on their domains.
  isl::aff groupStep(const Tuple &X) const {
    return splitAcrossWarps() ? X("kk") % kSteps() : X("kk");
  }
  bool doubleBuffered() const { return C.doubleBufferedFragments(); }
  /// The k steps of an iteration over which its copies are spread: all but
  /// the last, whose wait needs them committed.
  int copySteps() const { return doubleBuffered() ? kSteps() - 1 : 1; }

  isl::schedule insertFragmentLoads() {
    // The mma instances of this warp, in (k tile, k step, m tile, n tile).
    Tuple ToMma(tuple(R, {"m", "n", "k"}), tuple("Mma", {"", "", "", ""}));
    isl::aff Tile = floorOf(ToMma("k"), C.BlockK);
    isl::set Mma = CS.ContractedDomain.apply(
        relation(ToMma,
                 {Tile, floorOf(ToMma("k") % C.BlockK, C.MmaK),
                  floorOf(ToMma("m") % C.WarpM, 16), floorOf(ToMma("n") % C.WarpN, 8)},
                 {within(ToMma(KBegin), Tile, ToMma(KEnd))}));
    Tuple MmaToA(tuple("Mma", {"t", "kk", "mt", "nt"}), tuple("LoadA", {"", "", ""}));
    isl::set LoadA = Mma.apply(relation(MmaToA, {MmaToA("t"), MmaToA("kk"), MmaToA("mt")}));
    Tuple MmaToB(tuple("Mma", {"t", "kk", "mt", "nt"}), tuple("LoadB", {"", "", ""}));
    isl::set LoadB =
        Mma.apply(relation(MmaToB, {MmaToB("t"), MmaToB("kk"), floorOf(MmaToB("nt"), 2)}));
    auto Buf = [&](const Tuple &X) { return doubleBuffered() ? groupStep(X) % 2 : X(0); };
    Tuple MmaT = tuple("Mma", {"t", "kk", "mt", "nt"});
    add({"Mma", Mma,
         {{"mt", fn(MmaT("mt"))}, {"nt", fn(MmaT("nt"))}, {"buf", fn(Buf(MmaT))}},
         {}, T.Mma});
    Tuple A = tuple("LoadA", {"t", "kk", "mt"});
    add({"LoadA", LoadA,
         {counter("stage", A("t") % C.Stages),
          {"mt", fn(A("mt"))},
          {"m0", fn(C.WarpM * A(WarpM) + 16 * A("mt"))},
          {"k0", fn(C.MmaK * A("kk"))},
          {"kk", fn(groupStep(A))},
          {"buf", fn(Buf(A))}},
         {}, T.LoadA});
    Tuple B = tuple("LoadB", {"t", "kk", "np"});
    add({"LoadB", LoadB,
         {counter("stage", B("t") % C.Stages),
          {"nt", fn(2 * B("np"))},
          {"n0", fn(C.WarpN * B(WarpN) + 16 * B("np"))},
          {"k0", fn(C.MmaK * B("kk"))},
          {"kk", fn(groupStep(B))},
          {"np", fn(B("np"))},
          {"buf", fn(Buf(B))}},
         {}, T.LoadB});
    FragLoads = sequence(
        withBand(leaf(LoadA), band(NoParams, {{bare("LoadA", {"t", "kk", "mt"})("mt")}})),
        withBand(leaf(LoadB), band(NoParams, {{bare("LoadB", {"t", "kk", "np"})("np")}})));
    Tuple Order = bare("Mma", {"t", "kk", "mt", "nt"});
    return withBand(leaf(Mma), band(NoParams, {{Order("mt")}, {Order("nt")}}));
  }

  /// wgmma: one instruction per (k tile, k step) and warpgroup, reading
  /// both operands from the stage of the tile. Returns the k-step band
  /// (unrolled) between the warpgroup's arrive and commit.
  isl::schedule insertWarpgroupMma() {
    Tuple ToWgmma(tuple(R, {"m", "n", "k"}), tuple("Wgmma", {"", ""}));
    isl::aff Tile = floorOf(ToWgmma("k"), C.BlockK);
    isl::set Wgmma = CS.ContractedDomain.apply(
        relation(ToWgmma, {Tile, floorOf(ToWgmma("k") % C.BlockK, C.MmaK)},
                 {within(ToWgmma(KBegin), Tile, ToWgmma(KEnd))}));
    Tuple W = tuple("Wgmma", {"t", "kk"});
    std::vector<StatementArg> WgmmaArgs = {counter("stage", stageOf(W)), {"kk", fn(W("kk"))}};
    // (A's fragments with TMA stages, or a raw B's, KernelConfig::
    // fragmentsByParity: in the buffer of the tile's parity.)
    if (C.fragmentsByParity())
      WgmmaArgs.push_back({"buf", fn(useOf(W) % 2)});
    add({"Wgmma", Wgmma, WgmmaArgs, {}, T.Wgmma});
    if (C.WgmmaRegisterA && !C.Tma) {
      // A from registers: the warp's 16 rows of every k step of the tile,
      // loaded (and transformed by the prologue) before the arrive (with
      // TMA stages, fragmentsConsumerLoop loads them).
      Tuple ToA(tuple("Wgmma", {"t", "kk"}), tuple("LoadA", {"", "", ""}));
      isl::set LoadA = Wgmma.apply(relation(ToA, {ToA("t"), ToA("kk"), ToA(0)}));
      Tuple A = tuple("LoadA", {"t", "kk", "mt"});
      add({"LoadA", LoadA,
           {counter("stage", stageOf(A)),
            {"mt", fn(A("mt"))},
            {"kk", fn(A("kk"))},
            {"buf", fn(A("kk"))}},
           {}, T.LoadA});
      FragLoads = withLoopType(
          withBand(leaf(LoadA), band(NoParams, {{bare("LoadA", {"t", "kk", "mt"})("kk")}})),
          isl_ast_loop_unroll);
    }
    return withLoopType(withBand(leaf(Wgmma), band(NoParams, {{bare("Wgmma", {"t", "kk"})("kk")}})),
                        isl_ast_loop_unroll);
  }

  /// `{ [t] -> Commit[c] : t - Ahead <= c <= t }`: the commits of the
  /// iterations that tile t's copies may wait on.
  isl::map commits(int Ahead) const {
    Tuple ToCommit(tuple("", {"t"}), tuple("Commit", {"c"}));
    return relation(ToCommit, {},
                    {std::vector<isl::set>{le(ToCommit("t") - Ahead, ToCommit("c")),
                                           le(ToCommit("c"), ToCommit("t"))}});
  }

  /// `{ [t] -> [t - Shift] }`.
  isl::map shiftTiles(int Shift) const {
    Tuple Shifted(tuple("", {"t"}), tuple("", {""}));
    return relation(Shifted, {Shifted("t") - Shift});
  }

  /// The piece `Name[Dims] -> [(t + Offset)]` of a band.
  isl::aff tileOf(const std::string &Name, const std::vector<std::string> &Dims,
                  int Offset = 0) const {
    Tuple X = bare(Name, Dims);
    return Offset ? X("t") + Offset : X("t");
  }

  /// The wgmma main loop. Iteration t: wait until tile t has landed (and
  /// make the copies visible to the async proxy), issue tile t's wgmma as
  /// one group, refill the stage of tile t - 1 with tile t + S - 1 while
  /// the tensor cores run, and wait for the group: the next iteration's
  /// barrier then frees tile t's stage for the copies that follow it.
  /// With one group left in flight (KernelConfig::WgmmaPending), the wait
  /// only retires tile t - 1's group, so the copies refill the stage of
  /// tile t - 2 with tile t + S - 2.
  isl::schedule insertWarpgroupPipeline(const isl::schedule &Copies,
                                        const isl::schedule &Compute) {
    int A = C.copyDistance();
    isl::set Wait = rename(KTiles, "Wait");
    isl::set Arrive = rename(KTiles, "Arrive");
    isl::set MmaCommit = rename(KTiles, "MmaCommit");
    isl::set MmaWait = rename(KTiles, "MmaWait");
    isl::set Commit = KTiles.apply(commits(A));
    // (With a prologue applied to the landed stages, the wait converts
    // tile t's stage in place: KernelConfig::ConvertStages, ConvertStagesB.)
    std::vector<StatementArg> WaitArgs;
    if (C.convertsStagePrologue())
      WaitArgs.push_back(counter("stage", stageOf(tuple("Wait", {"t"}))));
    add({"Wait", Wait, WaitArgs, {}, T.Wait});
    add({"Arrive", Arrive, {}, {}, T.Arrive});
    add({"MmaCommit", MmaCommit, {}, {}, T.MmaCommit});
    add({"MmaWait", MmaWait, {}, {}, T.MmaWait});
    add({"Commit", Commit, {}, {}, T.Commit});
    isl::schedule Rebases = rebaseStatements();
    isl::schedule CopiesAndRebases = Rebases.is_null() ? Copies : sequence(Rebases, Copies);
    // Converted chunks of tile t land in iteration t - A + 1, before that
    // iteration's loads reuse their registers and after its wgmma are
    // issued (they write tile t's stage, not the one being read).
    if (!Lands.is_null())
      CopiesAndRebases = sequence(Lands, CopiesAndRebases);
    std::vector<isl::aff> Iteration = {
        tileOf("Wait", {"t"}),           tileOf("Arrive", {"t"}),
        tileOf("Wgmma", {"t", "kk"}),    tileOf("MmaCommit", {"t"}),
        tileOf("CopyA", {"t", "r", "c"}, -A), tileOf("CopyB", {"t", "r", "c"}, -A),
        tileOf("Commit", {"t"}),         tileOf("MmaWait", {"t"})};
    for (size_t P = 0; P < Idiom.MoreProducts.size(); ++P)
      Iteration.push_back(tileOf("Rebase" + str(long(P + 1)), {"t"}, -A));
    for (auto &L : LandNames) {
      Tuple X = bare(L, {"t", "r", "c"});
      Iteration.push_back(X("t") - A + 1);
    }
    if (C.WgmmaRegisterA)
      Iteration.push_back(tileOf("LoadA", {"t", "kk", "mt"}));
    isl::schedule Waited = C.WgmmaRegisterA ? sequence(leaf(Wait), FragLoads) : leaf(Wait);
    isl::schedule Body = sequence(
        sequence(sequence(sequence(sequence(sequence(Waited, leaf(Arrive)), Compute),
                                   leaf(MmaCommit)),
                          CopiesAndRebases),
                 leaf(Commit)),
        leaf(MmaWait));
    return withLoopType(withBand(Body, band(NoParams, {Iteration})),
                        Idiom.MoreProducts.empty() ? isl_ast_loop_separate
                                                   : isl_ast_loop_default);
  }

  /// The block's use of the stages that k tile t is: u = t - tc_k_begin,
  /// after the tc_k_origin uses of a persistent block's earlier tiles (t
  /// the tuple's dimension t, or Tile).
  isl::aff useOf(const Tuple &X, std::optional<isl::aff> Tile = std::nullopt) const {
    isl::aff U = (Tile ? *Tile : X("t")) - X(KBegin);
    return C.PersistentTiles ? U + X(KOrigin) : U;
  }
  /// The stage of k tile t: t mod S, or with TMA the block's use u of the
  /// stages mod S (its barriers count uses from 0).
  isl::aff stageOf(const Tuple &X, std::optional<isl::aff> Tile = std::nullopt) const {
    return C.Tma ? useOf(X, Tile) % C.Stages : (Tile ? *Tile : X("t")) % C.Stages;
  }
  /// The parity of the phase of a stage's barrier that use u waits for:
  /// its floor(u / S)-th completion, or the one before (Previous).
  isl::aff phaseOf(const Tuple &X, bool Previous) const {
    isl::aff Completion = floorOf(useOf(X), C.Stages);
    return (Previous ? Completion + 1 : Completion) % 2;
  }

  /// The TMA main loop of the consumer warpgroups. Iteration t: wait until
  /// tile t's stage is full, issue its wgmma as one group, wait until only
  /// that group is in flight, and release the stage of tile t - 1, whose
  /// group has retired. The wgmma of consecutive tiles thus overlap, and
  /// nothing but the barrier waits orders the consumers and the producer.
  /// With a prologue on A (KernelConfig::ConvertStages), each warpgroup
  /// applies it to its rows of the stage between the wait and the wgmma,
  /// while tile t - 1's group still runs; with one on B
  /// (ConvertStagesB), all consumers to B's tile; a raw 8-bit B
  /// (RawStagesB) is converted in place there too.
  isl::schedule insertTmaConsumerLoop(const isl::schedule &Compute) {
    isl::set Wait = rename(KTiles, "FullWait");
    isl::set Convert = rename(KTiles, "ConvertStage");
    isl::set Arrive = rename(KTiles, "Arrive");
    isl::set MmaCommit = rename(KTiles, "MmaCommit");
    isl::set MmaWait = rename(KTiles, "MmaWait");
    // Pairs of blocks release tile t - 1's stage only where a producer
    // refills it with tile t - 1 + S: no arrival is then left pending at
    // the end, so neither block arrives on the barriers of a block that
    // has left (tc/cluster.cuh).
    isl::set Released =
        C.PairedTiles ? KTiles.intersect(KTiles.apply(shiftTiles(C.Stages - 1))) : KTiles;
    Tuple ReleaseT = tuple("Release", {"t"});
    isl::set Release = rename(Released, "Release")
                           .intersect(where(ReleaseT, {gt(ReleaseT("t"), ReleaseT(KBegin))}));
    Tuple FullWait = tuple("FullWait", {"t"});
    add({"FullWait", Wait,
         {counter("stage", stageOf(FullWait)), counter("phase", phaseOf(FullWait, false))},
         {}, T.FullWait});
    isl::schedule Landed = leaf(Wait);
    bool Converted = false;
    if (C.convertsLandedStages()) {
      // (k: the tile's first k element, where a raw stage's conversion
      // zeroes what lies past the reduction.)
      Tuple X = tuple("ConvertStage", {"t"});
      add({"ConvertStage", Convert,
           {counter("stage", stageOf(X)), {"k", fn(C.BlockK * X("t"))}},
           {}, T.ConvertStage});
      Landed = sequence(Landed, leaf(Convert));
      Converted = true;
    }
    add({"Arrive", Arrive, {}, {}, T.Arrive});
    add({"MmaCommit", MmaCommit, {}, {}, T.MmaCommit});
    // (With wgmma's A fragments in registers, the buffer of tile t - 1's,
    // which its group read.)
    std::vector<StatementArg> WaitArgs;
    if (C.fragmentsByParity()) {
      Tuple X = tuple("MmaWait", {"t"});
      WaitArgs.push_back({"buf", fn((useOf(X) + 1) % 2)});
    }
    add({"MmaWait", MmaWait, WaitArgs, {}, T.MmaWait});
    add({"Release", Release,
         {counter("stage", stageOf(ReleaseT, ReleaseT("t") - 1))}, {}, T.Release});
    if (C.fragmentsByParity())
      return fragmentsConsumerLoop(Landed, Compute, Arrive, MmaCommit, MmaWait, Release);
    isl::schedule Body = sequence(
        sequence(sequence(sequence(sequence(Landed, leaf(Arrive)), Compute), leaf(MmaCommit)),
                 leaf(MmaWait)),
        leaf(Release));
    std::vector<isl::aff> Iteration = {tileOf("FullWait", {"t"})};
    if (Converted)
      Iteration.push_back(tileOf("ConvertStage", {"t"}));
    for (isl::aff A : {tileOf("Arrive", {"t"}), tileOf("Wgmma", {"t", "kk"}),
                       tileOf("MmaCommit", {"t"}), tileOf("MmaWait", {"t"}),
                       tileOf("Release", {"t"})})
      Iteration.push_back(A);
    return withLoopType(withBand(Body, band(NoParams, {Iteration})), isl_ast_loop_separate);
  }

  /// The consumers' loop with wgmma's A in registers (KernelConfig::
  /// fragmentsByParity): after tile t has landed, each thread loads its
  /// fragments of it into the buffer of t's parity while tile t - 1's
  /// group still runs from the other (a raw B's converted, LoadRawB, for a
  /// transposed tile; A's with its prologue, LoadA, one per k step), then
  /// issues t's group and waits for t - 1's, whose stage it releases. The
  /// loop runs over pairs of tiles, the two of a pair unrolled, so that
  /// each buffer is a constant of its code (registers, not local memory).
  isl::schedule fragmentsConsumerLoop(const isl::schedule &Landed, const isl::schedule &Compute,
                                      const isl::set &Arrive, const isl::set &MmaCommit,
                                      const isl::set &MmaWait, const isl::set &Release) {
    auto Parity = [&](const Tuple &X) { return useOf(X) % 2; };
    std::pair<std::string, std::vector<std::string>> LoadTuple;
    isl::schedule Loads;
    if (C.RawFragmentsB) {
      isl::set Load = rename(KTiles, "LoadRawB");
      Tuple X = tuple("LoadRawB", {"t"});
      add({"LoadRawB", Load,
           {counter("stage", stageOf(X)),
            {"buf", fn(Parity(X))},
            {"k", fn(C.BlockK * X("t"))}},
           {}, T.LoadRawB});
      LoadTuple = {"LoadRawB", {"t"}};
      Loads = leaf(Load);
    } else {
      Tuple ToLoad(tuple("", {"t"}), tuple("LoadA", {"", "kk"}));
      isl::set Load = KTiles.apply(relation(ToLoad, {ToLoad("t")},
                                            {within(ToLoad(0), ToLoad("kk"), ToLoad(C.kSteps()))}));
      Tuple X = tuple("LoadA", {"t", "kk"});
      add({"LoadA", Load,
           {counter("stage", stageOf(X)), {"buf", fn(Parity(X))}, {"kk", fn(X("kk"))}},
           {}, T.LoadA});
      LoadTuple = {"LoadA", {"t", "kk"}};
      Loads = withLoopType(
          withBand(leaf(Load), band(NoParams, {{bare("LoadA", {"t", "kk"})("kk")}})),
          isl_ast_loop_unroll);
    }
    isl::schedule Body = sequence(
        sequence(sequence(sequence(sequence(sequence(Landed, Loads), leaf(Arrive)), Compute),
                          leaf(MmaCommit)),
                 leaf(MmaWait)),
        leaf(Release));
    auto Band = [&](const std::function<isl::aff(const Tuple &)> &Of) {
      std::vector<isl::aff> Pieces;
      for (const Tuple &X :
           {tuple("FullWait", {"t"}), tuple(LoadTuple.first, LoadTuple.second),
            tuple("Arrive", {"t"}), tuple("Wgmma", {"t", "kk"}), tuple("MmaCommit", {"t"}),
            tuple("MmaWait", {"t"}), tuple("Release", {"t"})})
        Pieces.push_back(Of(X));
      return band(Params, {Pieces});
    };
    auto Loop = [&](const isl::schedule &Part) {
      isl::schedule S = withLoopType(
          withBand(Part, Band([&](const Tuple &X) { return useOf(X) % 2; })),
          isl_ast_loop_unroll);
      return withLoopType(
          withBand(S, Band([&](const Tuple &X) { return floorOf(useOf(X), 2); })),
          isl_ast_loop_separate);
    };
    // A's fragments: whole pairs of tiles in the loop, and a last tile of
    // even use after it, alone. No path through the loop then skips a
    // pair's second half and comes back to its first half while that
    // half's group still reads the buffer, which made ptxas serialise every
    // wgmma of the one-warpgroup kernels (C7513). (A raw B's loop keeps the
    // guarded second half: ptxas did not serialise it, and the last tile's
    // own copy made the 128x128 kernel spill.)
    if (C.RawFragmentsB)
      return Loop(Body);
    Tuple Tiles = tuple("", {"t"});
    isl::set Even = where(Tiles, {eq(useOf(Tiles) % 2, Tiles(0))});
    isl::set Alone = KTiles.subtract(KTiles.apply(shiftTiles(1))).intersect(Even);
    isl::union_map TileOf = isl::manage(isl_union_map_from_multi_union_pw_aff(
        Band([](const Tuple &X) { return X("t"); }).release()));
    isl::union_set Domain = Body.get_domain();
    isl::union_set AloneDomain =
        Domain.intersect(TileOf.intersect_range(isl::union_set(Alone)).domain());
    auto Restricted = [&](const isl::union_set &Part) {
      return isl::manage(isl_schedule_intersect_domain(Body.copy(), Part.copy()));
    };
    return sequence(Loop(Restricted(Domain.subtract(AloneDomain))),
                    Loop(Restricted(AloneDomain)));
  }

  /// The producer's loop (one thread): for tile t, wait until the stage's
  /// previous use is released (not for the first S tiles), then announce
  /// the stage's bytes on its full barrier and issue the TMA copies.
  isl::schedule insertTmaProducerLoop() {
    Tuple EmptyWait = tuple("EmptyWait", {"t"});
    isl::set Empty = rename(KTiles, "EmptyWait")
                         .intersect(where(EmptyWait, {ge(useOf(EmptyWait), EmptyWait(C.Stages))}));
    add({"EmptyWait", Empty,
         {counter("stage", stageOf(EmptyWait)), counter("phase", phaseOf(EmptyWait, true))},
         {}, T.EmptyWait});
    // Product p's copies: its k tiles [first_p, first_{p+1}) of the
    // concatenated reduction, at k coordinate BK * (t - first_p) of its own
    // operands.
    isl::schedule Body = leaf(Empty);
    std::vector<isl::aff> Band = {tileOf("EmptyWait", {"t"})};
    size_t Products = Idiom.MoreProducts.size() + 1;
    for (size_t P = 0; P < Products; ++P) {
      std::string Name = P ? "TmaLoad" + str(long(P)) : std::string("TmaLoad");
      // (The products' extents are the region's parameters.)
      Tuple X(withModelParams(), Name, {"t"});
      std::vector<isl::aff> First = productFirstTiles(X);
      std::vector<Conjunct> Range = {ge(X("t"), First[P])};
      if (P + 1 < First.size())
        Range.push_back(lt(X("t"), First[P + 1]));
      isl::set Load = rename(KTiles, Name.c_str()).intersect(where(X, Range));
      isl::pw_aff K = fn(C.BlockK * (X("t") - First[P]));
      add({Name, Load, {counter("stage", stageOf(tuple(Name, {"t"}))), {"k", K}}, {},
           T.TmaLoad[P]});
      Body = sequence(Body, leaf(Load));
      Band.push_back(tileOf(Name, {"t"}));
    }
    return withBand(Body, band(NoParams, {Band}));
  }

  /// The first k tile of each product of a sum of matmuls in the
  /// concatenated reduction (0 for the first), as functions on X.
  std::vector<isl::aff> productFirstTiles(const Tuple &X) const {
    std::vector<isl::aff> First = {X(0)};
    AffineExpr PrevK = Idiom.ExtentK;
    for (auto &P : Idiom.MoreProducts) {
      First.push_back(First.back() +
                      floorOf(affineFunction(X.space(), PrevK) + (C.BlockK - 1), C.BlockK));
      PrevK = P.ExtentK;
    }
    return First;
  }

  /// Sum of matmuls: before the copies of the first k tile of product
  /// p + 1 that this block computes, the copiers switch operands.
  isl::schedule rebaseStatements() {
    isl::schedule Rebases;
    isl::space Sp = noParams(Ctx);
    for (const Parameter &P : M.Params)
      Sp = withParameter(Sp, P.Name);
    Sp = withParameter(Sp, KBegin);
    Tuple X(Sp, "", {"t"});
    std::vector<isl::aff> First = productFirstTiles(X);
    for (size_t P = 0; P < Idiom.MoreProducts.size(); ++P) {
      const isl::aff &FirstTile = First[P + 1];
      std::string RName = "Rebase" + str(long(P + 1));
      // `t >= first and (t = first or t = tc_k_begin)`.
      isl::set FirstOfBlock =
          where(X, {ge(X("t"), FirstTile)})
              .intersect(where(X, {eq(X("t"), FirstTile)}).unite(where(X, {eq(X("t"), X(KBegin))})));
      isl::set D = rename(KTiles.intersect(FirstOfBlock), RName.c_str());
      add({RName, D, {}, {}, T.Rebase[P]});
      Rebases = Rebases.is_null() ? leaf(D) : sequence(Rebases, leaf(D));
    }
    return Rebases;
  }

  isl::schedule insertPipeline(const isl::schedule &Copies,
                               const isl::schedule &Compute) {
    // Time is (iteration, k step). Iteration t computes tile t; its mma
    // k step kk uses fragments loaded one step earlier (double buffering),
    // so the loads of tile t + 1's first step come in t's last step, right
    // after the wait for tile t + 1. Iteration t also refills the stage
    // freed by tile t - 1 with tile t + S - 1, its chunks spread over the
    // k steps before the last (so that the integer work of the copies
    // overlaps the tensor cores), and commits them as one cp.async group.
    // Commit runs in every iteration, so that "S - 2 groups pending" always
    // means "the next tile has landed".
    int Ahead = C.Stages - 1, KS = kSteps(), Shift = doubleBuffered() ? 1 : 0;
    isl::set Wait = rename(KTiles, "Wait");
    isl::set Commit = KTiles.apply(commits(Ahead));
    add({"Wait", Wait, {}, {}, T.Wait});
    add({"Commit", Commit, {}, {}, T.Commit});
    // Sum of matmuls: before the copies of the first k tile of product
    // p + 1 that this block computes, the copiers switch operands.
    isl::schedule Rebases = rebaseStatements();
    isl::schedule CopiesAndRebases = Rebases.is_null() ? Copies : sequence(Rebases, Copies);
    // A copy's k step: its chunk index, cyclically over the copy steps.
    auto Chunk = [&](const char *Name) {
      return chunk(bare(Name, {"t", "r", "c"}), CopyChunks.at(Name)) % copySteps();
    };
    // With double buffering, the loads of step kk come one step earlier.
    auto Early = [&](const Tuple &X) { return KS * X("t") + groupStep(X) - 1; };
    auto Load = [&](const Tuple &X) { return Shift ? floorOf(Early(X), KS) : X("t"); };
    auto LoadStep = [&](const Tuple &X) { return Shift ? Early(X) % KS : groupStep(X); };
    Tuple LoadA = bare("LoadA", {"t", "kk", "mt"}), LoadB = bare("LoadB", {"t", "kk", "np"});
    Tuple Mma = bare("Mma", {"t", "kk", "mt", "nt"});
    Tuple WaitT = bare("Wait", {"t"});
    std::vector<isl::aff> Iteration = {
        WaitT("t") - Shift,
        tileOf("CopyA", {"t", "r", "c"}, -Ahead),
        tileOf("CopyB", {"t", "r", "c"}, -Ahead),
        tileOf("Commit", {"t"}),
        Load(LoadA),
        Load(LoadB),
        Mma("t")};
    std::vector<isl::aff> Step = {WaitT(Shift ? KS - 1 : 0), Chunk("CopyA"), Chunk("CopyB"),
                                  bare("Commit", {"t"})(copySteps() - 1), LoadStep(LoadA),
                                  LoadStep(LoadB), groupStep(Mma)};
    for (size_t P = 0; P < Idiom.MoreProducts.size(); ++P) {
      std::string RName = "Rebase" + str(long(P + 1));
      Iteration.push_back(tileOf(RName, {"t"}, -Ahead));
      Step.push_back(bare(RName, {"t"})(0));
    }
    // Within a step: the wait (and barrier) before the loads it protects;
    // with double buffering the loads come first, so that the mma waits on
    // nothing the copies do.
    isl::schedule Body =
        Shift ? sequence(sequence(sequence(sequence(leaf(Wait), FragLoads), CopiesAndRebases),
                                  leaf(Commit)),
                         Compute)
              : sequence(sequence(sequence(sequence(leaf(Wait), CopiesAndRebases), leaf(Commit)),
                                  FragLoads),
                         Compute);
    // The steps are unrolled by isl: buffer indices and guards become
    // constants, and the fragments stay in registers.
    // The iterations are separated into the prologue, the steady state and
    // the drain, so that the steady-state loop carries no guards.
    // (Not for sums of matmuls: the product boundaries would multiply the
    // separated loops, and the code size with them.)
    return withLoopType(
        withBand(withLoopType(withBand(Body, band(NoParams, {Step})), isl_ast_loop_unroll),
                 band(NoParams, {Iteration})),
        Idiom.MoreProducts.empty() ? isl_ast_loop_separate : isl_ast_loop_default);
  }

  /// The output elements (m, n): those the initialisation or epilogue
  /// statements run over (they exist even when K = 0), else the
  /// reduction's.
  isl::set outputDomain() {
    std::vector<unsigned> Candidates(Idiom.Epilogue);
    if (Idiom.Init)
      Candidates.push_back(*Idiom.Init);
    for (unsigned SI : Candidates) {
      const Statement &S = M.Stmts[SI];
      auto Roles = outputCoordinates(M, Idiom, SI);
      if (!Roles)
        continue;
      std::string M_, N_, Batch;
      std::vector<std::string> Its = M.iterators(S);
      for (auto &It : Its) {
        const std::string &Role = (*Roles)[It];
        if (Role == Idiom.IterM)
          M_ = It;
        else if (Role == Idiom.IterN)
          N_ = It;
        else
          Batch = It;
      }
      if (M_.empty() || N_.empty())
        continue;
      Tuple ToStore(tuple(S.Name, Its), tuple("Store", {"", ""}));
      std::vector<Conjunct> Batched;
      if (!Batch.empty())
        Batched.push_back(eq(ToStore(Batch), ToStore(Batch_)));
      return I.Domain.at(S.Name).apply(
          relation(ToStore, {ToStore(M_), ToStore(N_)}, Batched));
    }
    Tuple ToStore(tuple(R, {"m", "n", "k"}), tuple("Store", {"", ""}));
    return reductionDomain(M, Idiom, I, C.BlockK)
        .apply(relation(ToStore, {ToStore("m"), ToStore("n")}));
  }

  /// Intra-block split-K: after the main loop, warp group z > 0 holds the
  /// sum over its share of the k steps. Each of its threads stores its
  /// accumulator fragments, 16 bytes each, into slot z - 1 of the partial
  /// sums (laid out [z - 1][warp][mt][nt][lane], so that a warp's stores
  /// and group 0's loads are contiguous and free of bank conflicts); after
  /// a barrier, group 0 adds the slots to its own accumulators, in the
  /// order of z so that the sum does not depend on timing. Unconditional:
  /// for an empty or partial k range the partial sums are zero.
  isl::schedule insertWarpGroupReduction() {
    int FM = C.fragmentsM(), FN = C.fragmentsN();
    auto Fragments = [&](const Tuple &X) {
      return std::vector<Conjunct>{within(X(0), X("mt"), X(FM)), within(X(0), X("nt"), X(FN))};
    };
    auto Slot = [&](const Tuple &X) {
      isl::aff Warp = C.groupWarps() * (X("z") - 1) + C.warpsN() * X(WarpM) + X(WarpN);
      return 32 * (C.fragmentsM() * C.fragmentsN() * Warp + FN * X("mt") + X("nt")) +
             4 * X(LaneRow) + X(LaneCol);
    };
    Tuple StoreT = tuple("PartialStore", {"z", "mt", "nt"});
    std::vector<Conjunct> StoreF = {eq(StoreT("z"), StoreT(WarpK)), ge(StoreT("z"), StoreT(1))};
    for (const Conjunct &F : Fragments(StoreT))
      StoreF.push_back(F);
    isl::set Store = where(StoreT, StoreF);
    Tuple AddT = tuple("PartialAdd", {"z", "mt", "nt"});
    std::vector<Conjunct> AddF = {eq(AddT(WarpK), AddT(0)),
                                  within(AddT(1), AddT("z"), AddT(C.WarpSplitK))};
    for (const Conjunct &F : Fragments(AddT))
      AddF.push_back(F);
    isl::set Add = where(AddT, AddF);
    isl::set Sync = tuple("PartialSync", {}).universe();
    auto Args = [&](const char *Name) {
      Tuple X = tuple(Name, {"z", "mt", "nt"});
      return std::vector<StatementArg>{
          {"mt", fn(X("mt"))}, {"nt", fn(X("nt"))}, {"slot", fn(Slot(X))}};
    };
    add({"PartialStore", Store, Args("PartialStore"), {}, T.PartialStore});
    add({"PartialSync", Sync, {}, {}, T.PartialSync});
    add({"PartialAdd", Add, Args("PartialAdd"), {}, T.PartialAdd});
    Tuple StoreOrder = bare("PartialStore", {"z", "mt", "nt"});
    Tuple AddOrder = bare("PartialAdd", {"z", "mt", "nt"});
    isl::schedule R = sequence(
        sequence(withBand(leaf(Store),
                          band(NoParams, {{StoreOrder("mt")}, {StoreOrder("nt")}})),
                 leaf(Sync)),
        withBand(leaf(Add),
                 band(NoParams, {{AddOrder("z")}, {AddOrder("mt")}, {AddOrder("nt")}})));
    KS.Steps.push_back({"insertWarpGroupReduction (intra-block split-K p=" +
                            str(C.WarpSplitK) + ")",
                        printTree(R)});
    return R;
  }

  /// `{ Store[m, n] -> [floor(m / BM), floor(n / BN)] }`: an output
  /// element's block tile.
  isl::map storeTile() const {
    Tuple ToTile(tuple("Store", {"m", "n"}), tuple("", {"", ""}));
    return relation(ToTile,
                    {floorOf(ToTile("m"), C.BlockM), floorOf(ToTile("n"), C.BlockN)});
  }

  /// `floor(m / BM) = tc_block_m and floor(n / BN) = tc_block_n`: X in this
  /// block's tile.
  std::vector<Conjunct> inBlockTile(const Tuple &X) const {
    return {eq(floorOf(X("m"), C.BlockM), X(BlockM)),
            eq(floorOf(X("n"), C.BlockN), X(BlockN))};
  }

  /// An element's place in the staged output tile, row-major.
  isl::aff linear(const Tuple &X) const {
    return C.BlockN * (X("m") % C.BlockM) + X("n") % C.BlockN;
  }

  isl::schedule insertEpilogue() {
    // The elements of the padded output tile that this thread's
    // accumulators hold: in each 16x8 mma tile, rows lane/4 and lane/4 + 8,
    // columns 2 (lane % 4) and 2 (lane % 4) + 1.
    const int BM = C.BlockM, BN = C.BlockN;
    isl::map Tile = storeTile();
    isl::set Padded = Output.apply(Tile).apply(Tile.reverse());
    Tuple X = tuple("Store", {"m", "n"});
    std::vector<Conjunct> Held = inBlockTile(X);
    for (const Conjunct &F :
         {Conjunct(eq(floorOf(X("m") % BM, C.WarpM), X(WarpM))),
          Conjunct(eq(floorOf(X("n") % BN, C.WarpN), X(WarpN))),
          Conjunct(eq(X("m") % 8, X(LaneRow))),
          Conjunct(eq(floorOf(X("n") % 8, 2), X(LaneCol)))})
      Held.push_back(F);
    isl::set Store = Padded.intersect(where(X, Held));
    // After the reduction, warp group 0 holds the block's sums.
    if (splitAcrossWarps())
      Store = Store.intersect(where(X, {eq(X(WarpK), X(0))}));
    std::vector<StatementArg> Fragment{
        {"m", fn(X("m"))},
        {"n", fn(X("n"))},
        {"ml", fn(X("m") % BM)},
        {"nl", fn(X("n") % BN)},
        {"mt", fn(floorOf(X("m") % C.WarpM, 16))},
        {"nt", fn(floorOf(X("n") % C.WarpN, 8))},
        {"reg", fn(2 * floorOf(X("m") % 16, 8) + X("n") % 2)}};
    std::function<isl::multi_union_pw_aff(const char *)> FragmentOrder =
        [&](const char *Name) {
          Tuple O = bare(Name, {"m", "n"});
          return band(NoParams, {{floorOf(O("m") % C.WarpM, 16)},
                                 {floorOf(O("n") % C.WarpN, 8)},
                                 {floorOf(O("m") % 16, 8)},
                                 {O("n") % 2}});
        };
    // A transposed tile (KernelConfig::transposedTile): the accumulators'
    // rows are the tile's columns, warp w's rows 16 w .. 16 w + 15, and
    // their columns (two a thread, neighbours) the tile's rows.
    if (C.transposedTile()) {
      // (Stored through the staged output tile only, which T.Stage fills
      // with the pairs of this layout.)
      assert(C.stagedEpilogue() && "a transposed tile is staged for its stores");
      std::vector<Conjunct> Transposed = inBlockTile(X);
      for (const Conjunct &F :
           {Conjunct(eq(floorOf(X("n") % BN, C.WarpM), X(WarpM))),
            Conjunct(eq(X(WarpN), X(0))), Conjunct(eq(X("n") % 8, X(LaneRow))),
            Conjunct(eq(floorOf(X("m") % 8, 2), X(LaneCol)))})
        Transposed.push_back(F);
      Store = Padded.intersect(where(X, Transposed));
      Fragment = {{"m", fn(X("m"))},
                  {"n", fn(X("n"))},
                  {"ml", fn(X("m") % BM)},
                  {"nl", fn(X("n") % BN)},
                  {"mt", fn(X(0))},
                  {"nt", fn(floorOf(X("m") % BM, 8))},
                  {"reg", fn(2 * floorOf(X("n") % 16, 8) + X("m") % 2)}};
      FragmentOrder = [&](const char *Name) {
        Tuple O = bare(Name, {"m", "n"});
        return band(NoParams,
                    {{floorOf(O("m") % BM, 8)}, {floorOf(O("n") % 16, 8)}, {O("m") % 2}});
      };
    }
    // The accumulators are final once the warp groups' partial sums are
    // added; the operand stages hold those, so the copies must be drained
    // first.
    isl::schedule Reduction;
    isl::set Drain = tuple("Drain", {}).universe();
    // A wgmma group still in flight writes the accumulators: drained too.
    bool PendingWgmma = C.wgmma() && C.WgmmaPending;
    if (splitAcrossWarps() || C.stagedEpilogue() || PendingWgmma)
      add({"Drain", Drain, {}, {}, T.Drain});
    if (splitAcrossWarps())
      Reduction = sequence(leaf(Drain), insertWarpGroupReduction());
    else if (PendingWgmma && !C.stagedEpilogue())
      Reduction = leaf(Drain);
    if (!C.stagedEpilogue()) {
      add({"Store", Store, Fragment, Output, T.Store});
      isl::schedule Stores = withBand(leaf(Store), FragmentOrder("Store"));
      return Reduction.is_null() ? Stores : sequence(Reduction, Stores);
    }
    // Staged: every thread puts its accumulators into the shared output
    // tile (the operand stages are free once the main loop has drained),
    // then thread i stores elements i, i + threads, ... of the tile in row-
    // major order, so that a warp writes 32 consecutive elements of a row.
    // A thread's two accumulators of a row, columns n and n + 1 (n even),
    // go in with one 8-byte store: half the shared-memory stores, and a
    // half-warp's pairs fill the 32 banks once (the pitch is BN + 8).
    isl::set Sync = tuple("StageSync", {}).universe();
    Tuple StageT = tuple("Stage", {"m", "n"});
    isl::set Stage = rename(Store, "Stage").intersect(where(
        StageT, {eq((C.transposedTile() ? StageT("m") : StageT("n")) % 2, StageT(0))}));
    Tuple StagedT = tuple("StagedStore", {"m", "n"});
    std::vector<Conjunct> Mine = inBlockTile(StagedT);
    Mine.push_back(eq(linear(StagedT) % storeThreads(), StagedT(Thread)));
    isl::set Out = rename(Padded, "StagedStore").intersect(where(StagedT, Mine));
    auto Renamed = [&](const char *Name) {
      std::vector<StatementArg> R;
      for (const StatementArg &A : Fragment)
        R.push_back({A.Name,
                     isl::manage(isl_pw_aff_set_tuple_id(A.Value.copy(), isl_dim_in,
                                                         isl_id_alloc(Ctx.get(), Name, nullptr))),
                     A.Counter});
      return R;
    };
    add({"Stage", Stage, Renamed("Stage"), {}, T.Stage});
    add({"StageSync", Sync, {}, {}, T.StageSync});
    add({"StagedStore", Out, Renamed("StagedStore"), rename(Output, "StagedStore"),
         T.StagedStore});
    // With the reduction, the output tile overwrites the partial sums once
    // group 0 has read them all.
    isl::schedule BeforeStage = leaf(Drain);
    if (!Reduction.is_null()) {
      isl::set Done = tuple("PartialDone", {}).universe();
      add({"PartialDone", Done, {}, {}, T.PartialDone});
      BeforeStage = sequence(Reduction, leaf(Done));
    }
    isl::schedule Staged =
        sequence(sequence(BeforeStage, withBand(leaf(Stage), FragmentOrder("Stage"))),
                 leaf(Sync));
    Tuple Element = bare("StagedStore", {"m", "n"});
    isl::multi_union_pw_aff ElementOrder =
        band(NoParams, {{floorOf(linear(Element), storeThreads())}});
    // TMA kernels: the parts of a k-split tile add up their staged tiles;
    // the last one to arrive goes on with the total (tc/tile_schedule.cuh).
    // (Persistent blocks compute whole tiles only.)
    if (C.Tma && !C.PersistentTiles) {
      isl::set Combine = tuple("CombineParts", {}).universe();
      add({"CombineParts", Combine, {}, {}, T.CombineParts});
      Staged = sequence(Staged, leaf(Combine));
    }
    isl::schedule Stores;
    if (T.VectorLanes < 2) {
      Stores = withBand(leaf(Out), std::move(ElementOrder));
    } else {
      auto [Vectors, Rest] =
          vectorizeStagedStore(edgeByRows() ? rename(Padded, "StagedStore") : Out,
                               rename(Output, "StagedStore"));
      add({"StagedStoreVector", Vectors, Renamed("StagedStoreVector"), {},
           T.StagedStoreVector});
      Tuple Vector = bare("StagedStoreVector", {"m", "n"});
      isl::multi_union_pw_aff VectorOrder =
          band(NoParams, {{floorOf(linear(Vector), T.VectorLanes * storeThreads())}});
      // The right edge: by columns (element-wise), or each thread its rows'
      // few columns in order.
      isl::multi_union_pw_aff EdgeOrder =
          edgeByRows()
              ? band(NoParams, {{floorOf(Element("m") % BM, storeThreads())}, {Element("n")}})
              : std::move(ElementOrder);
      Stores = sequence(withBand(leaf(Vectors), std::move(VectorOrder)),
                        withBand(leaf(Rest), std::move(EdgeOrder)));
    }
    if (!C.PersistentTiles)
      return sequence(Staged, Stores);
    // Persistent blocks: the epilogue warpgroups store the staged tile while
    // the consumers go on with the next one.
    KS.Storer = Stores;
    Tuple P(Params);
    KS.StorerContext = KS.Context.intersect(where(P, {lt(P(Thread), P(storeThreads()))}));
    return Staged;
  }

  /// Threads that store the staged output tile: the consumers, or the
  /// epilogue warpgroups of a persistent kernel.
  int storeThreads() const {
    return C.PersistentTiles ? C.storerThreads() : C.threads();
  }

  /// Whether the right edge of the staged stores goes by rows: where the
  /// element-wise mapping (thread = element mod threads, row-major) does
  /// not give each thread whole columns of the tile, because neither the
  /// tile's width nor the threads divide the other (128x176 tiles of 256
  /// threads). There every thread of a block at the edge would test each
  /// element of its share, which made 128x192 tiles slower than 128x256
  /// ones (docs/design/kernel-config.md); elsewhere the few threads of the
  /// edge's columns store them.
  bool edgeByRows() const {
    return C.BlockN % storeThreads() != 0 && storeThreads() % C.BlockN != 0;
  }

  /// The staged stores in vectors of V = T.VectorLanes consecutive elements
  /// of a row: thread i takes vectors i, i + threads, ... of the tile in
  /// row-major order. Returns the starts of the vectors wholly inside the
  /// output (StagedStoreVector) and this thread's elements of the output
  /// that no such vector covers (its right edge, fewer than V columns):
  /// by edgeByRows(), thread i takes those of rows i, i + threads, ... of
  /// the tile (at most V - 1 each), or they keep the element-wise mapping
  /// of `Elements`.
  std::pair<isl::set, isl::set> vectorizeStagedStore(const isl::set &Elements,
                                                     const isl::set &Output) {
    const int V = T.VectorLanes, BM = C.BlockM;
    // The last element of the vector that element (m, n) belongs to.
    Tuple ToLast(tuple("StagedStore", {"m", "n"}), tuple("StagedStore", {"", ""}));
    isl::map Last =
        relation(ToLast, {ToLast("m"), V * floorOf(ToLast("n"), V) + V - 1});
    isl::set Covered = Last.intersect_range(Output).domain();
    isl::set Rest = Elements.intersect(Output).subtract(Covered);
    if (edgeByRows()) {
      Tuple X = tuple("StagedStore", {"m", "n"});
      std::vector<Conjunct> Rows = inBlockTile(X);
      Rows.push_back(eq((X("m") % BM) % storeThreads(), X(Thread)));
      Rest = Rest.intersect(where(X, Rows));
    }
    Tuple StartToLast(tuple("StagedStoreVector", {"m", "n"}), tuple("StagedStore", {"", ""}));
    isl::map LastOfStart =
        relation(StartToLast, {StartToLast("m"), StartToLast("n") + V - 1});
    Tuple X = tuple("StagedStoreVector", {"m", "n"});
    std::vector<Conjunct> Starts = {eq(X("n") % V, X(0))};
    for (const Conjunct &F : inBlockTile(X))
      Starts.push_back(F);
    Starts.push_back(eq(floorOf(linear(X), V) % storeThreads(), X(Thread)));
    isl::set Vectors = LastOfStart.intersect_range(Output).domain().intersect(where(X, Starts));
    return {Vectors, Rest};
  }

  const RegionModel &M;
  const MatmulIdiom &Idiom;
  const IslModel &I;
  const ComputeSchedule &CS;
  const KernelConfig &C;
  const StatementTexts &T;
  isl::ctx Ctx;
  std::string R;
  // The kernel's parameters (ids()), and none.
  isl::space Params, NoParams;
  isl::set KTiles, Output;
  std::map<std::string, int> CopyChunks; // CopyX -> its chunks per row
  isl::schedule FragLoads; // ldmatrix statements, scheduled by insertPipeline
  // LandX statements of operands converted in two phases
  // (KernelConfig::splitConvertingCopies), scheduled by
  // insertWarpgroupPipeline; null when none.
  isl::schedule Lands;
  std::vector<std::string> LandNames;
  KernelSchedule KS;
};

std::string fill(std::string Template, const std::string &Name,
                 const std::string &Value) {
  std::string Key = "{" + Name + "}";
  for (size_t P = Template.find(Key); P != std::string::npos;
       P = Template.find(Key, P + Value.size()))
    Template.replace(P, Key.size(), Value);
  return Template;
}

} // namespace

KernelSchedule buildKernelSchedule(const RegionModel &M, const MatmulIdiom &Idiom,
                                   const IslModel &I, const ComputeSchedule &CS,
                                   const KernelConfig &C, const StatementTexts &T) {
  return Builder(M, Idiom, I, CS, C, T).run();
}

isl::set gridTiles(const RegionModel &M, const MatmulIdiom &Idiom, const IslModel &I,
                   const KernelConfig &C) {
  // The grid needs neither the compute schedule nor the statements' texts.
  const ComputeSchedule NoCompute;
  const StatementTexts NoTexts;
  return Builder(M, Idiom, I, NoCompute, C, NoTexts).gridTiles();
}

namespace {

/// What the AST build's callback found for one statement instance: the
/// printed values of its arguments and guard, from which its text follows.
struct StatementInstance {
  std::string Name;
  std::vector<std::string> Args; // of the statement's Args, in order
  std::optional<std::string> Guard;
};

/// A generated body with each instance's text left out: the printed AST
/// with a marker line per instance, and the instances.
struct BodySkeleton {
  std::string Text;
  std::vector<StatementInstance> Instances;
};

std::string instanceMarker(size_t I) { return "\x01" + std::to_string(I) + "\x02"; }

/// The statement an instance of Name executes (the last of that name).
const KernelStatement *statementNamed(const KernelSchedule &KS, const std::string &Name) {
  const KernelStatement *S = nullptr;
  for (auto &St : KS.Statements)
    if (St.Name == Name)
      S = &St;
  return S;
}

std::string instanceText(const KernelSchedule &KS, const StatementInstance &In) {
  const KernelStatement *S = statementNamed(KS, In.Name);
  if (!S)
    return "/* unknown statement " + In.Name + " */";
  std::string Text = S->Template;
  for (size_t A = 0; A < S->Args.size(); ++A)
    Text = fill(Text, S->Args[A].Name, In.Args[A]);
  if (S->Guard) {
    // Always true here: the statement's block without the test.
    if (*In.Guard == "1" && Text.rfind("if ({guard}) ", 0) == 0)
      Text = Text.substr(sizeof("if ({guard}) ") - 1);
    Text = fill(Text, "guard", *In.Guard);
  }
  return Text;
}

std::string islText(char *S) {
  std::string R = S ? S : "(null)";
  free(S);
  return R;
}

/// Everything the skeleton depends on: the tree, the context, the
/// statements' arguments and guards (not their templates), the size
/// parameters and the indentation, as isl prints them.
std::string skeletonKey(const KernelSchedule &KS, const isl::schedule &Tree,
                        const isl::set &Context, const std::set<std::string> &Sizes,
                        unsigned Indent) {
  std::string Key = islText(isl_schedule_to_str(Tree.get())) + "\n" +
                    islText(isl_set_to_str(Context.get())) + "\nindent " +
                    std::to_string(Indent) + "\nsizes";
  for (const std::string &S : Sizes)
    Key += " " + S;
  for (const KernelStatement &S : KS.Statements) {
    Key += "\nstatement " + S.Name;
    for (const StatementArg &A : S.Args)
      Key += "\n  " + A.Name + (A.Counter ? " counter " : " ") +
             islText(isl_pw_aff_to_str(A.Value.get()));
    if (S.Guard)
      Key += "\n  guard " + islText(isl_set_to_str(S.Guard->get()));
  }
  return Key;
}

BodySkeleton generateSkeleton(const KernelSchedule &KS, const isl::schedule &Tree,
                              const isl::set &Context, const std::set<std::string> &Sizes,
                              unsigned Indent) {
  BodySkeleton Body;
  std::vector<std::string> Markers;
  isl::ast_build Build = isl::ast_build::from_context(Context);
  Build = Build.set_at_each_domain([&](isl::ast_node Node, isl::ast_build B) {
    StatementInstance In;
    In.Name = userStatementName(Node.get());
    if (const KernelStatement *S = statementNamed(KS, In.Name)) {
      // The statement's domain point as a function of the AST iterators.
      isl::map Sched = isl::manage(isl_map_from_union_map(B.schedule().release()));
      isl::pw_multi_aff Point =
          isl::manage(isl_pw_multi_aff_from_map(isl_map_reverse(Sched.release())));
      for (const StatementArg &A : S->Args) {
        isl::ast_expr E = B.expr_from(A.Value.pullback(Point));
        std::optional<std::string> Counter;
        if (A.Counter)
          Counter = printCounterExpr(E.get(), Sizes);
        In.Args.push_back(Counter ? *Counter : printAstExpr(E.get()));
      }
      if (S->Guard) {
        isl::set G = isl::manage(
            isl_set_preimage_pw_multi_aff(S->Guard->copy(), Point.copy()));
        isl::ast_expr E = B.expr_from(G);
        In.Guard = printAstExpr(E.get());
      }
    }
    Body.Instances.push_back(std::move(In));
    Markers.push_back(instanceMarker(Markers.size()));
    std::string Tag = "stmt" + std::to_string(Markers.size() - 1);
    return isl::manage(isl_ast_node_set_annotation(
        Node.release(), isl_id_alloc(B.ctx().get(), Tag.c_str(), nullptr)));
  });
  isl::ast_node Ast = Build.node_from(Tree);
  Body.Text = AstPrinter(Markers, Sizes).print(Ast.get(), Indent);
  return Body;
}

/// The skeletons generated so far, by skeletonKey. Kernels of the same
/// tiles and shapes have the same skeleton, whatever their epilogues (the
/// regions of a file often differ only there), and isl's AST generation
/// is most of a kernel's time. Bounded, for long-lived processes.
class SkeletonCache {
public:
  std::shared_ptr<const BodySkeleton> find(const std::string &Key) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Entries.find(Key);
    return It == Entries.end() ? nullptr : It->second;
  }
  void add(const std::string &Key, std::shared_ptr<const BodySkeleton> Body) {
    size_t Size = Key.size() + Body->Text.size();
    for (const StatementInstance &In : Body->Instances)
      for (const std::string &A : In.Args)
        Size += A.size();
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Bytes + Size > kMaxBytes) {
      Entries.clear();
      Bytes = 0;
    }
    if (Entries.emplace(Key, std::move(Body)).second)
      Bytes += Size;
  }

private:
  static constexpr size_t kMaxBytes = size_t(64) << 20;
  std::mutex Mutex;
  std::map<std::string, std::shared_ptr<const BodySkeleton>> Entries;
  size_t Bytes = 0;
};

SkeletonCache &skeletonCache() {
  static SkeletonCache Cache;
  return Cache;
}

} // namespace

std::string generateKernelBody(const KernelSchedule &KS, const isl::schedule &Tree,
                               const RegionModel &M, unsigned Indent, const isl::set *Context) {
  std::set<std::string> Sizes;
  for (auto &P : M.Params)
    Sizes.insert(P.Name);
  const isl::set &Ctx = Context ? *Context : KS.Context;
  std::string Key = skeletonKey(KS, Tree, Ctx, Sizes, Indent);
  std::shared_ptr<const BodySkeleton> Body = skeletonCache().find(Key);
  if (!Body) {
    Body = std::make_shared<BodySkeleton>(generateSkeleton(KS, Tree, Ctx, Sizes, Indent));
    skeletonCache().add(Key, Body);
  }
  // Each marker line becomes its instance's text, indented as the printer
  // indents a statement's text.
  std::string Out;
  const std::string &T = Body->Text;
  for (size_t Pos = 0; Pos < T.size();) {
    size_t End = T.find('\n', Pos);
    End = End == std::string::npos ? T.size() : End + 1;
    size_t Marker = T.find('\x01', Pos);
    if (Marker < End) {
      size_t Index = std::stoul(T.substr(Marker + 1, T.find('\x02', Marker) - Marker - 1));
      appendStatementText(T.substr(Pos, Marker - Pos), instanceText(KS, Body->Instances[Index]),
                          Out);
    } else {
      Out.append(T, Pos, End - Pos);
    }
    Pos = End;
  }
  return Out;
}

std::string printParametricExpr(const isl::pw_aff &F, const isl::set &Context) {
  isl::ast_build Build = isl::ast_build::from_context(Context);
  return printAstExpr(Build.expr_from(F).get());
}

} // namespace tc
