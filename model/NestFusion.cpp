//===- NestFusion.cpp -----------------------------------------------------===//
#include "NestFusion.h"
#include <algorithm>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <map>
#include <set>

namespace tc {
namespace {

void collectReads(const ExprNode &E, std::vector<const ExprNode *> &Out) {
  if (E.K == ExprNode::Read)
    Out.push_back(&E);
  for (auto &Op : E.Ops)
    collectReads(*Op, Out);
}

/// A copy of the tree: extraction shares subtrees between statements.
ExprPtr clone(const ExprNode &E) {
  auto C = std::make_shared<ExprNode>(E);
  for (auto &Op : C->Ops)
    Op = clone(*Op);
  return C;
}

using Renaming = std::map<std::string, std::string>;


void rename(ExprNode &E, const Renaming &R) {
  if (E.K == ExprNode::Iterator)
    if (auto It = R.find(E.Text); It != R.end())
      E.Text = It->second;
  for (auto &Op : E.Ops)
    rename(*Op, R);
}

/// The leaves of a sum `a + b + c` in any association; operator calls of
/// __half and __nv_bfloat16 round in their own type and are leaves.
void sumLeaves(const ExprPtr &E, std::vector<ExprPtr> &Leaves) {
  if (E->K == ExprNode::Binary && E->Text == "+" && !E->IsOperatorCall) {
    sumLeaves(E->Ops[0], Leaves);
    sumLeaves(E->Ops[1], Leaves);
    return;
  }
  Leaves.push_back(E);
}

/// The reductions into one array, and how their result leaves the nest.
struct Group {
  unsigned Acc = 0;                   // the accumulator (array id)
  std::vector<unsigned> Reductions;   // statements, in order
  std::vector<unsigned> AccReads;     // each one's read of the accumulator
  std::optional<unsigned> Init, Copy; // `R = 0`, `R[i][j] = acc`
  /// Copy's subscript d is the accumulator's subscript CopyOrder[d].
  std::vector<unsigned> CopyOrder;
  unsigned Result = 0;                // Copy's array, else Acc
};

class Fuser {
public:
  Fuser(const RegionModel &M, const IslModel &I) : M(M), I(I) {}

  llvm::Expected<std::optional<NestFusion>> run() {
    findGroups();
    if (Groups.size() < 2)
      return std::nullopt;
    if (auto E = checkOutputLoops())
      return std::move(E);
    for (size_t G = 0; G < Groups.size(); ++G)
      if (auto E = findInitAndCopy(G))
        return std::move(E);
    // The sum pairs the results' elements by subscript: each must hold its
    // accumulator's elements in the same order.
    auto OrderOf = [&](const Group &G) {
      std::vector<unsigned> O = G.CopyOrder;
      if (O.empty())
        for (unsigned D = 0; D < Depth; ++D)
          O.push_back(D);
      return O;
    };
    for (const Group &G : Groups)
      if (OrderOf(G) != OrderOf(Groups[0]))
        return regionError(locOf(stmt(G.Copy ? *G.Copy : G.Reductions.front())),
                           cannotFuse(G.Acc) + "'" + name(G.Result) +
                               "' holds the product's elements in another order than '" +
                               name(Groups[0].Result) + "'",
                           "store the products' results with the same layout");
    if (auto E = checkScratch())
      return std::move(E);
    if (auto E = rewriteSums())
      return std::move(E);
    if (auto E = checkScratchReads())
      return std::move(E);
    for (size_t G = 1; G < Groups.size(); ++G)
      if (auto E = checkCoverage(G))
        return std::move(E);
    buildFused();
    if (auto E = checkOrder())
      return std::move(E);
    return NestFusion{std::move(Fused), describe()};
  }

private:
  const Statement &stmt(unsigned SI) const { return M.Stmts[SI]; }
  const std::string &name(unsigned ArrayId) const { return M.Arrays[ArrayId].Name; }
  /// The name as the user wrote it, for diagnostics.
  const std::string &spelled(unsigned ArrayId) const {
    const Array &A = M.Arrays[ArrayId];
    return A.SourceName.empty() ? A.Name : A.SourceName;
  }

