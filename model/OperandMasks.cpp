//===- OperandMasks.cpp ---------------------------------------------------===//
#include "OperandMasks.h"
#include "IslBuild.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <isl/constraint.h>
#include <isl/set.h>
#include <isl/val.h>

namespace tc {

namespace {

class GuardPlacer {
public:
  GuardPlacer(const RegionModel &M, const IslModel &I, MatmulIdiom &Idiom)
      : M(M), I(I), Idiom(Idiom), R(M.Stmts[Idiom.Reduction]) {}

  llvm::Error run() {
    const Statement *Guarded = nullptr;
    for (const Statement &S : M.Stmts)
      if (!S.Guards.empty() && !Guarded)
        Guarded = &S;
    if (!Guarded)
      return llvm::Error::success();
    if (!Idiom.MoreProducts.empty())
      return regionError(locOf(*Guarded), "a guarded statement in a sum of matmuls",
                         "guards and triangular loops are supported for one product; "
                         "write each product as a region of its own");
    // On the sizes' plain context: the masks hold for any sizes (the row
    // assumptions of the dependences, a union, would split projections).
    isl::set Box = withContext(bounded(statementSet(R), R, {}, false));
    isl::set Domain = withContext(bounded(statementSet(R), R, {}, true));
    // Each operand's mask: the elements the reduction reads, the domain's
    // projection onto the operand's row or column, k and the batch.
    auto Its = M.iterators(R);
    auto Position = [&](const std::string &It) {
      return unsigned(std::find(Its.begin(), Its.end(), It) - Its.begin());
    };
    auto Projection = [&](const isl::set &S, const std::string &Dropped) {
      return isl::manage(isl_set_project_out(S.copy(), isl_dim_set, Position(Dropped), 1));
    };
    std::vector<AffineExpr> OfOutput;
    for (const AffineExpr &G : R.Guards)
      if (!G.involves(Idiom.IterK))
        OfOutput.push_back(G);
    for (bool IsA : {true, false}) {
      OperandView &V = IsA ? Idiom.A : Idiom.B;
      const std::string &Other = IsA ? Idiom.IterN : Idiom.IterM;
      isl::set Read = Projection(Domain, Other).gist(Projection(Box, Other));
      auto Mask = constraintsOf(Read);
      if (!Mask)
        return regionError(locOf(R),
                           "the elements of operand '" + M.Arrays[V.ArrayId].Name +
                               "' that the loops read are not one polyhedron",
                           "a guarded product masks each operand by one conjunction of "
                           "affine conditions on its row or column and k, without the unions or "
                           "integer divisions a step beside another loop's bound gives; "
                           "within the box they are " + islStr(Read.coalesce()));
      V.Mask = *Mask;
      if (!V.Mask.empty())
        V.ConvertWhileCopying = true;
    }
    // The box with the masks and the output's guard must be the domain:
    // a condition that relates the row, the column and k at once is none
    // of them.
    isl::set Lifted = bounded(statementSet(R), R, {}, false);
    for (const auto *Part : {&Idiom.A.Mask, &Idiom.B.Mask, &OfOutput})
      for (const AffineExpr &G : *Part)
        Lifted = constrain(Lifted, G);
    if (!withContext(Lifted).is_equal(Domain)) {
      std::string Relating;
      for (const AffineExpr &G : R.Guards)
        if (Relating.empty() && G.involves(Idiom.IterK) && G.involves(Idiom.IterM) &&
            G.involves(Idiom.IterN))
          Relating = " '" + G.str() + " >= 0'";
      return regionError(locOf(R),
                         "the condition" + Relating + " of the reduction relates the output "
                         "row '" + Idiom.IterM + "', column '" + Idiom.IterN + "' and '" +
                             Idiom.IterK + "' at once",
                         "a guard of the product masks one operand: it may name '" +
                             Idiom.IterK + "' with the row (A's) or with the column "
                             "(B's), not with both");
    }
    if (auto E = placeOutputGuard(OfOutput))
      return E;
    return checkBoxReads(Box);
  }

private:
  const RegionModel &M;
  const IslModel &I;
  MatmulIdiom &Idiom;
  const Statement &R;

