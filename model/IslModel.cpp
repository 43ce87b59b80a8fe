//===- IslModel.cpp -------------------------------------------------------===//
#include "IslModel.h"
#include "IslBuild.h"
#include <isl/map.h>
#include <isl/options.h>
#include <isl/val.h>
#include <optional>
#include <set>

namespace tc {

isl::ctx makeIslContext() {
  isl_ctx *C = isl_ctx_alloc();
  isl_options_set_on_error(C, ISL_ON_ERROR_CONTINUE);
  return isl::ctx(C);
}

void markSignedParameters(RegionModel &M) {
  isl::ctx Ctx = makeIslContext();
  try {
    isl::set Known = paramUniverse(Ctx, M);
    for (const Parameter &P : M.Params)
      if (P.Value)
        Known = constrain(Known, AffineExpr::symbol(P.Name) + AffineExpr::constant(-*P.Value),
                          true);
    // Where a size offsets a subscript or a condition of a statement that
    // runs while it is negative (`C[i * 64 + j + off]`).
    auto Offsets = [](const Statement &S, const std::string &P) {
      for (const AffineExpr &G : S.Guards)
        if (G.involves(P))
          return true;
      for (const Access *A : S.accesses())
        for (const AffineExpr &E : A->Index)
          if (E.involves(P))
            return true;
      return false;
    };
    for (Parameter &P : M.Params) {
      if (P.Value)
        continue;
      isl::set Negative =
          constrain(Known, AffineExpr::symbol(P.Name) * -1 + AffineExpr::constant(-1));
      for (const Statement &S : M.Stmts)
        if (Offsets(S, P.Name) &&
            !domainSet(Ctx, M, S).intersect_params(Negative).is_empty()) {
          P.MayBeNegative = true;
          break;
        }
    }
  } catch (const isl::exception &) {
    for (Parameter &P : M.Params)
      P.MayBeNegative = true;
  }
  isl_ctx_free(Ctx.release());
}

static isl::union_map scheduleOf(isl::ctx Ctx, const RegionModel &M) {
  unsigned Depth = 0;
  for (auto &S : M.Stmts)
    Depth = std::max<unsigned>(Depth, S.Loops.size() + 1);
  isl::union_map Sched = isl::union_map::empty(Ctx);
  for (auto &S : M.Stmts)
    Sched = Sched.unite(isl::union_map(scheduleMap(Ctx, M, S, Depth)));
  return Sched;
}

IslModel IslModel::build(isl::ctx Ctx, const RegionModel &M) {
  return build(Ctx, M, contextSet(Ctx, M));
}

/// The quotient of two monomial strides as an affine expression, if any.
static std::optional<AffineExpr> quotient(const Polynomial &Outer, const Polynomial &Inner) {
  if (Outer.Terms.size() != 1 || Inner.Terms.size() != 1)
    return std::nullopt;
  auto [MO, CO] = *Outer.Terms.begin();
  auto [MI, CI] = *Inner.Terms.begin();
  if (CI == 0 || CO % CI != 0)
    return std::nullopt;
  std::multiset<std::string> Rest(MO.begin(), MO.end());
  for (auto &S : MI) {
    auto It = Rest.find(S);
    if (It == Rest.end())
      return std::nullopt;
    Rest.erase(It);
  }
  if (Rest.size() > 1)
    return std::nullopt;
  AffineExpr Q = AffineExpr::constant(CO / CI);
  if (!Rest.empty())
    Q = AffineExpr::symbol(*Rest.begin()) * (CO / CI);
  return Q;
}

llvm::Expected<isl::set> rowAssumptions(isl::ctx Ctx, const RegionModel &M) {
  isl::set Context = contextSet(Ctx, M);
  isl::set Assumed = Context;
  // A model step's result (NestFusion.h) keeps the source's assumptions:
  // the source's accesses, not the fused model's, must name distinct
  // elements.
  if (M.AsWritten) {
    auto Source = rowAssumptions(Ctx, *M.AsWritten);
    if (!Source)
      return Source.takeError();
    Assumed = Assumed.intersect(*Source);
  }
  std::vector<bool> Written(M.Arrays.size(), false);
  for (auto &S : M.Stmts)
    Written[S.Write.ArrayId] = !M.Arrays[S.Write.ArrayId].IsLocalScalar &&
                               !M.Arrays[S.Write.ArrayId].IsStaticShape;
  for (auto &S : M.Stmts) {
    isl::set D = domainSet(Ctx, M, S).intersect_params(Context);
    for (const Access *A : S.accesses()) {
      const Array &Arr = M.Arrays[A->ArrayId];
      if (!Written[A->ArrayId])
        continue;
      isl::set Range = accessMap(Ctx, M, S, *A).intersect_domain(D).range();
      std::vector<std::string> Idx;
      for (unsigned E = 0; E < Arr.rank(); ++E)
        Idx.push_back("x" + std::to_string(E));
      for (unsigned Dim = 1; Dim < Arr.rank(); ++Dim) {
        auto Q = quotient(Arr.Strides[Dim - 1], Arr.Strides[Dim]);
        if (!Q)
          return regionError(A->Range.getBegin(),
                             "cannot bound the subscript of '" + Arr.Name +
                                 "' within its row",
                             "write the output with a row stride that is one "
                             "size or leading-dimension parameter");
        isl::set Row = bound(universeSet(Ctx, M, Arr.Name, Idx), AffineExpr::constant(0),
                             Idx[Dim], *Q);
        isl::set Bad = Range.subtract(Row).params();
        if (Bad.is_empty())
          continue;
        if (D.params().is_subset(Bad)) // wrong whenever the statement runs
          return regionError(A->Range.getBegin(),
                             "the subscript of '" + Arr.Name +
                                 "' leaves the row it is linearised into",
                             "each index of a written array must stay within "
                             "[0, " + Q->str() + ")");
        Assumed = Assumed.subtract(Bad);
      }
    }
  }
  return Assumed;
}

/// Map with each size of known value fixed to it and projected out.
static isl::map withKnownSizes(isl::map Map, const RegionModel &M) {
  for (const Parameter &P : M.Params) {
    if (!P.Value)
      continue;
    int Pos = isl_map_find_dim_by_name(Map.get(), isl_dim_param, P.Name.c_str());
    if (Pos < 0)
      continue;
    isl_val *V = isl_val_int_from_si(Map.ctx().get(), long(*P.Value));
    Map = isl::manage(isl_map_fix_val(Map.release(), isl_dim_param, Pos, V));
    Map = isl::manage(isl_map_project_out(Map.release(), isl_dim_param, Pos, 1));
  }
  return Map;
}

isl::set withKnownSizes(isl::set S, const RegionModel &M) {
  isl::map AsRange = isl::manage(isl_map_from_range(S.release()));
  return isl::manage(isl_map_range(withKnownSizes(AsRange, M).release()));
}

isl::union_map withKnownSizes(const isl::union_map &U, const RegionModel &M) {
  isl::union_map R = isl::union_map::empty(U.ctx());
  isl::map_list Maps = U.get_map_list();
  for (int I = 0, N = Maps.size(); I < N; ++I)
    R = R.unite(isl::union_map(withKnownSizes(Maps.at(I), M)));
  return R;
}

IslModel IslModel::build(isl::ctx Ctx, const RegionModel &M, const isl::set &Assumed) {
  IslModel I;
  I.Context = Assumed;
  I.Assumptions = Assumed;
  I.Domains = isl::union_set::empty(Ctx);
  I.Writes = isl::union_map::empty(Ctx);
  I.AllReads = isl::union_map::empty(Ctx);
  for (auto &S : M.Stmts) {
    isl::set D = domainSet(Ctx, M, S).intersect_params(I.Context);
    I.Domain.emplace(S.Name, D);
    I.Domains = I.Domains.unite(isl::union_set(D));
    isl::map RawW = accessMap(Ctx, M, S, S.Write);
    I.RawWrite.emplace(S.Name, RawW);
    isl::map W = RawW.intersect_domain(D);
    I.Write.emplace(S.Name, W);
    I.Writes = I.Writes.unite(isl::union_map(W));
    auto &Rs = I.Reads[S.Name];
    for (auto &R : S.Reads) {
      isl::map Raw = accessMap(Ctx, M, S, R);
      I.RawReads[S.Name].push_back(Raw);
      isl::map RM = Raw.intersect_domain(D);
      Rs.push_back(RM);
      I.AllReads = I.AllReads.unite(isl::union_map(RM));
    }
  }
  I.Schedule = scheduleOf(Ctx, M).intersect_domain(I.Domains);
  return I;
}

Dependences dependencesOf(const isl::union_map &Reads, const isl::union_map &Writes,
                          const isl::union_map &Schedule) {
  auto Flow = isl::union_access_info(Reads)
                  .set_must_source(Writes)
                  .set_schedule_map(Schedule)
                  .compute_flow();
  auto Out = isl::union_access_info(Writes)
                 .set_may_source(Writes)
                 .set_schedule_map(Schedule)
                 .compute_flow();
  auto Anti = isl::union_access_info(Writes)
                  .set_may_source(Reads)
                  .set_schedule_map(Schedule)
                  .compute_flow();
  return {Flow.get_may_dependence(), Anti.get_may_dependence(), Out.get_may_dependence(),
          Flow.get_may_no_source()};
}

std::set<std::string> IslModel::liveInArrays() const {
  // Each instance of a statement writes its element (guards are in the
  // domains): must sources, as in dependenceKinds' flow, which this reuses
  // where it ran.
  isl::union_map LiveIn = Deps ? Deps->LiveInReads
                               : isl::union_access_info(AllReads)
                                     .set_must_source(Writes)
                                     .set_schedule_map(Schedule)
                                     .compute_flow()
                                     .get_may_no_source();
  std::set<std::string> Names;
  LiveIn.foreach_map([&](isl::map Read) {
    if (!Read.is_empty())
      Names.insert(isl_map_get_tuple_name(Read.get(), isl_dim_out));
  });
  return Names;
}

isl::union_map originalSchedule(isl::ctx Ctx, const RegionModel &M) { return scheduleOf(Ctx, M); }

bool involves(const isl::map &Access, unsigned Pos) {
  return isl_map_involves_dims(Access.get(), isl_dim_in, Pos, 1) == isl_bool_true;
}

const Dependences &IslModel::dependenceKinds() const {
  if (!Deps)
    Deps = dependencesOf(AllReads, Writes, Schedule);
  return *Deps;
}

isl::union_map IslModel::dependences() const {
  const Dependences &D = dependenceKinds();
  return D.Flow.unite(D.Anti).unite(D.Output);
}

std::string explainModel(const RegionModel &M, const IslModel &I) {
  std::string S;
  S += "  context:  " + islStr(I.Context) + "\n";
  for (auto &Arr : M.Arrays) {
    S += "  array " + Arr.Name + ": " + Arr.ElemSpelling +
         (Arr.IsLocalScalar ? " (scalar accumulator, expanded over its loops)"
                            : "") +
         ", strides [";
    for (size_t D = 0; D < Arr.Strides.size(); ++D)
      S += (D ? ", " : "") + Arr.Strides[D].str();
    S += "]\n";
  }
  // The loops as the source writes them, where the model differs
  // (LoopOrigins.h).
  for (const Loop &L : M.Loops) {
    bool Shifted = !L.Shift.isZero();
    if (L.Step != 1)
      S += "  loop " + L.Iterator + ": steps by " + std::to_string(L.Step) +
           " in the source; counts its iterations (the source's " + L.Iterator + " is " +
           std::to_string(L.Step) + " * " + L.Iterator +
           (Shifted ? " + " + L.Shift.str() : std::string()) + ")\n";
    else if (Shifted)
      S += "  loop " + L.Iterator + ": starts at " + L.Shift.str() +
           " in the source; shifted to start at 0 (the source's " + L.Iterator + " is " +
           L.Iterator + " + " + L.Shift.str() + ")\n";
    if (L.Reversed)
      S += "  loop " + L.Iterator + ": runs downwards in the source (so does the original "
           "schedule)\n";
  }
  for (auto &St : M.Stmts) {
    S += "  " + St.Name + ": " + describe(*St.Value) + "\n";
    S += "    domain: " + islStr(I.Domain.at(St.Name)) + "\n";
    S += "    write:  " + islStr(I.Write.at(St.Name)) + "\n";
    for (size_t R = 0; R < St.Reads.size(); ++R)
      S += "    read R" + std::to_string(R) + ": " +
           islStr(I.Reads.at(St.Name)[R]) + "\n";
  }
  const Dependences &D = I.dependenceKinds();
  S += "  flow dependences:   " + islStr(D.Flow) + "\n";
  S += "  anti dependences:   " + islStr(D.Anti) + "\n";
  S += "  output dependences: " + islStr(D.Output) + "\n";
  return S;
}

} // namespace tc
