//===- SubscriptRange.cpp -------------------------------------------------===//
#include "SubscriptRange.h"
#include "AliasCheck.h"
#include "Aliasing.h"
#include "AstPrinter.h"

namespace tc {

/// `{min, max, stride}, ...` of array ArrayId's dimensions (indexRanges).
static std::string rangeList(const RegionModel &M, const IslModel &I, unsigned ArrayId) {
  std::string List;
  for (const std::string &R : indexRanges(M, I, ArrayId))
    List += (List.empty() ? "" : ", ") + R;
  return List;
}

std::string narrowSubscriptCheck(const RegionModel &M, const IslModel &I,
                                 const std::string &Where) {
  std::string S;
  isl::ast_build Build = isl::ast_build::from_context(withKnownSizes(I.Context, M));
  for (const RegionModel::NarrowSubscript &N : M.NarrowSubscripts) {
    std::optional<isl::set> Elements = accessedElements(M, I, N.ArrayId);
    if (!Elements)
      continue;
    const Array &Arr = M.Arrays[N.ArrayId];
    const std::string Bits = std::to_string(N.Bits);
    // Only where the launch accesses the array: the bounds are the
    // accessed elements', undefined for sizes where there are none.
    isl::set Accessed = withKnownSizes(Elements->params(), M);
    std::string Wraps = "!tc::subscripts_fit<" + Bits + ">(" +
                        (Arr.IsStaticShape ? "tc::Subscripts::kEach" : "tc::Subscripts::kFlat") +
                        ", {" + rangeList(M, I, N.ArrayId) + "})";
    if (isl_set_plain_is_universe(Accessed.get()) != isl_bool_true)
      Wraps = "(" + printAstExpr(Build.expr_from(Accessed).get()) + ") &&\n      " + Wraps;
    S += "  // The source computes subscripts of " + Arr.Name + " in " + Bits +
         "-bit unsigned arithmetic, which wraps\n  // where the kernels' 64-bit integers do "
         "not (tc/subscript_range.cuh).\n"
         "  if (" + Wraps + ") {\n    tc::report_error(tc::Status::AssumptionViolated, \"" +
         Where + "\", \"'#pragma tc' region: a subscript of '" + Arr.Name +
         "' that the source computes in " + Bits +
         "-bit unsigned arithmetic wraps around for these sizes; the kernels would not\");\n"
         "    return;\n  }\n";
  }
  return S;
}

std::string explainNarrowSubscripts(const RegionModel &M, const IslModel &I) {
  std::string S;
  for (const RegionModel::NarrowSubscript &N : M.NarrowSubscripts) {
    if (!accessedElements(M, I, N.ArrayId))
      continue;
    const Array &Arr = M.Arrays[N.ArrayId];
    S += "  subscripts of " + Arr.Name + " computed in " + std::to_string(N.Bits) +
         "-bit unsigned arithmetic: the launcher tests that " +
         (Arr.IsStaticShape ? "each" : "the flat index") + " of {min, max, stride} " +
         rangeList(M, I, N.ArrayId) + " stays in [0, 2^" + std::to_string(N.Bits) + ")\n";
  }
  return S;
}

} // namespace tc