  /// Set with S's loop bounds (but the loop of Skipped) and, where
  /// WithGuards, its guards added, S's iterators renamed by Roles.
  isl::set bounded(isl::set Set, const Statement &S,
                   const std::map<std::string, std::string> &Roles, bool WithGuards,
                   const std::string &Skipped = "") const {
    for (unsigned L : S.Loops) {
      const Loop &Lp = M.Loops[L];
      if (Lp.Iterator == Skipped)
        continue;
      auto It = Roles.find(Lp.Iterator);
      Set = bound(Set, Lp.Lower.renamed(Roles),
                  It == Roles.end() ? Lp.Iterator : It->second,
                  Lp.UpperExclusive.renamed(Roles));
    }
    if (WithGuards)
      for (const AffineExpr &G : S.Guards)
        Set = constrain(Set, G.renamed(Roles));
    return Set;
  }

  /// Set on the sizes' plain context.
  isl::set withContext(const isl::set &Set) const {
    return Set.intersect_params(contextSet(Set.ctx(), M));
  }

  /// S's instances, every point: `S[iterators]`.
  isl::set statementSet(const Statement &S) const {
    return universeSet(I.Context.ctx(), M, S.Name, M.iterators(S));
  }

  /// The constraints `G >= 0` of S, a set over named iterators and the
  /// sizes, or nothing where S is not one polyhedron without existentials.
  static std::optional<std::vector<AffineExpr>> constraintsOf(const isl::set &S) {
    isl::set C = S.coalesce();
    if (isl_set_n_basic_set(C.get()) != 1)
      return std::nullopt;
    isl_basic_set *B = isl_basic_set_remove_redundancies(
        isl_set_simple_hull(C.copy()));
    struct Collected {
      std::vector<AffineExpr> Out;
      bool Ok = true;
    } Co;
    if (isl_basic_set_dim(B, isl_dim_div) != 0)
      Co.Ok = false;
    else
      isl_basic_set_foreach_constraint(
          B,
          [](isl_constraint *K, void *User) -> isl_stat {
            auto &Co = *static_cast<Collected *>(User);
            AffineExpr E;
            for (isl_dim_type T : {isl_dim_param, isl_dim_set})
              for (int D = 0, N = isl_constraint_dim(K, T); D < N; ++D) {
                isl::val V = isl::manage(isl_constraint_get_coefficient_val(K, T, D));
                if (V.is_zero())
                  continue;
                const char *Name = isl_constraint_get_dim_name(K, T, D);
                if (!Name || !V.is_int()) {
                  Co.Ok = false;
                  continue;
                }
                E.Coeffs[Name] = V.get_num_si();
              }
            E.Constant = isl::manage(isl_constraint_get_constant_val(K)).get_num_si();
            Co.Out.push_back(E);
            if (isl_constraint_is_equality(K))
              Co.Out.push_back(E * -1);
            isl_constraint_free(K);
            return isl_stat_ok;
          },
          &Co);
    isl_basic_set_free(B);
    if (!Co.Ok)
      return std::nullopt;
    return Co.Out;
  }

  /// The output elements (IterM, IterN, IterBatch), every point.
  isl::set outputSet() const {
    std::vector<std::string> Dims{Idiom.IterM, Idiom.IterN};
    if (!Idiom.IterBatch.empty())
      Dims.push_back(Idiom.IterBatch);
    return universeSet(I.Context.ctx(), M, "", Dims);
  }
  /// The output elements where statement S runs.
  std::optional<isl::set> outputElements(unsigned Stmt) const {
    auto Roles = outputCoordinates(M, Idiom, Stmt);
    if (!Roles)
      return std::nullopt;
    return withContext(bounded(outputSet(), M.Stmts[Stmt], *Roles, true));
  }