  /// Statements `X += product` whose write leaves out a loop, grouped by X.
  void findGroups() {
    for (unsigned SI = 0; SI < M.Stmts.size(); ++SI) {
      const Statement &S = stmt(SI);
      const std::optional<Accumulation> Acc = accumulationOf(S);
      if (!Acc || Acc->IsOperatorCall)
        continue;
      bool Reduces = false;
      for (unsigned P = 0; P < S.Loops.size(); ++P)
        Reduces |= !involves(I.RawWrite.at(S.Name), P);
      if (!Reduces)
        continue;
      auto G = std::find_if(Groups.begin(), Groups.end(),
                            [&](const Group &X) { return X.Acc == S.Write.ArrayId; });
      if (G == Groups.end()) {
        Groups.push_back({});
        G = Groups.end() - 1;
        G->Acc = S.Write.ArrayId;
      }
      G->Reductions.push_back(SI);
      G->AccReads.push_back(Acc->AccRead);
    }
  }

  /// Each product runs over the output in its outer loops, which index its
  /// accumulator in loop order, over the first product's output elements.
  llvm::Error checkOutputLoops() {
    const Statement &First = stmt(Groups[0].Reductions[0]);
    for (unsigned P = 0; P < First.Loops.size(); ++P)
      Depth += involves(I.RawWrite.at(First.Name), P);
    auto OutputDomain = [&](const Statement &S) {
      // The output loops' own bounds: projecting the reduction loop out
      // would add its non-emptiness (K > 0).
      isl::set D = I.Domain.at(S.Name);
      unsigned Inner = S.Loops.size() - Depth;
      D = isl::manage(isl_set_drop_constraints_involving_dims(D.release(), isl_dim_set,
                                                              Depth, Inner));
      D = isl::manage(isl_set_project_out(D.release(), isl_dim_set, Depth, Inner));
      return isl::manage(isl_set_reset_tuple_id(D.release()));
    };
    isl::set Outputs = OutputDomain(First);
    for (const Group &G : Groups)
      for (unsigned SI : G.Reductions) {
        const Statement &S = stmt(SI);
        auto Its = M.iterators(S);
        bool Ordered = S.Write.Index.size() == Depth && Its.size() > Depth;
        for (unsigned D = 0; Ordered && D < Depth; ++D)
          Ordered = S.Write.Index[D].str() == AffineExpr::symbol(Its[D]).str();
        for (unsigned P = Depth; Ordered && P < Its.size(); ++P)
          Ordered = !involves(I.RawWrite.at(S.Name), P);
        if (!Ordered)
          return regionError(S.Write.Range.getBegin(),
                             cannotFuse(G.Acc) + "this one is not indexed by its "
                                 "outer loops in order",
                             "products in separate nests become one kernel when each "
                             "nest runs over the output in its outer loops and "
                             "accumulates into '" +
                                 spelled(G.Acc) + "' indexed by them, outermost first");
        if (!OutputDomain(S).is_equal(Outputs))
          return regionError(locOf(S),
                             cannotFuse(G.Acc) + "they run over different output "
                                 "elements",
                             "a region's nests become one kernel only as a sum of products "
                             "over the same output loops; put each nest under a '#pragma tc' "
                             "of its own");
      }
    return llvm::Error::success();
  }

  /// "the reductions into 'C' and 'R' cannot be fused: " for the group of
  /// accumulator Acc (the first group's: the second's).
  std::string cannotFuse(unsigned Acc) const {
    unsigned Other = Acc == Groups[0].Acc ? Groups[1].Acc : Acc;
    const std::string &First = spelled(Groups[0].Acc), &Second = spelled(Other);
    if (First == Second) // two nests' locals of one name
      return "the reductions into '" + First + "' of two nests cannot be fused: ";
    return "the reductions into '" + First + "' and '" + Second + "' cannot be fused: ";
  }

