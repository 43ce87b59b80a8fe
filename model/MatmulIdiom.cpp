//===- MatmulIdiom.cpp ----------------------------------------------------===//
#include "MatmulIdiom.h"
#include "OperandMasks.h"
#include "IslBuild.h"
#include "ConstantEval.h"
#include <algorithm>
#include <isl/map.h>
#include <set>

namespace tc {

void collectReads(const ExprNode &E, std::vector<unsigned> &Out) {
  if (E.K == ExprNode::Read)
    Out.push_back(E.AccessId);
  for (auto &Op : E.Ops)
    collectReads(*Op, Out);
}

void flattenProduct(const ExprPtr &E, std::vector<ExprPtr> &Factors) {
  if (E->K == ExprNode::Binary && E->Text == "*") {
    flattenProduct(E->Ops[0], Factors);
    flattenProduct(E->Ops[1], Factors);
    return;
  }
  Factors.push_back(E);
}

namespace {

int position(const std::vector<std::string> &Its, const std::string &It) {
  for (size_t P = 0; P < Its.size(); ++P)
    if (Its[P] == It)
      return int(P);
  return -1;
}

/// E without a conversion to the type it already converts to
/// (`(float)w` of an int8 w is two conversions to float in the tree).
ExprPtr withoutRepeatedCasts(const ExprPtr &E) {
  auto Copy = std::make_shared<ExprNode>(*E);
  for (auto &Op : Copy->Ops)
    Op = withoutRepeatedCasts(Op);
  while (Copy->K == ExprNode::Cast && Copy->Ops[0]->K == ExprNode::Cast &&
         Copy->Ops[0]->Text == Copy->Text)
    Copy = Copy->Ops[0];
  return Copy;
}

/// E, a subtree of S's value, as C with the reads spelled by the model
/// (array[row][column], as the access relations index it): --explain's
/// account of what the tool understood. With AsWritten, for diagnostics,
/// the reads are spelled as in the source (the model's form inside macros)
/// and repeated conversions are dropped: in the user's terms.
std::string spellAsC(const RegionModel &M, const Statement &S, const ExprPtr &E,
                     bool AsWritten) {
  ExprPrinter P;
  P.QualifiedCalls = false;
  P.PrintIterator = [](const std::string &It) { return It; };
  P.PrintRead = [&](unsigned Id) {
    const Access &Ac = S.Reads[Id];
    if (AsWritten && !Ac.Spelling.empty())
      return Ac.Spelling;
    const Array &Arr = M.Arrays[Ac.ArrayId];
    // A local scalar as the source names it, not its expansion over the
    // loops (`acc`, not `acc[i][j]`).
    if (AsWritten && Arr.IsLocalScalar)
      return Arr.SourceName.empty() ? Arr.Name : Arr.SourceName;
    std::string Text = Arr.Name;
    for (auto &Ix : Ac.Index)
      Text += "[" + Ix.str() + "]";
    return Text;
  };
  return P.print(AsWritten ? *withoutRepeatedCasts(E) : *E);
}

/// An 8-bit operand's prologue as the element minus an offset z: `q - z`
/// or `q + z` (minus -z) around conversions, where the arithmetic computes
/// the real q - z before any rounding: floating-point (the element is
/// converted to float or double), or int on 8-bit values (int promotion:
/// nothing wraps), or z read from an fp32/fp64 or 8-bit array. An unsigned
/// z makes `W - z` wrap modulo 2^32: no offset form.
std::optional<OperandView::ElementOffset> elementOffset(const RegionModel &M,
                                                        const Statement &R,
                                                        const OperandView &V) {
  if (V.Prologue.empty())
    return OperandView::ElementOffset{};
  const ExprNode *Top = stripConversions(V.Prologue[0].get());
  if (Top->K != ExprNode::Binary || (Top->Text != "-" && Top->Text != "+"))
    return std::nullopt;
  // Conversions to float and the int promotion (value-preserving for the
  // 8-bit element and 8-bit offsets).
  auto Peel = [](const ExprNode *E) {
    E = stripConversions(E);
    return E->K == ExprNode::Cast && E->Text == "int" ? E->Ops[0].get() : E;
  };
  for (int Side = 0; Side < 2; ++Side) {
    const ExprPtr &X = Top->Ops[Side], &Z = Top->Ops[1 - Side];
    const ExprNode *Leaf = Peel(X.get()), *ZLeaf = Peel(Z.get());
    std::vector<unsigned> ZReads;
    collectReads(*Z, ZReads);
    if (Leaf->K != ExprNode::Read || Leaf->AccessId != V.AccessId ||
        std::count(ZReads.begin(), ZReads.end(), V.AccessId) ||
        (Side == 1 && Top->Text == "-"))
      continue;
    bool Exact = stripConversions(X.get()) != X.get(); // floating-point arithmetic
    if (ZLeaf->K == ExprNode::Read) {
      ElementType T = M.Arrays[R.Reads[ZLeaf->AccessId].ArrayId].Elem;
      Exact |= T == ElementType::F32 || T == ElementType::F64 || T == ElementType::I8 ||
               T == ElementType::U8 || T == ElementType::U4 || T == ElementType::I4;
    }
    if (Exact)
      return OperandView::ElementOffset{Z, Top->Text == "+"};
  }
  return std::nullopt;
}

class Recognizer {
public:
  Recognizer(const RegionModel &M, const IslModel &I) : M(M), I(I) {}

  llvm::Expected<MatmulIdiom> run() {
    if (auto E = findReduction())
      return std::move(E);
    // `double acc += a * b` of floats converts the whole product to
    // double, which would read as one operand's prologue: the accumulator
    // is what to change. (Otherwise after the operands, whose types say
    // more: `double` or `int` operands.)
    if (M.Arrays[Idiom.Accumulator].Elem == ElementType::F64 && Product->K == ExprNode::Cast &&
        Product->Ops[0]->K == ExprNode::Binary && Product->Ops[0]->Text == "*")
      if (auto E = checkAccumulatorType())
        return std::move(E);
    if (auto E = classifyOperands())
      return std::move(E);
    if (auto E = classifyMoreProducts())
      return std::move(E);
    if (auto E = checkAccumulatorType())
      return std::move(E);
    if (auto E = classifyOtherStatements())
      return std::move(E);
    if (auto E = checkDependences())
      return std::move(E);
    if (auto E = checkAliasing())
      return std::move(E);
    return Idiom;
  }

private:
  llvm::Error findReduction() {
    int Found = -1;
    for (size_t SI = 0; SI < M.Stmts.size(); ++SI) {
      const Statement &S = M.Stmts[SI];
      const std::optional<Accumulation> Acc = accumulationOf(S);
      if (!Acc)
        continue;
      // A reduction: some dimension is not involved in the write.
      auto Its = M.iterators(S);
      const isl::map &W = I.RawWrite.at(S.Name);
      unsigned Reduced = 0;
      for (unsigned P = 0; P < Its.size(); ++P)
        Reduced += !involves(W, P);
      if (Reduced == 0)
        continue;
      if (Found >= 0) {
        // A sum of matmuls: a later product accumulated into the same
        // element (classifyMoreProducts checks the rest).
        if (!sameAccess(S.Write, M.Stmts[Found].Write))
          return regionError(locOf(S), "more than one reduction in the region",
                             "a sum of matmuls accumulates every product "
                             "into the same element, in one loop nest over "
                             "the output; split the region otherwise");
        Extra.push_back({unsigned(SI), *Acc});
        continue;
      }
      Found = int(SI);
      Product = Acc->Product;
      Subtracted = Acc->Subtracted;
    }
    if (Found < 0)
      return regionError(M.Range.getBegin(),
                         "no matrix multiplication found in the region",
                         "a '#pragma tc' region must accumulate a product, "
                         "e.g. 'acc += A[i * K + k] * B[k * N + j]'");
    Idiom.Reduction = Found;
    const Statement &R = M.Stmts[Found];
    Idiom.Accumulator = R.Write.ArrayId;
    auto Its = M.iterators(R);
    const isl::map &W = I.RawWrite.at(R.Name);
    std::vector<std::string> Kept;
    std::vector<std::string> Reduced;
    for (unsigned P = 0; P < Its.size(); ++P)
      (involves(W, P) ? Kept : Reduced).push_back(Its[P]);
    if (Reduced.size() != 1)
      return regionError(locOf(R),
                         "the reduction runs over " +
                             std::to_string(Reduced.size()) + " dimensions",
                         "a matmul reduces over exactly one dimension");
    if (Kept.size() != 2 && Kept.size() != 3)
      return regionError(locOf(R),
                         "the reduction has " + std::to_string(Kept.size()) +
                             " output dimensions",
                         "a matmul writes C[m][n], optionally in a batch "
                         "loop: C[b][m][n]");
    Idiom.IterK = Reduced[0];
    KeptDims = Kept;
    return llvm::Error::success();
  }

