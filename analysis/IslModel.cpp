//===- IslModel.cpp -------------------------------------------------------===//
#include "IslModel.h"
#include <isl/options.h>

namespace tc {

isl::ctx makeIslContext() {
  isl_ctx *C = isl_ctx_alloc();
  isl_options_set_on_error(C, ISL_ON_ERROR_CONTINUE);
  return isl::ctx(C);
}

static isl::union_map scheduleOf(isl::ctx Ctx, const RegionModel &M) {
  unsigned Depth = 0;
  for (auto &S : M.Stmts)
    Depth = std::max<unsigned>(Depth, S.Loops.size() + 1);
  isl::union_map Sched = isl::union_map::empty(Ctx);
  for (auto &S : M.Stmts)
    Sched = Sched.unite(isl::union_map(isl::map(Ctx, M.scheduleString(S, Depth))));
  return Sched;
}

IslModel IslModel::build(isl::ctx Ctx, const RegionModel &M) {
  IslModel I;
  I.Context = isl::set(Ctx, M.contextString());
  I.Domains = isl::union_set::empty(Ctx);
  I.Writes = isl::union_map::empty(Ctx);
  I.AllReads = isl::union_map::empty(Ctx);
  for (auto &S : M.Stmts) {
    isl::set D = isl::set(Ctx, M.domainString(S)).intersect_params(I.Context);
    I.Domain.emplace(S.Name, D);
    I.Domains = I.Domains.unite(isl::union_set(D));
    isl::map RawW(Ctx, M.accessString(S, S.Write));
    I.RawWrite.emplace(S.Name, RawW);
    isl::map W = RawW.intersect_domain(D);
    I.Write.emplace(S.Name, W);
    I.Writes = I.Writes.unite(isl::union_map(W));
    auto &Rs = I.Reads[S.Name];
    for (auto &R : S.Reads) {
      isl::map Raw(Ctx, M.accessString(S, R));
      I.RawReads[S.Name].push_back(Raw);
      isl::map RM = Raw.intersect_domain(D);
      Rs.push_back(RM);
      I.AllReads = I.AllReads.unite(isl::union_map(RM));
    }
  }
  I.Schedule = scheduleOf(Ctx, M).intersect_domain(I.Domains);
  // Flow (read after write), output (write after write) and anti (write
  // after read) dependences of the original order.
  auto Flow = isl::union_access_info(I.AllReads)
                  .set_must_source(I.Writes)
                  .set_schedule_map(I.Schedule)
                  .compute_flow();
  I.Flow = Flow.get_may_dependence();
  auto Out = isl::union_access_info(I.Writes)
                 .set_may_source(I.Writes)
                 .set_schedule_map(I.Schedule)
                 .compute_flow();
  I.Output = Out.get_may_dependence();
  auto Anti = isl::union_access_info(I.Writes)
                  .set_may_source(I.AllReads)
                  .set_schedule_map(I.Schedule)
                  .compute_flow();
  I.Anti = Anti.get_may_dependence();
  return I;
}

isl::union_map IslModel::dependences() const {
  return Flow.unite(Anti).unite(Output);
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
  for (auto &St : M.Stmts) {
    S += "  " + St.Name + ": " + describe(*St.Value) + "\n";
    S += "    domain: " + islStr(I.Domain.at(St.Name)) + "\n";
    S += "    write:  " + islStr(I.Write.at(St.Name)) + "\n";
    for (size_t R = 0; R < St.Reads.size(); ++R)
      S += "    read R" + std::to_string(R) + ": " +
           islStr(I.Reads.at(St.Name)[R]) + "\n";
  }
  S += "  flow dependences:   " + islStr(I.Flow) + "\n";
  S += "  anti dependences:   " + islStr(I.Anti) + "\n";
  S += "  output dependences: " + islStr(I.Output) + "\n";
  return S;
}

} // namespace tc