  bool isReduction(unsigned SI) const {
    for (const Group &G : Groups)
      if (std::count(G.Reductions.begin(), G.Reductions.end(), SI))
        return true;
    return false;
  }

  /// The first group keeps its statements (the idiom classifies them); a
  /// later one must start from 0 and may copy its result to an array.
  llvm::Error findInitAndCopy(size_t GI) {
    Group &G = Groups[GI];
    const Array &Acc = M.Arrays[G.Acc];
    const ElementType Type = M.Arrays[Groups[0].Acc].Elem;
    const Statement &FirstRed = stmt(G.Reductions.front());
    unsigned Last = G.Reductions.back();
    if (Acc.Elem != Type || (Type != ElementType::F32 && Type != ElementType::F64))
      return regionError(FirstRed.Write.Range.getBegin(),
                         cannotFuse(G.Acc) + "'" + Acc.Name +
                             "' has type '" + Acc.ElemSpelling + "'",
                         "products fused into one accumulator accumulate in one "
                         "floating-point type, float or double");
    G.Result = G.Acc;
    // The statements that read the accumulator, besides its reductions: one
    // copy to an array (`C[i][j] = acc`), or the sum that reads it.
    std::vector<unsigned> Readers;
    for (unsigned SI = 0; SI < M.Stmts.size(); ++SI)
      if (!isReduction(SI))
        for (auto &Rd : stmt(SI).Reads)
          if (Rd.ArrayId == G.Acc && (Readers.empty() || Readers.back() != SI))
            Readers.push_back(SI);
    if (Readers.size() == 1) {
      const Statement &S = stmt(Readers[0]);
      const ExprNode *V = S.Value.get();
      bool IsCopy = Readers[0] > Last && V->K == ExprNode::Read &&
                    S.Reads[V->AccessId].ArrayId == G.Acc &&
                    S.Write.Index.size() == S.Reads[V->AccessId].Index.size() &&
                    M.Arrays[S.Write.ArrayId].Elem == Acc.Elem;
      // The copy may store the element transposed (`R[j * M + i] = acc`):
      // its subscripts are the accumulator's, permuted.
      std::vector<unsigned> Order;
      for (size_t D = 0; IsCopy && D < S.Write.Index.size(); ++D) {
        const auto &From = S.Reads[V->AccessId].Index;
        auto It = std::find_if(From.begin(), From.end(), [&](const AffineExpr &E) {
          return E.str() == S.Write.Index[D].str();
        });
        IsCopy = It != From.end() &&
                 !std::count(Order.begin(), Order.end(), unsigned(It - From.begin()));
        Order.push_back(unsigned(It - From.begin()));
      }
      if (IsCopy) {
        G.Copy = Readers[0];
        G.Result = S.Write.ArrayId;
        G.CopyOrder = Order;
      } else if (const ExprNode *Read = stripConversions(V);
                 Read->K == ExprNode::Read && S.Reads[Read->AccessId].ArrayId == G.Acc &&
                 M.Arrays[S.Write.ArrayId].Elem != Acc.Elem) {
        return regionError(locOf(S),
                           cannotFuse(G.Acc) + "'" + name(S.Write.ArrayId) + "' of type '" +
                               M.Arrays[S.Write.ArrayId].ElemSpelling +
                               "' takes the product's result, of type '" + Acc.ElemSpelling +
                               "'",
                           "the arrays that carry the products to their sum have the "
                           "accumulator's type");
      }
    }
    if (G.Copy)
      for (unsigned SI = 0; SI < M.Stmts.size(); ++SI)
        if (SI != *G.Copy && stmt(SI).Write.ArrayId == G.Result)
          return regionError(locOf(stmt(SI)),
                             cannotFuse(G.Acc) + "'" + name(G.Result) +
                                 "', which takes the product's result, is written here "
                                 "too",
                             "the arrays that carry the products to their sum are "
                             "written once, from the product's accumulator");
    if (GI == 0)
      return llvm::Error::success();
    for (unsigned SI = 0; SI < M.Stmts.size(); ++SI) {
      const Statement &S = stmt(SI);
      if (isReduction(SI) || S.Write.ArrayId != G.Acc)
        continue;
      if (SI > G.Reductions.front() || G.Init)
        return regionError(locOf(S),
                           cannotFuse(G.Acc) + "'" + Acc.Name +
                               "' is written again here",
                           "a product fused into another's accumulator is set to 0 "
                           "once, before its reduction loop");
      if (!isPositiveZeroLiteral(S.Value.get()))
        return regionError(locOf(S),
                           cannotFuse(G.Acc) + "'" + Acc.Name +
                               "' starts at a value other than 0",
                           "a product fused into another's accumulator starts from "
                           "0; add other terms in the statement that adds the "
                           "products");
      G.Init = SI;
    }
    if (!G.Init)
      return regionError(FirstRed.Write.Range.getBegin(),
                         cannotFuse(G.Acc) + "'" + Acc.Name +
                             "' is not set to 0 in the region",
                         "a product fused into another's accumulator starts from 0");
    return llvm::Error::success();
  }