  /// Each further product of a sum of matmuls is classified like the first
  /// and must agree with it on everything the kernel shares: the output
  /// iterators, the batch loop, element types, operand layouts and the
  /// factors applied to the sum.
  llvm::Error classifyMoreProducts() {
    const bool FirstSubtracted = Subtracted;
    for (auto &[SI, Acc] : Extra) {
      if (Acc.Subtracted != FirstSubtracted)
        return regionError(locOf(M.Stmts[SI]),
                           std::string("this product of the sum is ") +
                               (Acc.Subtracted ? "subtracted and the first added"
                                               : "added and the first subtracted"),
                           "the kernel adds the products of a sum of matmuls with one sign; "
                           "subtract the whole sum, or compute the difference after the region");
      const Statement &S = M.Stmts[SI];
      MatmulIdiom First = Idiom;
      std::vector<ExprPtr> FirstPrologues = Prologues;
      Idiom = MatmulIdiom();
      Idiom.Reduction = SI;
      Idiom.Accumulator = First.Accumulator;
      Prologues.clear();
      Product = Acc.Product;
      Subtracted = Acc.Subtracted;
      auto Its = M.iterators(S);
      const isl::map &W = I.RawWrite.at(S.Name);
      std::vector<std::string> Kept, Reduced;
      for (unsigned D = 0; D < Its.size(); ++D)
        (involves(W, D) ? Kept : Reduced).push_back(Its[D]);
      KeptDims = Kept;
      llvm::Error E = Reduced.size() == 1
                          ? (Idiom.IterK = Reduced[0], classifyOperands())
                          : regionError(locOf(S),
                                        "the reduction runs over " +
                                            std::to_string(Reduced.size()) + " dimensions",
                                        "each product of a sum of matmuls reduces over one "
                                        "loop of its own");
      MatmulIdiom Term = Idiom;
      bool HasPrologue = !Prologues.empty() || !FirstPrologues.empty() ||
                         Idiom.A.ConvertWhileCopying || Idiom.B.ConvertWhileCopying ||
                         First.A.ConvertWhileCopying || First.B.ConvertWhileCopying;
      Idiom = First;
      Prologues = FirstPrologues;
      if (E)
        return E;
      auto Mismatch = [&](const std::string &What) {
        return regionError(locOf(S),
                           "this product of the sum differs from the first in " + What,
                           "the products of a sum of matmuls share the output "
                           "loops, element types, operand layouts and scalar "
                           "factors; only K and the arrays may differ");
      };
      if (Term.IterM != First.IterM || Term.IterN != First.IterN ||
          Term.IterBatch != First.IterBatch)
        return Mismatch("its output iterators");
      if (Term.InputType != First.InputType)
        return Mismatch("its element type");
      if (Term.A.ReductionIsContiguous != First.A.ReductionIsContiguous ||
          Term.B.ReductionIsContiguous != First.B.ReductionIsContiguous)
        return Mismatch("an operand layout");
      std::string FS, TS;
      for (auto &F : First.Scale)
        FS += tc::describe(*F) + ";";
      for (auto &F : Term.Scale)
        TS += tc::describe(*F) + ";";
      if (FS != TS)
        return Mismatch("its scalar factors");
      if (HasPrologue)
        return regionError(locOf(S),
                           "an operand prologue or 8-bit operand in a sum of matmuls",
                           "apply the prologue or conversion in a separate loop");
      Idiom.MoreProducts.push_back({SI, Term.IterK, Term.ExtentK, Term.A, Term.B});
    }
    return llvm::Error::success();
  }

