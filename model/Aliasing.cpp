//===- Aliasing.cpp -------------------------------------------------------===//
#include "Aliasing.h"
#include "RegionError.h"
#include <optional>

namespace tc {

llvm::Expected<std::vector<AliasPair>> aliasPairs(const RegionModel &M) {
  std::vector<bool> Written(M.Arrays.size(), false);
  for (const Statement &S : M.Stmts)
    Written[S.Write.ArrayId] = true;
  // A __restrict__ parameter overlaps no other parameter; a pointer based
  // on it (a local `float *C = buf + N`, a reference to it, a member) may.
  auto Promised = [&](unsigned R, unsigned O) {
    return M.Arrays[R].IsRestrict && M.Arrays[R].IsParameter && M.Arrays[O].IsParameter;
  };
  std::vector<AliasPair> Pairs;
  for (unsigned W = 0; W < M.Arrays.size(); ++W) {
    if (!Written[W] || M.Arrays[W].IsLocalScalar)
      continue;
    for (unsigned X = 0; X < M.Arrays.size(); ++X) {
      // A pair of written arrays is listed once, under the first.
      if (X == W || M.Arrays[X].IsLocalScalar || (Written[X] && X < W) || Promised(W, X) ||
          Promised(X, W))
        continue;
      if (M.ReadsMovedPastStores) {
        const Array &AW = M.Arrays[W], &AX = M.Arrays[X];
        return regionError(AW.DeclLoc,
                           "output '" + AW.Name + "' may alias '" + AX.Name +
                               "', which the region also accesses",
                           "a local's value is read after a store that follows its "
                           "definition, which no run-time overlap test can order; "
                           "declare the pointers __restrict__ to promise they do not "
                           "overlap");
      }
      Pairs.push_back({W, X});
    }
  }
  return Pairs;
}

std::vector<std::pair<isl::pw_aff, isl::pw_aff>>
subscriptBounds(const RegionModel &M, const IslModel &I, unsigned ArrayId) {
  std::vector<std::pair<isl::pw_aff, isl::pw_aff>> Bounds;
  std::optional<isl::set> Elements = accessedElements(M, I, ArrayId);
  if (!Elements)
    return Bounds;
  isl::set E = withKnownSizes(Elements->coalesce(), M);
  for (unsigned D = 0; D < M.Arrays[ArrayId].rank(); ++D)
    Bounds.emplace_back(isl::manage(isl_set_dim_min(E.copy(), int(D))),
                        isl::manage(isl_set_dim_max(E.copy(), int(D))));
  return Bounds;
}

std::optional<isl::set> accessedElements(const RegionModel &M, const IslModel &I,
                                         unsigned ArrayId) {
  std::optional<isl::set> Elements;
  auto Add = [&](const Access &A, const isl::map &Relation) {
    if (A.ArrayId != ArrayId)
      return;
    isl::set R = Relation.range();
    Elements = Elements ? Elements->unite(R) : R;
  };
  for (const Statement &S : M.Stmts) {
    Add(S.Write, I.Write.at(S.Name));
    for (size_t R = 0; R < S.Reads.size(); ++R)
      Add(S.Reads[R], I.Reads.at(S.Name)[R]);
  }
  return Elements;
}

} // namespace tc