  /// The arrays that carry the products to their sum are dead after the
  /// region: the fused kernel keeps one accumulator and stores none of them.
  llvm::Error checkScratch() {
    std::string Names;
    for (const Group &G : Groups)
      for (unsigned A : {G.Acc, G.Result})
        if (!M.Arrays[A].IsLocalScalar && Names.find("'" + name(A) + "'") == std::string::npos)
          Names += std::string(Names.empty() ? "" : ", ") + "'" + name(A) + "'";
    for (const Group &G : Groups)
      for (unsigned A : {G.Acc, G.Result})
        if (!M.Arrays[A].IsLocalScalar && !M.isTemp(A)) {
          const Statement &S = stmt(A == G.Acc ? G.Reductions.front() : *G.Copy);
          return regionError(S.Write.Range.getBegin(),
                             cannotFuse(Groups[1].Acc) + "'" + name(A) +
                                 "' is not named in temp(...)",
                             "one kernel adds the products of separate nests in one "
                             "accumulator and stores none of " + Names +
                                 ": name them in temp(...) if the region's caller does "
                                 "not read them, or compute the products in separate "
                                 "regions");
        }
    return llvm::Error::success();
  }

  /// Each statement that reads the products' results reads them in one sum
  /// of the same element, which becomes a read of the first result.
  llvm::Error rewriteSums() {
    unsigned LastOfAll = 0;
    for (const Group &G : Groups)
      LastOfAll = std::max(LastOfAll, G.Copy ? *G.Copy : G.Reductions.back());
    auto GroupOf = [&](const Statement &S, unsigned AccessId) -> int {
      for (size_t G = 0; G < Groups.size(); ++G)
        if (S.Reads[AccessId].ArrayId == Groups[G].Result)
          return int(G);
      return -1;
    };
    for (unsigned SI = 0; SI < M.Stmts.size(); ++SI) {
      const Statement &S = stmt(SI);
      bool Reads = false;
      for (unsigned A = 0; A < S.Reads.size(); ++A)
        Reads |= GroupOf(S, A) >= 0;
      bool OwnStatement = isReduction(SI);
      for (const Group &G : Groups)
        OwnStatement |= SI == G.Init || SI == G.Copy;
      if (!Reads || OwnStatement)
        continue;
      if (SI < LastOfAll)
        return regionError(locOf(S),
                           cannotFuse(Groups[1].Acc) + "this reads a product's result before the last "
                           "product is computed",
                           "read the sum of the products after their nests");
      Statement New = S;
      New.Value = clone(*S.Value);
      std::set<const ExprNode *> Sums;
      std::optional<llvm::Error> Failed;
      std::function<void(ExprPtr &)> Replace = [&](ExprPtr &E) {
        if (Failed)
          return;
        std::vector<ExprPtr> Leaves;
        sumLeaves(E, Leaves);
        std::vector<const ExprNode *> Found(Groups.size(), nullptr);
        bool AllResults = Leaves.size() == Groups.size();
        for (auto &L : Leaves) {
          int G = L->K == ExprNode::Read ? GroupOf(S, L->AccessId) : -1;
          AllResults = AllResults && G >= 0 && !Found[G];
          if (G >= 0)
            Found[G] = L.get();
        }
        if (AllResults) {
          const Access &First = S.Reads[Found[0]->AccessId];
          for (size_t G = 1; G < Groups.size(); ++G) {
            Access Other = S.Reads[Found[G]->AccessId];
            Other.ArrayId = First.ArrayId;
            if (!sameAccess(Other, First)) {
              Failed = regionError(S.Reads[Found[G]->AccessId].Range.getBegin(),
                                   cannotFuse(Groups[1].Acc) + "'" +
                                       name(Groups[G].Result) +
                                       "' is added at another element than '" +
                                       name(Groups[0].Result) + "'",
                                   "the sum of the products reads each at the same "
                                   "output element");
              return;
            }
          }
          E = ExprNode::make(ExprNode::Read, "");
          E->AccessId = Found[0]->AccessId;
          Sums.insert(E.get());
          return;
        }
        for (auto &Op : E->Ops)
          Replace(Op);
      };
      Replace(New.Value);
      if (Failed)
        return std::move(*Failed);
      std::vector<const ExprNode *> Left;
      collectReads(*New.Value, Left);
      for (const ExprNode *R : Left)
        if (!Sums.count(R) && GroupOf(S, R->AccessId) >= 0)
          return regionError(S.Reads[R->AccessId].Range.getBegin(),
                             cannotFuse(Groups[1].Acc) + "'" +
                                 name(S.Reads[R->AccessId].ArrayId) +
                                 "' is read apart from the sum of the products",
                             "products in separate nests become one kernel when "
                             "their results are only added together: read '" +
                                 sumSpelling() + "' as one term, e.g. '(" + sumSpelling() +
                                 ") + bias'");
      compactReads(New);
      Consumers.emplace(SI, std::move(New));
    }
    if (Consumers.empty())
      return regionError(locOf(stmt(Groups[0].Reductions.front())),
                         cannotFuse(Groups[1].Acc) + "their sum is never read",
                         "read the sum of the products after their nests");
    return llvm::Error::success();
  }