  llvm::Error classifyOperands() {
    const Statement &R = M.Stmts[Idiom.Reduction];
    auto Its = M.iterators(R);
    int PK = position(Its, Idiom.IterK);
    std::vector<ExprPtr> Factors;
    flattenProduct(Product, Factors);
    groupPackedFactors(R, Factors);
    std::vector<std::pair<ExprPtr, unsigned>> Operands; // factor, access id
    for (auto &F : Factors) {
      std::vector<unsigned> Reads;
      collectReads(*F, Reads);
      bool UsesK = false;
      for (unsigned A : Reads)
        UsesK |= involves(I.RawReads.at(R.Name)[A], PK);
      if (!UsesK) {
        // Invariant in k: applied once to the sum in the epilogue. Its
        // reads are invariant, but a loop iterator of its own (`(float)k`,
        // `k < 4 ? 2 : 1`) may vary along k, and the epilogue has no
        // iterators of the source to print: such a factor stays in the sum
        // only as an operand's prologue.
        if (usesIterators(*F))
          return regionError(locOf(R),
                             "a factor of the product uses the loop iterator '" +
                                 firstIterator(*F) + "'",
                             "a factor outside the two operands multiplies the "
                             "whole sum: it may use literals, scalars and arrays "
                             "indexed by the output's row or column, not the "
                             "loop iterators");
        for (unsigned A : Reads)
          if (R.Reads[A].ArrayId == Idiom.Accumulator)
            return regionError(R.Reads[A].Range.getBegin(),
                               "the accumulator is read inside its own product",
                               "a product's factors may not depend on the partial sum");
        Idiom.Scale.push_back(F);
        continue;
      }
      const ExprNode *Leaf = stripConversions(F.get());
      if (Leaf->K != ExprNode::Read) {
        // A pointwise prologue, e.g. fmaxf(A[i][k], 0) or a dequantisation
        // (W[j][k] - zero[j]): the element is the one read that varies
        // along k; other reads (a per-channel zero point) and scalars are
        // checked against the operand's own dimension below. On one operand
        // only: the register-fragment form relies on the other operand's
        // zero padding to keep padded products zero whatever the prologue
        // makes of 0.
        std::vector<unsigned> Inner, AlongK;
        collectReads(*F, Inner);
        // Of packed 4-bit values, the element is the packed read; the
        // others along k are its groups' zero points and scales.
        const bool Packed = llvm::any_of(Inner, [&](unsigned A) { return readsPacked(R, A); });
        for (unsigned A : Inner)
          if (involves(I.RawReads.at(R.Name)[A], PK) && (!Packed || readsPacked(R, A)))
            AlongK.push_back(A);
        // The element may be read in several places (`a > 0 ? a : 0`).
        std::sort(AlongK.begin(), AlongK.end());
        AlongK.erase(std::unique(AlongK.begin(), AlongK.end()), AlongK.end());
        // At the second element read along k where there is one (the read
        // that makes it more than one element's function), else at the
        // operand's first read.
        if (AlongK.size() != 1 || usesIterators(*F))
          return regionError(AlongK.size() > 1 ? R.Reads[AlongK[1]].Range.getBegin()
                             : Inner.empty()   ? locOf(R)
                                               : R.Reads[Inner.front()].Range.getBegin(),
                             "operand '" + spellAsC(M, R, F, /*AsWritten=*/true) +
                                 "' of the product is not a pointwise function "
                                 "of one array element",
                             "a prologue may use the element, literals, scalars "
                             "and arrays indexed by the operand's row or column "
                             "(a per-channel scale or zero point)");
        Prologues.push_back(F);
        Operands.push_back({F, AlongK[0]});
        continue;
      }
      Operands.push_back({F, Leaf->AccessId});
    }
    // `acc -= P`: the sum of P's products, negated once (exactly).
    if (Subtracted) {
      ExprPtr MinusOne = ExprNode::make(ExprNode::Literal, "-1");
      MinusOne->Value = -1;
      MinusOne->IsInteger = true;
      Idiom.Scale.push_back(MinusOne);
    }
    if (Prologues.size() > 1)
      return regionError(locOf(R),
                         "both operands of the product have a prologue",
                         "apply one of them in a separate loop");
    if (Operands.size() != 2)
      return regionError(locOf(R),
                         "the reduction multiplies " +
                             std::to_string(Operands.size()) +
                             " operands that depend on '" + Idiom.IterK + "'",
                         "a matmul multiplies exactly two operands A[m][k] and "
                         "B[k][n]");
    // Each output dimension is read by one operand (m by A, n by B) or by
    // both (a batch loop around the GEMM); m is the one that comes first.
    auto NotOneOperands = [&](const std::string &D) {
      return regionError(locOf(R), "output dimension '" + D + "' is not that of one operand",
                         "a matmul reads A[m][k] and B[k][n]: each operand "
                         "is indexed by one output dimension");
    };
    std::vector<std::string> Only[2]; // the dimensions only operand P reads
    for (auto &D : KeptDims) {
      int P = position(Its, D);
      bool U0 = involves(I.RawReads.at(R.Name)[Operands[0].second], P);
      bool U1 = involves(I.RawReads.at(R.Name)[Operands[1].second], P);
      if (U0 && U1) {
        if (!Idiom.IterBatch.empty())
          return regionError(locOf(R), "more than one batch loop",
                             "fold the batch loops into one");
        Idiom.IterBatch = D;
      } else if (U0 != U1) {
        Only[U0 ? 0 : 1].push_back(D);
      } else {
        return NotOneOperands(D);
      }
    }
    // A batch loop that one operand shares across the batch (`Y[b][i][j]
    // += X[b][i][k] * W[k][j]`, a layer's weights): the loop of the other
    // operand's outermost subscript, that operand indexed [batch][row][k].
    std::optional<unsigned> SharedAccess; // the read of the shared operand
    for (int P : {0, 1}) {
      if (Only[P].size() != 2 || Only[1 - P].size() != 1 || !Idiom.IterBatch.empty())
        continue;
      const Access &Ac = R.Reads[Operands[P].second];
      auto Batch = Ac.Index.size() != 3 ? Only[P].end()
                                        : llvm::find_if(Only[P], [&](const std::string &D) {
                                            return offsetFrom(Ac.Index[0], D).has_value();
                                          });
      if (Batch == Only[P].end())
        return regionError(Ac.Range.getBegin(),
                           "output loops '" + Only[P][0] + "' and '" + Only[P][1] +
                               "' both index operand '" + M.Arrays[Ac.ArrayId].Name +
                               "' only, and neither is its batch",
                           "a batch loop indexes an operand's outermost subscript, upwards "
                           "with a step of 1: X[(b * M + i) * K + k]");
      Idiom.IterBatch = *Batch;
      Only[P].erase(Batch);
      SharedAccess = Operands[1 - P].second;
    }
    std::string Own[2];
    for (int P : {0, 1}) {
      if (Only[P].size() > 1)
        return NotOneOperands(Only[P][1]);
      if (!Only[P].empty())
        Own[P] = Only[P][0];
    }
    if (Own[0].empty() || Own[1].empty())
      return regionError(locOf(R),
                         "an operand does not depend on an output dimension",
                         "a matmul reads A[m][k] and B[k][n]");
    if (position(Its, Own[1]) < position(Its, Own[0])) {
      std::swap(Own[0], Own[1]);
      std::swap(Operands[0], Operands[1]);
    }
    Idiom.IterM = Own[0];
    Idiom.IterN = Own[1];
    int PM = position(Its, Idiom.IterM);
    for (auto &[F, Acc] : Operands) {
      const isl::map &AM = I.RawReads.at(R.Name)[Acc];
      bool UsesM = involves(AM, PM);
      const Access &Ac = R.Reads[Acc];
      const Array &Arr = M.Arrays[Ac.ArrayId];
      OperandView V;
      V.ArrayId = Ac.ArrayId;
      V.AccessId = Acc;
      std::string Other = UsesM ? Idiom.IterM : Idiom.IterN;
      if (stripConversions(F.get())->K != ExprNode::Read) {
        V.Prologue.push_back(F);
        V.FourBit = isPacked(Arr.Elem);
        if (auto E = classifyPrologueReads(R, *F, Acc, Other, V))
          return E;
      }
      auto IsIter = [&](const AffineExpr &E, const std::string &It) {
        return offsetFrom(E, It).has_value();
      };
      // A shared operand is one matrix for every batch (batch stride 0).
      unsigned Rank = Idiom.IterBatch.empty() || SharedAccess == Acc ? 2 : 3;
      // An outer dimension whose subscript names no loop (a layer's index,
      // `W[(l * K + k) * N + j]` with strides K N l, N, 1): one matrix of
      // many, which a pointer to it reads as a matrix.
      if (Arr.rank() == Rank + 1 && !Arr.Strides.empty() &&
          llvm::none_of(Its, [&](const std::string &It) { return Ac.Index[0].involves(It); }))
        return regionError(Ac.Range.getBegin(),
                           "operand '" + Arr.Name + "' is indexed with " +
                               std::to_string(Arr.rank()) +
                               " dimensions, the outermost naming no loop",
                           "its subscript selects one matrix of many; pass a pointer to it, " +
                               Arr.Name + " + " +
                               (Ac.Index[0].str() == "1"
                                    ? Arr.Strides[0].str()
                                    : "(" + Ac.Index[0].str() + ") * " + Arr.Strides[0].str()) +
                               ", and index that as a matrix");
      if (Arr.rank() != Rank || (Rank == 3 && !IsIter(Ac.Index[0], Idiom.IterBatch)))
        return regionError(Ac.Range.getBegin(),
                           "operand '" + Arr.Name + "' is indexed with " +
                               std::to_string(Arr.rank()) + " dimensions",
                           Rank == 2 ? "operands must be matrices, indexed by "
                                       "one output iterator and the reduction "
                                       "iterator"
                                     : "batched operands are indexed "
                                       "[batch][row][column], e.g. "
                                       "A[(b * M + i) * K + k]");
      const AffineExpr &Outer = Ac.Index[Rank - 2], &Inner = Ac.Index[Rank - 1];
      if (Rank == 3)
        V.BatchStride = Arr.Strides[0];
      // The outer subscript may step by a constant (a strided loop, `A[2 *
      // i][k]`): rows `Scale` apart are a view with Scale times the
      // leading dimension. A step along the contiguous one is gathered by
      // the copier (InnerStride).
      auto ScaleIn = [&](const AffineExpr &E, const std::string &It) {
        auto C = E.Coeffs.find(It);
        return C != E.Coeffs.end() && C->second > 0 ? C->second : int64_t(1);
      };
      auto IsScaled = [&](const AffineExpr &E, const std::string &It) {
        return offsetFrom(E, It, ScaleIn(E, It)).has_value();
      };
      if (IsScaled(Outer, Other) && IsScaled(Inner, Idiom.IterK))
        V.ReductionIsContiguous = true;
      else if (IsScaled(Outer, Idiom.IterK) && IsScaled(Inner, Other))
        V.ReductionIsContiguous = false;
      else if (std::string Back = backwardIterator(Outer, Inner, {Other, Idiom.IterK});
               !Back.empty())
        return regionError(Ac.Range.getBegin(),
                           "operand '" + Arr.Name + "' is read backwards along loop '" + Back +
                               "'",
                           "a view's rows and columns go upwards as their loops run: a "
                           "reversed subscript ('K - 1 - k') or a downward loop with a step "
                           "other than 1 has none (a downward loop with a step of 1 is "
                           "accepted)");
      else
        return regionError(Ac.Range.getBegin(),
                           "operand '" + Arr.Name +
                               "' is not indexed by the plain iterators",
                           "each of an operand's subscripts must be an iterator plus an "
                           "offset: strides and other iterators in a subscript are not "
                           "supported");
      const int64_t OuterScale = ScaleIn(Outer, V.ReductionIsContiguous ? Other : Idiom.IterK);
      V.InnerStride = ScaleIn(Inner, V.ReductionIsContiguous ? Idiom.IterK : Other);
      if (V.InnerStride != 1)
        V.ConvertWhileCopying = true;
      V.LeadingDim = Arr.Strides[Rank - 2] * Polynomial::constant(OuterScale);
      if (auto E = viewOffset(Ac, Rank == 3 ? Idiom.IterBatch : "",
                              V.ReductionIsContiguous ? Other : Idiom.IterK,
                              V.ReductionIsContiguous ? Idiom.IterK : Other, OuterScale,
                              V.InnerStride, V))
        return E;
      // 4-bit weights are dequantised ahead of the kernels; 8-bit ones are
      // converted to the other operand's type in shared memory (a
      // weight-only quantized layer).
      if (isPacked(Arr.Elem)) {
        V.ConvertWhileCopying = V.FourBit = true;
      } else if (isQuantized(Arr.Elem)) {
        V.ConvertWhileCopying = V.EightBit = true;
        V.Offset = elementOffset(M, R, V);
      } else if (Arr.Elem != ElementType::F16 && Arr.Elem != ElementType::BF16 &&
               !(Arr.Elem == ElementType::F32 && M.Clauses.AllowTf32)) {
        if (Arr.Elem == ElementType::F32)
          return regionError(
              Ac.Range.getBegin(),
              "operand '" + Arr.Name + "' is fp32",
              "tensor cores round fp32 operands to tf32 (10-bit mantissa); "
              "add the 'allow_tf32' clause to accept that");
        return regionError(Ac.Range.getBegin(),
                           "operand '" + Arr.Name + "' has element type '" +
                               Arr.ElemSpelling + "'",
                           "tensor-core operands must be __half or "
                           "__nv_bfloat16 (one of them may be int8_t or "
                           "uint8_t, converted while it is copied)");
      }
      // Partial k tiles are padded with zeros, and the other operand's
      // zeros keep the padded products zero only where the prologue is
      // finite at 0 (not 1 / x or logf(x): inf * 0 is NaN). Otherwise the
      // copier applies it, to the elements inside the matrix only.
      if (!V.Prologue.empty() && !V.ConvertWhileCopying &&
          !finiteAtZero(*V.Prologue[0], Acc, Arr.Elem))
        V.ConvertWhileCopying = V.PrologueNotFiniteAtZero = true;
      (UsesM ? Idiom.A : Idiom.B) = V;
    }
    const Array &AA = M.Arrays[Idiom.A.ArrayId], &BA = M.Arrays[Idiom.B.ArrayId];
    if (isQuantized(AA.Elem) && isQuantized(BA.Elem))
      return regionError(R.Reads[Idiom.B.AccessId].Range.getBegin(),
                         "both operands '" + AA.Name + "' and '" + BA.Name +
                             "' are 8-bit integers",
                         "integer products (s32 accumulation) are not supported "
                         "yet; give one operand the type __half or "
                         "__nv_bfloat16");
    // The tensor cores see the floating-point operand's type; an 8-bit
    // operand is converted to it.
    if (isQuantized(AA.Elem) || isQuantized(BA.Elem))
      Idiom.InputType = isQuantized(AA.Elem) ? BA.Elem : AA.Elem;
    else if (AA.Elem != BA.Elem)
      return regionError(R.Reads[Idiom.B.AccessId].Range.getBegin(),
                         "operands '" + AA.Name + "' and '" + BA.Name +
                             "' have different element types",
                         "mixed floating-point types are not supported yet");
    else
      Idiom.InputType = AA.Elem;
    // Loop extents: rectangular, starting at zero.
    std::vector<std::string *> Dims{&Idiom.IterM, &Idiom.IterN, &Idiom.IterK};
    if (!Idiom.IterBatch.empty())
      Dims.push_back(&Idiom.IterBatch);
    for (auto *Pair : Dims) {
      const Loop *L = nullptr;
      for (unsigned Li : R.Loops)
        if (M.Loops[Li].Iterator == *Pair)
          L = &M.Loops[Li];
      // Lower bounds of sizes were shifted to 0 (LoopOrigins.h); what is
      // left names another iterator.
      if (!L->Lower.isZero())
        return regionError(L->Range.getBegin(),
                           "the lower bound of loop '" + *Pair + "' depends on another loop",
                           "triangular loop nests are not supported");
      for (auto &It : Its)
        if (L->UpperExclusive.involves(It))
          return regionError(L->Range.getBegin(),
                             "the bound of loop '" + *Pair +
                                 "' depends on another loop",
                             "triangular loop nests are not supported");
    }
    for (unsigned Li : R.Loops) {
      const Loop &L = M.Loops[Li];
      AffineExpr &E = L.Iterator == Idiom.IterM   ? Idiom.ExtentM
                      : L.Iterator == Idiom.IterN ? Idiom.ExtentN
                      : L.Iterator == Idiom.IterK ? Idiom.ExtentK
                                                  : Idiom.ExtentBatch;
      E = L.UpperExclusive;
    }
    return llvm::Error::success();
  }

