//===- DomainBox.cpp ------------------------------------------------------===//
#include "DomainBox.h"
#include "LoopOrigins.h"
#include <algorithm>
#include <isl/aff.h>
#include <isl/set.h>
#include <isl/val.h>

namespace tc {

std::optional<AffineExpr> affineOfSizes(const isl::pw_aff &Bound) {
  isl::pw_aff B = Bound.coalesce();
  if (isl_pw_aff_n_piece(B.get()) != 1)
    return std::nullopt;
  isl_aff *Piece = nullptr;
  isl_pw_aff_foreach_piece(
      B.get(),
      [](isl_set *Dom, isl_aff *Aff, void *User) -> isl_stat {
        isl_set_free(Dom);
        *static_cast<isl_aff **>(User) = Aff;
        return isl_stat_ok;
      },
      &Piece);
  isl::aff A = isl::manage(Piece);
  if (isl_aff_dim(A.get(), isl_dim_div) != 0 || !isl::manage(isl_aff_get_denominator_val(A.get())).is_one())
    return std::nullopt;
  AffineExpr E;
  for (int P = 0, N = isl_aff_dim(A.get(), isl_dim_param); P < N; ++P) {
    isl::val C = isl::manage(isl_aff_get_coefficient_val(A.get(), isl_dim_param, P));
    if (C.is_zero())
      continue;
    E.Coeffs[isl_aff_get_dim_name(A.get(), isl_dim_param, P)] = C.get_num_si();
  }
  E.Constant = A.constant_val().get_num_si();
  return E;
}

/// Loop L's iterator over the domains of the statements inside it: the
/// one-dimensional projection of their union.
static isl::set projectionOfLoop(const RegionModel &M, const IslModel &I, unsigned L) {
  std::optional<isl::set> Union;
  for (const Statement &S : M.Stmts) {
    auto Pos = std::find(S.Loops.begin(), S.Loops.end(), L);
    if (Pos == S.Loops.end())
      continue;
    unsigned D = unsigned(Pos - S.Loops.begin()), N = unsigned(S.Loops.size());
    isl_set *P = isl_set_project_out(I.Domain.at(S.Name).copy(), isl_dim_set, D + 1, N - D - 1);
    P = isl_set_reset_tuple_id(isl_set_project_out(P, isl_dim_set, 0, D));
    isl::set Projection = isl::manage(P);
    Union = Union ? Union->unite(Projection) : Projection;
  }
  return *Union;
}

llvm::Expected<std::optional<RegionModel>> boxDomains(const RegionModel &M, const IslModel &I) {
  auto NamesIterator = [&](const AffineExpr &E) {
    for (const Loop &Other : M.Loops)
      if (E.involves(Other.Iterator))
        return true;
    return false;
  };
  RegionModel Boxed = M;
  bool Changed = false;
  for (unsigned L = 0; L < M.Loops.size(); ++L) {
    const Loop &Lp = M.Loops[L];
    if (!NamesIterator(Lp.Lower) && !NamesIterator(Lp.UpperExclusive))
      continue;
    bool Used = false;
    for (const Statement &S : M.Stmts)
      Used |= std::find(S.Loops.begin(), S.Loops.end(), L) != S.Loops.end();
    if (!Used)
      continue; // no statement: nothing runs in it
    isl::set P = projectionOfLoop(M, I, L).intersect_params(I.Context);
    std::optional<AffineExpr> Lo, Hi;
    if (!P.is_empty()) {
      Lo = affineOfSizes(isl::manage(isl_set_dim_min(P.copy(), 0)));
      Hi = affineOfSizes(isl::manage(isl_set_dim_max(P.copy(), 0)));
    }
    if (!Lo || !Hi)
      return regionError(Lp.Range.getBegin(),
                         "the bounds of loop '" + Lp.Iterator +
                             "' over the region are not one affine function of the sizes",
                         "a triangular loop runs over the box of its iterations with a "
                         "mask; its smallest and largest iteration over the region must be "
                         "affine in the sizes (without min or max), here " +
                             islStr(P));
    // i >= lower and i < upper, where the statements of the loop run.
    AffineExpr It = AffineExpr::symbol(Lp.Iterator);
    AffineExpr AboveLower = It + Lp.Lower * -1;
    AffineExpr BelowUpper = Lp.UpperExclusive + It * -1 + AffineExpr::constant(-1);
    for (Statement &S : Boxed.Stmts)
      if (std::find(S.Loops.begin(), S.Loops.end(), L) != S.Loops.end()) {
        S.Guards.push_back(AboveLower);
        S.Guards.push_back(BelowUpper);
      }
    Boxed.Loops[L].Lower = *Lo;
    Boxed.Loops[L].UpperExclusive = *Hi + AffineExpr::constant(1);
    Changed = true;
  }
  if (!Changed)
    return std::nullopt;
  // A box that starts elsewhere (`j > i` from 1) starts at 0 like any
  // offset loop; the guards move with it.
  if (auto E = shiftLoopsToZero(Boxed))
    return std::move(E);
  return Boxed;
}

} // namespace tc
