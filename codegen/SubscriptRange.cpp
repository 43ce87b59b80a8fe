//===- SubscriptRange.cpp -------------------------------------------------===//
#include "SubscriptRange.h"
#include "AliasCheck.h"
#include "Aliasing.h"
#include "AstPrinter.h"
#include "IslBuild.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <map>
#include <optional>

namespace tc {

/// Text for a `//` comment: one line.
static std::string escapeComment(const std::string &Text) {
  std::string R;
  for (char C : Text)
    R += C == '\n' || C == '\r' ? ' ' : C;
  return R;
}

/// `{min, max, stride}, ...` of array ArrayId's dimensions (indexRanges)
/// from `First` on, or of dimension `First` only.
static std::string rangeList(const RegionModel &M, const IslModel &I, unsigned ArrayId,
                             int First = 0, bool Only = false) {
  std::string List;
  const std::vector<std::string> Ranges = indexRanges(M, I, ArrayId);
  for (int D = First; D < int(Ranges.size()) && (!Only || D == First); ++D)
    List += (List.empty() ? "" : ", ") + Ranges[D];
  return List;
}

/// The test of one check (RegionModel::NarrowSubscript::Check): whether
/// its subscripts fit.
static std::string fits(const RegionModel &M, const IslModel &I,
                        const RegionModel::NarrowSubscript &N,
                        const RegionModel::NarrowSubscript::Check &C) {
  const bool Each = C.Dim < 0 ? M.Arrays[N.ArrayId].IsStaticShape : C.Only && !C.Scaled;
  return "tc::subscripts_fit<" + std::to_string(N.Bits) + ">(" +
         (Each ? "tc::Subscripts::kEach" : "tc::Subscripts::kFlat") + ", {" +
         rangeList(M, I, N.ArrayId, std::max(C.Dim, 0), C.Only) + "})";
}

/// `{{c, {x, y}}, ...}`: Value's terms for tc::value_fits, the sizes of
/// known value folded into the coefficients, and each symbol of Replaced
/// (an iterator) its expression there.
static std::string valueTerms(const Polynomial &Value, const RegionModel &M,
                              const std::map<std::string, std::string> &Replaced = {}) {
  std::string Terms;
  for (const auto &[Mono, C] : Value.Terms) {
    int64_t Coefficient = C;
    std::string Factors;
    for (const std::string &Sym : Mono) {
      if (auto R = Replaced.find(Sym); R != Replaced.end()) {
        Factors += (Factors.empty() ? "" : ", ") + R->second;
        continue;
      }
      auto Known = llvm::find_if(M.Params, [&](const Parameter &P) {
        return P.Name == Sym && P.Value;
      });
      if (Known != M.Params.end() &&
          !__builtin_mul_overflow(Coefficient, *Known->Value, &Coefficient))
        continue;
      Factors += (Factors.empty() ? "" : ", ") + Sym;
    }
    Terms += (Terms.empty() ? "{" : ", {") + std::to_string(Coefficient) + ", {" + Factors + "}}";
  }
  return "{" + Terms + "}";
}

/// The sets over which V's iterators take their values: the statements'
/// domains (where they run), or for an upward loop's start (V.StartOf)
/// where that loop is reached, its enclosing loops' ranges: `j = i + 1`
/// is computed for the last i too, where no statement runs.
static std::vector<isl::set> valueDomains(const RegionModel &M, const IslModel &I,
                                          const RegionModel::NarrowValue &V) {
  std::vector<isl::set> Domains;
  for (const Statement &S : M.Stmts) {
    if (V.StartOf.empty()) {
      Domains.push_back(I.Domain.at(S.Name));
      continue;
    }
    for (unsigned Depth = 0; Depth < S.Loops.size(); ++Depth)
      if (M.Loops[S.Loops[Depth]].Iterator == V.StartOf) {
        isl::set Reached = enclosingLoopsSet(I.Context.ctx(), M, S, Depth);
        Domains.push_back(Reached.intersect_params(I.Context));
        break;
      }
  }
  return Domains;
}

/// The sets of Domains that have a dimension named It.
static std::vector<isl::set> domainsWith(const std::vector<isl::set> &Domains,
                                         const std::string &It) {
  std::vector<isl::set> Found;
  for (const isl::set &D : Domains)
    if (isl_set_find_dim_by_name(D.get(), isl_dim_set, It.c_str()) >= 0)
      Found.push_back(D);
  return Found;
}

/// The sizes where V's iterators take values (valueDomains; none for a
/// value of the sizes alone: nullopt).
static std::optional<isl::set> valueComputed(const RegionModel &M,
                                             const std::vector<isl::set> &Domains,
                                             const RegionModel::NarrowValue &V) {
  std::optional<isl::set> Runs;
  for (const std::string &It : V.Iterators)
    for (const isl::set &D : domainsWith(Domains, It)) {
      isl::set P = withKnownSizes(D.params().coalesce(), M);
      Runs = Runs ? Runs->unite(P) : P;
    }
  return Runs;
}

/// Each iterator of V at its source's largest value in Domains, as C
/// (meaningful where valueComputed). The model's iterator counts from 0;
/// the source's is Shift + Step times it (Loop::Shift), its largest value
/// isl's maximum of that over each domain (of every loop of that name: at
/// least the largest).
static std::map<std::string, std::string>
iteratorMaxima(const RegionModel &M, const std::vector<isl::set> &Domains,
               const RegionModel::NarrowValue &V, const isl::ast_build &Build) {
  std::map<std::string, std::string> Maxima;
  for (const std::string &It : V.Iterators) {
    std::optional<isl::pw_aff> Max;
    for (const Loop &L : M.Loops) {
      if (L.Iterator != It)
        continue;
      const AffineExpr Source = L.Shift + AffineExpr::symbol(It) * L.Step;
      for (const isl::set &D : domainsWith(Domains, It)) {
        isl::set Values = withKnownSizes(D.coalesce(), M).apply(functionMap(D, "", {Source}));
        isl::pw_aff P = isl::manage(isl_set_dim_max(Values.release(), 0));
        Max = Max ? isl::manage(isl_pw_aff_union_max(Max->release(), P.release())) : P;
      }
    }
    if (Max)
      Maxima[It] = "(long long)(" + printAstExpr(Build.expr_from(*Max).get()) + ")";
  }
  return Maxima;
}

/// The statement that reports, where `Wraps` holds, that `What` wraps.
static std::string report(const std::string &Wraps, const std::string &What, unsigned Bits,
                          const std::string &Where) {
  return "  if (" + Wraps + ") {\n    tc::report_error(tc::Status::AssumptionViolated, \"" +
         Where + "\", \"'#pragma tc' region: " + What + " that the source computes in " +
         std::to_string(Bits) + "-bit unsigned arithmetic wraps around for these sizes; the "
         "kernels would not\");\n    return;\n  }\n";
}

std::string narrowArithmeticCheck(const RegionModel &M, const IslModel &Plain,
                                  const std::string &Where) {
  if (M.NarrowSubscripts.empty() && M.NarrowValues.empty())
    return "";
  const isl::set &Context = Plain.Context;
  isl::ast_build Build = isl::ast_build::from_context(withKnownSizes(Context, M));
  auto Condition = [&](const isl::set &Params) {
    return printAstExpr(Build.expr_from(withKnownSizes(Params.coalesce(), M).gist(Context)).get());
  };
  std::string S;
  for (const RegionModel::NarrowSubscript &N : M.NarrowSubscripts) {
    std::optional<isl::set> Elements = accessedElements(M, Plain, N.ArrayId);
    if (!Elements)
      continue;
    const Array &Arr = M.Arrays[N.ArrayId];
    // Only where the launch accesses the array: the bounds are the
    // accessed elements', undefined for sizes where there are none.
    std::string Fit;
    for (const RegionModel::NarrowSubscript::Check &C : N.Checks)
      Fit += (Fit.empty() ? "" : " &&\n        ") + fits(M, Plain, N, C);
    std::string Wraps = N.Checks.size() == 1 ? "!" + Fit : "!(" + Fit + ")";
    if (isl_set_plain_is_universe(Elements->params().get()) != isl_bool_true)
      Wraps = "(" + Condition(Elements->params()) + ") &&\n      " + Wraps;
    S += "  // The source computes subscripts of " + Arr.Name + " in " + std::to_string(N.Bits) +
         "-bit unsigned arithmetic, which wraps\n  // where the kernels' 64-bit integers do "
         "not (tc/subscript_range.cuh).\n" +
         report(Wraps, "a subscript of '" + Arr.Name + "'", N.Bits, Where);
  }
  // A value of the sizes alone, whatever the loops run: a loop's start is
  // computed where the loop is reached, which the model's domains (empty
  // where `j = lo + 1` went past 2^32) do not tell. Where the value wraps
  // and no loop runs, this reports what the source would not have
  // computed: an error, never a different result.
  // A value of iterators, at each iterator's largest value where
  // statements run (iteratorMaxima): a wrap shrinks it, so the source's
  // loops run a subset of the model's; where no statement runs, they run
  // none either, and where statements run, the value does not wrap. An
  // upward loop's start, whose wrap would run the loop from a small value,
  // at their largest where the loop is reached: there it never wraps.
  for (const RegionModel::NarrowValue &V : M.NarrowValues) {
    const std::vector<isl::set> Domains = valueDomains(M, Plain, V);
    std::optional<isl::set> Runs = valueComputed(M, Domains, V);
    if (!V.Iterators.empty() && !Runs)
      continue; // (no statement in the loops of its iterators)
    std::string Wraps = "!tc::value_fits<" + std::to_string(V.Bits) + ">(" +
                        valueTerms(V.Value, M, iteratorMaxima(M, Domains, V, Build)) + ")";
    if (Runs && isl_set_plain_is_universe(Runs->get()) != isl_bool_true)
      Wraps = "(" + Condition(*Runs) + ") &&\n      " + Wraps;
    S += "  // The source computes '" + escapeComment(V.Spelling) + "' in " +
         std::to_string(V.Bits) + "-bit unsigned arithmetic, which wraps\n  // where the "
         "model's integers do not (tc/subscript_range.cuh).\n" +
         report(Wraps, "a bound or condition", V.Bits, Where);
  }
  return S;
}

std::string explainNarrowArithmetic(const RegionModel &M, const IslModel &I) {
  std::string S;
  for (const RegionModel::NarrowSubscript &N : M.NarrowSubscripts) {
    if (!accessedElements(M, I, N.ArrayId))
      continue;
    const Array &Arr = M.Arrays[N.ArrayId];
    for (const RegionModel::NarrowSubscript::Check &C : N.Checks)
      S += "  subscripts of " + Arr.Name + " computed in " + std::to_string(N.Bits) +
           "-bit unsigned arithmetic: the launcher tests that " +
           ((C.Dim < 0 ? Arr.IsStaticShape : C.Only && !C.Scaled) ? "each" : "the flat index") +
           " of {min, max, stride} " +
           rangeList(M, I, N.ArrayId, std::max(C.Dim, 0), C.Only) + " stays in [0, 2^" +
           std::to_string(N.Bits) + ")\n";
  }
  for (const RegionModel::NarrowValue &V : M.NarrowValues)
    S += "  '" + escapeComment(V.Spelling) + "' computed in " + std::to_string(V.Bits) +
         "-bit unsigned arithmetic: the launcher tests that " + V.Value.str() +
         (V.Iterators.empty() ? std::string()
                              : " at the largest " + llvm::join(V.Iterators, ", ") +
                                    (V.StartOf.empty()
                                         ? std::string(" where statements run")
                                         : " where the loop over " + V.StartOf +
                                               " is reached")) +
         " stays in [0, 2^" + std::to_string(V.Bits) + ")\n";
  return S;
}

} // namespace tc