  /// The scratch arrays are read only where the fusion replaces the read:
  /// a product's read of its own accumulator, a copy's read, and the sum.
  /// (A later product that reads an earlier one's result would read what
  /// the fused kernel never stores.)
  llvm::Error checkScratchReads() const {
    for (unsigned SI = 0; SI < M.Stmts.size(); ++SI) {
      if (Consumers.count(SI))
        continue;
      const Statement &S = stmt(SI);
      for (unsigned A = 0; A < S.Reads.size(); ++A)
        for (const Group &G : Groups) {
          unsigned Array = S.Reads[A].ArrayId;
          if (Array != G.Acc && Array != G.Result)
            continue;
          bool OwnAccumulator = false;
          for (size_t R = 0; R < G.Reductions.size(); ++R)
            OwnAccumulator |= G.Reductions[R] == SI && G.AccReads[R] == A;
          if (OwnAccumulator || (G.Copy == SI && Array == G.Acc))
            continue;
          return regionError(S.Reads[A].Range.getBegin(),
                             cannotFuse(G.Acc) + "'" + name(Array) +
                                 "' is read here, where the fused kernel does not keep it",
                             "the arrays that carry the products to their sum may be read "
                             "only in that sum (" + sumSpelling() + ")");
        }
    }
    return llvm::Error::success();
  }