  /// The first of `Its` with a negative coefficient in Outer or Inner (a
  /// downward strided loop, whose model iterator counts its iterations),
  /// or an empty string.
  static std::string backwardIterator(const AffineExpr &Outer, const AffineExpr &Inner,
                                      std::initializer_list<std::string> Its) {
    for (const std::string &It : Its)
      for (const AffineExpr *E : {&Outer, &Inner})
        if (auto C = E->Coeffs.find(It); C != E->Coeffs.end() && C->second < 0)
          return It;
    return "";
  }

  /// E minus iterator It, where E is It plus an offset that names no
  /// iterator: a view that starts elsewhere in the array (`A[(i + r0) *
  /// lda + k + c0]`).
  std::optional<AffineExpr> offsetFrom(const AffineExpr &E, const std::string &It,
                                       int64_t Scale = 1) const {
    auto C = E.Coeffs.find(It);
    if (C == E.Coeffs.end() || C->second != Scale)
      return std::nullopt;
    AffineExpr Off = E;
    Off.Coeffs.erase(It);
    for (auto &[Sym, Coeff] : Off.Coeffs)
      for (const Loop &L : M.Loops)
        if (Coeff != 0 && L.Iterator == Sym)
          return std::nullopt;
    return Off;
  }

  /// V.IndexOffset of operand access Ac, whose dimensions are indexed by
  /// Batch (if not empty), Outer and Inner plus offsets. The launcher moves
  /// the pointer by them, which is only the region's meaning where the
  /// array is read nowhere else.
  llvm::Error viewOffset(const Access &Ac, const std::string &Batch, const std::string &Outer,
                         const std::string &Inner, int64_t OuterScale, int64_t InnerScale,
                         OperandView &V) {
    std::vector<std::string> Its;
    if (!Batch.empty())
      Its.push_back(Batch);
    Its.push_back(Outer);
    Its.push_back(Inner);
    std::vector<AffineExpr> Offsets;
    bool Any = false;
    for (size_t D = 0; D < Its.size(); ++D) {
      const int64_t Scale = D + 2 == Its.size()   ? OuterScale
                            : D + 1 == Its.size() ? InnerScale
                                                  : 1;
      Offsets.push_back(*offsetFrom(Ac.Index[D], Its[D], Scale));
      Any |= !Offsets.back().isZero();
    }
    if (!Any)
      return llvm::Error::success();
    unsigned Accesses = 0;
    for (const Statement &S : M.Stmts) {
      Accesses += S.Write.ArrayId == Ac.ArrayId;
      for (const Access &R : S.Reads)
        Accesses += R.ArrayId == Ac.ArrayId;
    }
    if (Accesses > 1)
      return regionError(Ac.Range.getBegin(),
                         "operand '" + M.Arrays[Ac.ArrayId].Name +
                             "' is read at an offset from the plain iterators and "
                             "elsewhere in the region",
                         "the kernel reads an offset operand through a pointer moved to the "
                         "offset; read the array only in the product, or without the offset");
    V.IndexOffset = std::move(Offsets);
    return llvm::Error::success();
  }