  llvm::Error placeOutputGuard(const std::vector<AffineExpr> &OfReduction) {
    // The reduction's output elements: its box of (m, n) with its guards
    // without k.
    isl::set Reduced = bounded(outputSet(), R, {}, false, Idiom.IterK);
    for (const AffineExpr &G : OfReduction)
      Reduced = constrain(Reduced, G);
    Reduced = withContext(Reduced);
    std::vector<unsigned> Outputs;
    if (Idiom.Init)
      Outputs.push_back(*Idiom.Init);
    Outputs.insert(Outputs.end(), Idiom.Epilogue.begin(), Idiom.Epilogue.end());
    for (unsigned S : Outputs) {
      auto Elements = outputElements(S);
      if (!Elements)
        return regionError(locOf(M.Stmts[S]),
                           "the statement's loops cannot be matched to the matmul's output "
                           "elements",
                           "index the accumulator with one loop iterator per dimension, as "
                           "the reduction does");
      if (!Elements->is_equal(Reduced))
        return regionError(locOf(M.Stmts[S]),
                           "the statement runs on other output elements than the reduction",
                           "guard the initialisation, the reduction and the stores of an "
                           "output element alike");
    }
    // The guard without what the box says already (`j >= 0`).
    auto Guard = constraintsOf(
        Reduced.gist(withContext(bounded(outputSet(), R, {}, false, Idiom.IterK))));
    if (!Guard)
      return regionError(locOf(R), "the output elements of the reduction are not one polyhedron",
                         "guard the output by one conjunction of affine conditions");
    Idiom.OutputGuard = *Guard;
    return llvm::Error::success();
  }

  /// Where the box reads an operand beyond what the source reads (for some
  /// sizes), SerialWhen; a RegionError where it always would.
  llvm::Error checkBoxReads(const isl::set &Box) {
    // The copier reads an operand (and what its prologue reads) where its
    // mask holds.
    auto Masked = [&](const OperandView &V) {
      isl::set Set = bounded(statementSet(R), R, {}, false);
      for (const AffineExpr &G : V.Mask)
        Set = constrain(Set, G);
      return withContext(Set).intersect(Box);
    };
    auto Reads = [&](const OperandView &V, const Access &A, size_t Id) {
      return Id == V.AccessId || llvm::is_contained(V.PrologueArrays, A.ArrayId);
    };
    std::optional<isl::set> Bad;
    for (size_t Id = 0; Id < R.Reads.size(); ++Id) {
      const Access &A = R.Reads[Id];
      if (A.ArrayId == Idiom.Accumulator || M.Arrays[A.ArrayId].IsLocalScalar)
        continue;
      isl::set Domain = Reads(Idiom.A, A, Id)   ? Masked(Idiom.A)
                        : Reads(Idiom.B, A, Id) ? Masked(Idiom.B)
                                                : Box;
      isl::set Read = Domain.apply(I.RawReads.at(R.Name)[Id]);
      std::optional<isl::set> Source;
      for (const Statement &S : M.Stmts) {
        auto Add = [&](const isl::map &Acc) {
          if (Acc.get_space().range().is_equal(Read.get_space()))
            Source = Source ? Source->unite(Acc.range()) : Acc.range();
        };
        for (const isl::map &Acc : I.Reads.at(S.Name))
          Add(Acc);
        Add(I.Write.at(S.Name));
      }
      isl::set Lo = Source->lexmin(), Hi = Source->lexmax();
      isl::set Above = isl::manage(isl_set_lex_le_set(Lo.copy(), Read.copy())).range();
      isl::set Below = isl::manage(isl_set_lex_le_set(Read.copy(), Hi.copy())).domain();
      isl::set Outside = Read.subtract(Above.intersect(Below)).params();
      if (Outside.is_empty())
        continue;
      if (I.Domain.at(R.Name).params().is_subset(Outside))
        return regionError(A.Range.getBegin(),
                           "the kernel would read '" + M.Arrays[A.ArrayId].Name +
                               "' outside the elements the loops read",
                           "a guarded product runs over the box of its loops and masks the "
                           "rest; bound the loops so that the box reads only the "
                           "operand's elements");
      Bad = Bad ? Bad->unite(Outside) : Outside;
    }
    if (Bad)
      Idiom.SerialWhen = islStr(Bad->coalesce());
    return llvm::Error::success();
  }
};

} // namespace

llvm::Error placeGuards(const RegionModel &M, const IslModel &I, MatmulIdiom &Idiom) {
  return GuardPlacer(M, I, Idiom).run();
}

} // namespace tc