  /// A later group's dropped statements set every element the sum reads:
  /// the initialisation every element the product, the copy or the sum
  /// read, the copy every element the sum reads (where K is 0, the source
  /// reads the initial value, or the array's value on entry).
  llvm::Error checkCoverage(size_t GI) const {
    const Group &G = Groups[GI];
    auto ReadRange = [&](unsigned SI, unsigned Array) {
      isl::set R = isl::set::empty(I.Write.at(stmt(G.Reductions[0]).Name).range().get_space());
      const Statement &S = stmt(SI);
      for (unsigned A = 0; A < S.Reads.size(); ++A)
        if (S.Reads[A].ArrayId == Array) {
          isl::set Elements = I.Reads.at(S.Name)[A].range();
          R = R.is_empty() ? Elements : R.unite(Elements);
        }
      return R;
    };
    std::optional<isl::set> SumReads;
    for (auto &[SI, New] : Consumers) {
      isl::set R = ReadRange(SI, G.Result);
      if (!R.is_empty())
        SumReads = SumReads ? SumReads->unite(R) : R;
    }
    auto Covers = [](const isl::set &Written, const std::optional<isl::set> &Read) {
      return !Read || Read->is_empty() || Read->is_subset(Written);
    };
    isl::set Zeroed = I.Write.at(stmt(*G.Init).Name).range();
    std::optional<isl::set> Accumulated;
    for (unsigned SI : G.Reductions) {
      isl::set W = I.Write.at(stmt(SI).Name).range();
      Accumulated = Accumulated ? Accumulated->unite(W) : W;
    }
    if (G.Copy) {
      if (!Covers(I.Write.at(stmt(*G.Copy).Name).range(), SumReads))
        return regionError(locOf(stmt(*G.Copy)),
                           cannotFuse(G.Acc) + "this does not store every element of '" +
                               name(G.Result) + "' that the sum reads",
                           "store the product's result to the whole output, outside the "
                           "reduction loop");
      if (!Covers(Zeroed, ReadRange(*G.Copy, G.Acc)) || !Covers(Zeroed, Accumulated))
        return regionError(locOf(stmt(*G.Init)),
                           cannotFuse(G.Acc) + "this does not set every element of '" +
                               name(G.Acc) + "' that is read",
                           "set the whole output to 0 before the reduction loop");
    } else if (!Covers(Zeroed, SumReads) || !Covers(Zeroed, Accumulated)) {
      return regionError(locOf(stmt(*G.Init)),
                         cannotFuse(G.Acc) + "this does not set every element of '" +
                             name(G.Acc) + "' that is read",
                         "set the whole output to 0 before the reduction loop");
    }
    return llvm::Error::success();
  }

  std::string sumSpelling() const {
    std::string S;
    for (const Group &G : Groups)
      S += (S.empty() ? "" : " + ") + name(G.Result);
    return S;
  }

  /// Drops the reads no node refers to and numbers the others in order.
  static void compactReads(Statement &S) {
    std::vector<ExprNode *> Nodes;
    std::function<void(ExprNode &)> Walk = [&](ExprNode &E) {
      if (E.K == ExprNode::Read)
        Nodes.push_back(&E);
      for (auto &Op : E.Ops)
        Walk(*Op);
    };
    Walk(*S.Value);
    std::map<unsigned, unsigned> NewId;
    std::vector<Access> Reads;
    for (ExprNode *N : Nodes) {
      auto [It, New] = NewId.emplace(N->AccessId, unsigned(Reads.size()));
      if (New)
        Reads.push_back(S.Reads[N->AccessId]);
      N->AccessId = It->second;
    }
    S.Reads = std::move(Reads);
  }

