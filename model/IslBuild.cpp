//===- IslBuild.cpp -------------------------------------------------------===//
#include "IslBuild.h"
#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

namespace tc {

namespace {

/// P, or isl's last error as an exception where P is null.
template <typename T> T *checked(isl_ctx *Ctx, T *P) {
  if (!P)
    isl::exception::throw_last_error(isl::ctx(Ctx));
  return P;
}

isl_space *addParam(isl_space *Sp, const std::string &Name) {
  unsigned N = isl_space_dim(Sp, isl_dim_param);
  Sp = isl_space_add_dims(Sp, isl_dim_param, 1);
  return isl_space_set_dim_name(Sp, isl_dim_param, N, Name.c_str());
}

/// Sp (a set space) with each symbol of E that is neither one of its
/// dimensions nor a parameter added as a parameter.
isl::space withSymbols(isl::space Sp, const AffineExpr &E) {
  isl_ctx *Ctx = Sp.ctx().get();
  for (const auto &[Sym, C] : E.Coeffs)
    if (C != 0 && isl_space_find_dim_by_name(Sp.get(), isl_dim_set, Sym.c_str()) < 0 &&
        isl_space_find_dim_by_name(Sp.get(), isl_dim_param, Sym.c_str()) < 0)
      Sp = isl::manage(checked(Ctx, addParam(Sp.release(), Sym)));
  return Sp;
}

/// Where Sym is in a set space: a dimension, else a parameter.
std::pair<isl_dim_type, int> position(isl_space *Sp, const std::string &Sym) {
  int Pos = isl_space_find_dim_by_name(Sp, isl_dim_set, Sym.c_str());
  if (Pos >= 0)
    return {isl_dim_set, Pos};
  return {isl_dim_param, isl_space_find_dim_by_name(Sp, isl_dim_param, Sym.c_str())};
}

isl_val *value(isl_ctx *Ctx, int64_t V) { return isl_val_int_from_si(Ctx, long(V)); }

/// E as an affine function on Sp, a set space holding E's symbols.
isl::aff affineOn(const isl::space &Sp, const AffineExpr &E) {
  isl_ctx *Ctx = Sp.ctx().get();
  isl_aff *A = isl_aff_zero_on_domain(isl_local_space_from_space(Sp.copy()));
  A = isl_aff_set_constant_val(A, value(Ctx, E.Constant));
  for (const auto &[Sym, C] : E.Coeffs) {
    if (C == 0)
      continue;
    auto [Type, Pos] = position(Sp.get(), Sym);
    A = isl_aff_set_coefficient_val(A, Type == isl_dim_set ? isl_dim_in : Type, Pos,
                                    value(Ctx, C));
  }
  return isl::manage(checked(Ctx, A));
}

} // namespace

isl::set paramUniverse(isl::ctx Ctx, const RegionModel &M) {
  isl_space *Sp = isl_space_params_alloc(Ctx.get(), unsigned(M.Params.size()));
  for (size_t P = 0; P < M.Params.size(); ++P)
    Sp = isl_space_set_dim_name(Sp, isl_dim_param, unsigned(P), M.Params[P].Name.c_str());
  return isl::manage(checked(Ctx.get(), isl_set_universe(checked(Ctx.get(), Sp))));
}

isl::set universeSet(isl::ctx Ctx, const RegionModel &M, const std::string &Name,
                     const std::vector<std::string> &Dims) {
  isl_space *Sp = isl_space_add_dims(paramUniverse(Ctx, M).get_space().release(), isl_dim_set,
                                     unsigned(Dims.size()));
  for (size_t D = 0; D < Dims.size(); ++D)
    Sp = isl_space_set_dim_name(Sp, isl_dim_set, unsigned(D), Dims[D].c_str());
  if (!Name.empty())
    Sp = isl_space_set_tuple_name(Sp, isl_dim_set, Name.c_str());
  return isl::manage(checked(Ctx.get(), isl_set_universe(checked(Ctx.get(), Sp))));
}

isl::set constrain(isl::set S, const AffineExpr &E, bool Equality) {
  isl_ctx *Ctx = S.ctx().get();
  isl::space Sp = withSymbols(S.get_space(), E);
  if (!Sp.is_equal(S.get_space()))
    S = isl::manage(checked(Ctx, isl_set_align_params(S.release(), Sp.copy())));
  isl_local_space *LS = isl_local_space_from_space(Sp.copy());
  isl_constraint *K =
      Equality ? isl_constraint_alloc_equality(LS) : isl_constraint_alloc_inequality(LS);
  K = isl_constraint_set_constant_val(K, value(Ctx, E.Constant));
  for (const auto &[Sym, C] : E.Coeffs) {
    if (C == 0)
      continue;
    auto [Type, Pos] = position(Sp.get(), Sym);
    K = isl_constraint_set_coefficient_val(K, Type, Pos, value(Ctx, C));
  }
  return isl::manage(checked(Ctx, isl_set_add_constraint(S.release(), checked(Ctx, K))));
}

isl::set bound(isl::set S, const AffineExpr &Lower, const std::string &Dim,
               const AffineExpr &UpperExclusive) {
  AffineExpr It = AffineExpr::symbol(Dim);
  S = constrain(std::move(S), It + Lower * -1);
  return constrain(std::move(S), UpperExclusive + It * -1 + AffineExpr::constant(-1));
}

isl::map functionMap(const isl::set &Domain, const std::string &RangeName,
                     const std::vector<AffineExpr> &Outs) {
  isl::space Sp = Domain.get_space();
  for (const AffineExpr &E : Outs)
    Sp = withSymbols(Sp, E);
  std::vector<isl::aff> Affs;
  for (const AffineExpr &E : Outs)
    Affs.push_back(affineOn(Sp, E));
  return functionMap(Sp, RangeName, Affs);
}

isl::multi_aff multiFunction(const isl::space &Sp, const std::string &RangeName,
                             const std::vector<isl::aff> &Outs) {
  isl_ctx *Ctx = Sp.ctx().get();
  isl_aff_list *List = isl_aff_list_alloc(Ctx, int(Outs.size()));
  for (const isl::aff &A : Outs)
    List = isl_aff_list_add(List, A.copy());
  isl_space *MapSp =
      isl_space_add_dims(isl_space_from_domain(Sp.copy()), isl_dim_out, unsigned(Outs.size()));
  if (!RangeName.empty())
    MapSp = isl_space_set_tuple_name(MapSp, isl_dim_out, RangeName.c_str());
  return isl::manage(
      checked(Ctx, isl_multi_aff_from_aff_list(checked(Ctx, MapSp), checked(Ctx, List))));
}

isl::map functionMap(const isl::space &Sp, const std::string &RangeName,
                     const std::vector<isl::aff> &Outs) {
  return isl::manage(checked(Sp.ctx().get(),
                             isl_map_from_multi_aff(multiFunction(Sp, RangeName, Outs).release())));
}

isl::aff dimension(const isl::space &Sp, unsigned Pos) {
  return isl::manage(checked(Sp.ctx().get(),
                             isl_aff_var_on_domain(isl_local_space_from_space(Sp.copy()),
                                                   isl_dim_set, Pos)));
}

isl::aff parameter(const isl::space &Sp, const std::string &Name) {
  return affineOn(Sp, AffineExpr::symbol(Name));
}

isl::aff constant(const isl::space &Sp, int64_t Value) {
  return affineOn(Sp, AffineExpr::constant(Value));
}

isl::aff floorDiv(isl::aff A, int64_t D) {
  isl_ctx *Ctx = A.ctx().get();
  return isl::manage(checked(
      Ctx, isl_aff_floor(isl_aff_scale_down_val(A.release(), value(Ctx, D)))));
}

isl::aff modulo(isl::aff A, int64_t D) {
  isl_ctx *Ctx = A.ctx().get();
  return isl::manage(checked(Ctx, isl_aff_mod_val(A.release(), value(Ctx, D))));
}

isl::aff affineFunction(const isl::space &Sp, const AffineExpr &E) {
  return affineOn(withSymbols(Sp, E), E);
}

isl::space withParameter(isl::space Sp, const std::string &Name) {
  if (isl_space_find_dim_by_name(Sp.get(), isl_dim_param, Name.c_str()) >= 0)
    return Sp;
  return isl::manage(checked(Sp.ctx().get(), addParam(Sp.release(), Name)));
}

isl::set equalSet(const isl::aff &A, const isl::aff &B) {
  return isl::manage(checked(A.ctx().get(), isl_aff_eq_set(A.copy(), B.copy())));
}

isl::set rangeSet(const isl::aff &A, int64_t Lo, int64_t HiExclusive) {
  isl_ctx *Ctx = A.ctx().get();
  isl::space Sp = isl::manage(isl_aff_get_domain_space(A.get()));
  isl_set *Above = isl_aff_ge_set(A.copy(), constant(Sp, Lo).release());
  isl_set *Below = isl_aff_lt_set(A.copy(), constant(Sp, HiExclusive).release());
  return isl::manage(checked(Ctx, isl_set_intersect(Above, Below)));
}

isl::set contextSet(isl::ctx Ctx, const RegionModel &M) {
  isl::set C = paramUniverse(Ctx, M);
  for (const Parameter &P : M.Params) {
    if (P.Value)
      C = constrain(C, AffineExpr::symbol(P.Name) + AffineExpr::constant(-*P.Value), true);
    else if (!P.MayBeNegative)
      C = constrain(C, AffineExpr::symbol(P.Name));
  }
  return C;
}

isl::set domainSet(isl::ctx Ctx, const RegionModel &M, const Statement &S) {
  isl::set D = universeSet(Ctx, M, S.Name, M.iterators(S));
  for (unsigned L : S.Loops) {
    const Loop &Lp = M.Loops[L];
    D = bound(D, Lp.Lower, Lp.Iterator, Lp.UpperExclusive);
  }
  for (const AffineExpr &G : S.Guards)
    D = constrain(D, G);
  return D;
}

isl::set enclosingLoopsSet(isl::ctx Ctx, const RegionModel &M, const Statement &S,
                           unsigned Depth) {
  isl::set D = universeSet(Ctx, M, S.Name, M.iterators(S));
  for (unsigned L = 0; L < Depth && L < S.Loops.size(); ++L) {
    const Loop &Lp = M.Loops[S.Loops[L]];
    D = bound(D, Lp.Lower, Lp.Iterator, Lp.UpperExclusive);
  }
  return D;
}

isl::map accessMap(isl::ctx Ctx, const RegionModel &M, const Statement &S, const Access &A) {
  isl::set Domain = universeSet(Ctx, M, S.Name, M.iterators(S));
  if (A.Divisor == 1)
    return functionMap(Domain, M.Arrays[A.ArrayId].Name, A.Index);
  // The element read: the last index divided, rounded down (Access::Divisor).
  isl::space Sp = Domain.get_space();
  for (const AffineExpr &E : A.Index)
    Sp = withSymbols(Sp, E);
  std::vector<isl::aff> Affs;
  for (const AffineExpr &E : A.Index)
    Affs.push_back(affineOn(Sp, E));
  Affs.back() = floorDiv(Affs.back(), A.Divisor);
  return functionMap(Sp, M.Arrays[A.ArrayId].Name, Affs);
}

isl::map scheduleMap(isl::ctx Ctx, const RegionModel &M, const Statement &S, unsigned Depth) {
  std::vector<AffineExpr> Dims;
  for (unsigned D = 0; D < Depth; ++D) {
    Dims.push_back(AffineExpr::constant(D < S.Position.size() ? S.Position[D] : 0));
    if (D < S.Loops.size()) {
      const Loop &Lp = M.Loops[S.Loops[D]];
      Dims.push_back(AffineExpr::symbol(Lp.Iterator) * (Lp.Reversed ? -1 : 1));
    } else if (D + 1 < Depth) {
      Dims.push_back(AffineExpr::constant(0));
    }
  }
  return functionMap(universeSet(Ctx, M, S.Name, M.iterators(S)), "", Dims);
}

} // namespace tc
