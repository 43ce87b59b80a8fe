//===- Model.cpp ----------------------------------------------------------===//
#include "Model.h"
#include "llvm/ADT/STLExtras.h"

namespace tc {

const char *spelling(ElementType T) {
  switch (T) {
  case ElementType::F16: return "__half";
  case ElementType::BF16: return "__nv_bfloat16";
  case ElementType::F32: return "float";
  case ElementType::F64: return "double";
  case ElementType::I8: return "int8_t";
  case ElementType::U8: return "uint8_t";
  case ElementType::U4: return "unsigned 4-bit";
  case ElementType::I4: return "signed 4-bit";
  case ElementType::Other: return "?";
  }
  return "?";
}

int byteSize(ElementType T) {
  switch (T) {
  case ElementType::F16:
  case ElementType::BF16: return 2;
  case ElementType::F32: return 4;
  case ElementType::F64: return 8;
  case ElementType::I8:
  case ElementType::U8:
  case ElementType::U4:
  case ElementType::I4: return 1; // (a byte holds two 4-bit values)
  case ElementType::Other: return 0;
  }
  return 0;
}

std::vector<std::string> RegionModel::iterators(const Statement &S) const {
  std::vector<std::string> R;
  for (unsigned L : S.Loops)
    R.push_back(Loops[L].Iterator);
  return R;
}

std::optional<int64_t> RegionModel::knownValue(const AffineExpr &E) const {
  if (E.Overflow)
    return std::nullopt;
  int64_t V = E.Constant;
  for (const auto &[Symbol, Coeff] : E.Coeffs) {
    auto P = llvm::find_if(Params, [&](const Parameter &P) { return P.Name == Symbol; });
    int64_t Term = 0;
    if (P == Params.end() || !P->Value || __builtin_mul_overflow(Coeff, *P->Value, &Term) ||
        __builtin_add_overflow(V, Term, &V))
      return std::nullopt;
  }
  return V;
}

int RegionModel::findArray(const std::string &Name) const {
  for (size_t I = 0; I < Arrays.size(); ++I)
    if (Arrays[I].Name == Name)
      return int(I);
  return -1;
}

std::string RegionModel::paramList() const {
  std::string S = "[";
  for (size_t I = 0; I < Params.size(); ++I)
    S += (I ? ", " : "") + Params[I].Name;
  return S + "]";
}

bool RegionModel::isTemp(unsigned ArrayId) const {
  for (const RegionClauses::TempArray &T : Clauses.Temp)
    if (T.Name == Arrays[ArrayId].Name)
      return true;
  return false;
}

bool sameAccess(const Access &X, const Access &Y) {
  if (X.ArrayId != Y.ArrayId || X.Index.size() != Y.Index.size() || X.Divisor != Y.Divisor)
    return false;
  for (size_t D = 0; D < X.Index.size(); ++D)
    if (X.Index[D].str() != Y.Index[D].str())
      return false;
  return true;
}

std::optional<Accumulation> accumulationOf(const Statement &S) {
  const ExprNode &V = *S.Value;
  auto IsAcc = [&](const ExprPtr &E) {
    return E->K == ExprNode::Read && sameAccess(S.Reads[E->AccessId], S.Write);
  };
  Accumulation A;
  if (V.K == ExprNode::Call && (V.Text == "fma" || V.Text == "fmaf") && V.Ops.size() == 3 &&
      IsAcc(V.Ops[2])) {
    A.AccRead = V.Ops[2]->AccessId;
    A.Product = ExprNode::make(ExprNode::Binary, "*", {V.Ops[0], V.Ops[1]});
  } else if (V.K == ExprNode::Binary && (V.Text == "+" || V.Text == "-")) {
    // The accumulator on the left, or on either side of a sum.
    const int Side = IsAcc(V.Ops[0]) ? 0 : V.Text == "+" && IsAcc(V.Ops[1]) ? 1 : -1;
    if (Side < 0)
      return std::nullopt;
    A.AccRead = V.Ops[Side]->AccessId;
    A.Product = V.Ops[1 - Side];
    A.Subtracted = V.Text == "-";
  } else {
    return std::nullopt;
  }
  // `acc += -(a * b)` subtracts a * b: negation is exact, so acc + -(p)
  // and acc - p are the same number.
  while (A.Product->K == ExprNode::Unary && A.Product->Text == "-" &&
         A.Product->Ops[0]->K == ExprNode::Binary && A.Product->Ops[0]->Text == "*") {
    A.Product = A.Product->Ops[0];
    A.Subtracted = !A.Subtracted;
  }
  A.IsOperatorCall = V.IsOperatorCall;
  return A;
}

} // namespace tc
