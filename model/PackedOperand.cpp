//===- PackedOperand.cpp --------------------------------------------------===//
#include "PackedOperand.h"
#include "RegionError.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

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

/// Whether E is exactly the symbol S.
bool isSymbol(const AffineExpr &E, const std::string &S) {
  return E.Constant == 0 && E.Coeffs.size() == 1 && E.Coeffs.count(S) && E.Coeffs.at(S) == 1;
}

/// Whether E names an iterator of Its other than Allowed.
bool namesOtherIterator(const ExprNode &E, const std::vector<std::string> &Its,
                        const std::string &Allowed) {
  if (E.K == ExprNode::Iterator && E.Text != Allowed && llvm::is_contained(Its, E.Text))
    return true;
  return llvm::any_of(E.Ops, [&](const ExprPtr &Op) { return namesOtherIterator(*Op, Its, Allowed); });
}

/// The packed factor D.Value of reduction R as (w - z) * s (NibbleGroups),
/// or why it is not of that form.
llvm::Expected<NibbleGroups> nibbleGroups(const RegionModel &M, const Statement &R,
                                          const OperandView &V, const DequantizedOperand &D) {
  auto No = [](const std::string &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
  };
  auto IsPacked = [&](unsigned Id) {
    const ElementType T = M.Arrays[R.Reads[Id].ArrayId].Elem;
    return T == ElementType::U4 || T == ElementType::I4;
  };
  auto ReadsPacked = [&](const ExprNode &E) {
    std::vector<unsigned> Reads;
    collectReads(E, Reads);
    return llvm::any_of(Reads, IsPacked);
  };
  if (!D.IsB)
    return No("the packed operand is A");
  if (!V.IndexOffset.empty() || !V.ReductionIsContiguous || V.InnerStride != 1)
    return No("the packed bytes are not rows of k / 2");
  NibbleGroups G;
  std::vector<ExprPtr> Factors;
  flattenProduct(D.Value, Factors);
  const ExprNode *WithNibble = nullptr;
  for (const ExprPtr &F : Factors) {
    if (!ReadsPacked(*F)) {
      G.Scale.push_back(F);
      continue;
    }
    if (WithNibble)
      return No("two factors read the packed values");
    WithNibble = F.get();
  }
  // The nibble: the packed read under the conversion to the unpacking's
  // type (Extraction's packedRead), maybe converted to float.
  auto Nibble = [&](const ExprNode *E) -> const ExprNode * {
    E = stripConversions(E);
    if (E->K == ExprNode::Cast && E->Ops.size() == 1 && E->Ops[0]->K == ExprNode::Read &&
        IsPacked(E->Ops[0]->AccessId))
      return E;
    return nullptr;
  };
  const ExprNode *W = Nibble(WithNibble);
  if (!W) {
    // w - z or w + z, computed as the real difference: in floating point
    // (w converted first), or in int from an int nibble and an 8-bit or
    // floating z, or an int literal (nothing wraps).
    const ExprNode *Top = stripConversions(WithNibble);
    if (Top->K == ExprNode::Binary && (Top->Text == "-" || Top->Text == "+") &&
        !Top->IsOperatorCall)
      for (int Side = 0; Side < 2 && !W; ++Side) {
        const ExprPtr &X = Top->Ops[Side], &Z = Top->Ops[1 - Side];
        const ExprNode *Leaf = Nibble(X.get());
        if (!Leaf || ReadsPacked(*Z) || (Side == 1 && Top->Text == "-"))
          continue;
        bool Exact = stripConversions(X.get()) != X.get();
        const ExprNode *ZLeaf = stripConversions(Z.get());
        if (ZLeaf->K == ExprNode::Cast && ZLeaf->Text == "int")
          ZLeaf = ZLeaf->Ops[0].get();
        if (Leaf->Text == "int" && ZLeaf->K == ExprNode::Read) {
          const ElementType T = M.Arrays[R.Reads[ZLeaf->AccessId].ArrayId].Elem;
          Exact |= T == ElementType::F32 || T == ElementType::F64 || T == ElementType::I8 ||
                   T == ElementType::U8;
        }
        // `w - 8`: an int literal (the symmetric zero point).
        if (Leaf->Text == "int" && ZLeaf->K == ExprNode::Literal)
          Exact |= ZLeaf->IsInteger && !ZLeaf->IsUnsigned && ZLeaf->Value >= -(1 << 20) &&
                   ZLeaf->Value <= (1 << 20);
        if (!Exact)
          continue;
        W = Leaf;
        G.Zero = Z;
        G.ZeroAdded = Top->Text == "+";
      }
    if (!W)
      return No("the nibble's factor is not (w - z), computed without wrapping");
  }
  G.Packed = W->Ops[0]->AccessId;
  G.Signed = M.Arrays[R.Reads[G.Packed].ArrayId].Elem == ElementType::I4;
  const Access &Bytes = R.Reads[G.Packed];
  if (Bytes.Index.size() != 2 || Bytes.Divisor != 2 || !isSymbol(Bytes.Index[0], D.IterRow) ||
      !isSymbol(Bytes.Index[1], D.IterK))
    return No("the packed bytes are not read at [row][k / 2]");

  // z and s: functions of the row and of the group k / g only.
  std::vector<std::string> Its;
  for (unsigned L : R.Loops)
    Its.push_back(M.Loops[L].Iterator);
  std::vector<ExprPtr> Terms = G.Scale;
  if (G.Zero)
    Terms.push_back(G.Zero);
  std::vector<unsigned> Reads;
  for (const ExprPtr &T : Terms) {
    if (namesOtherIterator(*T, Its, D.IterRow))
      return No("a zero point or scale computed from a loop's iterator");
    collectReads(*T, Reads);
  }
  for (unsigned Id : Reads) {
    const Access &A = R.Reads[Id];
    for (size_t Dim = 0; Dim < A.Index.size(); ++Dim)
      for (const auto &[Sym, Coeff] : A.Index[Dim].Coeffs) {
        if (Sym == D.IterRow || !llvm::is_contained(Its, Sym))
          continue;
        if (Sym != D.IterK || Dim + 1 != A.Index.size() || A.Divisor == 1 ||
            !isSymbol(A.Index[Dim], D.IterK))
          return No("a zero point or scale read at another index than [row][k / g]");
        if (G.GroupSize && G.GroupSize != A.Divisor)
          return No("zero points and scales in groups of two sizes");
        G.GroupSize = A.Divisor;
      }
  }
  return G;
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

  if (auto G = nibbleGroups(M, R, V, D))
    D.Groups = std::move(*G);
  else
    D.GroupsMismatch = llvm::toString(G.takeError());
  return D;
}

} // namespace tc