  /// The kernels accumulate in fp32 (fp16 and bf16 accumulators are
  /// documented to become fp32: more precise than the source's rounding at
  /// every step). A double accumulator asks for more precision than fp32
  /// gives, and an integer one is another computation: `int acc; acc += a
  /// * b` truncates at every step, and an exact integer sum need not
  /// survive fp32's rounding.
  llvm::Error checkAccumulatorType() {
    const Array &Acc = M.Arrays[Idiom.Accumulator];
    const Statement &R = M.Stmts[Idiom.Reduction];
    switch (Acc.Elem) {
    case ElementType::F16:
    case ElementType::BF16:
    case ElementType::F32:
      return llvm::Error::success();
    case ElementType::F64:
      return regionError(R.Write.Range.getBegin(),
                         "accumulator '" + Acc.Name + "' has type 'double'",
                         "the kernel accumulates in fp32, less precisely than a double sum: "
                         "declare the accumulator float to accept fp32 accumulation");
    default:
      break;
    }
    return regionError(R.Write.Range.getBegin(),
                       "accumulator '" + Acc.Name + "' has type '" + Acc.ElemSpelling + "'",
                       "the kernel accumulates in fp32: declare the accumulator float "
                       "(an integer one rounds at every step, or sums exactly)");
  }

  llvm::Error classifyOtherStatements() {
    const Array &Acc = M.Arrays[Idiom.Accumulator];
    // The accumulator and what the epilogue computes from it: a statement
    // after the reduction that reads any of them consumes the result (also
    // from a loop nest of its own, as in the paper's Listing 1).
    std::set<unsigned> Results{Idiom.Accumulator};
    const unsigned Last = Idiom.lastReduction();
    std::set<unsigned> Operands{Idiom.A.ArrayId, Idiom.B.ArrayId};
    for (const OperandView *V : {&Idiom.A, &Idiom.B})
      Operands.insert(V->PrologueArrays.begin(), V->PrologueArrays.end());
    for (auto &P : Idiom.MoreProducts)
      Operands.insert({P.A.ArrayId, P.B.ArrayId});
    for (size_t SI = 0; SI < M.Stmts.size(); ++SI) {
      if (Idiom.isReduction(SI))
        continue;
      if (SI > Idiom.Reduction && SI < Last)
        return regionError(locOf(M.Stmts[SI]),
                           "statement between the products of a sum of matmuls",
                           "initialise before the first product and consume "
                           "the sum after the last");
      const Statement &S = M.Stmts[SI];
      bool WritesAcc = S.Write.ArrayId == Idiom.Accumulator;
      bool ReadsAcc = false;
      for (auto &Rd : S.Reads)
        ReadsAcc |= SI > Last ? Results.count(Rd.ArrayId) > 0
                              : Rd.ArrayId == Idiom.Accumulator;
      if (Operands.count(S.Write.ArrayId))
        return regionError(S.Write.Range.getBegin(),
                           "the region writes operand '" +
                               M.Arrays[S.Write.ArrayId].Name + "'",
                           "operands of the matmul must be read-only in the "
                           "region");
      if (SI < Idiom.Reduction && WritesAcc) {
        if (Idiom.Init)
          return regionError(locOf(S),
                             "the accumulator '" + Acc.Name + "' is initialised twice",
                             "initialise it once, before its reduction");
        Idiom.Init = SI;
        continue;
      }
      if (SI > Last && ReadsAcc) {
        Idiom.Epilogue.push_back(SI);
        Results.insert(S.Write.ArrayId);
        continue;
      }
      // The initialisation of a second accumulator whose reduction was not
      // taken for a further product (`a2 = fmaxf(a2, x * y)`, `a2 *= x`):
      // said at that reduction, which is what needs rewriting.
      for (size_t TI = SI + 1; !WritesAcc && TI < M.Stmts.size(); ++TI) {
        const Statement &T = M.Stmts[TI];
        if (T.Write.ArrayId != S.Write.ArrayId ||
            !llvm::any_of(T.Reads, [&](const Access &R) { return R.ArrayId == T.Write.ArrayId; }))
          continue;
        return regionError(locOf(T),
                           "'" + M.Arrays[T.Write.ArrayId].Name +
                               "' accumulates what is not a further product of the sum of "
                               "matmuls",
                           "add each product into one accumulator, 'acc += A2[i][k] * "
                           "B2[k][j]' (negate an operand for a difference)");
      }
      return regionError(locOf(S),
                         "statement is not part of the matmul: it neither "
                         "initialises nor consumes '" + Acc.Name + "'",
                         "put unrelated computations outside the region");
    }
    if (!Idiom.Init && Acc.IsLocalScalar)
      return regionError(Acc.DeclLoc,
                         "accumulator '" + Acc.Name + "' is used before it is initialised",
                         "initialise it (e.g. '= 0.0f') where it is declared, or before "
                         "its reduction loop");
    if (Idiom.Epilogue.empty() && Acc.IsLocalScalar)
      return regionError(Acc.DeclLoc,
                         "the result accumulated in '" + Acc.Name +
                             "' is never stored",
                         "store it to an array after the reduction loop");
    for (unsigned E : Idiom.Epilogue)
      if (M.Stmts[E].Write.ArrayId == Idiom.Accumulator)
        return regionError(locOf(M.Stmts[E]),
                           "the accumulator is updated after the reduction",
                           "write the final value to another array");
    return llvm::Error::success();
  }

