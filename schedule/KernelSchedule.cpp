//===- KernelSchedule.cpp -------------------------------------------------===//
#include "KernelSchedule.h"
#include "AstPrinter.h"
#include <cassert>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <isl/ast_build.h>
#include <isl/schedule.h>

namespace tc {
namespace {

using namespace kernel_ids;

std::string str(long X) { return std::to_string(X); }

isl::schedule sequence(const isl::schedule &A, const isl::schedule &B) {
  return isl::manage(isl_schedule_sequence(A.copy(), B.copy()));
}

isl::schedule withBand(const isl::schedule &S, const std::string &Band) {
  isl::multi_union_pw_aff MUPA(S.ctx(), Band);
  return isl::manage(isl_schedule_insert_partial_schedule(S.copy(), MUPA.release()));
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
        Ctx(I.Context.ctx()), R(M.Stmts[Idiom.Reduction].Name) {}

  KernelSchedule run() {
    KS.Context = threadContext();
    // Split-K: a block computes the k tiles [tc_k_begin, tc_k_end).
    KTiles = CS.PaddedDomain.apply(map("{ " + R + "[m, n, k] -> [floor(k / " +
                                       str(C.BlockK) + ")] }"))
                 .intersect(set(std::string("{ [t] : ") + KBegin + " <= t < " + KEnd + " }"));
    Output = outputDomain();
    KS.GridTiles = gridTiles(Output);
    // The grid launches exactly the tiles that hold output elements, so a
    // block's own tile is one of them: isl drops the "is my tile empty"
    // guards, which would otherwise split the main loop into basic blocks
    // that the instruction scheduler cannot interleave.
    KS.Context = KS.Context.intersect(
        KS.GridTiles
            .intersect(set(std::string("{ [bm, bn] : bm = ") + BlockM + " and bn = " +
                           BlockN + " }"))
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
  isl::set gridTiles(const isl::set &Output) {
    return Output.apply(map("{ Store[m, n] -> [floor(m / " + str(C.BlockM) + "), floor(n / " +
                            str(C.BlockN) + ")] }"));
  }
  isl::set gridTiles() { return gridTiles(outputDomain()); }

private:
  isl::map map(const std::string &S) { return isl::map(Ctx, ids() + " -> " + S); }
  isl::set set(const std::string &S) { return isl::set(Ctx, ids() + " -> " + S); }
  isl::pw_aff fn(const std::string &S) { return isl::pw_aff(Ctx, ids() + " -> " + S); }
  /// A stage or phase argument: a StatementArg::Counter in TMA kernels,
  /// whose stages count uses from tc_k_begin (a long long). The cp.async
  /// kernels' stages are t mod S over their int loop iterator, already
  /// 32-bit; they keep the signed text (unsigned, the sm_80 mma.sync kernel
  /// of 128x256 tiles spilled at 255 registers).
  StatementArg counter(std::string Name, isl::pw_aff Value) const {
    return {std::move(Name), std::move(Value), C.Tma};
  }

  /// ids() and the region's parameters.
  std::string withModelParams() {
    std::string Ids = ids(), Model = M.paramList();
    Ids.pop_back();
    return Model.size() > 2 ? Ids + ", " + Model.substr(1) : Ids + "]";
  }

  std::string ids() {
    return std::string("[") + BlockM + ", " + BlockN + ", " + WarpM + ", " +
           WarpN + ", " + Thread + ", " + LaneRow + ", " + LaneCol + ", " +
           Batch_ + ", " + KBegin + ", " + KEnd +
           (splitAcrossWarps() ? std::string(", ") + WarpK : std::string()) +
           (C.wgmma() ? std::string(", ") + Warpgroup : std::string()) +
           (C.PersistentTiles ? std::string(", ") + KOrigin : std::string()) + "]";
  }

  bool splitAcrossWarps() const { return C.WarpSplitK > 1; }

  isl::set threadContext() {
    isl::set Ids = set(std::string("{ : ") + BlockM + " >= 0 and " + BlockN +
                       " >= 0 and 0 <= " + WarpM + " < " + str(C.warpsM()) +
                       " and 0 <= " + WarpN + " < " + str(C.warpsN()) +
                       " and 0 <= " + Thread + " < " + str(C.threads()) +
                       " and 0 <= " + LaneRow + " < 8 and 0 <= " + LaneCol +
                       " < 4 and " + Batch_ + " >= 0 and 0 <= " + KBegin + " < " + KEnd +
                       (splitAcrossWarps() ? " and 0 <= " + std::string(WarpK) + " < " +
                                                 str(C.WarpSplitK)
                                           : std::string()) +
                       (C.wgmma() ? " and 0 <= " + std::string(Warpgroup) + " < " +
                                        str(C.warpgroups())
                                  : std::string()) +
                       (C.PersistentTiles ? " and " + std::string(KOrigin) + " >= 0"
                                          : std::string()) +
                       " }");
    return Ids.intersect_params(I.Context);
  }

  void add(KernelStatement S) { KS.Statements.push_back(std::move(S)); }

  /// One operand's copy: rows x chunks of the shared tile of k tile t,
  /// spread over the threads; chunk index i = floor(L / threads) of a
  /// thread's chunks, with L = chunks-per-row * r + c. The per-thread setup
  /// of each chunk runs once before the main loop (SetupX), the copy
  /// itself (CopyX) once per k tile.
  std::pair<isl::schedule, isl::schedule>
  copyOperand(const char *Name, const char *SetupName, int Rows, int ChunksPerRow,
              const std::string &SetupTemplate, const std::string &Template,
              const std::string &LandTemplate, const std::string &GlobalRow,
              const std::string &GlobalCol) {
    std::string Tuple = std::string(Name) + "[t, r, c]";
    std::string SetupTuple = std::string(SetupName) + "[r, c]";
    std::string Box = "0 <= r < " + str(Rows) + " and 0 <= c < " + str(ChunksPerRow) +
                      " and (" + str(ChunksPerRow) + " * r + c) mod " +
                      str(C.threads()) + " = " + Thread;
    std::string Chunk = "floor((" + str(ChunksPerRow) + " * r + c) / " +
                        str(C.threads()) + ")";
    isl::set D = KTiles.apply(map("{ [t] -> " + Tuple + " : " + Box + " }"));
    isl::set SD = set("{ " + SetupTuple + " : " + Box + " }");
    KernelStatement S;
    S.Name = Name;
    S.Domain = D;
    S.Template = Template;
    S.Args = {counter("stage", fn("{ " + Tuple + " -> [(t mod " + str(C.Stages) + ")] }")),
              {"i", fn("{ " + Tuple + " -> [(" + Chunk + ")] }")},
              {"t", fn("{ " + Tuple + " -> [(t)] }")}};
    add(S);
    KernelStatement Setup;
    Setup.Name = SetupName;
    Setup.Domain = SD;
    Setup.Template = SetupTemplate;
    Setup.Args = {{"i", fn("{ " + SetupTuple + " -> [(" + Chunk + ")] }")},
                  {"r", fn("{ " + SetupTuple + " -> [(r)] }")},
                  {"c", fn("{ " + SetupTuple + " -> [(" + str(C.vector()) + " * c)] }")},
                  {"grow", fn("{ " + SetupTuple + " -> [(" + GlobalRow + ")] }")},
                  {"gcol", fn("{ " + SetupTuple + " -> [(" + GlobalCol + ")] }")}};
    add(Setup);
    CopyChunk[Name] = Chunk;
    // Consecutive threads take consecutive chunks: coalesced global reads.
    isl::schedule Copies = withBand(leaf(D), "[{ " + Tuple + " -> [(" + Chunk + ")] }]");
    // The wgmma main loop has no k-step band to unroll them with: the
    // chunk loop is unrolled itself, so that chunk indices are constants.
    if (C.wgmma())
      Copies = withLoopType(Copies, isl_ast_loop_unroll);
    if (!LandTemplate.empty()) {
      // The second phase of a converted operand's copy: the same chunks,
      // converted from the registers the copy loaded into tile t's stage.
      std::string LandName = "Land" + std::string(Name).substr(4);
      std::string LandTuple = LandName + "[t, r, c]";
      isl::set LD = rename(D, LandName.c_str());
      add({LandName, LD,
           {counter("stage", fn("{ " + LandTuple + " -> [(t mod " + str(C.Stages) + ")] }")),
            {"i", fn("{ " + LandTuple + " -> [(" + Chunk + ")] }")},
            {"t", fn("{ " + LandTuple + " -> [(t)] }")}},
           {}, LandTemplate});
      isl::schedule Land = withLoopType(
          withBand(leaf(LD), "[{ " + LandTuple + " -> [(" + Chunk + ")] }]"), isl_ast_loop_unroll);
      Lands = Lands.is_null() ? Land : sequence(Lands, Land);
      LandNames.push_back(LandName);
    }
    return {withBand(leaf(SD), "[{ " + SetupTuple + " -> [(" + Chunk + ")] }]"), Copies};
  }

  /// Returns (setup before the main loop, copies in the main loop).
  std::pair<isl::schedule, isl::schedule> insertCopies() {
    // A's shared tile is [BM][BK] when k is contiguous in memory, else
    // [BK][BM]; likewise B's is [BN][BK] or [BK][BN]. Global coordinates
    // are those of k tile 0.
    std::string BlockRowA = str(C.BlockM) + " * " + BlockM;
    std::string BlockRowB = str(C.BlockN) + " * " + BlockN;
    int V = C.vector();
    std::string Chunk = str(V) + " * c";
    // Converted operands land one iteration after their loads on the wgmma
    // loop (T.LandX is then set).
    auto A = Idiom.A.ReductionIsContiguous
                 ? copyOperand("CopyA", "SetupA", C.BlockM, C.BlockK / V, T.SetupA,
                               T.CopyA, T.LandA, BlockRowA + " + r", Chunk)
                 : copyOperand("CopyA", "SetupA", C.BlockK, C.BlockM / V, T.SetupA,
                               T.CopyA, T.LandA, "r", BlockRowA + " + " + Chunk);
    auto B = Idiom.B.ReductionIsContiguous
                 ? copyOperand("CopyB", "SetupB", C.BlockN, C.BlockK / V, T.SetupB,
                               T.CopyB, T.LandB, BlockRowB + " + r", Chunk)
                 : copyOperand("CopyB", "SetupB", C.BlockK, C.BlockN / V, T.SetupB,
                               T.CopyB, T.LandB, "r", BlockRowB + " + " + Chunk);
    return {sequence(A.first, B.first), sequence(A.second, B.second)};
  }

  /// The k steps per tile of one warp group, over which the step band of
  /// the main loop runs.
  int kSteps() const { return C.groupKSteps(); }
  /// A k step kk of the tile (of the Mma, LoadA, LoadB tuples) as the step
  /// of its warp group's share, kk - KS/P * tc_warp_k on their domains.
  std::string groupStep() const {
    return splitAcrossWarps() ? "(kk mod " + str(kSteps()) + ")" : "kk";
  }
  bool doubleBuffered() const { return C.doubleBufferedFragments(); }
  /// The k steps of an iteration over which its copies are spread: all but
  /// the last, whose wait needs them committed.
  int copySteps() const { return doubleBuffered() ? kSteps() - 1 : 1; }

  isl::schedule insertFragmentLoads() {
    // The mma instances of this warp, in (k tile, k step, m tile, n tile).
    isl::set Mma = CS.ContractedDomain.apply(map(
        "{ " + R + "[m, n, k] -> Mma[floor(k / " + str(C.BlockK) +
        "), floor((k mod " + str(C.BlockK) + ") / " + str(C.MmaK) + "), floor((m mod " +
        str(C.WarpM) + ") / 16), floor((n mod " + str(C.WarpN) + ") / 8)] : " +
        KBegin + " <= floor(k / " + str(C.BlockK) + ") < " + KEnd + " }"));
    isl::set LoadA = Mma.apply(map("{ Mma[t, kk, mt, nt] -> LoadA[t, kk, mt] }"));
    isl::set LoadB = Mma.apply(map("{ Mma[t, kk, mt, nt] -> LoadB[t, kk, floor(nt / 2)] }"));
    std::string Stage = " -> [(t mod " + str(C.Stages) + ")] }";
    std::string Step = groupStep();
    std::string Buf = doubleBuffered() ? "(" + Step + " mod 2)" : "0";
    add({"Mma", Mma,
         {{"mt", fn("{ Mma[t, kk, mt, nt] -> [(mt)] }")},
          {"nt", fn("{ Mma[t, kk, mt, nt] -> [(nt)] }")},
          {"buf", fn("{ Mma[t, kk, mt, nt] -> [" + Buf + "] }")}},
         {}, T.Mma});
    add({"LoadA", LoadA,
         {counter("stage", fn("{ LoadA[t, kk, mt]" + Stage)),
          {"mt", fn("{ LoadA[t, kk, mt] -> [(mt)] }")},
          {"m0", fn("{ LoadA[t, kk, mt] -> [(" + str(C.WarpM) + " * " + WarpM +
                    " + 16 * mt)] }")},
          {"k0", fn("{ LoadA[t, kk, mt] -> [(" + str(C.MmaK) + " * kk)] }")},
          {"kk", fn("{ LoadA[t, kk, mt] -> [(" + Step + ")] }")},
          {"buf", fn("{ LoadA[t, kk, mt] -> [" + Buf + "] }")}},
         {}, T.LoadA});
    add({"LoadB", LoadB,
         {counter("stage", fn("{ LoadB[t, kk, np]" + Stage)),
          {"nt", fn("{ LoadB[t, kk, np] -> [(2 * np)] }")},
          {"n0", fn("{ LoadB[t, kk, np] -> [(" + str(C.WarpN) + " * " + WarpN +
                    " + 16 * np)] }")},
          {"k0", fn("{ LoadB[t, kk, np] -> [(" + str(C.MmaK) + " * kk)] }")},
          {"kk", fn("{ LoadB[t, kk, np] -> [(" + Step + ")] }")},
          {"np", fn("{ LoadB[t, kk, np] -> [(np)] }")},
          {"buf", fn("{ LoadB[t, kk, np] -> [" + Buf + "] }")}},
         {}, T.LoadB});
    FragLoads = sequence(withBand(leaf(LoadA), "[{ LoadA[t, kk, mt] -> [(mt)] }]"),
                         withBand(leaf(LoadB), "[{ LoadB[t, kk, np] -> [(np)] }]"));
    return withBand(leaf(Mma), "[{ Mma[t, kk, mt, nt] -> [(mt)] }, "
                               "{ Mma[t, kk, mt, nt] -> [(nt)] }]");
  }

  /// wgmma: one instruction per (k tile, k step) and warpgroup, reading
  /// both operands from the stage of the tile. Returns the k-step band
  /// (unrolled) between the warpgroup's arrive and commit.
  isl::schedule insertWarpgroupMma() {
    isl::set Wgmma = CS.ContractedDomain.apply(map(
        "{ " + R + "[m, n, k] -> Wgmma[floor(k / " + str(C.BlockK) + "), floor((k mod " +
        str(C.BlockK) + ") / " + str(C.MmaK) + ")] : " + KBegin + " <= floor(k / " +
        str(C.BlockK) + ") < " + KEnd + " }"));
    std::vector<StatementArg> WgmmaArgs = {
        counter("stage", fn("{ Wgmma[t, kk] -> [" + stageOf() + "] }")),
        {"kk", fn("{ Wgmma[t, kk] -> [(kk)] }")}};
    // (A's fragments with TMA stages, or a raw B's, KernelConfig::
    // fragmentsByParity: in the buffer of the tile's parity.)
    if (C.fragmentsByParity())
      WgmmaArgs.push_back({"buf", fn("{ Wgmma[t, kk] -> [(" + useOf("t") + " mod 2)] }")});
    add({"Wgmma", Wgmma, WgmmaArgs, {}, T.Wgmma});
    if (C.WgmmaRegisterA && !C.Tma) {
      // A from registers: the warp's 16 rows of every k step of the tile,
      // loaded (and transformed by the prologue) before the arrive (with
      // TMA stages, fragmentsConsumerLoop loads them).
      isl::set LoadA = Wgmma.apply(map("{ Wgmma[t, kk] -> LoadA[t, kk, 0] }"));
      add({"LoadA", LoadA,
           {counter("stage", fn("{ LoadA[t, kk, mt] -> [" + stageOf() + "] }")),
            {"mt", fn("{ LoadA[t, kk, mt] -> [(mt)] }")},
            {"kk", fn("{ LoadA[t, kk, mt] -> [(kk)] }")},
            {"buf", fn("{ LoadA[t, kk, mt] -> [(kk)] }")}},
           {}, T.LoadA});
      FragLoads = withLoopType(withBand(leaf(LoadA), "[{ LoadA[t, kk, mt] -> [(kk)] }]"),
                               isl_ast_loop_unroll);
    }
    return withLoopType(withBand(leaf(Wgmma), "[{ Wgmma[t, kk] -> [(kk)] }]"),
                        isl_ast_loop_unroll);
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
    std::string A = str(C.copyDistance());
    isl::set Wait = rename(KTiles, "Wait");
    isl::set Arrive = rename(KTiles, "Arrive");
    isl::set MmaCommit = rename(KTiles, "MmaCommit");
    isl::set MmaWait = rename(KTiles, "MmaWait");
    isl::set Commit = KTiles.apply(map("{ [t] -> Commit[c] : t - " + A + " <= c <= t }"));
    // (With a prologue applied to the landed stages, the wait converts
    // tile t's stage in place: KernelConfig::ConvertStages, ConvertStagesB.)
    std::vector<StatementArg> WaitArgs;
    if (C.convertsStagePrologue())
      WaitArgs.push_back(counter("stage", fn("{ Wait[t] -> [" + stageOf() + "] }")));
    add({"Wait", Wait, WaitArgs, {}, T.Wait});
    add({"Arrive", Arrive, {}, {}, T.Arrive});
    add({"MmaCommit", MmaCommit, {}, {}, T.MmaCommit});
    add({"MmaWait", MmaWait, {}, {}, T.MmaWait});
    add({"Commit", Commit, {}, {}, T.Commit});
    isl::schedule Rebases = rebaseStatements();
    std::string RebaseIteration;
    for (size_t P = 0; P < Idiom.MoreProducts.size(); ++P)
      RebaseIteration += "; Rebase" + str(long(P + 1)) + "[t] -> [(t - " + A + ")]";
    isl::schedule CopiesAndRebases = Rebases.is_null() ? Copies : sequence(Rebases, Copies);
    // Converted chunks of tile t land in iteration t - A + 1, before that
    // iteration's loads reuse their registers and after its wgmma are
    // issued (they write tile t's stage, not the one being read).
    std::string LandIteration;
    for (auto &L : LandNames)
      LandIteration += "; " + L + "[t, r, c] -> [(t - " + A + " + 1)]";
    if (!Lands.is_null())
      CopiesAndRebases = sequence(Lands, CopiesAndRebases);
    std::string Iteration =
        "[{ Wait[t] -> [(t)]; Arrive[t] -> [(t)]; Wgmma[t, kk] -> [(t)]; MmaCommit[t] -> [(t)]; "
        "CopyA[t, r, c] -> [(t - " + A + ")]; CopyB[t, r, c] -> [(t - " + A +
        ")]; Commit[t] -> [(t)]; MmaWait[t] -> [(t)]" + RebaseIteration + LandIteration +
        (C.WgmmaRegisterA ? "; LoadA[t, kk, mt] -> [(t)]" : "") + " }]";
    isl::schedule Waited = C.WgmmaRegisterA ? sequence(leaf(Wait), FragLoads) : leaf(Wait);
    isl::schedule Body = sequence(
        sequence(sequence(sequence(sequence(sequence(Waited, leaf(Arrive)), Compute),
                                   leaf(MmaCommit)),
                          CopiesAndRebases),
                 leaf(Commit)),
        leaf(MmaWait));
    return withLoopType(withBand(Body, Iteration), Idiom.MoreProducts.empty()
                                                       ? isl_ast_loop_separate
                                                       : isl_ast_loop_default);
  }

  /// The block's use of the stages that k tile t is: u = t - tc_k_begin,
  /// after the tc_k_origin uses of a persistent block's earlier tiles.
  std::string useOf(const std::string &T) const {
    return "(" + T + " - " + KBegin +
           (C.PersistentTiles ? std::string(" + ") + KOrigin : std::string()) + ")";
  }
  /// The stage of k tile t: t mod S, or with TMA the block's use u of the
  /// stages mod S (its barriers count uses from 0).
  std::string stageOf(const std::string &T = "t") const {
    return C.Tma ? "(" + useOf(T) + " mod " + str(C.Stages) + ")"
                 : "(" + T + " mod " + str(C.Stages) + ")";
  }
  /// The parity of the phase of a stage's barrier that use u waits for:
  /// its floor(u / S)-th completion, or the one before (Previous).
  std::string phaseOf(bool Previous) const {
    return "((floor(" + useOf("t") + " / " + str(C.Stages) + ")" +
           (Previous ? " + 1" : "") + ") mod 2)";
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
        C.PairedTiles ? KTiles.intersect(KTiles.apply(map("{ [t] -> [t - " +
                                                          str(C.Stages - 1) + "] }")))
                      : KTiles;
    isl::set Release = rename(Released, "Release")
                           .intersect(set("{ Release[t] : t > " + std::string(KBegin) + " }"));
    add({"FullWait", Wait,
         {counter("stage", fn("{ FullWait[t] -> [" + stageOf() + "] }")),
          counter("phase", fn("{ FullWait[t] -> [" + phaseOf(false) + "] }"))},
         {}, T.FullWait});
    isl::schedule Landed = leaf(Wait);
    std::string Converted;
    if (C.convertsLandedStages()) {
      // (k: the tile's first k element, where a raw stage's conversion
      // zeroes what lies past the reduction.)
      add({"ConvertStage", Convert,
           {counter("stage", fn("{ ConvertStage[t] -> [" + stageOf() + "] }")),
            {"k", fn("{ ConvertStage[t] -> [(" + str(C.BlockK) + " * t)] }")}},
           {}, T.ConvertStage});
      Landed = sequence(Landed, leaf(Convert));
      Converted = " ConvertStage[t] -> [(t)];";
    }
    add({"Arrive", Arrive, {}, {}, T.Arrive});
    add({"MmaCommit", MmaCommit, {}, {}, T.MmaCommit});
    // (With wgmma's A fragments in registers, the buffer of tile t - 1's,
    // which its group read.)
    std::vector<StatementArg> WaitArgs;
    if (C.fragmentsByParity())
      WaitArgs.push_back({"buf", fn("{ MmaWait[t] -> [((" + useOf("t") + " + 1) mod 2)] }")});
    add({"MmaWait", MmaWait, WaitArgs, {}, T.MmaWait});
    add({"Release", Release,
         {counter("stage", fn("{ Release[t] -> [" + stageOf("t - 1") + "] }"))}, {}, T.Release});
    if (C.fragmentsByParity())
      return fragmentsConsumerLoop(Landed, Compute, Arrive, MmaCommit, MmaWait, Release);
    isl::schedule Body = sequence(
        sequence(sequence(sequence(sequence(Landed, leaf(Arrive)), Compute), leaf(MmaCommit)),
                 leaf(MmaWait)),
        leaf(Release));
    std::string Iteration = "[{ FullWait[t] -> [(t)];" + Converted +
                            " Arrive[t] -> [(t)]; Wgmma[t, kk] -> [(t)]; "
                            "MmaCommit[t] -> [(t)]; MmaWait[t] -> [(t)]; Release[t] -> [(t)] }]";
    return withLoopType(withBand(Body, Iteration), isl_ast_loop_separate);
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
    const std::string Parity = "(" + useOf("t") + " mod 2)";
    std::string LoadName;
    isl::schedule Loads;
    if (C.RawFragmentsB) {
      isl::set Load = rename(KTiles, "LoadRawB");
      add({"LoadRawB", Load,
           {counter("stage", fn("{ LoadRawB[t] -> [" + stageOf() + "] }")),
            {"buf", fn("{ LoadRawB[t] -> [" + Parity + "] }")},
            {"k", fn("{ LoadRawB[t] -> [(" + str(C.BlockK) + " * t)] }")}},
           {}, T.LoadRawB});
      LoadName = "LoadRawB[t]";
      Loads = leaf(Load);
    } else {
      isl::set Load = KTiles.apply(map("{ [t] -> LoadA[t, kk] : 0 <= kk < " + str(C.kSteps()) +
                                       " }"));
      add({"LoadA", Load,
           {counter("stage", fn("{ LoadA[t, kk] -> [" + stageOf() + "] }")),
            {"buf", fn("{ LoadA[t, kk] -> [" + Parity + "] }")},
            {"kk", fn("{ LoadA[t, kk] -> [(kk)] }")}},
           {}, T.LoadA});
      LoadName = "LoadA[t, kk]";
      Loads = withLoopType(withBand(leaf(Load), "[{ LoadA[t, kk] -> [(kk)] }]"),
                           isl_ast_loop_unroll);
    }
    isl::schedule Body = sequence(
        sequence(sequence(sequence(sequence(sequence(Landed, Loads), leaf(Arrive)), Compute),
                          leaf(MmaCommit)),
                 leaf(MmaWait)),
        leaf(Release));
    auto Band = [&](const std::string &Of) {
      std::string B = ids() + " -> [{ ";
      for (const std::string &S : {std::string("FullWait[t]"), LoadName, std::string("Arrive[t]"),
                                   std::string("Wgmma[t, kk]"), std::string("MmaCommit[t]"),
                                   std::string("MmaWait[t]"), std::string("Release[t]")})
        B += S + " -> [(" + Of + ")]; ";
      B.resize(B.size() - 2);
      return B + " }]";
    };
    auto Loop = [&](const isl::schedule &Part) {
      isl::schedule S =
          withLoopType(withBand(Part, Band(useOf("t") + " mod 2")), isl_ast_loop_unroll);
      return withLoopType(withBand(S, Band("floor(" + useOf("t") + " / 2)")),
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
    isl::set Even = set("{ [t] : " + useOf("t") + " mod 2 = 0 }");
    isl::set Alone = KTiles.subtract(KTiles.apply(map("{ [t] -> [t - 1] }"))).intersect(Even);
    isl::union_map TileOf = isl::manage(isl_union_map_from_multi_union_pw_aff(
        isl::multi_union_pw_aff(Ctx, Band("t")).release()));
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
    isl::set Empty = rename(KTiles, "EmptyWait")
                         .intersect(set("{ EmptyWait[t] : " + useOf("t") + " >= " +
                                        str(C.Stages) + " }"));
    add({"EmptyWait", Empty,
         {counter("stage", fn("{ EmptyWait[t] -> [" + stageOf() + "] }")),
          counter("phase", fn("{ EmptyWait[t] -> [" + phaseOf(true) + "] }"))},
         {}, T.EmptyWait});
    // Product p's copies: its k tiles [first_p, first_{p+1}) of the
    // concatenated reduction, at k coordinate BK * (t - first_p) of its own
    // operands.
    std::vector<std::string> First = productFirstTiles();
    isl::schedule Body = leaf(Empty);
    std::string Band = "[{ EmptyWait[t] -> [(t)]";
    for (size_t P = 0; P < First.size(); ++P) {
      std::string Name = P ? "TmaLoad" + str(long(P)) : std::string("TmaLoad");
      std::string Range = "t >= " + First[P] +
                          (P + 1 < First.size() ? " and t < " + First[P + 1] : std::string());
      // (The products' extents are the region's parameters.)
      std::string Params = withModelParams();
      isl::set Load = rename(KTiles, Name.c_str())
                          .intersect(isl::set(Ctx, Params + " -> { " + Name + "[t] : " + Range +
                                                       " }"));
      isl::pw_aff K(Ctx, Params + " -> { " + Name + "[t] -> [(" + str(C.BlockK) + " * (t - (" +
                             First[P] + ")))] }");
      add({Name, Load,
           {counter("stage", fn("{ " + Name + "[t] -> [" + stageOf() + "] }")), {"k", K}},
           {}, T.TmaLoad[P]});
      Body = sequence(Body, leaf(Load));
      Band += "; " + Name + "[t] -> [(t)]";
    }
    return withBand(Body, Band + " }]");
  }

  /// The first k tile of each product of a sum of matmuls in the
  /// concatenated reduction ("0" for the first), as isl expressions.
  std::vector<std::string> productFirstTiles() const {
    std::vector<std::string> First = {"0"};
    AffineExpr PrevK = Idiom.ExtentK;
    for (auto &P : Idiom.MoreProducts) {
      First.push_back(First.back() + " + floor((" + PrevK.str() + " + " + str(C.BlockK - 1) +
                      ") / " + str(C.BlockK) + ")");
      PrevK = P.ExtentK;
    }
    return First;
  }

  /// Sum of matmuls: before the copies of the first k tile of product
  /// p + 1 that this block computes, the copiers switch operands.
  isl::schedule rebaseStatements() {
    isl::schedule Rebases;
    std::vector<std::string> First = productFirstTiles();
    for (size_t P = 0; P < Idiom.MoreProducts.size(); ++P) {
      const std::string &FirstTile = First[P + 1];
      std::string RName = "Rebase" + str(long(P + 1));
      std::string Params = M.paramList();
      Params.pop_back();
      Params += std::string(Params.size() > 1 ? ", " : "") + KBegin + "]";
      isl::set First(Ctx, Params + " -> { [t] : t >= " + FirstTile + " and (t = " +
                              FirstTile + " or t = " + KBegin + ") }");
      isl::set D = rename(KTiles.intersect(First), RName.c_str());
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
    std::string A = str(Ahead), K = str(KS), Last = str(KS - 1);
    std::string CopyStep = str(copySteps() - 1);
    isl::set Wait = rename(KTiles, "Wait");
    isl::set Commit = KTiles.apply(map("{ [t] -> Commit[c] : t - " + A + " <= c <= t }"));
    add({"Wait", Wait, {}, {}, T.Wait});
    add({"Commit", Commit, {}, {}, T.Commit});
    // Sum of matmuls: before the copies of the first k tile of product
    // p + 1 that this block computes, the copiers switch operands.
    isl::schedule Rebases = rebaseStatements();
    std::string RebaseIteration, RebaseStep;
    for (size_t P = 0; P < Idiom.MoreProducts.size(); ++P) {
      std::string RName = "Rebase" + str(long(P + 1));
      RebaseIteration += "; " + RName + "[t] -> [(t - " + str(Ahead) + ")]";
      RebaseStep += "; " + RName + "[t] -> [(0)]";
    }
    isl::schedule CopiesAndRebases = Rebases.is_null() ? Copies : sequence(Rebases, Copies);
    // A copy's k step: its chunk index, cyclically over the copy steps.
    auto Chunk = [&](const char *Operand) {
      return "(" + CopyChunk.at(std::string("Copy") + Operand) + ") mod " + str(copySteps());
    };
    std::string KK = groupStep();
    std::string Load = Shift ? "floor((" + K + " * t + " + KK + " - 1) / " + K + ")" : "t";
    std::string LoadStep = Shift ? "((" + K + " * t + " + KK + " - 1) mod " + K + ")" : KK;
    std::string Iteration =
        "[{ Wait[t] -> [(t - " + str(Shift) + ")]; CopyA[t, r, c] -> [(t - " + A +
        ")]; CopyB[t, r, c] -> [(t - " + A + ")]; Commit[t] -> [(t)]; LoadA[t, kk, mt] -> [(" +
        Load + ")]; LoadB[t, kk, np] -> [(" + Load + ")]; Mma[t, kk, mt, nt] -> [(t)]" + RebaseIteration + " }]";
    std::string Step =
        "[{ Wait[t] -> [(" + (Shift ? Last : std::string("0")) + ")]; CopyA[t, r, c] -> [(" +
        Chunk("A") + ")]; CopyB[t, r, c] -> [(" + Chunk("B") + ")]; Commit[t] -> [(" + CopyStep +
        ")]; LoadA[t, kk, mt] -> [(" + LoadStep + ")]; LoadB[t, kk, np] -> [(" + LoadStep +
        ")]; Mma[t, kk, mt, nt] -> [(" + KK + ")]" + RebaseStep + " }]";
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
        withBand(withLoopType(withBand(Body, Step), isl_ast_loop_unroll), Iteration),
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
      std::string Tuple, M_, N_, Batch;
      for (auto &It : M.iterators(S)) {
        Tuple += (Tuple.empty() ? "" : ", ") + It;
        const std::string &Role = (*Roles)[It];
        if (Role == Idiom.IterM)
          M_ = It;
        else if (Role == Idiom.IterN)
          N_ = It;
        else
          Batch = " : " + It + " = " + Batch_;
      }
      if (M_.empty() || N_.empty())
        continue;
      return I.Domain.at(S.Name).apply(
          map("{ " + S.Name + "[" + Tuple + "] -> Store[" + M_ + ", " + N_ + "]" +
              Batch + " }"));
    }
    return reductionDomain(M, Idiom, I, C.BlockK).apply(
        map("{ " + R + "[m, n, k] -> Store[m, n] }"));
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
    std::string FM = str(C.fragmentsM()), FN = str(C.fragmentsN());
    std::string Fragments = "0 <= mt < " + FM + " and 0 <= nt < " + FN;
    std::string Slot = "(((z - 1) * " + str(C.groupWarps()) + " + " + str(C.warpsN()) + " * " +
                       WarpM + " + " + WarpN + ") * " + str(C.fragmentsM() * C.fragmentsN()) +
                       " + " + FN + " * mt + nt) * 32 + 4 * " + LaneRow + " + " + LaneCol;
    isl::set Store = set("{ PartialStore[z, mt, nt] : z = " + std::string(WarpK) + " and z >= 1 and " +
                         Fragments + " }");
    isl::set Add = set("{ PartialAdd[z, mt, nt] : " + std::string(WarpK) + " = 0 and 1 <= z < " +
                       str(C.WarpSplitK) + " and " + Fragments + " }");
    isl::set Sync = set("{ PartialSync[] }");
    auto Args = [&](const char *Tuple) {
      std::string T = std::string(Tuple) + "[z, mt, nt]";
      return std::vector<StatementArg>{
          {"mt", fn("{ " + T + " -> [(mt)] }")},
          {"nt", fn("{ " + T + " -> [(nt)] }")},
          {"slot", fn("{ " + T + " -> [(" + Slot + ")] }")}};
    };
    add({"PartialStore", Store, Args("PartialStore"), {}, T.PartialStore});
    add({"PartialSync", Sync, {}, {}, T.PartialSync});
    add({"PartialAdd", Add, Args("PartialAdd"), {}, T.PartialAdd});
    isl::schedule R = sequence(
        sequence(withBand(leaf(Store), "[{ PartialStore[z, mt, nt] -> [(mt)] }, "
                                       "{ PartialStore[z, mt, nt] -> [(nt)] }]"),
                 leaf(Sync)),
        withBand(leaf(Add), "[{ PartialAdd[z, mt, nt] -> [(z)] }, { PartialAdd[z, mt, nt] -> "
                            "[(mt)] }, { PartialAdd[z, mt, nt] -> [(nt)] }]"));
    KS.Steps.push_back({"insertWarpGroupReduction (intra-block split-K p=" +
                            str(C.WarpSplitK) + ")",
                        printTree(R)});
    return R;
  }

  isl::schedule insertEpilogue() {
    // The elements of the padded output tile that this thread's
    // accumulators hold: in each 16x8 mma tile, rows lane/4 and lane/4 + 8,
    // columns 2 (lane % 4) and 2 (lane % 4) + 1.
    std::string BM = str(C.BlockM), BN = str(C.BlockN);
    isl::map Tile = map("{ Store[m, n] -> [floor(m / " + BM + "), floor(n / " +
                        BN + ")] }");
    isl::set Padded = Output.apply(Tile).apply(Tile.reverse());
    isl::set Store = Padded.intersect(set(
        "{ Store[m, n] : floor(m / " + BM + ") = " + BlockM + " and floor(n / " +
        BN + ") = " + BlockN + " and floor((m mod " + BM + ") / " +
        str(C.WarpM) + ") = " + WarpM + " and floor((n mod " + BN + ") / " +
        str(C.WarpN) + ") = " + WarpN + " and m mod 8 = " + LaneRow +
        " and floor((n mod 8) / 2) = " + LaneCol + " }"));
    // After the reduction, warp group 0 holds the block's sums.
    if (splitAcrossWarps())
      Store = Store.intersect(set("{ Store[m, n] : " + std::string(WarpK) + " = 0 }"));
    std::string Tuple = "Store[m, n]";
    std::vector<StatementArg> Fragment{
        {"m", fn("{ " + Tuple + " -> [(m)] }")},
        {"n", fn("{ " + Tuple + " -> [(n)] }")},
        {"ml", fn("{ " + Tuple + " -> [(m mod " + BM + ")] }")},
        {"nl", fn("{ " + Tuple + " -> [(n mod " + BN + ")] }")},
        {"mt", fn("{ " + Tuple + " -> [(floor((m mod " + str(C.WarpM) + ") / 16))] }")},
        {"nt", fn("{ " + Tuple + " -> [(floor((n mod " + str(C.WarpN) + ") / 8))] }")},
        {"reg", fn("{ " + Tuple + " -> [(2 * floor((m mod 16) / 8) + (n mod 2))] }")}};
    std::string FragmentOrder =
        "[{ Store[m, n] -> [(floor((m mod " + str(C.WarpM) + ") / 16))] }, { Store[m, n] -> "
        "[(floor((n mod " + str(C.WarpN) + ") / 8))] }, { Store[m, n] -> "
        "[(floor((m mod 16) / 8))] }, { Store[m, n] -> [(n mod 2)] }]";
    // A transposed tile (KernelConfig::RawFragmentsB): the accumulators'
    // rows are the tile's columns, warp w's rows 16 w .. 16 w + 15, and
    // their columns (two a thread, neighbours) the tile's rows.
    if (C.RawFragmentsB) {
      // (Stored through the staged output tile only, which T.Stage fills
      // with the pairs of this layout.)
      assert(C.stagedEpilogue() && "a transposed tile is staged for its stores");
      Store = Padded.intersect(
          set("{ Store[m, n] : floor(m / " + BM + ") = " + BlockM + " and floor(n / " + BN +
              ") = " + BlockN + " and floor((n mod " + BN + ") / " + str(C.WarpM) + ") = " +
              WarpM + " and " + WarpN + " = 0 and n mod 8 = " + LaneRow +
              " and floor((m mod 8) / 2) = " + LaneCol + " }"));
      Fragment = {{"m", fn("{ " + Tuple + " -> [(m)] }")},
                  {"n", fn("{ " + Tuple + " -> [(n)] }")},
                  {"ml", fn("{ " + Tuple + " -> [(m mod " + BM + ")] }")},
                  {"nl", fn("{ " + Tuple + " -> [(n mod " + BN + ")] }")},
                  {"mt", fn("{ " + Tuple + " -> [(0)] }")},
                  {"nt", fn("{ " + Tuple + " -> [(floor((m mod " + BM + ") / 8))] }")},
                  {"reg", fn("{ " + Tuple + " -> [(2 * floor((n mod 16) / 8) + (m mod 2))] }")}};
      FragmentOrder = "[{ Store[m, n] -> [(floor((m mod " + BM + ") / 8))] }, { Store[m, n] -> "
                      "[(floor((n mod 16) / 8))] }, { Store[m, n] -> [(m mod 2)] }]";
    }
    // The accumulators are final once the warp groups' partial sums are
    // added; the operand stages hold those, so the copies must be drained
    // first.
    isl::schedule Reduction;
    isl::set Drain = set("{ Drain[] }");
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
      isl::schedule Stores = withBand(leaf(Store), FragmentOrder);
      return Reduction.is_null() ? Stores : sequence(Reduction, Stores);
    }
    // Staged: every thread puts its accumulators into the shared output
    // tile (the operand stages are free once the main loop has drained),
    // then thread i stores elements i, i + threads, ... of the tile in row-
    // major order, so that a warp writes 32 consecutive elements of a row.
    // A thread's two accumulators of a row, columns n and n + 1 (n even),
    // go in with one 8-byte store: half the shared-memory stores, and a
    // half-warp's pairs fill the 32 banks once (the pitch is BN + 8).
    isl::set Sync = set("{ StageSync[] }");
    isl::set Stage =
        rename(Store, "Stage").intersect(set(C.RawFragmentsB ? "{ Stage[m, n] : m mod 2 = 0 }"
                                                              : "{ Stage[m, n] : n mod 2 = 0 }"));
    std::string Linear = "(" + BN + " * (m mod " + BM + ") + (n mod " + BN + "))";
    isl::set Out = rename(Padded, "StagedStore")
                       .intersect(set("{ StagedStore[m, n] : floor(m / " + BM + ") = " +
                                      BlockM + " and floor(n / " + BN + ") = " + BlockN +
                                      " and " + Linear + " mod " + str(storeThreads()) +
                                      " = " + Thread + " }"));
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
    std::string StageOrder = FragmentOrder;
    for (size_t P = StageOrder.find("Store["); P != std::string::npos;
         P = StageOrder.find("Store[", P + 6))
      StageOrder.replace(P, 5, "Stage");
    // With the reduction, the output tile overwrites the partial sums once
    // group 0 has read them all.
    isl::schedule BeforeStage = leaf(Drain);
    if (!Reduction.is_null()) {
      isl::set Done = set("{ PartialDone[] }");
      add({"PartialDone", Done, {}, {}, T.PartialDone});
      BeforeStage = sequence(Reduction, leaf(Done));
    }
    isl::schedule Staged =
        sequence(sequence(BeforeStage, withBand(leaf(Stage), StageOrder)), leaf(Sync));
    std::string ElementOrder =
        "[{ StagedStore[m, n] -> [(floor(" + Linear + " / " + str(storeThreads()) + "))] }]";
    // TMA kernels: the parts of a k-split tile add up their staged tiles;
    // the last one to arrive goes on with the total (tc/tile_schedule.cuh).
    // (Persistent blocks compute whole tiles only.)
    if (C.Tma && !C.PersistentTiles) {
      isl::set Combine = set("{ CombineParts[] }");
      add({"CombineParts", Combine, {}, {}, T.CombineParts});
      Staged = sequence(Staged, leaf(Combine));
    }
    isl::schedule Stores;
    if (T.VectorLanes < 2) {
      Stores = withBand(leaf(Out), ElementOrder);
    } else {
      auto [Vectors, Rest] =
          vectorizeStagedStore(edgeByRows() ? rename(Padded, "StagedStore") : Out,
                               rename(Output, "StagedStore"), Linear);
      add({"StagedStoreVector", Vectors, Renamed("StagedStoreVector"), {},
           T.StagedStoreVector});
      std::string VectorOrder = "[{ StagedStoreVector[m, n] -> [(floor(" + Linear + " / " +
                                str(T.VectorLanes * storeThreads()) + "))] }]";
      // The right edge: by columns (element-wise), or each thread its rows'
      // few columns in order.
      std::string EdgeOrder =
          edgeByRows() ? "[{ StagedStore[m, n] -> [(floor((m mod " + BM + ") / " +
                             str(storeThreads()) + "))] }, { StagedStore[m, n] -> [(n)] }]"
                       : ElementOrder;
      Stores = sequence(withBand(leaf(Vectors), VectorOrder), withBand(leaf(Rest), EdgeOrder));
    }
    if (!C.PersistentTiles)
      return sequence(Staged, Stores);
    // Persistent blocks: the epilogue warpgroups store the staged tile while
    // the consumers go on with the next one.
    KS.Storer = Stores;
    KS.StorerContext = KS.Context.intersect(
        set("{ : " + std::string(Thread) + " < " + str(storeThreads()) + " }"));
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
                                                     const isl::set &Output,
                                                     const std::string &Linear) {
    std::string V = str(T.VectorLanes), BM = str(C.BlockM), BN = str(C.BlockN);
    // The last element of the vector that element (m, n) belongs to.
    isl::map Last = map("{ StagedStore[m, n] -> StagedStore[m, " + V + " * floor(n / " + V +
                        ") + " + V + " - 1] }");
    isl::set Covered = Last.intersect_range(Output).domain();
    isl::set Rest = Elements.intersect(Output).subtract(Covered);
    if (edgeByRows())
      Rest = Rest.intersect(set("{ StagedStore[m, n] : floor(m / " + BM + ") = " + BlockM +
                                " and floor(n / " + BN + ") = " + BlockN + " and (m mod " + BM +
                                ") mod " + str(storeThreads()) + " = " + Thread + " }"));
    isl::map LastOfStart = map("{ StagedStoreVector[m, n] -> StagedStore[m, n + " + V +
                               " - 1] }");
    isl::set Vectors =
        LastOfStart.intersect_range(Output)
            .domain()
            .intersect(set("{ StagedStoreVector[m, n] : n mod " + V +
                           " = 0 and floor(m / " + BM + ") = " + BlockM + " and floor(n / " +
                           BN + ") = " + BlockN + " and floor(" + Linear + " / " + V +
                           ") mod " + str(storeThreads()) + " = " + Thread + " }"));
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
  isl::set KTiles, Output;
  std::map<std::string, std::string> CopyChunk; // CopyX -> chunk index of [t, r, c]
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
