//===- LoopOrigins.cpp ----------------------------------------------------===//
#include "LoopOrigins.h"
#include <iterator>
#include <map>

namespace tc {

AffineExpr substituteShift(const AffineExpr &E, const std::string &S, const AffineExpr &Shift) {
  auto It = E.Coeffs.find(S);
  if (It == E.Coeffs.end())
    return E;
  AffineExpr R = E + Shift * It->second;
  // `i - lo` shifted by lo is `i`: no zero coefficient left behind.
  for (auto C = R.Coeffs.begin(); C != R.Coeffs.end();)
    C = C->second == 0 ? R.Coeffs.erase(C) : std::next(C);
  return R;
}

/// The expression of the source's value of a shifted iterator: `i + L`,
/// L's parameters as scalar leaves (they are the region's integer sizes).
static ExprPtr shiftedIterator(const std::string &It, const AffineExpr &Shift) {
  ExprPtr E = ExprNode::make(ExprNode::Iterator, It);
  auto Add = [&](ExprPtr Term) { E = ExprNode::make(ExprNode::Binary, "+", {E, Term}); };
  auto Literal = [](int64_t V) {
    auto N = ExprNode::make(ExprNode::Literal, std::to_string(V));
    N->IsInteger = true;
    N->Value = double(V);
    N->IsPositiveZero = V == 0;
    return N;
  };
  for (auto &[Sym, Coeff] : Shift.Coeffs) {
    if (Coeff == 0)
      continue;
    ExprPtr Leaf = ExprNode::make(ExprNode::Scalar, Sym);
    Add(Coeff == 1 ? Leaf : ExprNode::make(ExprNode::Binary, "*", {Literal(Coeff), Leaf}));
  }
  if (Shift.Constant != 0)
    Add(Literal(Shift.Constant));
  return E;
}

/// E with each iterator leaf of `Shifted` replaced by its source value.
static ExprPtr shiftLeaves(const ExprPtr &E, const std::map<std::string, AffineExpr> &Shifted) {
  if (E->K == ExprNode::Iterator) {
    auto It = Shifted.find(E->Text);
    return It == Shifted.end() ? E : shiftedIterator(E->Text, It->second);
  }
  if (E->Ops.empty())
    return E;
  auto Copy = std::make_shared<ExprNode>(*E);
  for (ExprPtr &Op : Copy->Ops)
    Op = shiftLeaves(Op, Shifted);
  return Copy;
}

llvm::Error shiftLoopsToZero(RegionModel &M) {
  std::map<std::string, AffineExpr> Shifted;
  for (Loop &L : M.Loops) {
    if (L.Lower.isZero())
      continue;
    bool NamesIterator = false;
    for (const Loop &Other : M.Loops)
      NamesIterator |= L.Lower.involves(Other.Iterator);
    if (NamesIterator)
      continue; // triangular: left for the idiom to diagnose
    Shifted[L.Iterator] = L.Lower;
  }
  if (Shifted.empty())
    return llvm::Error::success();
  auto Apply = [&](const AffineExpr &E) {
    AffineExpr R = E;
    for (auto &[It, Shift] : Shifted)
      R = substituteShift(R, It, Shift);
    return R;
  };
  for (Loop &L : M.Loops) {
    auto Own = Shifted.find(L.Iterator);
    if (Own != Shifted.end()) {
      // i + L < U: 0 <= i < U - L.
      L.UpperExclusive = L.UpperExclusive + L.Lower * -1;
      L.Shift = L.Lower;
      L.Lower = AffineExpr::constant(0);
    }
    L.Lower = Apply(L.Lower);
    L.UpperExclusive = Apply(L.UpperExclusive);
  }
  // A local is expanded over its loops by their iterators (acc[i][j]): any
  // one-to-one index does, so it keeps the model's own iterators.
  auto ApplyTo = [&](Access &A) {
    if (!M.Arrays[A.ArrayId].IsLocalScalar)
      for (AffineExpr &E : A.Index)
        E = Apply(E);
  };
  for (Statement &S : M.Stmts) {
    ApplyTo(S.Write);
    for (Access &A : S.Reads)
      ApplyTo(A);
    S.Value = shiftLeaves(S.Value, Shifted);
  }
  bool Overflow = false;
  for (const Loop &L : M.Loops)
    Overflow |= L.Lower.Overflow || L.UpperExclusive.Overflow || L.Shift.Overflow;
  for (const Statement &S : M.Stmts) {
    for (const AffineExpr &E : S.Write.Index)
      Overflow |= E.Overflow;
    for (const Access &A : S.Reads)
      for (const AffineExpr &E : A.Index)
        Overflow |= E.Overflow;
  }
  if (Overflow)
    return regionError(M.Range.getBegin(),
                       "integer overflow in a subscript or loop bound once the loops "
                       "are shifted to start at 0");
  return llvm::Error::success();
}

} // namespace tc