  /// Every dependence must relate instances of one output element (m, n):
  /// then blocks and warps can compute different elements in parallel.
  llvm::Error checkDependences() {
    const Statement &R = M.Stmts[Idiom.Reduction];
    isl::ctx Ctx = I.Context.ctx();
    auto Its = M.iterators(R);
    // Instance of a reduction -> its output element (b, m, n); the batch 0
    // where there is none.
    auto OutputOf = [&](const Statement &S) {
      AffineExpr Batch = Idiom.IterBatch.empty() ? AffineExpr::constant(0)
                                                 : AffineExpr::symbol(Idiom.IterBatch);
      return functionMap(universeSet(Ctx, M, S.Name, M.iterators(S)), "",
                         {Batch, AffineExpr::symbol(Idiom.IterM),
                          AffineExpr::symbol(Idiom.IterN)});
    };
    isl::map PhiR = OutputOf(R);
    // Accumulator element -> (m, n).
    isl::map Psi = I.RawWrite.at(R.Name).reverse().apply_range(PhiR);
    isl::set Elements = I.Domain.at(R.Name).apply(PhiR);
    // The elements the kernels compute: the reduction's with its conditions
    // on k dropped (a row of `k < i` without products is the
    // initialisation alone). A statement beyond them (an initialisation
    // over 64 columns, products over 48) would be stored only there.
    isl::set Computed = Elements;
    if (auto K = llvm::find(Its, Idiom.IterK); K != Its.end())
      Computed = isl::manage(isl_set_drop_constraints_involving_dims(
                                 I.Domain.at(R.Name).copy(), isl_dim_set,
                                 unsigned(K - Its.begin()), 1))
                     .apply(PhiR);
    isl::set Covered; // (m, n) of the initialisation and epilogue
    std::map<std::string, isl::map> Phi{{R.Name, PhiR}};
    for (auto &P : Idiom.MoreProducts) // the same output loops (classifyMoreProducts)
      Phi.emplace(M.Stmts[P.Reduction].Name, OutputOf(M.Stmts[P.Reduction]));
    // Element of a result array (the accumulator, or an array an epilogue
    // statement wrote) -> the output element it belongs to.
    std::map<unsigned, isl::map> ResultOf{{Idiom.Accumulator, Psi}};
    for (size_t SI = 0; SI < M.Stmts.size(); ++SI) {
      if (Idiom.isReduction(SI))
        continue;
      const Statement &S = M.Stmts[SI];
      isl::map Map;
      if (S.Write.ArrayId == Idiom.Accumulator)
        Map = I.Write.at(S.Name).apply_range(Psi);
      else
        for (size_t Rd = 0; Rd < S.Reads.size(); ++Rd) {
          auto It = ResultOf.find(S.Reads[Rd].ArrayId);
          if (It == ResultOf.end() || (SI < Idiom.Reduction && It->first != Idiom.Accumulator))
            continue;
          isl::map Candidate = I.Reads.at(S.Name)[Rd].apply_range(It->second);
          if (!Map.is_null() && !Map.is_equal(Candidate))
            return regionError(S.Reads[Rd].Range.getBegin(),
                               "the result is read at another element",
                               "an epilogue may only read the element it "
                               "computes");
          Map = Candidate;
        }
      if (Map.is_null())
        return regionError(locOf(S), "statement is not part of the matmul",
                           "an epilogue statement reads the matmul's result at the "
                           "element it computes; put unrelated computations outside the "
                           "region");
      Map = Map.intersect_domain(I.Domain.at(S.Name));
      isl::set Image = Map.range();
      bool Same = Covered.is_null() || Covered.is_equal(Image);
      if (Covered.is_null())
        Covered = Image;
      if (!Map.is_single_valued() || !Map.domain().is_equal(I.Domain.at(S.Name)) ||
          !Same || !Elements.is_subset(Image))
        return regionError(locOf(S),
                           "statement does not cover the same elements as "
                           "the matmul",
                           "initialisation and epilogue loops must run over "
                           "the whole output");
      // (As OperandMasks.h says it of guarded statements. Where the sizes
      // give no products at all, K = 0, the kernels run the statements
      // over the same box.)
      if (!Image.intersect_params(Computed.params()).is_subset(Computed))
        return regionError(locOf(S),
                           "the statement runs on other output elements than the reduction",
                           "guard the initialisation, the reduction and the stores of an "
                           "output element alike");
      Phi.emplace(S.Name, Map);
      if (SI > Idiom.lastReduction() && S.Write.ArrayId != Idiom.Accumulator)
        ResultOf[S.Write.ArrayId] = I.RawWrite.at(S.Name).reverse().apply_range(Map);
    }
    isl::map Same = isl::manage(isl_map_identity(PhiR.get_space().range().map_from_set().release()));
    std::optional<std::string> Offender;
    // The kernel runs an element's statements in their written order (the
    // initialisation, the products, then the epilogue's statements), so a
    // dependence of one element from a statement written later to one
    // written earlier is reversed: in one nest, `D[i][j] = C[j][i]` after
    // `C[i][j] = acc` reads C[j][i] before its iteration writes it (j > i).
    std::optional<std::string> Reversed;
    std::map<std::string, size_t> WrittenOrder;
    for (size_t SI = 0; SI < M.Stmts.size(); ++SI)
      WrittenOrder[M.Stmts[SI].Name] = SI;
    isl::union_map Deps = I.dependences();
    Deps.foreach_map([&](isl::map D) {
      std::string Src = isl_map_get_tuple_name(D.get(), isl_dim_in);
      std::string Dst = isl_map_get_tuple_name(D.get(), isl_dim_out);
      isl::map Mapped = D.apply_domain(Phi.at(Src)).apply_range(Phi.at(Dst));
      if (!Mapped.is_subset(Same.intersect_params(I.Context)))
        Offender = Dst;
      else if (WrittenOrder.at(Src) > WrittenOrder.at(Dst) && !D.is_empty())
        Reversed = Src;
    });
    if (Reversed && !Offender) {
      for (auto &S : M.Stmts)
        if (S.Name == *Reversed)
          return regionError(locOf(S),
                             "statement accesses an element before an earlier "
                             "statement of the region writes or reads it",
                             "the kernel runs each output element's statements "
                             "in their written order; read results at other "
                             "elements in a loop nest after the matmul's");
    }
    if (Offender) {
      for (auto &S : M.Stmts)
        if (S.Name == *Offender)
          return regionError(locOf(S),
                             "a dependence crosses output elements, which "
                             "forbids the parallel mapping",
                             "each output element must be computed "
                             "independently of the others (check for an "
                             "output read at another position)");
    }
    return llvm::Error::success();
  }

