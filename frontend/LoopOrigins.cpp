//===- LoopOrigins.cpp ----------------------------------------------------===//
#include "LoopOrigins.h"
#include <algorithm>
#include <iterator>
#include <map>
#include <set>

namespace tc {

namespace {

/// Where the source's iterator is: Shift + Step * the model's.
struct Origin {
  AffineExpr Shift;
  int64_t Step = 1;
};

ExprPtr literal(int64_t V) {
  auto N = ExprNode::make(ExprNode::Literal, std::to_string(V));
  N->IsInteger = true;
  N->Value = double(V);
  N->IsPositiveZero = V == 0;
  return N;
}

/// The expression of the source's value of a moved iterator: `Step * i +
/// L`, L's parameters as scalar leaves (they are the region's integer
/// sizes).
ExprPtr sourceIterator(const std::string &It, const Origin &O,
                       const std::set<std::string> &Iterators) {
  ExprPtr E = ExprNode::make(ExprNode::Iterator, It);
  if (O.Step != 1)
    E = ExprNode::make(ExprNode::Binary, "*", {literal(O.Step), E});
  auto Add = [&](ExprPtr Term) { E = ExprNode::make(ExprNode::Binary, "+", {E, Term}); };
  for (auto &[Sym, Coeff] : O.Shift.Coeffs) {
    if (Coeff == 0)
      continue;
    // A start at an outer loop's iterator (`k = i`, the model's i).
    ExprPtr Leaf = ExprNode::make(Iterators.count(Sym) ? ExprNode::Iterator : ExprNode::Scalar, Sym);
    Add(Coeff == 1 ? Leaf : ExprNode::make(ExprNode::Binary, "*", {literal(Coeff), Leaf}));
  }
  if (O.Shift.Constant != 0)
    Add(literal(O.Shift.Constant));
  return E;
}

/// E with each iterator leaf of `Moved` replaced by its source value.
ExprPtr moveLeaves(const ExprPtr &E, const std::map<std::string, Origin> &Moved,
                   const std::set<std::string> &Iterators) {
  if (E->K == ExprNode::Iterator) {
    auto It = Moved.find(E->Text);
    return It == Moved.end() ? E : sourceIterator(E->Text, It->second, Iterators);
  }
  if (E->Ops.empty())
    return E;
  auto Copy = std::make_shared<ExprNode>(*E);
  for (ExprPtr &Op : Copy->Ops)
    Op = moveLeaves(Op, Moved, Iterators);
  return Copy;
}

/// floor(V / D) for D > 0.
int64_t floorDiv(int64_t V, int64_t D) { return V / D - (V % D != 0 && V < 0); }

} // namespace

llvm::Error shiftLoopsToZero(RegionModel &M) {
  // Each moved iterator's origin, its shift in the model's iterators (an
  // inner loop may start at an outer one's). The substitution is
  // simultaneous: the model's and the source's iterators share names.
  std::map<std::string, Origin> Moved;
  auto Apply = [&](const AffineExpr &E) {
    AffineExpr R = E;
    for (auto &[It, O] : Moved)
      R.Coeffs.erase(It);
    for (auto &[It, O] : Moved)
      if (auto C = E.Coeffs.find(It); C != E.Coeffs.end()) {
        // Coeff * It becomes Coeff * (Step * It + Shift).
        int64_t Scaled = 0;
        R.Overflow |= __builtin_mul_overflow(C->second, O.Step, &Scaled);
        R = R + AffineExpr::symbol(It) * Scaled + O.Shift * C->second;
      }
    // `i - lo` shifted by lo is `i`: no zero coefficient left behind.
    for (auto C = R.Coeffs.begin(); C != R.Coeffs.end();)
      C = C->second == 0 ? R.Coeffs.erase(C) : std::next(C);
    return R;
  };
  for (Loop &L : M.Loops) {
    if (L.Step != 1 && !L.Counted) {
      Moved[L.Iterator] = {Apply(L.Lower), L.Step};
      continue;
    }
    if (L.Lower.isZero())
      continue;
    bool NamesIterator = false;
    for (const Loop &Other : M.Loops)
      NamesIterator |= L.Lower.involves(Other.Iterator);
    if (NamesIterator)
      continue; // triangular: its box is DomainBox.h's
    Moved[L.Iterator] = {L.Lower, 1};
  }
  if (Moved.empty())
    return llvm::Error::success();
  // Strided loops: the model's iterator counts the iterations. The source
  // runs while Step * i stays within D of the start; the bound is exact
  // where Step divides D's coefficients, else D + 1 with the guard
  // D - |Step| * i >= 0 on the statements inside.
  std::map<unsigned, AffineExpr> StrideGuards;
  for (unsigned Li = 0; Li < M.Loops.size(); ++Li) {
    Loop &L = M.Loops[Li];
    auto Own = Moved.find(L.Iterator);
    if (Own != Moved.end() && L.Step != 1 && !L.Counted) {
      const int64_t S = L.Step < 0 ? -L.Step : L.Step;
      // Upwards the bound is exclusive (i < B), downwards inclusive (i >= B).
      AffineExpr D = L.Step > 0 ? L.UpperExclusive + L.Lower * -1 + AffineExpr::constant(-1)
                                : L.Lower + L.UpperExclusive * -1;
      D = Apply(D);
      bool Divisible = true;
      for (auto &[Sym, Coeff] : D.Coeffs)
        Divisible &= Coeff % S == 0;
      AffineExpr Count;
      if (Divisible) {
        for (auto &[Sym, Coeff] : D.Coeffs)
          if (Coeff != 0)
            Count.Coeffs[Sym] = Coeff / S;
        Count.Constant = floorDiv(D.Constant, S) + 1;
      } else {
        Count = D + AffineExpr::constant(1);
        StrideGuards[Li] = D + AffineExpr::symbol(L.Iterator) * -S;
      }
      L.Shift = Apply(L.Lower);
      L.Lower = AffineExpr::constant(0);
      L.UpperExclusive = Count;
      L.Reversed = false; // the model's iterator runs in the source's order
      L.Counted = true;
      continue;
    }
    if (Own != Moved.end()) {
      // i + L < U: 0 <= i < U - L. A counted loop's source iterator is
      // Shift + Step * (i + L).
      L.UpperExclusive = L.UpperExclusive + L.Lower * -1;
      L.Shift = L.Counted ? L.Shift + L.Lower * L.Step : L.Lower;
      L.Lower = AffineExpr::constant(0);
    }
    L.Lower = Apply(L.Lower);
    L.UpperExclusive = Apply(L.UpperExclusive);
  }
  std::set<std::string> Iterators;
  for (const Loop &L : M.Loops)
    Iterators.insert(L.Iterator);
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
    for (AffineExpr &G : S.Guards)
      G = Apply(G);
    for (auto &[Li, G] : StrideGuards)
      if (std::find(S.Loops.begin(), S.Loops.end(), Li) != S.Loops.end())
        S.Guards.push_back(G);
    S.Value = moveLeaves(S.Value, Moved, Iterators);
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
    for (const AffineExpr &G : S.Guards)
      Overflow |= G.Overflow;
  }
  if (Overflow)
    return regionError(M.Range.getBegin(),
                       "integer overflow in a subscript or loop bound once the loops "
                       "are shifted to start at 0",
                       "the region stays as written; smaller constants in its subscripts "
                       "and bounds would let it be modelled");
  return llvm::Error::success();
}

} // namespace tc
