//===- PackedOperand.cpp --------------------------------------------------===//
#include "PackedOperand.h"
#include "RegionError.h"

namespace tc {

namespace {

/// E with the reads renumbered by `Renumber` (old id -> new id).
ExprPtr renumbered(const ExprPtr &E, const std::map<unsigned, unsigned> &Renumber) {
  auto Copy = std::make_shared<ExprNode>(*E);
  if (Copy->K == ExprNode::Read)
    Copy->AccessId = Renumber.at(Copy->AccessId);
  for (auto &Op : Copy->Ops)
    Op = renumbered(Op, Renumber);
  return Copy;
}

/// S without the reads its value no longer makes, the others renumbered.
void dropUnusedReads(Statement &S) {
  std::vector<unsigned> Used;
  collectReads(*S.Value, Used);
  std::map<unsigned, unsigned> Renumber;
  std::vector<Access> Kept;
  for (unsigned Id = 0; Id < S.Reads.size(); ++Id)
    if (llvm::is_contained(Used, Id)) {
      Renumber[Id] = unsigned(Kept.size());
      Kept.push_back(S.Reads[Id]);
    }
  S.Value = renumbered(S.Value, Renumber);
  S.Reads = std::move(Kept);
}

} // namespace

llvm::Expected<DequantizedOperand> dequantizedOperand(const RegionModel &M,
                                                      const MatmulIdiom &Idiom) {
  const bool IsB = Idiom.B.FourBit;
  const OperandView &V = IsB ? Idiom.B : Idiom.A;
  const Statement &R = M.Stmts[Idiom.Reduction];
  const clang::SourceLocation Loc = R.Reads[V.AccessId].Range.getBegin();
  auto Refuse = [&](const std::string &What) {
    return regionError(Loc, "packed 4-bit operand in " + What,
                       "a packed operand is dequantised once per element before the "
                       "product, which needs one GEMM over a box of loops, accumulated "
                       "in float");
  };
  if (!Idiom.IterBatch.empty())
    return Refuse("a batched product");
  if (M.AsWritten)
    return Refuse("a region of several nests");
  if (!Idiom.SerialWhen.empty() || !Idiom.OutputGuard.empty() || !R.Guards.empty() ||
      !Idiom.A.Mask.empty() || !Idiom.B.Mask.empty())
    return Refuse("a guarded or triangular loop nest");
  std::optional<Accumulation> Acc = accumulationOf(R);
  if (!Acc || Acc->IsOperatorCall)
    return Refuse("a sum accumulated in a 16-bit type");
  if (V.Prologue.size() != 1)
    return Refuse("a product without its factor");
  if (Idiom.InputType != ElementType::F16 && Idiom.InputType != ElementType::BF16)
    return regionError(Loc, "packed 4-bit operand beside " +
                                std::string(spelling(Idiom.InputType)) + " activations",
                       "the operand is dequantised to the other operand's 16-bit type: "
                       "__half or __nv_bfloat16 activations");

  DequantizedOperand D;
  D.Value = V.Prologue[0];
  D.Reduction = Idiom.Reduction;
  D.IterRow = IsB ? Idiom.IterN : Idiom.IterM;
  D.IterK = Idiom.IterK;
  D.Rows = IsB ? Idiom.ExtentN : Idiom.ExtentM;
  D.Columns = Idiom.ExtentK;
  D.IsB = IsB;
  D.LeadingDimension = IsB ? "tc_dequantized_b_ld" : "tc_dequantized_a_ld";

  RegionModel &C = D.Model;
  C = M;
  C.AsWritten = std::make_shared<const RegionModel>(M);
  Parameter Ld;
  Ld.Name = D.LeadingDimension;
  Ld.TypeSpelling = "long long";
  C.Params.push_back(Ld);
  Array Copy;
  Copy.Name = IsB ? "tc_dequantized_b" : "tc_dequantized_a";
  Copy.SourceName = Copy.Name;
  Copy.Elem = Idiom.InputType;
  Copy.ElemSpelling = spelling(Idiom.InputType);
  Copy.DeclTypeSpelling = "const " + Copy.ElemSpelling + " *";
  Copy.Strides = {Polynomial::symbol(D.LeadingDimension), Polynomial::constant(1)};
  Copy.IsRestrict = Copy.IsParameter = Copy.IsConst = true;
  C.Arrays.push_back(Copy);
  D.Copy = unsigned(C.Arrays.size() - 1);

  // The product with the packed factor replaced by the copy's element.
  Statement &S = C.Stmts[Idiom.Reduction];
  Access Element;
  Element.ArrayId = D.Copy;
  Element.Index = {AffineExpr::symbol(D.IterRow), AffineExpr::symbol(D.IterK)};
  Element.Range = R.Reads[V.AccessId].Range;
  const unsigned ElementId = unsigned(S.Reads.size());
  S.Reads.push_back(Element);
  auto Read = ExprNode::make(ExprNode::Read, "");
  Read->AccessId = ElementId;
  ExprPtr Factor = ExprNode::make(ExprNode::Cast, "float", {Read});
  std::vector<ExprPtr> Factors;
  flattenProduct(Acc->Product, Factors);
  // The packed factor is the product of some of these (groupPackedFactors):
  // each of its own leaves the product; the copy stands where the first did.
  std::vector<ExprPtr> Own;
  flattenProduct(D.Value, Own);
  ExprPtr Product;
  bool Placed = false;
  for (const ExprPtr &F : Factors) {
    ExprPtr Term = F;
    if (llvm::any_of(Own, [&](const ExprPtr &O) { return O.get() == F.get(); })) {
      if (Placed)
        continue;
      Placed = true;
      Term = Factor;
    }
    Product = Product ? ExprNode::make(ExprNode::Binary, "*", {Product, Term}) : Term;
  }
  if (!Placed)
    return Refuse("a product whose factors the tool could not separate");
  auto AccRead = ExprNode::make(ExprNode::Read, "");
  AccRead->AccessId = Acc->AccRead;
  S.Value = ExprNode::make(ExprNode::Binary, Acc->Subtracted ? "-" : "+", {AccRead, Product});
  dropUnusedReads(S);
  return D;
}

} // namespace tc