  /// The kernel reorders accesses: an output that may overlap another array
  /// of the region would change the result. Distinct pointers are only
  /// known distinct when one of them is __restrict__; the others are tested
  /// by the launcher (Aliasing.h).
  llvm::Error checkAliasing() {
    auto Pairs = aliasPairs(M.asWritten());
    if (!Pairs)
      return Pairs.takeError();
    Idiom.MayAlias = std::move(*Pairs);
    return llvm::Error::success();
  }

  const RegionModel &M;
  const IslModel &I;
  MatmulIdiom Idiom;
  ExprPtr Product;
  std::vector<std::string> KeptDims;
  std::vector<ExprPtr> Prologues;
  bool Subtracted = false; // the product is subtracted (`acc -= P`)
  std::vector<std::pair<unsigned, Accumulation>> Extra; // further products, in order

  static bool uses(const ExprNode &E, ExprNode::Kind K) {
    if (E.K == K)
      return true;
    for (auto &Op : E.Ops)
      if (uses(*Op, K))
        return true;
    return false;
  }
  static bool usesIterators(const ExprNode &E) { return uses(E, ExprNode::Iterator); }
  /// The name of the first loop iterator E uses ("" where none).
  static std::string firstIterator(const ExprNode &E) {
    if (E.K == ExprNode::Iterator)
      return E.Text;
    for (auto &Op : E.Ops)
      if (std::string Name = firstIterator(*Op); !Name.empty())
        return Name;
    return "";
  }
  static bool isQuantized(ElementType T) {
    return T == ElementType::I8 || T == ElementType::U8 || isPacked(T);
  }
  static bool isPacked(ElementType T) { return T == ElementType::U4 || T == ElementType::I4; }
  /// Whether read A of statement R is of packed 4-bit values.
  bool readsPacked(const Statement &R, unsigned A) const {
    return isPacked(M.Arrays[R.Reads[A].ArrayId].Elem);
  }
  /// Whether read A of R indexes an array at a divided index (a group's).
  static bool readsDivided(const Statement &R, unsigned A) { return R.Reads[A].Divisor != 1; }

  /// The factors of a product that read packed 4-bit values or a divided
  /// index (their groups' zero points and scales, `((float)w - z[j][k /
  /// 128]) * s[j][k / 128]` is two factors) are one operand's: multiplied
  /// into one factor, in their order, where the first of them stood.
  void groupPackedFactors(const Statement &R, std::vector<ExprPtr> &Factors) const {
    auto IsPackedFactor = [&](const ExprPtr &F) {
      std::vector<unsigned> Reads;
      collectReads(*F, Reads);
      return llvm::any_of(Reads, [&](unsigned A) {
        return readsPacked(R, A) || readsDivided(R, A);
      });
    };
    if (llvm::none_of(Factors, [&](const ExprPtr &F) {
          std::vector<unsigned> Reads;
          collectReads(*F, Reads);
          return llvm::any_of(Reads, [&](unsigned A) { return readsPacked(R, A); });
        }))
      return;
    std::vector<ExprPtr> Grouped;
    ExprPtr Operand;
    size_t At = 0;
    for (const ExprPtr &F : Factors) {
      if (!IsPackedFactor(F)) {
        Grouped.push_back(F);
        continue;
      }
      if (!Operand)
        At = Grouped.size();
      Operand = Operand ? ExprNode::make(ExprNode::Binary, "*", {Operand, F}) : F;
    }
    Grouped.insert(Grouped.begin() + At, Operand);
    Factors = std::move(Grouped);
  }

