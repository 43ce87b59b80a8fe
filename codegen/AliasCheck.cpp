//===- AliasCheck.cpp -----------------------------------------------------===//
#include "AliasCheck.h"
#include "AstPrinter.h"
#include "Epilogue.h"
#include <algorithm>

namespace tc {

/// The arrays of the pairs, in array order.
static std::vector<unsigned> arraysOf(const std::vector<AliasPair> &Pairs) {
  std::vector<unsigned> Ids;
  for (const AliasPair &P : Pairs)
    for (unsigned Id : {P.Written, P.Other})
      if (std::find(Ids.begin(), Ids.end(), Id) == Ids.end())
        Ids.push_back(Id);
  std::sort(Ids.begin(), Ids.end());
  return Ids;
}

std::vector<std::string> indexRanges(const RegionModel &M, const IslModel &I,
                                     unsigned ArrayId) {
  isl::ast_build Build = isl::ast_build::from_context(withKnownSizes(I.Context, M));
  const Array &Arr = M.Arrays[ArrayId];
  std::vector<std::string> Ranges;
  auto Bounds = subscriptBounds(M, I, ArrayId);
  for (size_t D = 0; D < Bounds.size(); ++D)
    Ranges.push_back("{" + printAstExpr(Build.expr_from(Bounds[D].first).get()) + ", " +
                     printAstExpr(Build.expr_from(Bounds[D].second).get()) + ", " +
                     printStride(Arr.Strides[D], M) + "}");
  return Ranges;
}

std::string accessedBytes(const RegionModel &M, const IslModel &I, unsigned ArrayId) {
  const std::string &Name = M.Arrays[ArrayId].Name;
  std::string List;
  for (const std::string &R : indexRanges(M, I, ArrayId))
    List += (List.empty() ? "" : ", ") + R;
  return "tc::accessed_bytes(" + Name + ", sizeof(*" + Name + "), {" + List + "})";
}

std::string aliasCheck(const RegionModel &M, const IslModel &I,
                       const std::vector<AliasPair> &Pairs, const std::string &SerialLaunch) {
  if (Pairs.empty())
    return "";
  std::vector<unsigned> Ids = arraysOf(Pairs);
  auto Local = [&](unsigned Id) {
    return "tc_bytes_" +
           std::to_string(std::find(Ids.begin(), Ids.end(), Id) - Ids.begin());
  };
  std::string S = "  // The arrays are not __restrict__: where the bytes an output's accesses\n"
                  "  // touch meet another array's, the region runs as written, on one\n"
                  "  // thread (tc/alias_check.cuh).\n";
  for (unsigned Id : Ids)
    S += "  const tc::ByteRange " + Local(Id) + " = " + accessedBytes(M, I, Id) + ";\n";
  std::string Cond;
  for (const AliasPair &P : Pairs)
    Cond += std::string(Cond.empty() ? "" : " ||\n      ") + "tc::overlap(" + Local(P.Written) +
            ", " + Local(P.Other) + ")";
  return S + "  if (" + Cond + ") {\n    " + SerialLaunch + "\n    return;\n  }\n";
}

std::string explainAliasCheck(const RegionModel &M, const IslModel &I,
                              const std::vector<AliasPair> &Pairs,
                              const std::string &SerialKernel) {
  if (Pairs.empty())
    return "";
  std::string S = "  alias check (no __restrict__): where these overlap, " + SerialKernel +
                  " runs the region as written on one thread\n";
  for (const AliasPair &P : Pairs)
    S += "    " + M.Arrays[P.Written].Name + " and " + M.Arrays[P.Other].Name + "\n";
  for (unsigned Id : arraysOf(Pairs)) {
    std::string Elements;
    for (const std::string &R : indexRanges(M, I, Id))
      Elements += (Elements.empty() ? "" : ", ") + R;
    S += "    " + M.Arrays[Id].Name + " accessed in {min, max, stride} " + Elements + "\n";
  }
  return S;
}

} // namespace tc