  /// The one-nest model: the later products join the last product of the
  /// first group, in its output loops and accumulator.
  void buildFused() {
    Fused = M;
    Fused.AsWritten = std::make_shared<RegionModel>(M);
    const unsigned Anchor = Groups[0].Reductions.back();
    const Statement &First = stmt(Groups[0].Reductions.front());
    const Statement &AnchorS = stmt(Anchor);
    auto FirstIts = M.iterators(First);
    std::set<unsigned> Dropped;
    std::vector<Statement> Moved;
    for (size_t GI = 1; GI < Groups.size(); ++GI) {
      const Group &G = Groups[GI];
      if (G.Init)
        Dropped.insert(*G.Init);
      if (G.Copy)
        Dropped.insert(*G.Copy);
      for (size_t R = 0; R < G.Reductions.size(); ++R) {
        Statement S = stmt(G.Reductions[R]);
        Dropped.insert(G.Reductions[R]);
        auto Its = M.iterators(S);
        Renaming Names;
        std::vector<std::pair<std::string, std::string>> InOrder;
        for (unsigned D = 0; D < Depth; ++D) {
          Names[Its[D]] = FirstIts[D];
          InOrder.push_back({Its[D], FirstIts[D]});
        }
        Joined.push_back({S.Name, InOrder});
        for (unsigned D = 0; D < Depth; ++D)
          S.Loops[D] = First.Loops[D];
        for (unsigned D = Depth; D < S.Loops.size(); ++D) {
          Loop &L = Fused.Loops[S.Loops[D]];
          L.Lower = L.Lower.renamed(Names);
          L.UpperExclusive = L.UpperExclusive.renamed(Names);
          L.Shift = L.Shift.renamed(Names);
        }
        for (Access &Rd : S.Reads)
          for (AffineExpr &E : Rd.Index)
            E = E.renamed(Names);
        Access Acc = First.Write;
        Acc.Range = S.Write.Range;
        Acc.Spelling = S.Write.Spelling;
        S.Write = Acc;
        Acc.Range = S.Reads[G.AccReads[R]].Range;
        Acc.Spelling = S.Reads[G.AccReads[R]].Spelling;
        S.Reads[G.AccReads[R]] = Acc;
        S.Value = clone(*S.Value);
        rename(*S.Value, Names);
        for (unsigned D = 0; D < Depth; ++D)
          S.Position[D] = AnchorS.Position[D];
        S.Position[Depth] = AnchorS.Position[Depth] + int(Moved.size()) + 1;
        Moved.push_back(std::move(S));
      }
    }
    std::vector<Statement> Stmts;
    for (unsigned SI = 0; SI < M.Stmts.size(); ++SI) {
      if (!Dropped.count(SI)) {
        auto C = Consumers.find(SI);
        Statement S = C == Consumers.end() ? stmt(SI) : C->second;
        // After the joined products in the first product's output loops.
        bool InLoops = S.Loops.size() >= Depth &&
                       std::equal(S.Loops.begin(), S.Loops.begin() + Depth,
                                  AnchorS.Loops.begin());
        if (InLoops && S.Position[Depth] > AnchorS.Position[Depth])
          S.Position[Depth] += int(Moved.size());
        Stmts.push_back(std::move(S));
      }
      if (SI == Anchor)
        for (Statement &S : Moved)
          Stmts.push_back(S);
    }
    Fused.Stmts = std::move(Stmts);
    for (size_t GI = 1; GI < Groups.size(); ++GI)
      for (unsigned A : {Groups[GI].Acc, Groups[GI].Result})
        Merged.insert(name(A));
  }