  /// The reads of a prologue besides the element `Element` (of operand V,
  /// whose own output dimension is `Own`): arrays indexed by that dimension
  /// (and the batch) only, so that the prologue is a function of the
  /// element and its row or column. With any of them, or a scalar, it is
  /// applied while copying, where the row or column is known.
  llvm::Error classifyPrologueReads(const Statement &R, const ExprNode &F,
                                    unsigned Element, const std::string &Own,
                                    OperandView &V) {
    auto Its = M.iterators(R);
    std::vector<unsigned> Reads;
    collectReads(F, Reads);
    for (unsigned Rd : Reads) {
      if (Rd == Element)
        continue;
      const Access &Ac = R.Reads[Rd];
      const std::string &Name = M.Arrays[Ac.ArrayId].Name;
      if (Ac.ArrayId == Idiom.Accumulator)
        return regionError(Ac.Range.getBegin(),
                           "the accumulator is read inside its own product",
                           "a product's factors may not depend on the partial sum");
      for (unsigned P = 0; P < Its.size(); ++P)
        if (Its[P] != Own && Its[P] != Idiom.IterBatch &&
            !(V.FourBit && Its[P] == Idiom.IterK) && involves(I.RawReads.at(R.Name)[Rd], P))
          return regionError(Ac.Range.getBegin(),
                             "the prologue of operand '" +
                                 M.Arrays[R.Reads[Element].ArrayId].Name + "' reads '" +
                                 Name + "' along '" + Its[P] + "'",
                             "a prologue may read arrays indexed by the operand's "
                             "own row or column ('" + Own +
                                 "'), such as a per-channel scale or zero point");
      V.PrologueArrays.push_back(Ac.ArrayId);
    }
    V.ConvertWhileCopying = !V.PrologueArrays.empty() || uses(F, ExprNode::Scalar);
    return llvm::Error::success();
  }
};

} // namespace

std::string MatmulIdiom::describe(const RegionModel &M) const {
  auto Layout = [&](const OperandView &V, bool IsA) {
    std::string S = M.Arrays[V.ArrayId].Name + " (" +
                    (V.ReductionIsContiguous == IsA ? "row-major" : "column-major") +
                    ", leading dimension " + V.LeadingDim.str();
    if (!V.Prologue.empty()) {
      S += ", prologue " + spellAsC(M, M.Stmts[Reduction], V.Prologue[0], /*AsWritten=*/false);
    }
    auto Conjunction = [](const std::vector<AffineExpr> &Gs) {
      std::string C;
      for (const AffineExpr &G : Gs)
        C += (C.empty() ? "" : " and ") + G.str() + " >= 0";
      return C;
    };
    if (V.InnerStride != 1)
      S += ", elements " + std::to_string(V.InnerStride) + " apart gathered while copying";
    if (!IterBatch.empty() && V.BatchStride.Terms.empty())
      S += ", shared by every batch";
    if (!V.Mask.empty())
      S += ", masked to " + Conjunction(V.Mask) + " while copying";
    if (V.PrologueNotFiniteAtZero)
      S += ", prologue applied while copying (not finite at the zero padding)";
    else if (V.ConvertWhileCopying && V.Mask.empty() && V.InnerStride == 1)
      S += std::string(", ") + M.Arrays[V.ArrayId].ElemSpelling + " converted while copying";
    return S + ")";
  };
  std::string S = "matmul over (" + IterM + ", " + IterN + ") reducing " + IterK +
                  ": M = " + ExtentM.str() + ", N = " + ExtentN.str() +
                  ", K = " + ExtentK.str() +
                  (IterBatch.empty() ? "" : ", batch loop " + IterBatch + " of " +
                                                ExtentBatch.str()) +
                  "\n";
  S += "    A = " + Layout(A, true) + ", B = " + Layout(B, false) +
       ", inputs " + spelling(InputType) + ", accumulation float\n";
  for (auto &P : MoreProducts)
    S += "    plus " + M.Arrays[P.A.ArrayId].Name + " * " + M.Arrays[P.B.ArrayId].Name +
         " reducing " + P.IterK + ": K = " + P.ExtentK.str() + " (" +
         M.Stmts[P.Reduction].Name + ", k tiles after the previous product's)\n";
  if (!OutputGuard.empty()) {
    std::string C;
    for (const AffineExpr &G : OutputGuard)
      C += (C.empty() ? "" : " and ") + G.str() + " >= 0";
    S += "    output elements stored where " + C + "\n";
  }
  if (!SerialWhen.empty())
    S += "    the box would read beyond the loops' elements for sizes in " + SerialWhen +
         ": the region runs as written there\n";
  S += "    reduction " + M.Stmts[Reduction].Name;
  if (Init)
    S += ", initialisation " + M.Stmts[*Init].Name;
  for (unsigned E : Epilogue)
    S += ", epilogue " + M.Stmts[E].Name;
  return S + "\n";
}

std::optional<std::map<std::string, std::string>>
outputCoordinates(const RegionModel &M, const MatmulIdiom &Idiom, unsigned Stmt) {
  const Statement &R = M.Stmts[Idiom.Reduction];
  const Statement &S = M.Stmts[Stmt];
  // A subscript c * x + d of one iterator x (c a constant: a strided
  // loop's rows; d a constant).
  struct Coordinate {
    std::string It;
    int64_t Scale = 1, Offset = 0;
  };
  auto Single = [](const AffineExpr &E) -> std::optional<Coordinate> {
    std::optional<Coordinate> X;
    for (auto &[Sym, C] : E.Coeffs) {
      if (C == 0)
        continue;
      if (X)
        return std::nullopt;
      X = Coordinate{Sym, C, E.Constant};
    }
    return X;
  };
  // How each result array is indexed, in the reduction's iterators: the
  // accumulator like the reduction writes it; an array an earlier epilogue
  // statement wrote, through that statement's own coordinates.
  auto Reference = [&](unsigned ArrayId) -> std::optional<std::vector<Coordinate>> {
    std::vector<Coordinate> Ref;
    if (ArrayId == Idiom.Accumulator) {
      for (auto &E : R.Write.Index) {
        auto Y = Single(E);
        if (!Y)
          return std::nullopt;
        Ref.push_back(*Y);
      }
      return Ref;
    }
    for (unsigned E : Idiom.Epilogue) {
      if (E >= Stmt || M.Stmts[E].Write.ArrayId != ArrayId)
        continue;
      auto Roles = outputCoordinates(M, Idiom, E);
      if (!Roles)
        return std::nullopt;
      Ref.clear();
      for (auto &Ix : M.Stmts[E].Write.Index) {
        auto Y = Single(Ix);
        if (!Y || !Roles->count(Y->It))
          return std::nullopt;
        Ref.push_back({(*Roles)[Y->It], Y->Scale, Y->Offset});
      }
    }
    if (Ref.empty())
      return std::nullopt;
    return Ref;
  };
  std::vector<const Access *> Candidates;
  if (S.Write.ArrayId == Idiom.Accumulator)
    Candidates.push_back(&S.Write);
  for (auto &Rd : S.Reads)
    Candidates.push_back(&Rd);
  for (const Access *Acc : Candidates) {
    auto Ref = Reference(Acc->ArrayId);
    if (!Ref || Ref->size() != Acc->Index.size())
      continue;
    std::map<std::string, std::string> Roles;
    bool Ok = true;
    for (size_t D = 0; D < Acc->Index.size() && Ok; ++D) {
      auto X = Single(Acc->Index[D]);
      const Coordinate &Y = (*Ref)[D];
      Ok = X && !Roles.count(X->It) && X->Scale == Y.Scale && X->Offset == Y.Offset;
      if (Ok)
        Roles[X->It] = Y.It;
    }
    for (auto &It : M.iterators(S))
      Ok = Ok && Roles.count(It);
    if (Ok)
      return Roles;
  }
  return std::nullopt;
}

/// Reads of packed 4-bit values and reads at a divided index (a group's
/// zero point or scale) are a packed operand's prologue's only: the
/// kernels read no other such access.
static llvm::Error checkDividedReads(const RegionModel &M, const MatmulIdiom &Idiom) {
  std::vector<unsigned> Allowed;
  for (const OperandView *V : {&Idiom.A, &Idiom.B})
    if (V->FourBit)
      for (const ExprPtr &P : V->Prologue)
        collectReads(*P, Allowed);
  for (size_t S = 0; S < M.Stmts.size(); ++S)
    for (size_t Rd = 0; Rd < M.Stmts[S].Reads.size(); ++Rd) {
      const Access &A = M.Stmts[S].Reads[Rd];
      const ElementType T = M.Arrays[A.ArrayId].Elem;
      const bool Packed = T == ElementType::U4 || T == ElementType::I4;
      if ((!Packed && A.Divisor == 1) ||
          (S == Idiom.Reduction && llvm::is_contained(Allowed, unsigned(Rd))))
        continue;
      const std::string &Name = M.Arrays[A.ArrayId].Name;
      return regionError(A.Range.getBegin(),
                         Packed ? "packed 4-bit values of '" + Name +
                                      "' are read outside an operand of the product"
                                : "'" + Name + "' is read at a divided index outside an "
                                  "operand of packed 4-bit values",
                         "a divided index ('k / 128') reads the zero points and scales of "
                         "packed 4-bit weights, in the factor of the product that unpacks "
                         "them");
    }
  return llvm::Error::success();
}

llvm::Expected<MatmulIdiom> recognizeMatmul(const RegionModel &M,
                                            const IslModel &I) {
  try {
    auto Idiom = Recognizer(M, I).run();
    if (!Idiom)
      return Idiom.takeError();
    if (auto E = checkDividedReads(M, *Idiom))
      return std::move(E);
    if (auto E = placeGuards(M, I, *Idiom))
      return std::move(E);
    return Idiom;
  } catch (const isl::exception &E) {
    return regionError(M.Range.getBegin(),
                       std::string("isl failed while analysing the region: ") + E.what(),
                       "the region stays as written; please report it with the "
                       "region's source");
  }
}

} // namespace tc