  /// Every dependence of the region as written, but those of the arrays
  /// merged into the first accumulator, goes forwards in the fused order.
  llvm::Error checkOrder() {
    isl::ctx Ctx = I.Context.ctx();
    std::set<std::string> FusedStmts;
    for (const Statement &S : Fused.Stmts)
      FusedStmts.insert(S.Name);
    auto Kept = [&](const isl::union_map &U, bool ByRange) {
      isl::union_map R = isl::union_map::empty(Ctx);
      U.foreach_map([&](isl::map Map) {
        std::string Stmt = isl_map_get_tuple_name(Map.get(), isl_dim_in);
        const char *Array = ByRange ? isl_map_get_tuple_name(Map.get(), isl_dim_out) : nullptr;
        if (FusedStmts.count(Stmt) && !(Array && Merged.count(Array)))
          R = R.unite(isl::union_map(Map));
      });
      return R;
    };
    Dependences D = dependencesOf(Kept(I.AllReads, true), Kept(I.Writes, true),
                                  Kept(I.Schedule, false));
    isl::union_map All = D.Flow.unite(D.Anti).unite(D.Output);
    isl::union_map FusedOrder = originalSchedule(Ctx, Fused);
    isl::union_map Forwards =
        isl::manage(isl_union_map_lex_lt_union_map(FusedOrder.copy(), FusedOrder.copy()));
    isl::union_map Broken = All.subtract(Forwards);
    DependenceCount = 0;
    All.foreach_map([&](isl::map) { ++DependenceCount; });
    if (Broken.is_empty())
      return llvm::Error::success();
    std::string Src;
    Broken.foreach_map([&](isl::map Map) {
      if (Src.empty())
        Src = isl_map_get_tuple_name(Map.get(), isl_dim_in);
    });
    for (const Statement &S : M.Stmts)
      if (S.Name == Src)
        return regionError(locOf(S),
                           cannotFuse(Groups[1].Acc) + "this statement and a later product access the "
                           "same element",
                           "the fused kernel runs every product in the first one's "
                           "output loops, before this statement; keep what the "
                           "products read unchanged in the region");
    return regionError(M.Range.getBegin(),
                       cannotFuse(Groups[1].Acc) + "a dependence would be reversed",
                       "the fused kernel runs every product in the first one's output "
                       "loops; keep what the products read unchanged in the region");
  }

  std::string describe() const {
    std::string S = "  fusion into one accumulator: " + name(Groups[0].Acc) +
                    " for the products of " + sumSpelling() + "\n";
    const std::string &Anchor = stmt(Groups[0].Reductions.back()).Name;
    for (auto &[Stmt, Names] : Joined) {
      std::string R;
      for (auto &[From, To] : Names)
        if (From != To)
          R += (R.empty() ? "" : ", ") + From + " -> " + To;
      S += "    " + Stmt +
           (R.empty() ? " (in " + Anchor + "'s output loops)"
                      : " joins " + Anchor + "'s output loops (" + R + ")") +
           " and accumulates into " + name(Groups[0].Acc) + "\n";
    }
    for (size_t GI = 1; GI < Groups.size(); ++GI) {
      if (Groups[GI].Init)
        S += "    dropped " + stmt(*Groups[GI].Init).Name + " (" + name(Groups[GI].Acc) +
             " = 0)\n";
      if (Groups[GI].Copy)
        S += "    dropped " + stmt(*Groups[GI].Copy).Name + " (" +
             name(Groups[GI].Result) + " = " + name(Groups[GI].Acc) + ")\n";
    }
    for (auto &[SI, New] : Consumers)
      S += "    " + New.Name + " reads the sum " + sumSpelling() + " as " +
           name(Groups[0].Result) + "\n";
    S += "    order: the fused schedule keeps all " + std::to_string(DependenceCount) +
         " dependence relations of the region but those of the merged arrays\n";
    return S;
  }

  const RegionModel &M;
  const IslModel &I;
  std::vector<Group> Groups;
  unsigned Depth = 0; // output loops
  std::map<unsigned, Statement> Consumers; // rewritten, by statement index
  // Each joined product and its output iterators' new names, outermost first.
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> Joined;
  std::set<std::string> Merged; // arrays whose accesses the fusion replaced
  unsigned DependenceCount = 0;
  RegionModel Fused;
};

} // namespace

llvm::Expected<std::optional<NestFusion>> fuseReductionNests(const RegionModel &M,
                                                              const IslModel &I) {
  // Guarded statements (DomainBox.h) keep their nests: the fusion's checks
  // compare loop bounds, not guards.
  for (const Statement &S : M.Stmts)
    if (!S.Guards.empty())
      return std::nullopt;
  try {
    return Fuser(M, I).run();
  } catch (const isl::exception &E) {
    return regionError(M.Range.getBegin(),
                       std::string("isl failed while fusing the region's nests: ") +
                           E.what(),
                       "please report this as a bug");
  }
}

} // namespace tc
