//===- Extraction.cpp - Clang AST of a region -> RegionModel --------------===//
//
// A small recursive reader over the subset of C++ the polyhedral model can
// describe: counted `for` loops with affine bounds, assignments to arrays or
// to scalar accumulators, and pure expressions. Anything else stops the
// reader with a RegionError at the construct itself.
//
//===----------------------------------------------------------------------===//
#include "Extraction.h"
#include "LoopOrigins.h"
#include "PureFunctions.h"
#include "clang/AST/IgnoreExpr.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/ScopeExit.h"
#include <array>
#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace tc {
char RegionError::ID;

namespace {

const char *const AffineNote =
    "subscripts and loop bounds must be sums of loop iterators and "
    "region-invariant integers times constants (e.g. 'A[i * K + k]')";

/// How a region reads packed 4-bit values.
const char *const kPackedNote =
    "a byte of packed 4-bit values is read at half the reduction's index and unpacked in "
    "the same expression, the even index in the low nibble: '(W[j * ldw + k / 2] >> (4 * "
    "(k % 2))) & 15' (0 to 15), or the same nibble as two's complement (-8 to 7)";

ElementType classify(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return ElementType::F32;
  if (T->isSpecificBuiltinType(BuiltinType::Double))
    return ElementType::F64;
  // int8_t/uint8_t (quantized weights). Plain char is text, not a number.
  if (T->isSpecificBuiltinType(BuiltinType::SChar))
    return ElementType::I8;
  if (T->isSpecificBuiltinType(BuiltinType::UChar))
    return ElementType::U8;
  if (const auto *R = T->getAsRecordDecl()) {
    StringRef N = R->getName();
    if (N == "__half")
      return ElementType::F16;
    if (N == "__nv_bfloat16")
      return ElementType::BF16;
  }
  return ElementType::Other;
}

class Extractor {
public:
  Extractor(ASTContext &Ctx, const FunctionDecl &F) : Ctx(Ctx), F(F) {
    Policy = std::make_unique<PrintingPolicy>(Ctx.getLangOpts());
    Policy->SuppressTagKeyword = true;
    // The definitions go before the function, in its lexical scope: for an
    // out-of-line member that is not where the class's or its namespace's
    // type names resolve (a private typedef cannot be named at all there).
    Policy->PrintAsCanonical = F.getLexicalDeclContext() != F.getDeclContext();
  }

  llvm::Expected<RegionModel> run(const Stmt &Region, const RegionClauses &C) {
    M.FunctionName = F.getNameAsString();
    M.Range = Region.getSourceRange();
    M.Clauses = C;
    RegionBegin = Region.getBeginLoc();
    RegionEnd = Region.getEndLoc();
    RegionRoot = &Region;
    if (!isa<ForStmt>(Region) && !isa<CompoundStmt>(Region))
      return regionError(Region.getBeginLoc(),
                         "'#pragma tc' must precede a 'for' loop nest or a "
                         "'{ }' block of loop nests",
                         "place the pragma directly before the outermost loop");
    // Templates are taken per instantiation (RegionRewriter.cpp); a generic
    // lambda's body only as written, its `auto` parameters without types.
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(contextOf(Region));
        Method && Method->getParent()->isGenericLambda() && Method->isDependentContext())
      return regionError(Region.getBeginLoc(),
                         "a '#pragma tc' region in a generic lambda, whose 'auto' parameters "
                         "have no types here",
                         "give the lambda's parameters their types, or move the loop nest "
                         "into a function template");
    if (auto E = checkNamedVariables(&Region))
      return std::move(E);
    collectRebindings(&Region, 0, true);
    classifyRebindings();
    collectNames(&Region);
    Position.push_back(0);
    if (auto E = visit(&Region))
      return std::move(E);
    if (auto E = checkWraps())
      return std::move(E);
    if (auto E = shiftLoopsToZero(M))
      return std::move(E);
    if (M.Stmts.empty())
      return regionError(Region.getBeginLoc(),
                         "the region annotated by '#pragma tc' has no "
                         "statement to compute",
                         "'#pragma tc' precedes a loop nest, or a '{ }' block of loop nests, "
                         "that assigns array elements");
    if (C.Stream) {
      auto L = C.Locs.find("stream");
      if (auto E = checkStream(*C.Stream, L != C.Locs.end() ? L->second : RegionBegin))
        return std::move(E);
    }
    for (const auto &[T, Loc] : C.Temp) {
      int Id = M.findArray(T);
      if (Id < 0 || M.Arrays[Id].IsLocalScalar)
        return regionError(Loc, "temp(" + T + "): '" + T + "' is not an array the region accesses",
                           "name the arrays that are dead after the region");
      // A read-only array has nothing to keep out of memory: naming it is a
      // mistake about which array is scratch, not a request to honour.
      bool Written = llvm::any_of(
          M.Stmts, [&](const Statement &S) { return S.Write.ArrayId == unsigned(Id); });
      if (!Written)
        return regionError(Loc, "temp(" + T + "): the region only reads '" + T + "'",
                           "temp(...) names arrays the region writes whose values are dead "
                           "after it; their stores are left out");
    }
    // A divided index reads a group's zero point or scale of packed 4-bit
    // values, in the statement that unpacks them (the model's later steps
    // keep such a statement as it is, or the region is refused).
    for (const Statement &S : M.Stmts) {
      auto Packed = [&](const Access &A) {
        return M.Arrays[A.ArrayId].Elem == ElementType::U4 ||
               M.Arrays[A.ArrayId].Elem == ElementType::I4;
      };
      if (llvm::any_of(S.Reads, Packed))
        continue;
      for (const Access &A : S.Reads)
        if (A.Divisor != 1)
          return regionError(A.DivisorLoc,
                             "non-affine operator '" + A.DivisorOperator +
                                 "' in a subscript or loop bound",
                             std::string(AffineNote) +
                                 "; an index divided by a constant reads packed 4-bit values "
                                 "('k / 2') and their groups' zero points and scales ('k / "
                                 "128'), in the statement that unpacks the values");
    }
    return std::move(M);
  }

private:
  struct Write {
    const Expr *Assignment;
    unsigned Depth;   // loops around it inside the region
    bool IsStatement; // an expression statement of its own
  };
  // The bindings of each variable in order (collectRebindings, Chains).
  struct Binding {
    const Expr *Value;
    std::string Op; // "" for `=`, else the compound assignment's operator
    std::map<const VarDecl *, int> Seen; // the bindings visible where it was written
    std::map<unsigned, unsigned> Stores; // StoreCount where it was written
    // Or an `if` that rebinds the variable in each branch (Value unused).
    const IfStmt *If = nullptr;
  };

  /// The statement an expression statement stands for, as visitExprStmt
  /// reads it.
  static const Expr *statementExpr(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr()->IgnoreParens();
    return E;
  }

  /// The variable an assignment statement assigns, if it is one.
  static const VarDecl *assignedVariable(const Expr *E) {
    const Expr *LHS = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
      LHS = B->getLHS();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->isAssignmentOp())
      LHS = OC->getArg(0);
    else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
      LHS = U->getSubExpr();
    if (!LHS)
      return nullptr;
    const auto *DR = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts());
    return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  }

  /// Finds the assignments that rebind a scalar the region declares
  /// instead of storing to it: those in the loop body that declares it
  /// (no loop between them and the declaration), as statements of their
  /// own, and after the last assignment from inside an inner loop. After
  /// `float v = acc + bias[j]; v = fmaxf(v, 0.0f);` or, after the
  /// reduction loop, `acc += bias[j];`, a later read of the variable is
  /// the new value: the assignment names an expression, like a
  /// declaration does (Chains), so that what follows the reduction stays a
  /// pointwise expression of it. A variable whose every assignment rebinds
  /// it is a let-binding (RebindOnly); the others are accumulators, stored
  /// per element, whose trailing rebindings read the stored value.
  void collectRebindings(const Stmt *S, unsigned Depth, bool IsStatement) {
    if (!S)
      return;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      if (const auto *Init = dyn_cast_or_null<Expr>(For->getInit()))
        if (const VarDecl *Counter = assignedVariable(Init))
          AssignedCounters.insert(Counter);
      // The header's assignments (the iterator's increment) are writes too.
      for (const Stmt *Part : {static_cast<const Stmt *>(For->getInit()),
                               static_cast<const Stmt *>(For->getCond()),
                               static_cast<const Stmt *>(For->getInc())})
        collectRebindings(Part, Depth, false);
      collectRebindings(For->getBody(), Depth + 1, true);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (const Expr *Element = aliasedElement(VD))
            ElementAliases[VD] = Element;
          else
            DeclDepth[VD] = Depth;
        }
    if (const auto *E = dyn_cast<Expr>(S)) {
      // A statement's assignment is recorded once, under the wrappers
      // (parentheses, cleanups) that visitExprStmt strips too.
      const Expr *A = IsStatement ? statementExpr(E) : E;
      if (const VarDecl *VD = assignedVariable(A); VD && !ElementAliases.count(VD))
        Writes[VD].push_back({A, Depth, IsStatement});
      for (const Stmt *Child : A->children())
        collectRebindings(Child, Depth, false);
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      // `if (c) v = x; else v = y;` rebinds v when each branch is that one
      // assignment (visitIf).
      collectRebindings(If->getCond(), Depth, false);
      collectRebindings(If->getThen(), Depth, true);
      collectRebindings(If->getElse(), Depth, true);
      return;
    }
    const bool Block = isa<CompoundStmt>(S);
    for (const Stmt *Child : S->children())
      collectRebindings(Child, Depth, Block);
  }

  /// The names the region refers to, which a suffixed name must avoid.
  void collectNames(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      NamesInRegion.insert(DR->getNameInfo().getAsString());
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *ND = dyn_cast<NamedDecl>(D))
          NamesInRegion.insert(ND->getNameAsString());
    for (const Stmt *Child : S->children())
      collectNames(Child);
  }

  void classifyRebindings() {
    for (auto &[VD, W] : Writes) {
      auto D = DeclDepth.find(VD);
      if (D == DeclDepth.end())
        continue; // not declared in the region
      int LastStored = -1;
      for (size_t I = 0; I < W.size(); ++I)
        if (W[I].Depth != D->second || !W[I].IsStatement ||
            isa<UnaryOperator>(W[I].Assignment))
          LastStored = int(I);
      for (size_t I = LastStored + 1; I < W.size(); ++I)
        Rebinding.insert(W[I].Assignment);
      if (LastStored < 0)
        RebindOnly.insert(VD);
    }
  }

  // ----- statements ------------------------------------------------------
  llvm::Error visit(const Stmt *S) {
    if (const auto *For = dyn_cast<ForStmt>(S))
      return visitFor(For);
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body()) {
        if (auto E = visit(Child))
          return E;
      }
      return llvm::Error::success();
    }
    if (isa<NullStmt>(S))
      return llvm::Error::success();
    // `#pragma unroll` on a loop inside the region: the kernels schedule
    // the loops themselves, so the hint has nothing left to apply to.
    if (const auto *AS = dyn_cast<AttributedStmt>(S);
        AS && llvm::all_of(AS->getAttrs(), [](const Attr *A) { return isa<LoopHintAttr>(A); }))
      return visit(AS->getSubStmt());
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      return visitDecl(DS);
    if (const auto *E = dyn_cast<Expr>(S))
      return visitExprStmt(E);
    if (isa<BreakStmt>(S) || isa<ReturnStmt>(S) || isa<GotoStmt>(S) ||
        isa<ContinueStmt>(S))
      return regionError(S->getBeginLoc(),
                         "early exit from a '#pragma tc' region",
                         "every iteration of the nest must run to completion; "
                         "move the exit condition out of the region");
    if (const auto *If = dyn_cast<IfStmt>(S); If && rebindingBranches(If))
      return visitIf(If);
    if (const auto *If = dyn_cast<IfStmt>(S))
      return visitGuard(If);
    if (isa<WhileStmt>(S) || isa<DoStmt>(S) ||
        isa<SwitchStmt>(S))
      return regionError(S->getBeginLoc(),
                         "control flow other than counted 'for' loops is not "
                         "supported in a '#pragma tc' region",
                         "express conditions inside the computed value, e.g. "
                         "with '?:' or fmaxf");
    return regionError(S->getBeginLoc(),
                       "unsupported statement in a '#pragma tc' region",
                       "a region holds counted 'for' loops, '{ }' blocks, declarations, "
                       "assignments and 'if' guards");
  }

  llvm::Error visitFor(const ForStmt *For) {
    Loop L;
    L.Range = For->getSourceRange();
    const VarDecl *Iter = nullptr;
    // Init: `int i = lb` or `i = lb`.
    const Expr *LowerE = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
      if (DS->isSingleDecl()) {
        if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
          if (VD->getType()->isIntegerType() && VD->getInit()) {
            Iter = VD;
            LowerE = VD->getInit();
          }
      } else if (const VarDecl *Stepped = steppedVariable(For->getInc());
                 Stepped && llvm::is_contained(DS->decls(), Stepped) &&
                 Stepped->getType()->isIntegerType() && Stepped->getInit()) {
        // `for (int i = 0, e = n; i < e; ++i)`: the iterator is the one the
        // increment steps; the others name their initial values, as a
        // declaration in the body does, and may not be assigned.
        if (auto Err = bindLoopConstants(DS, Stepped))
          return Err;
        Iter = Stepped;
        LowerE = Stepped->getInit();
      }
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit())) {
      if (BO->getOpcode() == BO_Assign)
        if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
            if (VD->getType()->isIntegerType()) {
              Iter = VD;
              LowerE = BO->getRHS();
            }
    }
    if (!Iter)
      return regionError(For->getBeginLoc(),
                         "loop initialisation must set one integer iterator",
                         "write 'for (int i = lower; i < upper; ++i)'");
    if (!isa<DeclStmt>(For->getInit()))
      if (auto E = checkCounterDeclaredOutside(Iter, For))
        return E;
    // Sibling loops often reuse a name (two `j` loops); the model needs
    // one name per loop, so later ones get a suffix (j, j_1, ...).
    L.Iterator = Iter->getNameAsString();
    if (isLoopOrSize(L.Iterator))
      L.Iterator = suffixedName(L.Iterator);
    L.TypeSpelling = castTypeName(Iter->getType());
    auto Lower = affine(LowerE);
    if (!Lower)
      return Lower.takeError();
    L.Lower = *Lower;
    const AffineExpr Start = *Lower;
    // Increment: ++i, i++, i += c upwards; --i, i--, i -= c downwards.
    std::optional<int> Step;
    int64_t StepSize = 1;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(For->getInc())) {
      if (refersTo(U->getSubExpr(), Iter))
        Step = U->isIncrementOp() ? 1 : -1;
    } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(For->getInc())) {
      if ((CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
          refersTo(CA->getLHS(), Iter))
        if (const auto *IL = dyn_cast<IntegerLiteral>(CA->getRHS()->IgnoreParenImpCasts())) {
          // A constant step: the model's iterator counts the iterations
          // (LoopOrigins.h).
          if (IL->getValue() == 0 || !IL->getValue().isIntN(62))
            return regionError(CA->getOperatorLoc(),
                               "loop step " + toString(IL->getValue(), 10, false) +
                                   " is not supported",
                               "a loop's step must be a positive constant that fits in 62 bits");
          int64_t V = int64_t(IL->getValue().getZExtValue());
          Step = CA->getOpcode() == BO_AddAssign ? 1 : -1;
          StepSize = V;
        }
    }
    if (!Step)
      return regionError(For->getInc() ? For->getInc()->getBeginLoc()
                                       : For->getBeginLoc(),
                         "loop increment must be '++i', 'i++', 'i += c' or, "
                         "downwards, '--i', 'i--', 'i -= c', with a constant c",
                         "a loop's step must be an integer literal");
    L.Reversed = *Step < 0;
    // Condition: the iterator against a bound, on either side: `i < ub`,
    // `i <= ub`, `i != ub` upwards (`ub > i` alike), `i >= lb`, `i > lb`
    // downwards.
    // A conjunction (`k <= i && k < K`) runs while every bound holds; each
    // bounds the iterator in the loop's direction, so the loop runs over
    // the iterations where all of them hold. One bound is the loop's (one
    // that names no other loop, where there is one); the others guard the
    // body's statements (Statement::Guards).
    std::vector<const Expr *> Conjuncts;
    if (For->getCond())
      conjuncts(For->getCond(), Conjuncts);
    struct Comparison {
      const BinaryOperator *Cond = nullptr;
      std::optional<BinaryOperatorKind> Op;
      const Expr *BoundE = nullptr;
    };
    auto Compare = [&](const Expr *E) {
      Comparison C;
      C.Cond = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
      if (C.Cond && C.Cond->isComparisonOp()) {
        if (refersTo(C.Cond->getLHS(), Iter)) {
          C.Op = C.Cond->getOpcode();
          C.BoundE = C.Cond->getRHS();
        } else if (refersTo(C.Cond->getRHS(), Iter)) {
          C.Op = BinaryOperator::reverseComparisonOp(C.Cond->getOpcode());
          C.BoundE = C.Cond->getLHS();
        }
      }
      return C;
    };
    std::vector<Comparison> Bounds;
    std::vector<const Expr *> Parts; // Conjuncts, one per bound
    for (const Expr *E : Conjuncts) {
      Comparison C = Compare(E);
      // `i < min(a, b)` is `i < a && i < b` (`i > max(a, b)` downwards):
      // std::min, or CUDA's on two values of its result's type.
      // Nested calls alike: `i < min(min(a, b), c)`.
      std::vector<const Expr *> Sides{C.BoundE};
      if (C.Op && C.BoundE &&
          (L.Reversed ? (*C.Op == BO_GT || *C.Op == BO_GE) : (*C.Op == BO_LT || *C.Op == BO_LE)))
        for (size_t At = 0; At < Sides.size();)
          if (auto Pair = boundPair(Sides[At], L.Reversed ? "max" : "min")) {
            Sides.erase(Sides.begin() + At);
            Sides.insert(Sides.end(), Pair->begin(), Pair->end());
          } else {
            ++At;
          }
      for (const Expr *Side : Sides) {
        Bounds.push_back({C.Cond, C.Op, Side});
        Parts.push_back(E);
      }
    }
    Conjuncts = Parts;
    size_t Primary = 0;
    if (Bounds.size() > 1) {
      for (size_t B = 0; B < Bounds.size(); ++B) {
        const Comparison &C = Bounds[B];
        bool InDirection = C.Op && (L.Reversed ? (*C.Op == BO_GT || *C.Op == BO_GE)
                                               : (*C.Op == BO_LT || *C.Op == BO_LE));
        if (!InDirection)
          return regionError(Conjuncts[B]->getBeginLoc(),
                             "each part of a loop condition joined by '&&' must bound the "
                             "iterator " + std::string(L.Reversed ? "from below" : "from above"),
                             L.Reversed ? "write 'i >= lower && i >= other'"
                                        : "write 'i < upper && i <= other'");
      }
      // The loop's own bound: the first that names no enclosing loop.
      Primary = Bounds.size();
      for (size_t B = 0; B < Bounds.size() && Primary == Bounds.size(); ++B)
        if (!namesEnclosingIterator(Bounds[B].BoundE))
          Primary = B;
      if (Primary == Bounds.size())
        Primary = 0;
    }
    const BinaryOperator *Cond = Bounds.empty() ? nullptr : Bounds[Primary].Cond;
    std::optional<BinaryOperatorKind> Op = Bounds.empty() ? std::nullopt : Bounds[Primary].Op;
    const Expr *BoundE = Bounds.empty() ? nullptr : Bounds[Primary].BoundE;
    if (StepSize > 1 && Op && *Op == BO_NE)
      return regionError(Conjuncts[Primary]->getBeginLoc(),
                         "a strided loop's condition must not be '!='",
                         "a step may pass the bound; write 'i < upper' or 'i <= upper'");
    if (StepSize > 1 && *Step < 0 && Iter->getType()->isUnsignedIntegerType())
      return regionError(For->getInc()->getBeginLoc(),
                         "a downward strided loop over the unsigned '" +
                             Iter->getNameAsString() + "' may wrap below 0",
                         "count a signed iterator down, or count upwards");
    bool Upwards = Op && (*Op == BO_LT || *Op == BO_LE || *Op == BO_NE);
    bool Downwards = Op && (*Op == BO_GT || *Op == BO_GE);
    if (L.Reversed ? !Downwards : !Upwards)
      return regionError(For->getCond() ? Conjuncts[Primary]->getBeginLoc()
                                        : For->getBeginLoc(),
                         L.Reversed ? "a downward loop's condition must compare the iterator "
                                      "with '>' or '>=' against a lower bound"
                                    : "loop condition must compare the iterator with '<', "
                                      "'<=' or '!=' against an upper bound",
                         L.Reversed ? "write 'i >= lower' or 'i > lower'"
                                    : "write 'i < upper' or 'i <= upper'");
    Iterators[Iter] = L.Iterator; // bounds of inner loops may use it
    EndedLoopCounters.erase(Iter);  // a counter that runs another loop
    auto BoundOrError = affine(BoundE);
    if (!BoundOrError)
      return BoundOrError.takeError();
    AffineExpr Bound = *BoundOrError;
    if (Bound.involves(L.Iterator))
      return regionError(BoundE->getBeginLoc(),
                         "the bound of the loop over '" + Iter->getNameAsString() +
                             "' depends on '" + Iter->getNameAsString() + "' itself",
                         "bound the loop by an expression of the sizes and the enclosing "
                         "loops' iterators");
    // The source compares and converts wrapped values where it computes in
    // an unsigned type; the model computes in integers. Every value computed
    // unsigned must therefore be one that cannot be negative (mayWrap),
    // except an upward loop's own bound and a downward loop's start (`j <=
    // N - 1` over size_t): their wrap makes the body run past the arrays,
    // which checkWraps then requires (no guard on the iterator inside).
    {
      bool NonNegativeIterator = Iter->getType()->isUnsignedIntegerType();
      if (!NonNegativeIterator) {
        auto Inclusive = L.Reversed && *Op == BO_GT ? Bound + AffineExpr::constant(1) : Bound;
        NonNegativeIterator = nonNegative(L.Reversed ? Inclusive : L.Lower);
      }
      if (NonNegativeIterator)
        NonNegativeIterators.insert(L.Iterator);
      auto Wrapping = [&](const Expr *At) {
        return wrapsError(At, "",
                          "there the source wraps it to a large value and its loop or "
                          "condition runs differently from the integers' one; use signed "
                          "types, or move the subtracted term to the other side of the "
                          "comparison");
      };
      unsigned Loop = unsigned(M.Loops.size());
      if (const Expr *W = mayWrap(LowerE)) {
        if (!L.Reversed)
          return Wrapping(W);
        MayWrapPastArrays.push_back({Loop, W});
      }
      for (size_t B = 0; B < Bounds.size(); ++B) {
        const BinaryOperator *C = Bounds[B].Cond;
        const Expr *IterSide = Bounds[B].BoundE == C->getRHS() ? C->getLHS() : C->getRHS();
        if (const Expr *W = mayWrap(IterSide))
          return Wrapping(W);
        if (const Expr *W = mayWrap(Bounds[B].BoundE)) {
          if (B != Primary || L.Reversed)
            return Wrapping(W);
          MayWrapPastArrays.push_back({Loop, W});
        }
        // (A wrap shrinks a value: an upward loop's bound then runs fewer
        // iterations, a downward one's more.)
        if (auto Err = noteNarrowValues(Bounds[B].BoundE, !L.Reversed))
          return Err;
      }
      // (An upward loop's start of iterators, `j = i + 1`, is reached
      // where no statement runs too: tested over the enclosing loops.)
      if (auto Err = noteNarrowValues(LowerE, L.Reversed,
                                      L.Reversed ? std::string() : L.Iterator))
        return Err;
    }
    // An unsigned iterator never goes below 0: `i >= 0` downwards never
    // ends, and a negative bound converts to a huge one (`i > -1` never
    // runs). Only bounds that keep the source's loop finite are taken.
    if (L.Reversed && Iter->getType()->isUnsignedIntegerType() &&
        ((*Op == BO_GE && !(Bound.isConstant() && Bound.Constant >= 1)) ||
         (*Op == BO_GT && Bound.isConstant() && Bound.Constant < 0)))
      return regionError(Cond->getBeginLoc(),
                         "a downward loop over the unsigned '" + Iter->getNameAsString() +
                             "' with this condition never ends or never runs",
                         "count down to the bound with '>': 'for (unsigned i = n; i > 0; --i)'");
    // `<=` and `>` bounds are one off the exclusive and inclusive ones.
    if (*Op == BO_LE || *Op == BO_GT) {
      auto Off = checkedResult(Bound + AffineExpr::constant(1), Cond->getOperatorLoc());
      if (!Off)
        return Off.takeError();
      Bound = *Off;
    }
    if (StepSize > 1) {
      // From the start in steps to the bound (Loop::Step).
      L.UpperExclusive = Bound;
      L.Step = L.Reversed ? -StepSize : StepSize;
    } else if (L.Reversed) {
      // From the start down to the bound: [bound, start + 1).
      auto End = checkedResult(L.Lower + AffineExpr::constant(1), For->getBeginLoc());
      if (!End)
        return End.takeError();
      L.Lower = Bound;
      L.UpperExclusive = *End;
    } else {
      L.UpperExclusive = Bound;
    }
    // An iterator narrower than int wraps around its type where the loop
    // would pass the type's range: `for (unsigned char i = 250; i != 4;
    // ++i)` runs ten times in the source (250 to 255, then 0 to 3), `i <
    // 300` never ends, and `i = 250; i < 254; i += 3` goes on from 253 to
    // 0 (the step computes in int, the assignment converts back). The
    // loop is the integers' only where no step from an iterate leaves the
    // type: from the last iterate (the bound's neighbour where the start
    // is not known), the next value must stay in range.
    // An unsigned int wraps alike, without promotion (`i += 3` from
    // 4294967290u); checked where a bound is a constant.
    if (const unsigned Width = Ctx.getIntWidth(Iter->getType());
        Width < Ctx.getIntWidth(Ctx.IntTy) ||
        (Width == 32 && Iter->getType()->isUnsignedIntegerType())) {
      const bool Narrow = Width < Ctx.getIntWidth(Ctx.IntTy);
      const bool Unsigned = Iter->getType()->isUnsignedIntegerType();
      const int64_t Max = llvm::APSInt::getMaxValue(Width, Unsigned).getExtValue();
      const int64_t Min = llvm::APSInt::getMinValue(Width, Unsigned).getExtValue();
      const std::string What = "the loop over '" + Iter->getNameAsString() + "' of type '" +
                               typeName(Iter->getType()) + "'";
      if (Narrow && *Op == BO_NE && !L.Reversed && StepSize == 1 &&
          !nonNegative(L.UpperExclusive + L.Lower * -1))
        return regionError(Conjuncts[Primary]->getBeginLoc(),
                           What + " may start past its bound: the source wraps it around "
                                  "its type's range then",
                           "count with '<', or declare the iterator 'int'");
      // The tightest constant among the condition's bounds (upwards
      // exclusive, downwards inclusive, as Bound is adjusted above); a
      // bound of the iterator's own type (`short i < n` of a short n)
      // keeps a unit step upwards in range too.
      std::optional<int64_t> Tightest;
      bool OwnType = false;
      for (size_t C = 0; C < Bounds.size(); ++C) {
        std::optional<int64_t> Each;
        if (C == Primary) {
          if (Bound.isConstant())
            Each = Bound.Constant;
        } else if (std::optional<llvm::APSInt> V =
                       Bounds[C].BoundE->isValueDependent()
                           ? std::nullopt
                           : Bounds[C].BoundE->getIntegerConstantExpr(Ctx);
                   V && V->getSignificantBits() <= 63) {
          Each = V->getExtValue() + (*Bounds[C].Op == BO_LE || *Bounds[C].Op == BO_GT);
        }
        if (Each)
          Tightest = !Tightest ? *Each
                     : L.Reversed ? std::max(*Tightest, *Each)
                                  : std::min(*Tightest, *Each);
        const QualType BoundType = Bounds[C].BoundE->IgnoreParenImpCasts()->getType();
        OwnType |= BoundType->isIntegerType() && representsAll(Iter->getType(), BoundType);
      }
      if (Narrow && !Tightest && !(OwnType && !L.Reversed && StepSize == 1))
        return regionError(Conjuncts[Primary]->getBeginLoc(),
                           What + " may pass its type's range, where the source wraps it: "
                                  "its bound is not a constant",
                           "declare the iterator 'int'");
      const int64_t B = Tightest ? *Tightest : 0;
      std::optional<int64_t> Last;
      if (Tightest)
        Last = L.Reversed ? B : B - 1;
      if (Tightest && Start.isConstant()) {
        const int64_t S = Start.Constant;
        if (L.Reversed ? S < B : S >= B)
          Last.reset(); // no iterate
        else
          Last = L.Reversed ? S - StepSize * ((S - B) / StepSize)
                            : S + StepSize * ((B - 1 - S) / StepSize);
      }
      if (Last && (L.Reversed ? *Last - StepSize < Min : *Last + StepSize > Max))
        return regionError(Conjuncts[Primary]->getBeginLoc(),
                           What + " never ends: the source wraps it around its type's range "
                                  "from " + std::to_string(*Last) + " on",
                           "declare the iterator 'int'");
    }
    // The other conjuncts: `i < b` is b - i - 1 >= 0, `i >= b` is i - b >= 0.
    size_t Pushed = 0;
    for (size_t B = 0; B < Bounds.size(); ++B) {
      if (B == Primary)
        continue;
      auto Other = affine(Bounds[B].BoundE);
      if (!Other)
        return Other.takeError();
      AffineExpr It = AffineExpr::symbol(L.Iterator);
      BinaryOperatorKind O = *Bounds[B].Op;
      AffineExpr G = O == BO_LT || O == BO_LE ? *Other + It * -1 : It + *Other * -1;
      if (O == BO_LT || O == BO_GT)
        G = G + AffineExpr::constant(-1);
      auto Checked = checkedResult(G, Bounds[B].Cond->getOperatorLoc());
      if (!Checked)
        return Checked.takeError();
      GuardStack.push_back(*Checked);
      ++Pushed;
    }
    M.Loops.push_back(L);
    LoopStack.push_back(M.Loops.size() - 1);
    CounterStack.push_back(Iter);
    Position.back()++;
    Position.push_back(0);
    llvm::Error E = visit(For->getBody());
    Position.pop_back();
    LoopStack.pop_back();
    CounterStack.pop_back();
    // After its loop, a counter declared outside it holds where the loop
    // stopped, which is no iterator of the model (EndedLoopCounters).
    EndedLoopCounters.insert(Iter);
    GuardStack.resize(GuardStack.size() - Pushed);
    return E;
  }

  /// The loop counter whose model name is Sym, or null (a size).
  const VarDecl *iteratorNamed(const std::string &Sym) const {
    const auto It = llvm::find_if(Iterators, [&](auto &V) { return V.second == Sym; });
    return It == Iterators.end() ? nullptr : It->first;
  }

  /// Whether E cannot be negative: non-negative terms of sizes (assumed
  /// not negative) and of iterators that never are.
  bool nonNegative(const AffineExpr &E) const {
    if (E.Constant < 0)
      return false;
    for (auto &[Sym, Coeff] : E.Coeffs) {
      if (Coeff < 0)
        return false;
      if (iteratorNamed(Sym) && !NonNegativeIterators.count(Sym))
        return false;
    }
    return true;
  }

  /// The innermost subexpression of E computed in an unsigned type whose
  /// integer value may be negative (`K - i`, `(unsigned)(i - 2)`, an int
  /// iterator from -1 converted for a comparison with an unsigned size),
  /// or null.
  const Expr *mayWrap(const Expr *E) {
    E = E->IgnoreParens();
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        if (const Expr *Inner = mayWrap(CE))
          return Inner;
    QualType T = E->getType();
    if (!T->isUnsignedIntegerType() || T->isBooleanType())
      return nullptr;
    // An unsigned iterator is never negative, and a size (converted as the
    // source converts it) is the value the launch passes: reading it
    // through affine() would also make a size that is only converted a
    // parameter. A let-binding's value is its binding's.
    const Expr *Read = E->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(Read);
        DR && Read->getType()->isUnsignedIntegerType())
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && Iterators.count(VD))
        return nullptr;
    if (convertedSpelling(E))
      return nullptr;
    auto A = affine(E);
    if (!A) {
      llvm::consumeError(A.takeError()); // not a bound: refused elsewhere
      return nullptr;
    }
    return nonNegative(*A) ? nullptr : E;
  }

  /// The text of R as written; empty where it is not one range of the file
  /// (inside a macro's expansion).
  std::string sourceText(SourceRange R) const {
    CharSourceRange Written = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(R), Ctx.getSourceManager(), Ctx.getLangOpts());
    if (Written.isInvalid())
      return "";
    return Lexer::getSourceText(Written, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
  }

  /// The error at a value mayWrap found, with what the source does there.
  llvm::Error wrapsError(const Expr *At, const std::string &Where, const std::string &Note) {
    std::string Text = sourceText(At->getSourceRange());
    return regionError(At->getBeginLoc(),
                       (Text.empty() ? std::string("a value") : "'" + Text + "'") +
                           " is computed unsigned and may be negative" + Where,
                       Note);
  }

  /// A wrapped bound or start is taken (MayWrapPastArrays) only where the
  /// wrapped loop would run its body past an array: no guard inside names
  /// the iterator, and a statement inside indexes an array with it.
  llvm::Error checkWraps() {
    for (auto &[Li, At] : MayWrapPastArrays) {
      const std::string &It = M.Loops[Li].Iterator;
      bool Guarded = false, Indexes = false;
      for (const Statement &S : M.Stmts) {
        if (std::find(S.Loops.begin(), S.Loops.end(), Li) == S.Loops.end())
          continue;
        for (const AffineExpr &G : S.Guards)
          Guarded |= G.involves(It);
        for (const Access *A : S.accesses())
          if (!M.Arrays[A->ArrayId].IsLocalScalar)
            for (const AffineExpr &X : A->Index)
              Indexes |= X.involves(It);
      }
      if (Guarded || !Indexes)
        return wrapsError(At, "",
                          Guarded ? "where it wraps, the loop runs on and the condition on '" +
                                        It + "' inside keeps it in bounds, unlike the "
                                        "integers' loop; use signed types"
                                  : "where it wraps, the loop runs on without reading an "
                                    "array by '" + It + "', unlike the integers' loop; use "
                                    "signed types");
    }
    return llvm::Error::success();
  }

  /// The two arguments of a call of the library's `Name` (std::min,
  /// CUDA's min; max) whose arguments are of its result's type, or convert
  /// to it without a change of value (`std::min<size_t>(M, 4096)`: a
  /// constant it represents, a narrower type it represents all of), so
  /// that no conversion is made that a comparison of each would not make.
  std::optional<std::array<const Expr *, 2>> boundPair(const Expr *E, llvm::StringRef Name) const {
    const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || Callee->getName() != Name || Call->getNumArgs() != 2 ||
        !isLibraryDeclaration(Callee))
      return std::nullopt;
    const QualType T = Call->getType().getNonReferenceType().getCanonicalType().getUnqualifiedType();
    if (!T->isIntegerType())
      return std::nullopt;
    std::array<const Expr *, 2> Args;
    for (unsigned I = 0; I < 2; ++I) {
      Args[I] = Call->getArg(I)->IgnoreImplicit();
      const QualType From = Args[I]->getType().getCanonicalType().getUnqualifiedType();
      if (From == T)
        continue;
      if (!From->isIntegerType())
        return std::nullopt;
      if (std::optional<llvm::APSInt> V = Args[I]->getIntegerConstantExpr(Ctx)) {
        const unsigned W = Ctx.getIntWidth(T);
        const bool Unsigned = T->isUnsignedIntegerType();
        if (llvm::APSInt::compareValues(*V, llvm::APSInt::getMinValue(W, Unsigned)) < 0 ||
            llvm::APSInt::compareValues(*V, llvm::APSInt::getMaxValue(W, Unsigned)) > 0)
          return std::nullopt;
        continue;
      }
      if (!representsAll(T, From))
        return std::nullopt;
    }
    return Args;
  }

  /// The operands of a chain of `&&`, in order.
  static void conjuncts(const Expr *E, std::vector<const Expr *> &Out) {
    const Expr *Bare = E->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(Bare); BO && BO->getOpcode() == BO_LAnd) {
      conjuncts(BO->getLHS(), Out);
      conjuncts(BO->getRHS(), Out);
      return;
    }
    Out.push_back(E);
  }

  /// Whether E reads the iterator of a loop around it in the region.
  bool namesEnclosingIterator(const Expr *E) const {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && Iterators.count(VD))
        return true;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child); CE && namesEnclosingIterator(CE))
        return true;
    return false;
  }

  /// An `if` around statements that names no value, only iterators and
  /// sizes: `if (i <= j)`, `if (k < i && j < N)`. Its statements run where
  /// the condition holds, which their domains say (Statement::Guards);
  /// conditions on values belong in the value (`?:`, visitIf).
  llvm::Error visitGuard(const IfStmt *If) {
    if (If->getInit() || If->getConditionVariable() || If->isConstexpr() || If->isConsteval())
      return regionError(If->getBeginLoc(),
                         "an 'if' with an initialiser, a declaration or 'constexpr' is not "
                         "supported in a '#pragma tc' region",
                         "write the condition as a comparison of iterators and sizes");
    size_t Before = GuardStack.size();
    std::vector<const Expr *> Parts;
    conjuncts(If->getCond(), Parts);
    for (const Expr *Part : Parts)
      if (auto E = guardConstraints(Part))
        return E;
    if (If->getElse())
      return regionError(If->getElseLoc(),
                         "an 'if' around statements may not have an 'else'",
                         "an 'if' that stores is a guard: its statements run where the "
                         "condition holds; write the other branch as a guard of its own "
                         "or select values with '?:'");
    llvm::Error E = visit(If->getThen());
    GuardStack.resize(Before);
    return E;
  }

  /// Pushes the constraints `G >= 0` of one comparison of a guard.
  llvm::Error guardConstraints(const Expr *Part) {
    const auto *BO = dyn_cast<BinaryOperator>(Part->IgnoreParenImpCasts());
    const char *Note = "a guard is a conjunction ('&&') of comparisons ('<', '<=', '>', "
                       "'>=', '==') of iterators and sizes; a condition on values goes "
                       "inside the computed value, with '?:' or fmaxf";
    if (!BO || !BO->isComparisonOp() || BO->getOpcode() == BO_NE ||
        !BO->getLHS()->getType()->isIntegerType() || !BO->getRHS()->getType()->isIntegerType())
      return regionError(Part->getBeginLoc(),
                         BO && BO->getOpcode() == BO_LOr
                             ? "'||' in the condition of an 'if' around statements"
                         : BO && BO->getOpcode() == BO_NE
                             ? "'!=' in the condition of an 'if' around statements"
                             : "the condition of an 'if' around statements must compare "
                               "iterators and sizes",
                         Note);
    auto Side = [&](const Expr *E) -> llvm::Expected<AffineExpr> {
      auto A = affine(E);
      if (!A) {
        llvm::consumeError(A.takeError());
        return regionError(E->getBeginLoc(),
                           "the condition of an 'if' around statements must compare "
                           "iterators and sizes",
                           Note);
      }
      return *A;
    };
    auto L = Side(BO->getLHS());
    if (!L)
      return L.takeError();
    auto R = Side(BO->getRHS());
    if (!R)
      return R.takeError();
    // An unsigned comparison compares the wrapped values: only values that
    // cannot be negative are compared as written.
    for (const Expr *Operand : {BO->getLHS(), BO->getRHS()}) {
      if (const Expr *W = mayWrap(Operand))
        return wrapsError(W, " in the condition of an 'if' around statements",
                          "there the source wraps it to a large value; compare signed "
                          "values, or move the subtracted term to the other side");
      // (A wrap shrinks a value: on the greater side of the comparison the
      // condition then holds less often.)
      const BinaryOperatorKind Op = BO->getOpcode();
      const bool Greater = Operand == BO->getRHS() ? Op == BO_LT || Op == BO_LE
                                                   : Op == BO_GT || Op == BO_GE;
      if (auto Err = noteNarrowValues(Operand, Greater))
        return Err;
    }
    auto Push = [&](AffineExpr G) -> llvm::Error {
      auto Checked = checkedResult(G, BO->getOperatorLoc());
      if (!Checked)
        return Checked.takeError();
      GuardStack.push_back(*Checked);
      return llvm::Error::success();
    };
    AffineExpr Minus = *R + *L * -1; // R - L
    AffineExpr Plus = *L + *R * -1;  // L - R
    switch (BO->getOpcode()) {
    case BO_LT: return Push(Minus + AffineExpr::constant(-1));
    case BO_LE: return Push(Minus);
    case BO_GT: return Push(Plus + AffineExpr::constant(-1));
    case BO_GE: return Push(Plus);
    default: // BO_EQ
      if (auto E = Push(Minus))
        return E;
      return Push(Plus);
    }
  }

  /// The variable a loop's increment steps (`++i`, `i += 2`), or null.
  static const VarDecl *steppedVariable(const Expr *Inc) {
    const Expr *Subject = nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
      Subject = U->getSubExpr();
    else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
      Subject = CA->getLHS();
    const auto *DR = Subject ? dyn_cast<DeclRefExpr>(Subject->IgnoreParenImpCasts()) : nullptr;
    return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  }

  /// The declarations of a loop's initialisation besides its iterator:
  /// integers bound to their initial values (`e = n`), never assigned.
  llvm::Error bindLoopConstants(const DeclStmt *DS, const VarDecl *Iter) {
    for (const Decl *D : DS->decls()) {
      if (D == Iter)
        continue;
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->getType()->isIntegerType() || !VD->getInit() ||
          VD->getInit()->HasSideEffects(Ctx) || Writes.count(VD))
        return regionError(D->getLocation(),
                           "a loop's initialisation declares '" +
                               cast<NamedDecl>(D)->getNameAsString() +
                               "' besides its iterator, which is not an integer named for "
                               "its initial value",
                           "besides the iterator, declare only integers that the region "
                           "never assigns ('for (int i = 0, e = n; i < e; ++i)')");
      Chains[VD].push_back({VD->getInit(), "", Now, StoreCount});
      Now[VD] = 0;
    }
    return llvm::Error::success();
  }

  /// Whether E names the counter of a loop of the region.
  bool isCounterRef(const Expr *E) const {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return VD && (Iterators.count(VD) || AssignedCounters.count(VD));
  }
  /// Whether VD counts a loop around the statement being visited: its
  /// value is the same wherever a binding made here is used.
  bool isActiveCounter(const VarDecl *VD) const {
    return std::find(CounterStack.begin(), CounterStack.end(), VD) != CounterStack.end();
  }
  /// A counter the expression E reads whose loop does not run around the
  /// statement being visited (one declared before the region, before or
  /// after its loop): a binding made here would read its value now, the
  /// model the iterator's at each use.
  const DeclRefExpr *inactiveCounter(const Stmt *E) const {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
          VD && (Iterators.count(VD) || AssignedCounters.count(VD)) && !isActiveCounter(VD))
        return DR;
    for (const Stmt *Child : E->children())
      if (Child)
        if (const DeclRefExpr *Found = inactiveCounter(Child))
          return Found;
    return nullptr;
  }

  /// The element a reference declared in the region names (`float &c =
  /// C[i * N + j];`, `const __half &a = *(A + i * K + k);`), or null: its
  /// uses are that element's reads and writes (ElementAliases). Exact,
  /// since the iterators its subscript names hold the same values wherever
  /// the reference is in scope (laterVariable keeps it to those).
  const Expr *aliasedElement(const VarDecl *VD) const {
    if (!VD->getType()->isLValueReferenceType() || !VD->getInit() || VD->isStaticLocal())
      return nullptr;
    const Expr *Init = VD->getInit()->IgnoreParens();
    // A const reference to an element that is not const: the qualification
    // conversion binds the element itself.
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Init); Cast && Cast->getCastKind() == CK_NoOp)
      Init = Cast->getSubExpr()->IgnoreParens();
    const auto *Deref = dyn_cast<UnaryOperator>(Init);
    if (!isa<ArraySubscriptExpr>(Init) && !(Deref && Deref->getOpcode() == UO_Deref))
      return nullptr;
    // Bound to the element itself, not to a converted temporary.
    if (!Ctx.hasSameUnqualifiedType(Init->getType(), VD->getType().getNonReferenceType()))
      return nullptr;
    return Init;
  }
  llvm::Error visitDecl(const DeclStmt *DS) {
    for (const Decl *D : DS->decls()) {
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && ElementAliases.count(VD)) {
        // Its element is read again at each use: effects would repeat, or
        // vanish where it is not used.
        if (ElementAliases[VD]->HasSideEffects(Ctx))
          return regionError(VD->getLocation(),
                             "the element that '" + VD->getNameAsString() +
                                 "' refers to is indexed by an expression that may have effects",
                             "compute the index before the region");
        // Its subscript may name the loops' iterators, the region's
        // pointer views and what the region does not declare.
        if (const DeclRefExpr *Late = laterVariable(
                ElementAliases[VD], {CounterStack.begin(), CounterStack.end()}))
          return regionError(Late->getLocation(),
                             "the element that '" + VD->getNameAsString() +
                                 "' refers to is indexed by '" +
                                 Late->getDecl()->getNameAsString() +
                                 "', a variable of the region",
                             "index the element a reference names with the loops' iterators");
        continue;
      }
      const auto *VD = dyn_cast<VarDecl>(D);
      if (VD && VD->getType()->isReferenceType())
        return regionError(VD->getLocation(),
                           "reference '" + VD->getNameAsString() +
                               "' is not bound to an array element of its type",
                           "bind a reference to an element ('float &c = C[i * N + j];'), or "
                           "declare a value ('float c = ...;')");
      if (!VD || (!VD->getType()->isScalarType() && classify(VD->getType()) == ElementType::Other))
        return regionError(D->getLocation(),
                           "only scalar accumulators may be declared inside a "
                           "'#pragma tc' region",
                           "declare arrays, structs and other variables before the "
                           "region");
      // A static or thread_local local keeps its value from one element
      // (and call) to the next; the kernels' locals are each element's.
      if (VD->isStaticLocal() || VD->getTLSKind() != VarDecl::TLS_None)
        return regionError(VD->getLocation(),
                           "'" + VD->getNameAsString() + "' is a " +
                               (VD->getTLSKind() != VarDecl::TLS_None ? "thread_local"
                                                                       : "static") +
                               " variable declared in the region",
                           "its value carries from one element to the next, which the "
                           "kernels do not keep; declare it without the storage class");
      // A loop's counter declared before its loop, in the region: the
      // model's iterators are the loops'; the variable's value around them
      // is not modelled.
      if (AssignedCounters.count(VD))
        return regionError(VD->getLocation(),
                           "'" + VD->getNameAsString() +
                               "' is declared in the region and counts a loop of it",
                           "declare the counter in its loop: 'for (int " +
                               VD->getNameAsString() + " = ...'");
      // A pointer is a view into an array (pointerView) when it is bound
      // once; one that moves points where the iterations before left it.
      if (VD->getType()->isPointerType() && Writes.count(VD))
        return regionError(VD->getLocation(),
                           "pointer '" + VD->getNameAsString() +
                               "' is declared in the region and assigned",
                           "bind it once, to an array plus an offset ('const __half *a = A + "
                           "i * K;'), or index the array itself");
      // Variables the region assigns after their declaration are
      // accumulators, unless every assignment rebinds them. The others are
      // names for values (let-bindings, `float a = A[i * K + k];`),
      // substituted where they are used.
      if (!Writes.count(VD) || RebindOnly.count(VD)) {
        // A name for values: each read is the value of the binding it sees,
        // so one never read is dropped, which its initialiser's effects
        // (a call that counts, prints or writes) must not be.
        if (VD->getInit() && VD->getInit()->HasSideEffects(Ctx) && !mentions(RegionRoot, VD))
          return regionError(VD->getLocation(),
                             "the initialiser of '" + VD->getNameAsString() +
                                 "' may have effects, and the region never reads it",
                             "remove the variable, or compute it before the region");
        if (VD->getType()->isPointerType())
          CountersAtBinding[VD] = {CounterStack.begin(), CounterStack.end()};
        else if (const DeclRefExpr *Late = VD->getInit() ? inactiveCounter(VD->getInit())
                                                          : nullptr)
          return regionError(Late->getLocation(),
                             "'" + VD->getNameAsString() + "' is bound to a value of '" +
                                 Late->getDecl()->getNameAsString() +
                                 "', the counter of a loop that does not run around the "
                                 "binding",
                             "the loop's iterator is the model's, not the counter's value "
                             "before or after its loop; declare the counter in its loop");
        if (VD->getInit()) {
          Chains[VD].push_back({VD->getInit(), "", Now, StoreCount});
          Now[VD] = 0;
        } else {
          Now[VD] = -1; // read before assigned: an error at the read
        }
        continue;
      }
      // A scalar declared inside the nest is expanded over the enclosing
      // loops: `float acc` inside loops i, j is the array acc[i][j].
      Array A;
      A.Name = VD->getNameAsString();
      A.SourceName = A.Name;
      A.DeclTypeSpelling = kernelTypeName(VD->getType());
      A.Elem = classify(VD->getType());
      A.ElemSpelling = castTypeName(VD->getType());
      A.IsLocalScalar = true;
      A.DeclLoc = VD->getLocation();
      for (size_t I = 0; I < LoopStack.size(); ++I)
        A.Strides.push_back(Polynomial::constant(1)); // shape is not needed
      if (int Other = M.findArray(A.Name); Other >= 0) {
        // A local of a sibling nest (`float acc` in each of two nests) is
        // another variable: like sibling loops' iterators, it gets a
        // suffix. One still in scope is shadowed, which the model refuses.
        auto Namesake = llvm::find_if(
            Locals, [&](const auto &Local) { return int(Local.second.first) == Other; });
        bool InScope = true; // or not a local: a variable from outside
        if (Namesake != Locals.end()) {
          const std::vector<unsigned> &Scope = Namesake->second.second;
          InScope = Scope.size() <= LoopStack.size() &&
                    std::equal(Scope.begin(), Scope.end(), LoopStack.begin());
        }
        if (InScope)
          return regionError(VD->getLocation(),
                             "'" + A.Name + "' shadows another variable of the region",
                             "give the inner variable a name of its own");
        A.Name = suffixedName(A.Name);
      }
      M.Arrays.push_back(A);
      Locals[VD] = {unsigned(M.Arrays.size() - 1), LoopStack};
      if (const Expr *Init = VD->getInit()) {
        Statement S = newStatement(VD->getSourceRange());
        S.Write = localAccess(VD, VD->getLocation());
        auto V = expr(Init, S);
        if (!V)
          return V.takeError();
        S.Value = *V;
        ++StoreCount[S.Write.ArrayId];
        M.Stmts.push_back(std::move(S));
      }
    }
    return llvm::Error::success();
  }

  /// Name_1, Name_2, ...: the first that no loop, size, scalar or array of
  /// the model so far, and no name the region refers to, is called: the
  /// model's name of a sibling's loop or local.
  bool isLoopOrSize(const std::string &Name) const {
    for (auto &L : M.Loops)
      if (L.Iterator == Name)
        return true;
    for (auto &P : M.Params)
      if (P.Name == Name)
        return true;
    return false;
  }
  std::string suffixedName(const std::string &Name) const {
    for (unsigned Suffix = 1;; ++Suffix)
      if (std::string S = Name + "_" + std::to_string(Suffix); !nameIsTaken(S))
        return S;
  }
  bool nameIsTaken(const std::string &Name) const {
    if (NamesInRegion.count(Name) || isLoopOrSize(Name))
      return true;
    for (auto &S : M.Scalars)
      if (S.Name == Name)
        return true;
    return M.findArray(Name) >= 0;
  }

  /// The assignment a branch of an `if` consists of: one expression
  /// statement, braced or not.
  static const Expr *branchAssignment(const Stmt *S) {
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
      S = CS->size() == 1 ? CS->body_front() : nullptr;
    const auto *E = dyn_cast_or_null<Expr>(S);
    return E ? statementExpr(E) : nullptr;
  }

  /// The variable an `if` rebinds in each of its branches, if that is all
  /// it does: `if (v < 0.0f) v = 0.0f;` is `v = v < 0.0f ? 0.0f : v;`.
  /// An `else if` chain counts as one `if`: each of its branches rebinds
  /// the same variable.
  const VarDecl *rebindingBranches(const IfStmt *If) const {
    if (If->getInit() || If->getConditionVariable() || If->isConstexpr() || If->isConsteval())
      return nullptr;
    const Expr *Then = branchAssignment(If->getThen());
    if (!Then || !Rebinding.count(Then))
      return nullptr;
    const VarDecl *VD = assignedVariable(Then);
    if (const Stmt *Else = If->getElse()) {
      if (const auto *ElseIf = dyn_cast<IfStmt>(Else))
        return rebindingBranches(ElseIf) == VD ? VD : nullptr;
      const Expr *E = branchAssignment(Else);
      if (!E || !Rebinding.count(E) || assignedVariable(E) != VD)
        return nullptr;
    }
    return VD;
  }

  /// Splits an assignment statement into its target, value and operator
  /// ("" for `=`, else the arithmetic of a compound assignment).
  llvm::Error splitAssignment(const Expr *E, const Expr *&LHS, const Expr *&RHS,
                              std::string &Op) {
    LHS = RHS = nullptr;
    Op.clear();
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
      LHS = CA->getLHS();
      RHS = CA->getRHS();
      Op = BinaryOperator::getOpcodeStr(
               BinaryOperator::getOpForCompoundAssignment(CA->getOpcode()))
               .str();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E);
               BO && BO->getOpcode() == BO_Assign) {
      LHS = BO->getLHS();
      RHS = BO->getRHS();
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
               OC && OC->isAssignmentOp() && OC->getNumArgs() == 2) {
      LHS = OC->getArg(0);
      RHS = OC->getArg(1);
      switch (OC->getOperator()) {
      case OO_Equal: break;
      case OO_PlusEqual: Op = "+"; break;
      case OO_MinusEqual: Op = "-"; break;
      case OO_StarEqual: Op = "*"; break;
      case OO_SlashEqual: Op = "/"; break;
      default:
        return regionError(E->getExprLoc(), "unsupported compound assignment",
                           "a region may use '=', '+=', '-=', '*=' and '/='");
      }
      if (!isLibraryDeclaration(OC->getDirectCallee()))
        return regionError(E->getExprLoc(),
                           "assignment by an operator of the user's (" + operatorOfType(OC) +
                               ")",
                           "a region may use the assignments of __half and __nv_bfloat16 "
                           "and the built-in ones");
    } else if (const auto *U = dyn_cast<UnaryOperator>(E);
               U && U->isIncrementDecrementOp() && isCounterRef(U->getSubExpr())) {
      // `k++;` in the body: the loop then steps otherwise than its header.
      return regionError(U->getExprLoc(),
                         "the body changes the loop counter '" +
                             cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts())
                                 ->getDecl()
                                 ->getNameAsString() +
                             "'",
                         "step a loop only in its header ('k += 2')");
    } else {
      return regionError(E->getExprLoc(),
                         "expression statement without an assignment in a "
                         "'#pragma tc' region",
                         "each statement must assign one array element or "
                         "accumulator");
    }
    return llvm::Error::success();
  }

  /// An `if` whose branches rebind one variable: a binding that selects
  /// between the branches' values (the previous value without an else).
  llvm::Error visitIf(const IfStmt *If) {
    const VarDecl *VD = rebindingBranches(If);
    Binding B{nullptr, "", Now, StoreCount};
    B.If = If;
    Chains[VD].push_back(std::move(B));
    Now[VD] = int(Chains[VD].size()) - 1;
    return llvm::Error::success();
  }

  llvm::Error visitExprStmt(const Expr *E) {
    E = statementExpr(E);
    const Expr *LHS, *RHS;
    std::string Op; // "" for plain assignment, else the arithmetic operator
    if (auto Err = splitAssignment(E, LHS, RHS, Op))
      return Err;
    if (Rebinding.count(E)) {
      const VarDecl *VD = assignedVariable(E);
      Chains[VD].push_back({RHS, Op, Now, StoreCount});
      Now[VD] = int(Chains[VD].size()) - 1;
      return llvm::Error::success();
    }
    Statement S = newStatement(E->getSourceRange());
    auto W = writeAccess(LHS);
    if (!W)
      return W.takeError();
    S.Write = *W;
    auto V = expr(RHS, S);
    if (!V)
      return V.takeError();
    if (Op.empty()) {
      S.Value = *V;
    } else {
      auto Old = ExprNode::make(ExprNode::Read, "");
      Old->AccessId = S.Reads.size();
      S.Reads.push_back(S.Write);
      S.Value = ExprNode::make(ExprNode::Binary, Op, {Old, *V});
    }
    ++StoreCount[S.Write.ArrayId];
    M.Stmts.push_back(std::move(S));
    return llvm::Error::success();
  }

  /// The value of binding Index of VD (Chains), read by statement S: its
  /// expression as the variables were bound where it was written, combined
  /// with the previous value for a compound assignment, converted to the
  /// variable's type as the assignment converts it.
  llvm::Expected<ExprPtr> boundValue(const VarDecl *VD, int Index, Statement &S) {
    const Binding &B = Chains[VD][Index];
    // Each read of a name copies its value's expression: a chain of `if`s
    // without else, each reading the name more than once, grows
    // exponentially. Past a bound the statement is rejected.
    if (++Expansions > MaxExpansions)
      return regionError(S.Range.getBegin(),
                         "the statement's value is too large once the locals it reads "
                         "are substituted",
                         "store intermediate values in an array named in temp(...)");
    auto SavedNow = Now;
    const std::map<unsigned, unsigned> *SavedStores = ValueStores;
    Now = B.Seen;
    ValueStores = &B.Stores;
    auto V = B.If ? selectBranch(VD, Index, B.If, S)
                  : assignedValue(VD, Index, B.Value, B.Op, S);
    Now = std::move(SavedNow);
    ValueStores = SavedStores;
    return V;
  }

  /// A read of array Id inside a bound value (ValueStores) is made where the
  /// value is used; it must read what it read where the value was bound:
  /// no store to the array in between.
  llvm::Error checkNotStoredSince(unsigned Id, SourceLocation Loc) {
    if (!ValueStores)
      return llvm::Error::success();
    // Stores to other arrays since the binding do not change what it read,
    // unless those arrays overlap this one (RegionModel::ReadsMovedPastStores).
    if (!M.Arrays[Id].IsLocalScalar)
      for (auto &[Other, Count] : StoreCount) {
        auto Then = ValueStores->find(Other);
        if (Other != Id && !M.Arrays[Other].IsLocalScalar &&
            Count != (Then == ValueStores->end() ? 0 : Then->second))
          M.ReadsMovedPastStores = true;
      }
    auto Then = ValueStores->find(Id);
    unsigned Before = Then == ValueStores->end() ? 0 : Then->second;
    auto Now = StoreCount.find(Id);
    if ((Now == StoreCount.end() ? 0 : Now->second) == Before)
      return llvm::Error::success();
    return regionError(Loc,
                       "'" + M.Arrays[Id].Name +
                           "' is stored to between this read and a use of the local "
                           "value that reads it",
                           "use the value before the store, or keep it in an array "
                           "named in temp(...)");
  }

  /// Binding Index made by an `if` (or an `else if` of it): its condition
  /// selects the then branch's value, or the else branch's, or without one
  /// the previous value.
  llvm::Expected<ExprPtr> selectBranch(const VarDecl *VD, int Index, const IfStmt *If,
                                       Statement &S) {
    auto Cond = expr(If->getCond(), S);
    if (!Cond)
      return Cond;
    auto Then = branchValue(VD, Index, If->getThen(), S);
    if (!Then)
      return Then;
    auto Else = If->getElse() ? branchValue(VD, Index, If->getElse(), S)
                              : readVariable(VD, Index - 1, S, If->getIfLoc());
    if (!Else)
      return Else;
    return ExprNode::make(ExprNode::Conditional, "?:", {*Cond, *Then, *Else});
  }

  /// The value a branch of an `if` binding gives VD.
  llvm::Expected<ExprPtr> branchValue(const VarDecl *VD, int Index, const Stmt *Branch,
                                      Statement &S) {
    if (const auto *ElseIf = dyn_cast<IfStmt>(Branch))
      return selectBranch(VD, Index, ElseIf, S);
    const Expr *LHS, *RHS;
    std::string Op;
    if (auto E = splitAssignment(branchAssignment(Branch), LHS, RHS, Op))
      return std::move(E);
    return assignedValue(VD, Index, RHS, Op, S);
  }

  /// The value `VD Op= Value` gives VD after binding Index - 1, in VD's type.
  llvm::Expected<ExprPtr> assignedValue(const VarDecl *VD, int Index, const Expr *Value,
                                        const std::string &Op, Statement &S) {
    auto V = expr(Value, S);
    if (!V)
      return V;
    ExprPtr Result = *V;
    if (!Op.empty()) {
      auto Old = readVariable(VD, Index - 1, S, Value->getExprLoc());
      if (!Old)
        return Old;
      // `v op= x` converts `v op x` back to v's type, integers included;
      // a floating v and an x of its type compute in that type already (a
      // float `p *= b` stays a product of factors).
      auto Combined = ExprNode::make(ExprNode::Binary, Op, {*Old, Result});
      if (VD->getType()->isRealFloatingType() && sameType(VD->getType(), Value->getType()))
        return Combined;
      return ExprNode::make(ExprNode::Cast, castTypeName(VD->getType()), {Combined});
    }
    if (VD->getType()->isFloatingType() ||
        classify(VD->getType()) != ElementType::Other)
      return ExprNode::make(ExprNode::Cast, castTypeName(VD->getType()), {Result});
    return Result;
  }

  /// Whether A and B are one type (qualifiers aside).
  bool sameType(QualType A, QualType B) const {
    return Ctx.hasSameUnqualifiedType(A.getNonReferenceType(), B.getNonReferenceType());
  }

  /// VD as binding Index has it: -1 is the element an accumulator stores.
  llvm::Expected<ExprPtr> readVariable(const VarDecl *VD, int Index, Statement &S,
                                             SourceLocation Loc) {
    if (Index >= 0)
      return boundValue(VD, Index, S);
    if (!Locals.count(VD))
      return regionError(Loc, "'" + VD->getNameAsString() + "' is read before it is assigned",
                         "initialise the variable where it is declared");
    if (auto Err = checkNotStoredSince(Locals[VD].first, Loc))
      return std::move(Err);
    return readOf(S, localAccess(VD, Loc));
  }

  /// A read of A in statement S. Reads of one element share their access
  /// (the statement has no side effects, so they read one value): a local
  /// read in several places, as in `a > 0 ? a : 0` with `float a = A[..]`,
  /// stays a function of one element.
  ExprPtr readOf(Statement &S, const Access &A) {
    auto N = ExprNode::make(ExprNode::Read, "");
    for (size_t Id = 0; Id < S.Reads.size(); ++Id) {
      if (sameAccess(S.Reads[Id], A)) { // (the divisor too: `s[k]` is not `s[k / 128]`)
        N->AccessId = Id;
        return N;
      }
    }
    N->AccessId = S.Reads.size();
    S.Reads.push_back(A);
    return N;
  }

  Statement newStatement(SourceRange R) {
    Expansions = 0;
    Statement S;
    S.Name = "S" + std::to_string(M.Stmts.size());
    S.Loops = LoopStack;
    Position.back()++;
    S.Position = Position;
    S.Range = R;
    S.Guards = GuardStack;
    return S;
  }

  // ----- accesses --------------------------------------------------------
  Access localAccess(const VarDecl *VD, SourceLocation Loc) {
    Access A;
    auto &[Id, Loops] = Locals[VD];
    A.ArrayId = Id;
    for (unsigned L : Loops)
      A.Index.push_back(AffineExpr::symbol(M.Loops[L].Iterator));
    A.Range = SourceRange(Loc, Loc);
    return A;
  }

  llvm::Expected<Access> writeAccess(const Expr *LHS) {
    // (A divided subscript is a read's only: Access::Divisor.)
    const bool WasWriting = Writing;
    Writing = true;
    llvm::scope_exit Restore([&] { Writing = WasWriting; });
    const Expr *E = LHS->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
        if (auto Alias = ElementAliases.find(VD); Alias != ElementAliases.end())
          return writeAccess(Alias->second);
        if (Locals.count(VD))
          return localAccess(VD, DR->getLocation());
        return regionError(DR->getLocation(),
                           "assignment to '" + VD->getNameAsString() +
                               "', which is not an array element or an "
                               "accumulator declared in the region",
                           "a region may only write array elements and scalars "
                           "it declares");
      }
    if (isa<ArraySubscriptExpr>(E))
      return arrayAccess(cast<ArraySubscriptExpr>(E));
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
      return elementAccess(U, U->getSubExpr(), {});
    return regionError(LHS->getExprLoc(),
                       "unsupported assignment target in a '#pragma tc' region",
                       "a region may only write array elements and scalars it declares");
  }

  /// The pointer an expression of pointer type points with, and the
  /// elements it adds: `A + i * K`, `&A[i * K]`, `A - 1`, and a pointer the
  /// region declares and never assigns, bound to one of those (`const
  /// __half *a = A + i * K;` ... `a[k]`, a row's pointer). Such a local
  /// names its array through its initialiser, which may use the loop
  /// iterators and the variables from before the region only: where it is
  /// used they have the values they had where it was declared.
  struct PointerView {
    const Expr *Base;
    std::optional<Polynomial> Offset;
    std::vector<const Expr *> Parts; // the expressions Offset adds
  };
  llvm::Expected<PointerView> pointerView(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    auto Shifted = [&](const Expr *Pointer, const Expr *Elements,
                       int64_t Sign) -> llvm::Expected<PointerView> {
      auto Inner = pointerView(Pointer);
      if (!Inner)
        return Inner.takeError();
      auto P = polynomial(Elements);
      if (!P)
        return P.takeError();
      Polynomial Sum = *P * Sign;
      if (Inner->Offset)
        Sum = *Inner->Offset + Sum;
      auto Checked = checkedResult(Sum, Elements->getExprLoc());
      if (!Checked)
        return Checked.takeError();
      Inner->Parts.push_back(Elements);
      return PointerView{Inner->Base, *Checked, std::move(Inner->Parts)};
    };
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      const bool LeftPointer = B->getLHS()->getType()->isPointerType();
      if (B->getOpcode() == BO_Add)
        return LeftPointer ? Shifted(B->getLHS(), B->getRHS(), 1)
                           : Shifted(B->getRHS(), B->getLHS(), 1);
      if (B->getOpcode() == BO_Sub && LeftPointer && !B->getRHS()->getType()->isPointerType())
        return Shifted(B->getLHS(), B->getRHS(), -1);
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens());
          ASE && !ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        return Shifted(ASE->getBase(), ASE->getIdx(), 1);
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
          VD && isInsideRegion(VD->getLocation()) && VD->getType()->isPointerType() &&
          VD->getInit() && !Writes.count(VD) && !Iterators.count(VD)) {
        if (const DeclRefExpr *Late = laterVariable(VD->getInit(), CountersAtBinding[VD]))
          return regionError(Late->getLocation(),
                             "pointer '" + VD->getNameAsString() + "' is bound to '" +
                                 sourceText(VD->getInit()->getSourceRange()) +
                                 "', which uses '" + Late->getDecl()->getNameAsString() +
                                 "', a variable of the region or a counter of a loop "
                                 "that does not enclose the binding",
                             "bind a region's pointer to an array plus the loop iterators, "
                             "the sizes and other variables from before the region");
        const Expr *Init = VD->getInit();
        if (const auto *List = dyn_cast<InitListExpr>(Init->IgnoreParens());
            List && List->getNumInits() == 1)
          Init = List->getInit(0); // `const __half *a{A + i * K};`
        return pointerView(Init);
      }
    return PointerView{E, std::nullopt, {}};
  }
  /// A variable E names whose value where a pointer bound to E is used may
  /// differ from the one it had where the pointer was bound: one the region
  /// declares, or a loop's counter, other than the counters of the loops
  /// around the binding (`Active`), which still run where it is used.
  const DeclRefExpr *laterVariable(const Stmt *E, const std::set<const VarDecl *> &Active) const {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
          VD && !Active.count(VD) && !VD->getType()->isPointerType() &&
          (isInsideRegion(VD->getLocation()) || Iterators.count(VD) ||
           AssignedCounters.count(VD)))
        return DR;
    for (const Stmt *Child : E->children())
      if (Child)
        if (const DeclRefExpr *Found = laterVariable(Child, Active))
          return Found;
    return nullptr;
  }

  /// `A[i][k]`, `a[k]` or `*p` (Subscripts empty) where a and p are views
  /// into an array (pointerView).
  llvm::Expected<Access> arrayAccess(const ArraySubscriptExpr *ASE) {
    // Collect A[i0][i1]... outermost first.
    std::vector<const Expr *> Subs;
    const Expr *Base = ASE;
    while (const auto *S = dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts())) {
      Subs.insert(Subs.begin(), S->getIdx());
      Base = S->getBase();
    }
    return elementAccess(ASE, Base, Subs);
  }
  llvm::Expected<Access> elementAccess(const Expr *Whole, const Expr *Base,
                                       std::vector<const Expr *> Subs) {
    std::optional<Polynomial> Offset;
    std::vector<const Expr *> OffsetParts;
    if (Subs.size() <= 1) {
      auto View = pointerView(Base);
      if (!View)
        return View.takeError();
      Base = View->Base;
      Offset = View->Offset;
      OffsetParts = std::move(View->Parts);
    }
    const auto *DR = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
    const VarDecl *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!VD) {
      if (const auto *ME = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts()))
        return memberArrayAccess(Whole, ME, Subs, Offset, OffsetParts);
      if (DR && isa<BindingDecl>(DR->getDecl()))
        return structuredBindingError(DR);
      return regionError(Base->getExprLoc(),
                         "indirect access: the array is not a named variable",
                         "index a pointer or array parameter directly");
    }
    // The kernels read the arrays through the launcher's arguments, which
    // are the region's free variables: an array or pointer declared in the
    // region has no such argument, and its initialiser would be lost.
    if (isInsideRegion(VD->getLocation()) && VD->getType()->isPointerType())
      return regionError(DR->getLocation(),
                         "pointer '" + VD->getNameAsString() + "' is declared in the region " +
                             (!VD->getInit()    ? "without a value"
                              : Subs.size() > 1 ? "and indexed as a multi-dimensional array"
                                                : "and bound to what is not an array plus "
                                                  "an offset"),
                         "bind it once, to an array plus an offset ('const __half *a = A + "
                         "i * K;'), or index the array itself");
    if (isInsideRegion(VD->getLocation()))
      return regionError(DR->getLocation(),
                         "'" + VD->getNameAsString() + "' is an array declared in the region",
                         "declare it before the '#pragma tc' region");
    if (auto Err = checkHostReadable(VD, Whole->getExprLoc()))
      return std::move(Err);
    // A reference to a pointer or array (`const __half *&A`) is the object
    // it is bound to, which the launcher's argument of the same name binds.
    return indexedAccess(Whole, {VD->getNameAsString(), VD, VD,
                                 VD->getType().getNonReferenceType(), DR->getLocation()},
                         Subs, Offset, OffsetParts);
  }

  /// An access to the array a pointer member points to (`p.A[i * K + k]`,
  /// `this->W[...]`, `d.ops.A`): the launch passes the member as written.
  /// It reads it where the region starts, as the source does, and nothing
  /// in the region can change it: a region writes array elements and its
  /// own locals only.
  llvm::Expected<Access> memberArrayAccess(const Expr *Whole, const MemberExpr *ME,
                                           const std::vector<const Expr *> &Subs,
                                           std::optional<Polynomial> Offset,
                                           llvm::ArrayRef<const Expr *> OffsetParts) {
    const std::string Text = sourceText(ME->getSourceRange());
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    // The object: a variable, or `this`, through fields only.
    const Expr *Object = ME->getBase()->IgnoreParenImpCasts();
    for (const auto *Inner = dyn_cast<MemberExpr>(Object);
         Inner && isa<FieldDecl>(Inner->getMemberDecl()); Inner = dyn_cast<MemberExpr>(Object))
      Object = Inner->getBase()->IgnoreParenImpCasts();
    if (const auto *Deref = dyn_cast<UnaryOperator>(Object);
        Deref && Deref->getOpcode() == UO_Deref)
      Object = Deref->getSubExpr()->IgnoreParenImpCasts();
    const auto *ObjectRef = dyn_cast<DeclRefExpr>(Object);
    const auto *ObjectVar = ObjectRef ? dyn_cast<VarDecl>(ObjectRef->getDecl()) : nullptr;
    if (const auto *Static = dyn_cast<VarDecl>(ME->getMemberDecl()))
      return regionError(ME->getMemberLoc(),
                         "'" + Text + "' is a static data member" +
                             (Static->getType()->isArrayType() && !isManaged(Static)
                                  ? ", an array in host memory"
                                  : ""),
                         Static->getType()->isArrayType() && !isManaged(Static)
                             ? "arrays of a tc region must be device memory: copy it to "
                               "memory of cudaMalloc and pass that pointer, or declare it "
                               "__managed__"
                             : "copy the pointer into a local variable before the region");
    if (!FD || (!isa<CXXThisExpr>(Object) && !ObjectVar))
      return regionError(ME->getExprLoc(),
                         "indirect access: the array is the member '" + Text + "'",
                         "copy the pointer into a variable before the region ('auto *" +
                             ME->getMemberDecl()->getNameAsString() + " = " + Text +
                             ";') and index that");
    const QualType T = FD->getType().getNonReferenceType();
    if (FD->getType()->isReferenceType() && T->isArrayType())
      return regionError(ME->getMemberLoc(), "'" + Text + "' is a reference to an array",
                         "arrays of a tc region are device memory passed by pointer: make "
                         "the member a pointer");
    if (const ArrayType *AT = Ctx.getAsArrayType(T); AT && AT->getElementType()->isPointerType())
      return regionError(ME->getMemberLoc(),
                         "the array is a pointer of '" + Text +
                             "', an array in its object, which the kernels cannot read",
                         "copy the pointer into a variable before the region ('auto *p0 = " +
                             Text + "[0];') and index that");
    if (T->isArrayType())
      return regionError(ME->getMemberLoc(),
                         "'" + Text + "' is an array stored in its object, which the kernels "
                         "cannot read",
                         "arrays of a tc region must be device memory: make the member a "
                         "pointer to it");
    if (!T->isPointerType())
      return regionError(ME->getMemberLoc(), "'" + Text + "' is not a pointer",
                         "index a pointer to device memory");
    auto Spelling = memberSpelling(ME);
    if (!Spelling)
      return Spelling.takeError();
    return indexedAccess(Whole, {*Spelling, FD, nullptr, T, ME->getMemberLoc()}, Subs, Offset,
                         OffsetParts);
  }

  /// What an access indexes: a variable, or a pointer member of an object
  /// declared before the region (`p.A`, `this->W`), which the launch passes
  /// as written (memberArrayAccess).
  struct IndexedArray {
    std::string Name;
    const ValueDecl *Entity = nullptr;
    const VarDecl *Var = nullptr; // null for a member
    QualType Type;                // without a reference
    SourceLocation NameLoc;
  };

  /// Whether E names the iterator of the innermost loop around it.
  bool namesInnermostIterator(const Expr *E) const {
    if (LoopStack.empty())
      return false;
    const std::string &Innermost = M.Loops[LoopStack.back()].Iterator;
    return llvm::any_of(Iterators, [&](const auto &It) {
      return It.second == Innermost && mentions(E, It.first);
    });
  }

  /// In E, `x / 2` or `x >> 1` of an x that names the innermost loop's
  /// iterator (the reduction's, in a matmul): the operator, else null.
  const BinaryOperator *halving(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      const auto *Literal = dyn_cast<IntegerLiteral>(B->getRHS()->IgnoreParenImpCasts());
      if (Literal && ((B->getOpcode() == BO_Div && Literal->getValue() == 2) ||
                      (B->getOpcode() == BO_Shr && Literal->getValue() == 1)) &&
          namesInnermostIterator(B->getLHS()))
        return B;
    }
    for (const Stmt *Child : E->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        if (const BinaryOperator *B = halving(ChildExpr))
          return B;
    return nullptr;
  }

  /// The access Whole of Target with subscripts Subs (outermost first), or
  /// a pointer's Offset where a view (pointerView) adds one.
  llvm::Expected<Access> indexedAccess(const Expr *Whole, const IndexedArray &Target,
                                       const std::vector<const Expr *> &Subs,
                                       std::optional<Polynomial> Offset,
                                       llvm::ArrayRef<const Expr *> OffsetParts) {
    // A byte array read at half an index (`Wq[j * ldw + k / 2]`): packed
    // 4-bit values however they are then unpacked (a ternary on k % 2, a
    // signed shift pair), which nibbleUnpacking's form does not catch.
    QualType Element = Target.Type;
    while (Element->isPointerType() || Element->isArrayType())
      Element = Element->isPointerType() ? Element->getPointeeType()
                                         : QualType(Element->getArrayElementTypeNoTypeQual(), 0);
    const bool Bytes = Element->isIntegerType() && !Element->isBooleanType() &&
                       Ctx.getTypeSize(Element) == 8;
    if (Bytes && !InPackedRead)
      for (const Expr *S : Subs)
        if (const BinaryOperator *Half = halving(S))
          return regionError(Half->getOperatorLoc(),
                             "'" + Target.Name + "' is read at half an index, but not "
                             "unpacked as a 4-bit value in the same expression",
                             kPackedNote);
    // The last subscript may divide the reduction's iterator (a group's
    // scale, a packed byte): its floor term (Access::Divisor).
    std::optional<FloorTerm> Floor;
    std::optional<FloorTerm> *OuterSlot = FloorSlot;
    FloorSlot = nullptr;
    llvm::scope_exit RestoreSlot([&] { FloorSlot = OuterSlot; });
    std::set<std::string> IterNames;
    for (unsigned L : LoopStack)
      IterNames.insert(M.Loops[L].Iterator);
    for (auto &[D, N] : Iterators)
      IterNames.insert(N);
    Access A;
    A.Range = Whole->getSourceRange();
    A.Spelling = sourceText(A.Range);
    std::vector<Polynomial> Strides;
    const QualType T = Target.Type;
    if ((Offset || Subs.empty()) && !(T->isPointerType() && !T->getPointeeType()->isArrayType()))
      return regionError(Whole->getExprLoc(),
                         "pointer arithmetic on '" + Target.Name +
                             "', which is not a pointer to its elements",
                         "index a multi-dimensional array with a subscript for each dimension");
    if (Subs.size() <= 1 && T->isPointerType() &&
        !T->getPointeeType()->isArrayType()) {
      FloorSlot = Writing ? nullptr : &Floor;
      auto P = Subs.empty() ? llvm::Expected<Polynomial>(Polynomial::constant(0))
                            : polynomial(Subs[0]);
      FloorSlot = nullptr;
      if (!P)
        return P.takeError();
      if (Floor)
        IterNames.insert(kFloorSymbol);
      if (Offset) {
        auto Sum = checkedResult(*Offset + *P, Whole->getExprLoc());
        if (!Sum)
          return Sum.takeError();
        *P = *Sum;
      }
      std::string Reason;
      auto D = delinearize(*P, IterNames, Reason);
      if (!D)
        return regionError(Subs.empty() ? Whole->getExprLoc() : Subs[0]->getExprLoc(),
                           "cannot delinearise the subscript of '" +
                               Target.Name + "': " + Reason,
                           "write a row-major subscript such as "
                           "'A[i * lda + k]' or use a multi-dimensional array");
      A.Index = D->Index;
      Strides = D->Strides;
    } else {
      // Statically shaped: T A[M][K] or T (*A)[K]; strides from the type.
      QualType Elem = T->isPointerType() ? T->getPointeeType() : T;
      if (T->isArrayType())
        Elem = cast<ArrayType>(Ctx.getAsArrayType(T))->getElementType();
      std::vector<int64_t> Sizes;
      while (const auto *CAT = Ctx.getAsConstantArrayType(Elem)) {
        Sizes.push_back(CAT->getSize().getSExtValue());
        Elem = CAT->getElementType();
      }
      if (Sizes.size() + 1 != Subs.size())
        return regionError(Whole->getExprLoc(),
                           "cannot determine the shape of '" +
                               Target.Name + "'",
                           "use a pointer with a linearised subscript or an "
                           "array whose inner sizes are constants");
      int64_t Stride = 1;
      std::vector<Polynomial> Rev{Polynomial::constant(1)};
      for (auto It = Sizes.rbegin(); It != Sizes.rend(); ++It) {
        if (__builtin_mul_overflow(Stride, *It, &Stride))
          return regionError(Whole->getExprLoc(),
                             "the shape of '" + Target.Name +
                                 "' has more elements than int64_t counts",
                             "sizes and bounds are computed in 64-bit signed integers");
        Rev.push_back(Polynomial::constant(Stride));
      }
      Strides.assign(Rev.rbegin(), Rev.rend());
      for (const Expr *S : Subs) {
        FloorSlot = !Writing && S == Subs.back() ? &Floor : nullptr;
        auto P = affine(S);
        FloorSlot = nullptr;
        if (!P)
          return P.takeError();
        A.Index.push_back(*P);
      }
    }
    if (Floor) {
      // floor(x / c) + R in the last index, R affine: floor((c R + x) / c).
      for (size_t D = 0; D < A.Index.size(); ++D) {
        auto Coeff = A.Index[D].Coeffs.find(kFloorSymbol);
        const bool Last = D + 1 == A.Index.size();
        if (Coeff == A.Index[D].Coeffs.end() ? Last : !Last || Coeff->second != 1)
          return regionError(Floor->Loc,
                             "non-affine operator '" + Floor->Operator +
                                 "' in a subscript or loop bound",
                             AffineNote);
      }
      AffineExpr &LastIndex = A.Index.back();
      LastIndex.Coeffs.erase(kFloorSymbol);
      LastIndex = LastIndex * Floor->Divisor + Floor->Numerator;
      if (LastIndex.Overflow)
        return regionError(Floor->Loc, "integer overflow in a subscript or loop bound",
                           "its coefficients are folded in 64-bit signed integers");
      A.Divisor = Floor->Divisor;
      A.DivisorLoc = Floor->Loc;
      A.DivisorOperator = Floor->Operator;
      if (Bytes && (!InPackedRead || A.Divisor != 2))
        return regionError(Floor->Loc,
                           "'" + Target.Name + "' is read at an index divided by " +
                               std::to_string(A.Divisor),
                           "an 8-bit array is read at a divided index only as packed 4-bit "
                           "values: at half the index ('k / 2') of the innermost loop, and "
                           "unpacked in the same expression");
    }
    // Register the array, or check the shape against earlier uses.
    const std::string &Name = Target.Name;
    if (auto Owner = ParamEntity.find(Name);
        Owner != ParamEntity.end() && Owner->second != Target.Entity)
      return regionError(Target.NameLoc,
                         "two different entities named '" + Name + "' in the region",
                         "rename one of them");
    ParamEntity[Name] = Target.Entity;
    int Id = M.findArray(Name);
    if (Id < 0 && T->isDependentType())
      // Templates are taken per instantiation (RegionRewriter.cpp); a
      // generic lambda's `auto` parameters are not.
      return regionError(Target.NameLoc,
                         "array '" + Name + "' has the dependent type '" +
                             Target.Entity->getType().getAsString(*Policy) + "'",
                         "a region in a generic lambda is not supported: give the lambda's "
                         "parameters their types, or move the loop nest into a function "
                         "template");
    if (Id < 0) {
      Array Arr;
      Arr.Name = Name;
      Arr.DeclTypeSpelling = kernelTypeName(T);
      QualType Elem = T;
      while (Elem->isPointerType() || Elem->isArrayType())
        Elem = Elem->isPointerType() ? Elem->getPointeeType()
                                     : QualType(Elem->getPointeeOrArrayElementType(), 0);
      // The launcher takes the array as a pointer to the element type it
      // can name (castTypeName: an enumeration's integer type), which a
      // pointer to an enumeration does not convert to.
      if (Elem->isEnumeralType())
        return regionError(Target.NameLoc,
                           "array '" + Name + "' has elements of the enumeration type '" +
                               Elem.getUnqualifiedType().getAsString(*Policy) + "'",
                           "a region's arrays hold arithmetic types: store the values in an "
                           "array of the enumeration's underlying type");
      Arr.Elem = classify(Elem);
      Arr.ElemSpelling = castTypeName(Elem);
      Arr.IsConst = Elem.isConstQualified();
      // A member's __restrict__ promises nothing about the other pointers
      // of the region (C++ gives it no meaning): it gets the overlap test.
      Arr.IsRestrict = Target.Var && T.isRestrictQualified();
      Arr.IsParameter = Target.Var && isa<ParmVarDecl>(Target.Var) &&
                        !Target.Var->getType()->isReferenceType() &&
                        !assignedInFunction(Target.Var);
      Arr.IsStaticShape = Subs.size() > 1;
      Arr.Strides = Strides;
      Arr.DeclLoc = Target.Entity->getLocation();
      const VarDecl *VD = Target.Var;
      if (VD && !isa<ParmVarDecl>(VD) && VD->hasLocalStorage() && T->isArrayType())
        return regionError(Target.NameLoc,
                           "'" + Name + "' is a host-stack array",
                           "arrays of a tc region must be device memory "
                           "passed by pointer");
      // A file's or class's array (not __device__: checkHostReadable) is
      // host memory, whose address the kernels could not read.
      if (VD && !isa<ParmVarDecl>(VD) && VD->hasGlobalStorage() && T->isArrayType() &&
          !isManaged(VD))
        return regionError(Target.NameLoc,
                           "'" + Name + "' is an array in host memory (a variable of static "
                           "storage)",
                           "arrays of a tc region must be device memory: copy it to memory "
                           "of cudaMalloc and pass that pointer, or declare it __managed__");
      M.Arrays.push_back(Arr);
      Id = M.Arrays.size() - 1;
    } else {
      const Array &Arr = M.Arrays[Id];
      bool Same = Arr.Strides.size() == Strides.size();
      for (size_t I = 0; Same && I < Strides.size(); ++I)
        Same = Arr.Strides[I].str() == Strides[I].str();
      if (!Same)
        return regionError(Whole->getExprLoc(),
                           "'" + Name + "' is indexed with different shapes "
                           "in the region",
                           "index each array with the same leading dimensions "
                           "everywhere");
    }
    A.ArrayId = Id;
    // A packed array's bytes are read only as its 4-bit values, and not
    // written (its element type is theirs, set by the unpacking).
    {
      const Array &Arr = M.Arrays[Id];
      const bool Packed = Arr.Elem == ElementType::U4 || Arr.Elem == ElementType::I4;
      if ((Packed && !InPackedRead) || (InPackedRead && ByteArrays.count(unsigned(Id))))
        return regionError(Whole->getExprLoc(),
                           "'" + Name + "' is accessed as bytes and read as packed 4-bit values",
                           "a region reads an array of packed 4-bit values only through "
                           "their unpacking, and does not write it");
      if (!InPackedRead && Bytes)
        ByteArrays.insert(unsigned(Id));
    }
    // (The launcher's test of subscripts computed in narrow unsigned types
    // takes undivided indices: a divided one is computed wider or signed.)
    if (A.Divisor != 1) {
      std::vector<const Expr *> Roots;
      for (const Expr *Part : Subs)
        narrowUnsignedRoots(Part, Roots);
      for (const Expr *Part : OffsetParts)
        narrowUnsignedRoots(Part, Roots);
      if (!Roots.empty())
        return regionError(Roots.front()->getExprLoc(),
                           "the subscript of '" + Name + "' is divided, and computed in '" +
                               typeName(Roots.front()->getType()) + "'",
                           "compute a divided subscript (packed 4-bit values, their groups' "
                           "zero points and scales) in a signed type or in 64 bits: 'int', "
                           "'long long', 'size_t'");
    }
    if (auto Err = noteNarrowSubscripts(Target.Name, unsigned(Id), Subs, OffsetParts,
                                        M.Arrays[Id].IsStaticShape, A.Index,
                                        M.Arrays[Id].Strides))
      return std::move(Err);
    return A;
  }

  /// Whether the function assigns VD anywhere, takes its address or binds
  /// a non-const reference to it (`A = buf + 16;` makes a parameter based
  /// on another).
  bool assignedInFunction(const VarDecl *VD) const {
    std::function<bool(const Stmt *)> Assigns = [&](const Stmt *S) -> bool {
      if (!S)
        return false;
      auto Names = [&](const Expr *E) {
        const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        return DR && DR->getDecl() == VD;
      };
      if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp() && Names(B->getLHS()))
        return true;
      if (const auto *U = dyn_cast<UnaryOperator>(S);
          U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && Names(U->getSubExpr()))
        return true;
      // A reference bound to it (`auto &r = A; r = buf;`).
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *R = dyn_cast<VarDecl>(D);
              R && R->getType()->isReferenceType() &&
              !R->getType().getNonReferenceType().isConstQualified() && R->getInit() &&
              Names(R->getInit()))
            return true;
      for (const Stmt *Child : S->children())
        if (Assigns(Child))
          return true;
      return false;
    };
    return Assigns(F.getBody());
  }

  // ----- subscripts computed in narrow unsigned types ---------------------
  /// Whether the source computes values of type T modulo 2^width, with a
  /// width below the model's 64 bits (`unsigned int`).
  bool isNarrowUnsigned(QualType T) const {
    return T->isUnsignedIntegerType() && !T->isBooleanType() && Ctx.getIntWidth(T) < 64;
  }

  /// The outermost subexpressions of E that the source computes in a
  /// narrow unsigned type (isNarrowUnsigned) and that may differ from
  /// their integer value there: arithmetic (`i * K`), a call, a conversion
  /// from a signed or wider type. Within one, only its value counts: the
  /// arithmetic is modulo 2^width throughout. Constants are their values
  /// as computed; a size converted as the launch converts it is in range.
  void narrowUnsignedRoots(const Expr *E, std::vector<const Expr *> &Roots, unsigned Depth = 0) {
    E = E->IgnoreParens();
    // An integer local bound once (`size_t row = i * K;`, `const unsigned
    // e = N + D;`): its value is its binding's, computed there.
    if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
          VD && Depth < 8 && VD->getType()->isIntegerType() && !Writes.count(VD))
        if (auto L = Chains.find(VD); L != Chains.end() && L->second.size() == 1 &&
                                      L->second.front().Value) {
          narrowUnsignedRoots(L->second.front().Value, Roots, Depth + 1);
          return;
        }
    if (E->getType()->isIntegerType() && !E->isValueDependent() &&
        E->getIntegerConstantExpr(Ctx))
      return;
    if (isNarrowUnsigned(E->getType())) {
      if (const auto *B = dyn_cast<BinaryOperator>(E);
          B && (B->isAdditiveOp() || B->getOpcode() == BO_Mul)) {
        Roots.push_back(E);
        return;
      }
      if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Minus) {
        Roots.push_back(E);
        return;
      }
      if (isa<CallExpr>(E)) {
        Roots.push_back(E);
        return;
      }
      if (const auto *C = dyn_cast<CastExpr>(E)) {
        const QualType From = C->getSubExpr()->getType();
        const Expr *Operand = C->getSubExpr()->IgnoreParenImpCasts();
        const auto *DR = dyn_cast<DeclRefExpr>(Operand);
        const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
        const bool NonNegativeIterator = VD && Iterators.count(VD) &&
                                         NonNegativeIterators.count(Iterators.at(VD));
        if (From->isIntegerType() && !convertedSpelling(C) && !NonNegativeIterator &&
            !(From->isUnsignedIntegerType() && Ctx.getIntWidth(From) <= Ctx.getIntWidth(E->getType()))) {
          Roots.push_back(E);
          return;
        }
      }
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        narrowUnsignedRoots(CE, Roots, Depth);
  }

  /// Whether P cannot be negative: non-negative coefficients, iterators
  /// that never are, sizes of unsigned types and constants that are not.
  /// With `SignedSizes`, a size of a signed type counts as not negative
  /// too, and is added there for the launcher to test.
  bool nonNegativeUnsigned(const Polynomial &P,
                           std::set<std::string> *SignedSizes = nullptr) const {
    // The least value: each term's at its symbols' least, which is 0 but
    // for an iterator counting up from a constant (`a[k - 1]`, k from 1).
    int64_t Least = 0;
    for (const auto &[Mono, C] : P.Terms) {
      if (Mono.empty()) {
        if (__builtin_add_overflow(Least, C, &Least))
          return false;
        continue;
      }
      if (C < 0)
        return false;
      if (Mono.size() == 1)
        for (const Loop &L : M.Loops)
          if (L.Iterator == Mono[0] && L.Step == 1 && !L.Reversed && L.Lower.isConstant() &&
              L.Lower.Constant > 0 && L.Lower.Constant < (int64_t(1) << 31) &&
              C < (int64_t(1) << 31))
            Least += C * L.Lower.Constant;
      for (const std::string &Sym : Mono) {
        if (NonNegativeIterators.count(Sym) || UnsignedSizes.count(Sym))
          continue;
        const auto Size =
            llvm::find_if(M.Params, [&](const Parameter &Pa) { return Pa.Name == Sym; });
        if (Size != M.Params.end() && Size->Value && *Size->Value >= 0)
          continue; // a constant that is not negative
        if (!SignedSizes || Size == M.Params.end() || !Size->IsKernelArgument)
          return false;
        SignedSizes->insert(Sym);
      }
    }
    return Least >= 0;
  }

  /// nonNegativeUnsigned of E's value, by its structure where the expanded
  /// polynomial cannot tell: a sum or a product of parts that are each
  /// not negative is not (`(b * kk + (k - 1)) * ld + j` over k from 1,
  /// whose expansion has the term -ld), through parentheses and casts that
  /// keep every value (to an integer type as wide or wider).
  bool nonNegativeParts(const Expr *E, std::set<std::string> *SignedSizes) {
    // (The sizes the launcher tests: only those of the test that holds.)
    std::set<std::string> Sizes;
    if (auto P = polynomial(E); !P) {
      llvm::consumeError(P.takeError());
    } else if (nonNegativeUnsigned(*P, SignedSizes ? &Sizes : nullptr)) {
      if (SignedSizes)
        SignedSizes->insert(Sizes.begin(), Sizes.end());
      return true;
    }
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
      return Cast->getCastKind() == CK_IntegralCast &&
             Ctx.getIntWidth(Cast->getType()) >= Ctx.getIntWidth(Cast->getSubExpr()->getType()) &&
             (Cast->getType()->isSignedIntegerType() ||
              Cast->getSubExpr()->getType()->isUnsignedIntegerType()) &&
             nonNegativeParts(Cast->getSubExpr(), SignedSizes);
    const auto *B = dyn_cast<BinaryOperator>(E);
    return B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Mul) &&
           nonNegativeParts(B->getLHS(), SignedSizes) &&
           nonNegativeParts(B->getRHS(), SignedSizes);
  }

  /// Whether every value of the narrow unsigned root R is in its type's
  /// range whatever the sizes: an affine function of iterators of its type
  /// or narrower, with no negative coefficient, no less than 0 at the
  /// loops' starts and no more than the type's largest where each iterator
  /// is its type's largest (`row - 1` over an unsigned row from 1).
  bool alwaysInRange(const Expr *R) {
    const unsigned Width = Ctx.getIntWidth(R->getType());
    auto P = polynomial(R);
    if (!P) {
      llvm::consumeError(P.takeError());
      return false;
    }
    if (!nonNegativeUnsigned(*P))
      return false;
    // The largest: each iterator's type's largest value.
    llvm::APInt Most(128, 0);
    for (const auto &[Mono, C] : P->Terms) {
      if (Mono.size() > 1)
        return false;
      if (Mono.empty()) {
        Most += llvm::APInt(128, uint64_t(C), /*isSigned=*/true);
        continue;
      }
      const VarDecl *Iterator = iteratorNamed(Mono[0]);
      if (!Iterator)
        return false;
      const QualType T = Iterator->getType();
      if (!T->isUnsignedIntegerType() || Ctx.getIntWidth(T) > Width)
        return false;
      Most += llvm::APInt::getMaxValue(Ctx.getIntWidth(T)).zext(128) *
              llvm::APInt(128, uint64_t(C));
    }
    return Most.ule(llvm::APInt::getMaxValue(Width).zext(128));
  }

  /// Records in RegionModel::NarrowValues each value in E that the
  /// source computes in a narrow unsigned type and that may exceed it
  /// (`N + D`, `M * 2u`, `lo + 1`, `i + U` over `unsigned`): the model
  /// computes it in integers, so the launcher tests it. One that may be
  /// negative instead (`N - 1`) is mayWrap's. A value of iterators is
  /// tested at their largest values where statements run (each term not
  /// negative, so the value grows with each), which covers every wrap only
  /// where a wrap, which shrinks the value, makes the source run a subset
  /// of the model's instances (`ShrinkRunsFewer`: an upward loop's bound,
  /// the greater side of a guard); elsewhere it is an error, but for an
  /// upward loop's start (`StartOf`, its iterator), tested at their largest
  /// values where that loop is reached.
  llvm::Error noteNarrowValues(const Expr *E, bool ShrinkRunsFewer,
                               const std::string &StartOf = "") {
    std::vector<const Expr *> Roots;
    narrowUnsignedRoots(E, Roots);
    for (const Expr *R : Roots) {
      if (alwaysInRange(R))
        continue;
      auto P = polynomial(R);
      if (!P) {
        llvm::consumeError(P.takeError());
        continue;
      }
      bool NotNegative = true;
      std::vector<std::string> Iterators;
      for (const auto &[Mono, C] : P->Terms) {
        NotNegative &= C >= 0;
        for (const std::string &Sym : Mono)
          if (iteratorNamed(Sym) && !llvm::is_contained(Iterators, Sym)) {
            Iterators.push_back(Sym);
            NotNegative &= NonNegativeIterators.count(Sym) > 0;
          }
      }
      if (P->asConstant())
        continue;
      const std::string Text = sourceText(R->getSourceRange());
      if (!NotNegative)
        continue; // (mayWrap's: it may be negative)
      if (!Iterators.empty() && !ShrinkRunsFewer && StartOf.empty())
        return regionError(R->getExprLoc(),
                           (Text.empty() ? std::string("a value") : "'" + Text + "'") +
                               " of iterators is computed in " +
                               std::to_string(Ctx.getIntWidth(R->getType())) +
                               "-bit unsigned arithmetic, where it may wrap",
                           "the kernels compute bounds and conditions in 64-bit integers; "
                           "compute it in a signed or 64-bit type");
      std::string Start = Iterators.empty() ? "" : StartOf;
      addNarrowValue(*P, Ctx.getIntWidth(R->getType()), Text.empty() ? P->str() : Text,
                     std::move(Iterators), std::move(Start));
    }
    return llvm::Error::success();
  }

  /// Adds P to RegionModel::NarrowValues, once.
  void addNarrowValue(const Polynomial &P, unsigned Bits, const std::string &Spelling,
                      std::vector<std::string> Iterators = {}, std::string StartOf = "") {
    const std::string Key = P.str();
    if (llvm::none_of(M.NarrowValues, [&](const RegionModel::NarrowValue &V) {
          return V.Value.str() == Key && V.StartOf == StartOf;
        }))
      M.NarrowValues.push_back({P, Bits, Spelling, std::move(Iterators), std::move(StartOf)});
  }

  /// Records array Id in RegionModel::NarrowSubscripts where a subscript
  /// of this access (`Subs`, and the offsets of a view, `OffsetParts`) is
  /// computed in a narrow unsigned type. The launcher tests the range of
  /// the array's whole subscripts (a flat index; a statically shaped
  /// array's each): that decides where one computed unsigned as a whole
  /// wraps. A part of one (`a = A + i * K; a[k]`) is within the whole
  /// where no term is negative, which is required here.
  llvm::Error noteNarrowSubscripts(const std::string &Name, unsigned Id,
                                   const std::vector<const Expr *> &Subs,
                                   llvm::ArrayRef<const Expr *> OffsetParts, bool PerDimension,
                                   const std::vector<AffineExpr> &Index,
                                   const std::vector<Polynomial> &Strides) {
    std::vector<const Expr *> Parts(OffsetParts.begin(), OffsetParts.end());
    Parts.insert(Parts.end(), Subs.begin(), Subs.end());
    unsigned Bits = 64;
    bool Partial = false;
    std::vector<const Expr *> All;
    for (const Expr *Part : Parts) {
      std::vector<const Expr *> Roots;
      narrowUnsignedRoots(Part, Roots);
      for (const Expr *R : Roots) {
        Bits = std::min(Bits, unsigned(Ctx.getIntWidth(R->getType())));
        // A whole subscript: the only part of a flat index, or a
        // dimension's own.
        Partial |= R != Part->IgnoreParenImpCasts() || (!PerDimension && Parts.size() > 1);
      }
      All.insert(All.end(), Roots.begin(), Roots.end());
    }
    // Roots whose every value is in range need no test (`row - 1` of an
    // unsigned row from 1).
    llvm::erase_if(All, [&](const Expr *R) { return alwaysInRange(R); });
    if (All.empty())
      return llvm::Error::success();
    // A part that is one dimension's index, or the flat index of the
    // dimensions from one on, is tested as that alone: the whole may
    // exceed 2^32 in a wider type (a batch's offset in size_t).
    std::vector<RegionModel::NarrowSubscript::Check> Checks;
    if (Partial && Index.size() == Strides.size())
      for (const Expr *R : All) {
        auto P = polynomial(R);
        if (!P) {
          llvm::consumeError(P.takeError());
          Checks.clear();
          break;
        }
        std::optional<RegionModel::NarrowSubscript::Check> Found;
        Polynomial Suffix;
        for (int D = int(Index.size()) - 1; D >= 0 && !Found; --D) {
          const Polynomial Term = Polynomial::affine(Index[D]) * Strides[D];
          Suffix = Suffix + Term;
          if (Polynomial::affine(Index[D]).Terms == P->Terms)
            Found = RegionModel::NarrowSubscript::Check{D, true, false};
          else if (Term.Terms == P->Terms)
            Found = RegionModel::NarrowSubscript::Check{D, true, true};
          else if (Suffix.Terms == P->Terms)
            Found = RegionModel::NarrowSubscript::Check{D, false, false};
        }
        if (!Found) {
          Checks.clear();
          break;
        }
        if (!llvm::is_contained(Checks, *Found))
          Checks.push_back(*Found);
      }
    if (!Checks.empty())
      Partial = false;
    else
      Checks.push_back({});
    if (Partial)
      for (const Expr *Part : Parts) {
        // The test bounds the whole: each part, and each root in it, then
        // must not be negative, so that no root exceeds the whole.
        std::vector<const Expr *> Checked{Part};
        narrowUnsignedRoots(Part, Checked);
        for (const Expr *E : Checked) {
          if (E != Part && alwaysInRange(E))
            continue;
          if (auto P = polynomial(E); !P)
            return P.takeError();
          std::set<std::string> SignedSizes;
          if (nonNegativeParts(E, &SignedSizes)) {
            // The launcher tests that each is not negative (and fits).
            for (const std::string &Sym : SignedSizes)
              addNarrowValue(Polynomial::symbol(Sym), Bits, Sym);
          } else {
            const std::string Text = sourceText(E->getSourceRange());
            return regionError(E->getExprLoc(),
                               (Text.empty() ? std::string("a part") : "'" + Text + "'") +
                                   " of a subscript of '" + Name + "' may be negative beside "
                                   "a part computed in " + std::to_string(Bits) +
                                   "-bit unsigned arithmetic",
                               "the kernels compute subscripts in 64-bit integers, and the "
                               "launcher tests that a whole subscript computed unsigned does "
                               "not wrap, not each part of one; compute the subscript in one "
                               "type, e.g. '(size_t)i * lda + k'");
          }
        }
      }
    for (RegionModel::NarrowSubscript &N : M.NarrowSubscripts)
      if (N.ArrayId == Id) {
        N.Bits = std::min(N.Bits, Bits);
        for (const auto &C : Checks)
          if (!llvm::is_contained(N.Checks, C))
            N.Checks.push_back(C);
        return llvm::Error::success();
      }
    M.NarrowSubscripts.push_back({Id, Bits, Checks});
    return llvm::Error::success();
  }

  // ----- integer expressions ---------------------------------------------
  llvm::Expected<AffineExpr> affine(const Expr *E) {
    auto P = polynomial(E);
    if (!P)
      return P.takeError();
    auto A = P->asAffine();
    std::set<std::string> Iters;
    for (auto &[D, N] : Iterators)
      Iters.insert(N);
    if (A) {
      // A product of two parameters is fine for isl only if one is known.
      return *A;
    }
    return regionError(E->getExprLoc(),
                       "non-affine expression '" + P->str() + "'", AffineNote);
  }

  /// Coefficients are int64_t: a subscript or bound whose folded
  /// coefficients leave that range would otherwise wrap into another access.
  template <typename IntegerExpr>
  llvm::Expected<IntegerExpr> checkedResult(IntegerExpr P, SourceLocation Loc) {
    if (P.Overflow)
      return regionError(Loc, "integer overflow in a subscript or loop bound",
                         "its coefficients are folded in 64-bit signed integers");
    return P;
  }

  /// The int64_t value of an integer constant, or an error at `Loc`.
  llvm::Expected<int64_t> constantValue(const llvm::APSInt &V, SourceLocation Loc) {
    if (V.isUnsigned() ? !V.isIntN(63) : !V.isSignedIntN(64))
      return regionError(Loc, "integer constant out of the range of int64_t",
                         "sizes and bounds are computed in 64-bit signed integers");
    // Extended by its signedness: `true` or an unsigned char 200 is a
    // narrow unsigned value, not -1 or -56.
    return V.getExtValue();
  }

  /// `x / c` or `x >> s` of a subscript, x an iterator plus a constant
  /// whose values are never negative (so that `/` rounds down: an iterator
  /// of values never negative and a constant of 0 or more, or that of an
  /// upward loop from a constant start S and a constant of -S or more,
  /// `(k - 1) / 2` from k = 1), and c = 2^s a constant of 2 or more: x
  /// and c, else nothing.
  struct FloorTerm {
    AffineExpr Numerator;
    int64_t Divisor = 1;
    SourceLocation Loc;
    std::string Operator; // `/` or `>>`
  };
  static constexpr const char *kFloorSymbol = "__tc_floor__";
  std::optional<FloorTerm> floorTerm(const BinaryOperator *B) {
    std::optional<llvm::APSInt> C = B->getRHS()->getIntegerConstantExpr(Ctx);
    if (!C || C->isNegative() || C->getActiveBits() > 31)
      return std::nullopt;
    int64_t Divisor = C->getExtValue();
    if (B->getOpcode() == BO_Shr)
      Divisor = Divisor >= 1 && Divisor <= 30 ? int64_t(1) << Divisor : 0;
    if (Divisor < 2)
      return std::nullopt;
    std::optional<FloorTerm> *Slot = FloorSlot;
    FloorSlot = nullptr; // (no division inside the divided one)
    auto Numerator = polynomial(B->getLHS());
    FloorSlot = Slot;
    if (!Numerator) {
      llvm::consumeError(Numerator.takeError());
      return std::nullopt;
    }
    std::optional<AffineExpr> X = Numerator->asAffine();
    if (!X || X->Coeffs.size() != 1 || X->Coeffs.begin()->second != 1)
      return std::nullopt;
    const std::string &Iterator = X->Coeffs.begin()->first;
    const VarDecl *VD = iteratorNamed(Iterator);
    if (!VD || EndedLoopCounters.count(VD))
      return std::nullopt;
    bool NotNegative = NonNegativeIterators.count(Iterator) && X->Constant >= 0;
    for (unsigned L : LoopStack) {
      const Loop &Lp = M.Loops[L];
      if (Lp.Iterator == Iterator && !Lp.Reversed && Lp.Step > 0 && Lp.Lower.isConstant() &&
          Lp.Lower.Constant + X->Constant >= 0)
        NotNegative = true;
    }
    if (!NotNegative)
      return std::nullopt;
    return FloorTerm{*X, Divisor, B->getOperatorLoc(), B->getOpcodeStr().str()};
  }
  /// `E / c` or `E >> s` of sizes E and a constant c = 2^s of 2 or more
  /// (a row's bytes of packed values, `K / 2`; a number of groups, `(K +
  /// 127) / 128`): a size of its own, spelled as the source spells it
  /// (the call computes it where the region was); nothing where B is not
  /// one (an error where E reads what a size may not).
  std::optional<llvm::Expected<Polynomial>> sizeQuotient(const BinaryOperator *B) {
    std::optional<llvm::APSInt> C = B->getRHS()->getIntegerConstantExpr(Ctx);
    if (!C || C->isNegative() || C->getActiveBits() > 31 || B->isValueDependent() ||
        B->getBeginLoc().isMacroID() || B->getEndLoc().isMacroID() ||
        !B->getType()->isIntegerType())
      return std::nullopt;
    const int64_t Amount = C->getExtValue();
    if (B->getOpcode() == BO_Shr ? Amount < 1 || Amount > 30 : Amount < 2)
      return std::nullopt;
    auto Numerator = polynomial(B->getLHS());
    if (!Numerator)
      return llvm::Expected<Polynomial>(Numerator.takeError());
    for (const auto &[Mono, Coeff] : Numerator->Terms)
      for (const std::string &Sym : Mono)
        if (iteratorNamed(Sym) || Sym == kFloorSymbol)
          return std::nullopt;
    const std::string Spelling = sourceText(B->getSourceRange());
    if (Spelling.empty() || !spelledAtCall(B->getLHS()))
      return std::nullopt;
    if (auto Err = checkSizeType(B->getType(), Spelling, B->getOperatorLoc()))
      return llvm::Expected<Polynomial>(std::move(Err));
    if (auto Err = addSizeParameter(Spelling, nullptr, B->getType(), std::nullopt,
                                    B->getOperatorLoc()))
      return llvm::Expected<Polynomial>(std::move(Err));
    return llvm::Expected<Polynomial>(Polynomial::symbol(Spelling));
  }
  /// Whether E, spelled as the source spells it, means at the call what it
  /// means in the region: it names only variables declared before the
  /// region (no local, let-binding or iterator of the region, which the
  /// call does not see or sees another of), and calls nothing.
  bool spelledAtCall(const Expr *E) const {
    if (isa<CallExpr>(E) && !E->isValueDependent() && !E->getIntegerConstantExpr(Ctx))
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        if (isInsideRegion(VD->getLocation()) || Iterators.count(VD) || Locals.count(VD) ||
            Chains.count(VD))
          return false;
    for (const Stmt *Child : E->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        if (!spelledAtCall(ChildExpr))
          return false;
    return true;
  }
  /// Where polynomial() may take one floor term (the subscript being read).
  std::optional<FloorTerm> *FloorSlot = nullptr;
  /// Set while the byte read of a recognised 4-bit unpacking is extracted.
  bool InPackedRead = false;
  /// Set while a write's subscripts are read.
  bool Writing = false;
  /// The 8-bit arrays accessed as bytes (not as packed 4-bit values).
  std::set<unsigned> ByteArrays;

  llvm::Expected<Polynomial> polynomial(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *NT = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return polynomial(NT->getReplacement());
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      // Conversions that keep an integer's value are transparent; one to
      // bool or to a type narrower than int and than its operand is not
      // (`A[(bool)i]` is A[0] or A[1]).
      QualType To = CE->getType(), From = CE->getSubExpr()->getType();
      if (To->isIntegerType() && From->isIntegerType() &&
          (To->isBooleanType() ||
           (Ctx.getIntWidth(To) < 32 && Ctx.getIntWidth(To) < Ctx.getIntWidth(From)))) {
        // A constant's conversion is its converted value: `(unsigned char)200`.
        if (std::optional<llvm::APSInt> V = CE->getIntegerConstantExpr(Ctx)) {
          auto Value = constantValue(*V, CE->getExprLoc());
          if (!Value)
            return Value.takeError();
          return Polynomial::constant(*Value);
        }
        return regionError(CE->getExprLoc(),
                           "conversion to '" + typeName(To) +
                               "' in a subscript or loop bound changes the value",
                           AffineNote);
      }
      if (followsConversion(CE))
        return convertedSize(CE);
      if (isa<ImplicitCastExpr>(CE) || To->isIntegerType())
        return polynomial(CE->getSubExpr());
    }
    if (const auto *IL = dyn_cast<IntegerLiteral>(E)) {
      // An unsigned literal of 2^63 or more has no int64_t value.
      if (IL->getType()->isUnsignedIntegerType() ? !IL->getValue().isIntN(63)
                                                 : !IL->getValue().isSignedIntN(64))
        return regionError(IL->getLocation(), "integer literal out of the range of int64_t",
                           "sizes and bounds are computed in 64-bit signed integers");
      return Polynomial::constant(IL->getType()->isUnsignedIntegerType()
                                      ? int64_t(IL->getValue().getZExtValue())
                                      : IL->getValue().getSExtValue());
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus) {
        auto P = polynomial(U->getSubExpr());
        if (!P)
          return P.takeError();
        return checkedResult(U->getOpcode() == UO_Minus ? *P * -1 : *P,
                             U->getOperatorLoc());
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      auto Op = B->getOpcode();
      if (Op == BO_Add || Op == BO_Sub || Op == BO_Mul) {
        auto L = polynomial(B->getLHS());
        if (!L)
          return L.takeError();
        auto R = polynomial(B->getRHS());
        if (!R)
          return R.takeError();
        SourceLocation Loc = B->getOperatorLoc();
        if (Op == BO_Add)
          return checkedResult(*L + *R, Loc);
        if (Op == BO_Sub)
          return checkedResult(*L + *R * -1, Loc);
        return checkedResult(*L * *R, Loc);
      }
      // A constant of the source's (`kK / 2`, `kN >> 1` of constexpr
      // sizes) is its value.
      if (!B->isValueDependent())
        if (std::optional<llvm::APSInt> V = B->getIntegerConstantExpr(Ctx)) {
          auto Value = constantValue(*V, B->getExprLoc());
          if (!Value)
            return Value.takeError();
          return Polynomial::constant(*Value);
        }
      // The last subscript of a read may divide an iterator by a constant
      // (`k / 128`, `k >> 1`): the index of a group (Access::Divisor).
      if (FloorSlot && !*FloorSlot && (Op == BO_Div || Op == BO_Shr))
        if (auto Term = floorTerm(B)) {
          *FloorSlot = std::move(*Term);
          return Polynomial::symbol(kFloorSymbol);
        }
      // Sizes divided by a constant (`K / 2`, `(K + 127) / 128`): a size of
      // its own, its value computed where the region was (the call).
      if (Op == BO_Div || Op == BO_Shr)
        if (auto Quotient = sizeQuotient(B)) {
          if (!*Quotient)
            return Quotient->takeError();
          return std::move(**Quotient);
        }
      return regionError(B->getOperatorLoc(),
                         "non-affine operator '" + B->getOpcodeStr().str() +
                             "' in a subscript or loop bound",
                         AffineNote);
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return memberSize(ME);
    // (A constant call, `twice(kDepth / 2)` of a constexpr function, is
    // its value, below.)
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && (E->isValueDependent() || !E->getIntegerConstantExpr(Ctx))) {
      if (auto Helper = indexHelper(Call)) {
        HelperFrames.push_back(std::move(Helper->second));
        auto P = polynomial(Helper->first);
        HelperFrames.pop_back();
        return P;
      } else if (HelperWrap) {
        const std::string Text = sourceText(HelperWrap->getSourceRange());
        const FunctionDecl *FD = Call->getDirectCallee();
        return regionError(
            Call->getExprLoc(),
            "'" + (FD ? FD->getNameAsString() : std::string("the helper")) + "' computes " +
                (Text.empty() ? std::string("its result") : "'" + Text + "'") + " in " +
                std::to_string(Ctx.getIntWidth(HelperWrap->getType())) +
                "-bit unsigned arithmetic and returns another type: a wrap there would not "
                "be seen at the call",
            "give the helper parameters of the type it returns" +
                (FD ? " ('" + FD->getReturnType().getAsString() + "')" : std::string()) +
                ", or let it return '" + HelperWrap->getType().getAsString() +
                "', whose value the launcher then tests");
      }
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      // A parameter of an index helper being inlined: its argument, read
      // where the call is (the frame below).
      if (const auto *PV = dyn_cast<ParmVarDecl>(DR->getDecl()); PV && !HelperFrames.empty())
        if (auto Arg = HelperFrames.back().find(PV); Arg != HelperFrames.back().end()) {
          auto Frame = std::move(HelperFrames.back());
          HelperFrames.pop_back();
          auto P = polynomial(Frame.at(PV));
          HelperFrames.push_back(std::move(Frame));
          return P;
        }
      // An enumerator is a size of known value, as a constexpr variable is
      // (a symbol, so that `B[k * kN + j]` still delinearises).
      if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl())) {
        auto V = constantValue(EC->getInitVal(), DR->getLocation());
        if (!V)
          return V.takeError();
        if (auto Err = addEnumeratorParameter(EC, *V, DR->getLocation()))
          return std::move(Err);
        return Polynomial::symbol(EC->getNameAsString());
      }
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        return variableSize(VD, DR->getLocation());
      if (isa<BindingDecl>(DR->getDecl()))
        return structuredBindingError(DR);
    }
    // Any other integer constant expression: an enumerator, sizeof, a
    // constexpr function of constants, a template argument.
    if (E->getType()->isIntegerType() && !E->isValueDependent())
      if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx)) {
        auto C = constantValue(*V, E->getExprLoc());
        if (!C)
          return C.takeError();
        return Polynomial::constant(*C);
      }
    if (isa<ArraySubscriptExpr>(E))
      return regionError(E->getExprLoc(),
                         "indirect access: a subscript or bound reads memory",
                         AffineNote);
    if (isa<CallExpr>(E))
      return regionError(E->getExprLoc(),
                         "a function call in a subscript or loop bound",
                         AffineNote);
    return regionError(E->getExprLoc(),
                       "unsupported expression in a subscript or loop bound",
                       AffineNote);
  }

  /// An index helper (`inline int idx(int r, int c, int ld) { return r *
  /// ld + c; }`, or a lambda without captures) called in a subscript or
  /// bound: the expression it returns and its parameters' arguments, to
  /// be read as if written in place of the call. Only a body of one
  /// `return` of `+`, `-`, `*`, literals and its integer parameters,
  /// converted to no narrower type: its value then is the integers' one
  /// wherever the call's is (a wrap of the return type is found at the
  /// call, mayWrap), and nothing outside the call is read.
  std::optional<std::pair<const Expr *, std::map<const ParmVarDecl *, const Expr *>>>
  indexHelper(const CallExpr *Call, unsigned Depth = 0) const {
    if (Depth == 0)
      HelperWrap = nullptr;
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getReturnType()->isIntegerType() || HelperFrames.size() + Depth > 8)
      return std::nullopt;
    // A member call dispatches on its object (virtually, perhaps), which
    // is not read here; a lambda's call names its body. Arguments are read
    // where the body uses them: once, several times or never, so none may
    // have effects.
    if (isa<CXXMemberCallExpr>(Call))
      return std::nullopt;
    if (isa<CXXOperatorCallExpr>(Call)) {
      const auto *Method = dyn_cast<CXXMethodDecl>(FD);
      if (!Method || !Method->getParent()->isLambda())
        return std::nullopt;
    }
    for (const Expr *Arg : Call->arguments())
      if (Arg->HasSideEffects(Ctx))
        return std::nullopt;
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || Def->isVariadic())
      return std::nullopt;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
    const auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front())
                                                : nullptr;
    if (!Ret || !Ret->getRetValue())
      return std::nullopt;
    // A lambda's call operator: the object is the first argument.
    const unsigned First = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
    if (Call->getNumArgs() != Def->getNumParams() + First)
      return std::nullopt;
    std::map<const ParmVarDecl *, const Expr *> Args;
    for (unsigned I = 0; I < Def->getNumParams(); ++I) {
      const ParmVarDecl *P = Def->getParamDecl(I);
      if (!P->getType()->isIntegerType())
        return std::nullopt;
      Args[P] = Call->getArg(I + First);
    }
    // Arithmetic computed in a narrow unsigned type (`r * ld + c` over
    // `unsigned` parameters) wraps modulo 2^width there: where the call's
    // value has that type, the call is such a part itself and the launcher
    // tests its value (narrowUnsignedRoots); converted to another type on
    // its way out (`size_t idx(unsigned r, ...)`), the wrap would be
    // hidden inside the call, so the helper is not read.
    const QualType Result = Def->getReturnType().getCanonicalType();
    auto WrapsInside = [&](const Expr *E) {
      if (!isNarrowUnsigned(E->getType()) || E->getType().getCanonicalType() == Result)
        return false;
      if (!HelperWrap)
        HelperWrap = E;
      return true;
    };
    std::function<bool(const Stmt *)> Simple = [&](const Stmt *S) {
      const auto *E = dyn_cast<Expr>(S);
      if (!E)
        return false;
      E = E->IgnoreParens();
      if ((isa<BinaryOperator>(E) || isa<UnaryOperator>(E) || isa<CallExpr>(E)) &&
          WrapsInside(E))
        return false;
      bool Ok = false;
      if (const auto *DR = dyn_cast<DeclRefExpr>(E))
        Ok = isa<ParmVarDecl>(DR->getDecl()) &&
             Args.count(cast<ParmVarDecl>(DR->getDecl()));
      else if (isa<IntegerLiteral>(E))
        Ok = true;
      // (A subtraction computed unsigned may wrap where the integers' one
      // is negative: the call's value is then not the body's polynomial.)
      else if (const auto *B = dyn_cast<BinaryOperator>(E))
        Ok = B->getOpcode() == BO_Add || B->getOpcode() == BO_Mul ||
             (B->getOpcode() == BO_Sub && !B->getType()->isUnsignedIntegerType());
      else if (const auto *U = dyn_cast<UnaryOperator>(E))
        Ok = U->getOpcode() == UO_Plus ||
             (U->getOpcode() == UO_Minus && !U->getType()->isUnsignedIntegerType());
      else if (const auto *Inner = dyn_cast<CallExpr>(E)) // another helper
        Ok = indexHelper(Inner, Depth + 1).has_value();
      else if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
        Ok = C->getCastKind() == CK_LValueToRValue ||
             (C->getType()->isIntegerType() && C->getSubExpr()->getType()->isIntegerType() &&
              Ctx.getIntWidth(C->getType()) >= Ctx.getIntWidth(C->getSubExpr()->getType()));
      if (!Ok)
        return false;
      // A call's arguments are read here; its callee is not a value.
      if (const auto *InnerCall = dyn_cast<CallExpr>(E))
        return llvm::all_of(InnerCall->arguments(), [&](const Expr *Arg) { return Simple(Arg); });
      for (const Stmt *Child : E->children())
        if (!Child || !Simple(Child))
          return false;
      return true;
    };
    if (!Simple(Ret->getRetValue()))
      return std::nullopt;
    return std::make_pair(Ret->getRetValue(), std::move(Args));
  }

  /// Whether every value of integer type From is a value of To.
  bool representsAll(QualType To, QualType From) const {
    const unsigned WTo = Ctx.getIntWidth(To), WFrom = Ctx.getIntWidth(From);
    const bool STo = To->isSignedIntegerOrEnumerationType(),
               SFrom = From->isSignedIntegerOrEnumerationType();
    return STo == SFrom ? WTo >= WFrom : STo && WTo > WFrom;
  }

  /// Whether cast CE may change its operand's value and the model must
  /// follow it (convertedSize): an explicit conversion, an implicit one to
  /// a narrower type (`int i = n` of a size_t n), or an implicit one of an
  /// explicitly converted value (`i < (int)n` of an unsigned i converts
  /// (int)n back). An implicit change of sign alone is transparent where
  /// it is exact: to unsigned it changes negative sizes only, which the
  /// model does not take; to a signed type of 64 bits (`long long i = q -
  /// 1` of a size_t q) it changes the values that the launch's long long
  /// parameter wraps alike (q == 0: -1, no iterations either way). One to
  /// a narrower signed type (`int k = K - 1` of an unsigned K) is followed:
  /// the launch would pass K >= 2^31 unwrapped.
  bool followsConversion(const CastExpr *CE) {
    QualType To = CE->getType(), From = CE->getSubExpr()->getType();
    if (!To->isIntegerType() || !From->isIntegerType() || representsAll(To, From))
      return false;
    const auto *IC = dyn_cast<ImplicitCastExpr>(CE);
    if (!IC || IC->isPartOfExplicitCast() || Ctx.getIntWidth(To) < Ctx.getIntWidth(From))
      return true;
    if (To->isSignedIntegerOrEnumerationType() &&
        Ctx.getIntWidth(To) < Ctx.getIntWidth(Ctx.LongLongTy))
      return true;
    auto Inner = convertedSpelling(CE->getSubExpr());
    return Inner && llvm::StringRef(Inner->first).starts_with("static_cast<");
  }

  /// A size as the source converts it: `static_cast<int>(n)` for `(int)n`
  /// (nested for a chain of conversions), with the size's entity; a
  /// let-binding reads through to its value. None where E is not a size.
  std::optional<std::pair<std::string, const ValueDecl *>> convertedSpelling(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      auto Inner = convertedSpelling(CE->getSubExpr());
      QualType To = CE->getType(), From = CE->getSubExpr()->getType();
      if (!Inner || !To->isIntegerType() || !From->isIntegerType() || representsAll(To, From))
        return Inner;
      return std::make_pair("static_cast<" + castTypeName(To) + ">(" + Inner->first + ")",
                            Inner->second);
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD || Iterators.count(VD) || Locals.count(VD))
        return std::nullopt;
      if (auto L = Chains.find(VD); L != Chains.end())
        return !Writes.count(VD) && VD->getType()->isIntegerType()
                   ? convertedSpelling(L->second.front().Value)
                   : std::nullopt;
      if (isInsideRegion(VD->getLocation()) || VD->isUsableInConstantExpressions(Ctx))
        return std::nullopt;
      return std::make_pair(VD->getNameAsString(), static_cast<const ValueDecl *>(VD));
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && isa<FieldDecl>(ME->getMemberDecl()))
      if (auto S = memberSpelling(ME))
        return std::make_pair(*S, static_cast<const ValueDecl *>(ME->getMemberDecl()));
      else
        llvm::consumeError(S.takeError());
    return std::nullopt;
  }

  /// A conversion that may change its operand's value (followsConversion):
  /// `(int)n` of an unsigned or size_t n is n - 2^32 or n mod 2^32 for
  /// large n. Where it converts a constant, its value; where a size, a
  /// parameter of its own that the launch converts as the source does
  /// (`static_cast<int>(n)`), so that the loops run as many times as the
  /// source's. An iterator alone is read through (its values are its
  /// loop's); an expression of iterators only where the conversion keeps
  /// its values (to a wider unsigned type, of a value that is never
  /// negative); anything else is an error.
  llvm::Expected<Polynomial> convertedSize(const CastExpr *CE) {
    QualType To = CE->getType(), From = CE->getSubExpr()->getType();
    if (std::optional<llvm::APSInt> V = CE->getIntegerConstantExpr(Ctx)) {
      // The operand's symbol where the value is the same (`B[k * kN + j]`
      // delinearises by it).
      std::optional<llvm::APSInt> Of = CE->getSubExpr()->getIntegerConstantExpr(Ctx);
      if (Of && llvm::APSInt::isSameValue(*Of, *V))
        return polynomial(CE->getSubExpr());
      auto Value = constantValue(*V, CE->getExprLoc());
      if (!Value)
        return Value.takeError();
      return Polynomial::constant(*Value);
    }
    if (auto Size = convertedSpelling(CE)) {
      QualType T = Size->second->getType();
      if (auto Err = checkSizeType(T, Size->first, CE->getExprLoc()))
        return std::move(Err);
      if (auto Err = addSizeParameter(Size->first, Size->second, To, std::nullopt,
                                      CE->getExprLoc()))
        return std::move(Err);
      return Polynomial::symbol(Size->first);
    }
    auto Operand = polynomial(CE->getSubExpr());
    if (!Operand)
      return Operand.takeError();
    auto IsIterator = [&](const std::string &Sym) {
      return llvm::any_of(Iterators, [&](auto &It) { return It.second == Sym; });
    };
    if (Operand->Terms.size() == 1 && Operand->Terms.begin()->second == 1 &&
        Operand->Terms.begin()->first.size() == 1 && IsIterator(Operand->Terms.begin()->first[0]))
      return *Operand; // an iterator alone
    bool KeepsValues = To->isUnsignedIntegerType() && Ctx.getIntWidth(To) >= Ctx.getIntWidth(From);
    for (const auto &[Mono, C] : Operand->Terms) {
      KeepsValues &= C >= 0;
      for (const std::string &Sym : Mono)
        KeepsValues &= !IsIterator(Sym) || NonNegativeIterators.count(Sym);
    }
    if (KeepsValues)
      return *Operand;
    std::string Text = sourceText(CE->getSubExpr()->getSourceRange());
    return regionError(CE->getExprLoc(),
                       "conversion to '" + typeName(To) + "' of " +
                           (Text.empty() ? std::string("an expression") : "'" + Text + "'") +
                           " may change its value",
                       "convert a size alone ('(int)n'), or compute the value before the "
                       "region");
  }

  /// A size read from variable VD (used at Loc): an iterator, a let-bound
  /// integer, or a parameter of the launch.
  llvm::Expected<Polynomial> variableSize(const VarDecl *VD, SourceLocation Loc) {
    auto It = Iterators.find(VD);
    if (It != Iterators.end()) {
      if (auto E = checkCounterInItsLoop(VD, Loc))
        return std::move(E);
      return Polynomial::symbol(It->second);
    }
    // An integer let-binding never assigned again: its one binding.
    if (auto L = Chains.find(VD); L != Chains.end() && !Writes.count(VD) &&
                                  VD->getType()->isIntegerType())
      return polynomial(L->second.front().Value);
    if (Locals.count(VD))
      return regionError(Loc,
                         "data-dependent subscript or bound: '" +
                             VD->getNameAsString() +
                             "' is computed in the region",
                         AffineNote);
    if (auto Err = checkSizeType(VD->getType(), VD->getNameAsString(), Loc))
      return std::move(Err);
    if (auto Err = checkScalarReference(VD, Loc)) // `const int &n = C[0];`
      return std::move(Err);
    if (isInsideRegion(VD->getLocation()))
      return regionError(Loc,
                         "'" + VD->getNameAsString() +
                             "' is not invariant in the region",
                         AffineNote);
    if (auto Err = addParameter(VD, Loc))
      return std::move(Err);
    return Polynomial::symbol(VD->getNameAsString());
  }

  /// A size read from a member of an object the region does not write:
  /// `d.m`, `p->m`, `d.dims.m`, `this->m` or `m` in a method. It becomes a
  /// parameter spelled as the launch passes it (`this->m` for both of the
  /// last two); a static data member is a variable.
  llvm::Expected<Polynomial> memberSize(const MemberExpr *ME) {
    SourceLocation Loc = ME->getMemberLoc();
    if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl())) {
      // Its name alone would not find it at the launch, outside the class.
      if (!VD->isUsableInConstantExpressions(Ctx))
        return regionError(Loc,
                           "'" + VD->getNameAsString() +
                               "' is a static data member without a constant value",
                           "read it into a local variable before the region");
      return variableSize(VD, Loc);
    }
    auto Spelling = memberSpelling(ME);
    if (!Spelling)
      return Spelling.takeError();
    const auto *FD = cast<FieldDecl>(ME->getMemberDecl());
    if (auto Err = checkSizeType(FD->getType(), *Spelling, Loc))
      return std::move(Err);
    if (auto Err = addSizeParameter(*Spelling, FD, FD->getType(), std::nullopt, Loc))
      return std::move(Err);
    return Polynomial::symbol(*Spelling);
  }

  /// `d.m`, `p->dims.m`, `this->m` for a member of a variable declared
  /// outside the region, or of `this`.
  llvm::Expected<std::string> memberSpelling(const MemberExpr *ME) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return regionError(ME->getMemberLoc(),
                         "unsupported expression in a subscript or loop bound", AffineNote);
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    bool Arrow = ME->isArrow();
    // A member of an anonymous struct or union is named through the
    // object that holds it: `p.A` is `p.<anonymous>.A` in the AST.
    for (const auto *Anonymous = dyn_cast<MemberExpr>(Base);
         Anonymous && isAnonymousMember(Anonymous); Anonymous = dyn_cast<MemberExpr>(Base)) {
      Arrow = Anonymous->isArrow();
      Base = Anonymous->getBase()->IgnoreParenImpCasts();
    }
    // `(*p).m` is `p->m`.
    if (const auto *Deref = dyn_cast<UnaryOperator>(Base);
        Deref && Deref->getOpcode() == UO_Deref && !Arrow &&
        isa<DeclRefExpr>(Deref->getSubExpr()->IgnoreParenImpCasts())) {
      Base = Deref->getSubExpr()->IgnoreParenImpCasts();
      Arrow = true;
    }
    std::string Object;
    if (isa<CXXThisExpr>(Base)) {
      Object = "this";
    } else if (const auto *Inner = dyn_cast<MemberExpr>(Base)) {
      auto S = memberSpelling(Inner);
      if (!S)
        return S.takeError();
      Object = *S;
    } else if (const auto *DR = dyn_cast<DeclRefExpr>(Base)) {
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD)
        return regionError(DR->getLocation(),
                           "unsupported expression in a subscript or loop bound", AffineNote);
      if (Locals.count(VD) || isInsideRegion(VD->getLocation()))
        return regionError(DR->getLocation(),
                           "'" + VD->getNameAsString() + "' is not invariant in the region",
                           AffineNote);
      // `__constant__ Dims g;`: the host's copy is not the device's.
      if (auto Err = checkHostReadable(VD, DR->getLocation()))
        return std::move(Err);
      Object = VD->getNameAsString();
    } else if (isa<ArraySubscriptExpr>(Base)) {
      // `v[j].x` of a float2 array: the model's arrays hold scalars.
      return regionError(ME->getMemberLoc(),
                         "member '" + FD->getNameAsString() +
                             "' of an array element: the region's arrays must hold "
                             "scalars (float, __half, int8_t, ...)",
                         "copy the members into an array of scalars before the region");
    } else {
      const Expr *Value = Base;
      if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(Value))
        Value = MT->getSubExpr()->IgnoreParenImpCasts();
      return regionError(Base->getExprLoc(),
                         isa<CallExpr>(Value)
                             ? "a function call in a subscript or loop bound"
                             : "unsupported expression in a subscript or loop bound",
                         AffineNote);
    }
    return Object + (Arrow || Object == "this" ? "->" : ".") + FD->getNameAsString();
  }
  /// The function a region's code is in (F, or a lambda's call operator in
  /// it), as its first loop's iterator says; null without one.
  static const DeclContext *contextOf(const Stmt &Region) {
    const Stmt *S = &Region;
    while (const auto *Block = dyn_cast<CompoundStmt>(S)) {
      if (Block->body_empty())
        return nullptr;
      S = Block->body_front();
    }
    const auto *For = dyn_cast<ForStmt>(S);
    const auto *Init = For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
    if (!Init || !Init->isSingleDecl())
      return nullptr;
    return Init->getSingleDecl()->getDeclContext();
  }
  /// `A` of `auto &[A, B] = p;`: the launch would need the decomposed
  /// object's member, which the binding's name hides.
  llvm::Error structuredBindingError(const DeclRefExpr *DR) {
    return regionError(DR->getLocation(),
                       "'" + DR->getDecl()->getNameAsString() + "' is a structured binding",
                       "name the member it binds ('p." + DR->getDecl()->getNameAsString() +
                           "'), or copy it into a variable before the region");
  }
  static bool isAnonymousMember(const MemberExpr *ME) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    return FD && FD->isAnonymousStructOrUnion();
  }

  /// The declaration each parameter's or array's name stands for: two
  /// entities of one spelling in a region (`N` and `::N`, an enumerator and
  /// a variable) must not become one parameter or array.
  std::map<std::string, const ValueDecl *> ParamEntity;

  /// Whether `Name` is free for `D`, or already D's; an error where another
  /// entity of that spelling is a parameter (unless both are the same
  /// constant).
  llvm::Expected<bool> claimParameterName(const std::string &Name, const ValueDecl *D,
                                          std::optional<int64_t> Value, SourceLocation Use) {
    auto It = ParamEntity.find(Name);
    if (It == ParamEntity.end()) {
      ParamEntity[Name] = D;
      return true;
    }
    if (It->second == D)
      return false;
    for (const Parameter &P : M.Params)
      if (P.Name == Name && Value && P.Value == Value && !P.IsKernelArgument)
        return false; // the same constant twice: one parameter serves
    return regionError(Use, "two different entities named '" + Name + "' in the region",
                       "rename one of them");
  }

  /// The parameter of an enumerator: a size of known value, as a
  /// constexpr variable is.
  llvm::Error addEnumeratorParameter(const EnumConstantDecl *EC, int64_t Value,
                                     SourceLocation Use) {
    return addSizeParameter(EC->getNameAsString(), EC, Ctx.LongLongTy, Value, Use);
  }

  /// The parameter of variable VD, a constant where it has a known value.
  llvm::Error addParameter(const VarDecl *VD, SourceLocation Use) {
    std::optional<int64_t> Value;
    if (VD->getType().isConstQualified() || VD->isConstexpr())
      if (const Expr *Init = VD->getInit())
        if (auto V = Init->getIntegerConstantExpr(Ctx);
            V && Ctx.getIntWidth(VD->getType()) <= 64) { // (wider: refused below)
          auto Known = constantValue(*V, Use);
          if (!Known)
            return Known.takeError();
          Value = *Known;
        }
    return addSizeParameter(VD->getNameAsString(), VD, VD->getType(), Value, Use);
  }

  /// The parameter `Name` of entity D, of type T (a reference reads what
  /// it is bound to), unless D has it already; with a Value, a constant
  /// rather than a kernel argument. Sizes and their values travel as
  /// 64-bit signed integers (long long kernel arguments, isl's bounds): a
  /// wider type would be cut silently.
  llvm::Error addSizeParameter(const std::string &Name, const ValueDecl *D, QualType T,
                               std::optional<int64_t> Value, SourceLocation Use) {
    auto Fresh = claimParameterName(Name, D, Value, Use);
    if (!Fresh)
      return Fresh.takeError();
    if (!*Fresh)
      return llvm::Error::success();
    T = T.getNonReferenceType();
    if (Ctx.getTypeSize(T) > 64)
      return regionError(Use, "'" + Name + "' is wider than 64 bits",
                         "sizes and bounds are computed in 64-bit signed integers");
    Parameter P;
    P.Name = Name;
    P.TypeSpelling = castTypeName(T);
    if (T->isUnsignedIntegerType())
      UnsignedSizes.insert(Name);
    if (Value) {
      P.Value = Value;
      P.IsKernelArgument = false;
    }
    M.Params.push_back(P);
    return llvm::Error::success();
  }

  /// A size's type: an integer, or a const reference to one, which reads
  /// the integer it is bound to (nothing in the region may write it, so
  /// its value at the launch is its value throughout).
  llvm::Error checkSizeType(QualType T, const std::string &Name, SourceLocation Loc) {
    if (T->isReferenceType() && T.getNonReferenceType()->isIntegerType() &&
        !T.getNonReferenceType().isConstQualified())
      return regionError(Loc, "'" + Name + "' is a reference to a non-const integer",
                         "bind sizes to 'const' references, or pass them by value");
    if (!T.getNonReferenceType()->isIntegerType())
      return regionError(Loc, "'" + Name + "' is not an integer", AffineNote);
    return llvm::Error::success();
  }

  // ----- value expressions -------------------------------------------------
  /// An integer leaf (an iterator, a size) as a value of its declared type.
  /// The kernels hold iterators and sizes in `long long`; an unsigned one
  /// computes in unsigned arithmetic in the source (`(float)(i - j)` wraps).
  /// With `Scalar`, also a signed integer narrower than long long: the
  /// launcher passes a scalar as long long, and the source computes in its
  /// type (`int t`: `t << 1` wraps at 2^31 there). (An iterator's values
  /// are its loop's, in range.)
  ExprPtr inItsType(ExprPtr Leaf, QualType T, bool Scalar = false) {
    const bool Narrower = Scalar && T->isSignedIntegerType() && Ctx.getTypeSize(T) < 64;
    if ((!T->isUnsignedIntegerType() && !Narrower) || T->isBooleanType())
      return Leaf;
    return ExprNode::make(ExprNode::Cast, castTypeName(T), {std::move(Leaf)});
  }

  // ----- packed 4-bit values (issue 51's int4 weights) --------------------
  /// An expression that unpacks a 4-bit value from one byte `W[... + k / 2]`
  /// of an 8-bit array: its only inputs are that byte and the parity of the
  /// index it halves (`k % 2`, `k & 1`).
  struct Unpacking {
    const ArraySubscriptExpr *Byte = nullptr;
    std::vector<const Expr *> Parities; // the x of each `x % 2`, `x & 1`
    bool Signed = false;
  };
  /// Which value E computes, as the source computes it (C's conversions,
  /// promotions, shifts and wrap-around), for the byte's bits `Byte` and
  /// the parity `Parity`; nothing where E is not a function of those two
  /// or would be undefined. The first byte read found is E's byte; another
  /// must be the same expression.
  /// Integers wide enough for any value of a 64-bit type and its
  /// arithmetic before the wrap (unpackedValue).
  using Wide = __int128;
  using UWide = unsigned __int128;
  std::optional<Wide> unpackedValue(const Expr *E, unsigned Byte, unsigned Parity,
                                       Unpacking &U) {
    QualType T = E->getType();
    if (!T->isIntegerType() || Ctx.getIntWidth(T) > 64)
      return std::nullopt;
    const unsigned Width = Ctx.getIntWidth(T);
    const bool Unsigned = T->isUnsignedIntegerType() || T->isBooleanType();
    // v as a value of T; nothing where a signed result would overflow.
    auto Fit = [&](Wide V, bool Converting) -> std::optional<Wide> {
      if (T->isBooleanType())
        return Wide(V != 0);
      const UWide Mask = (UWide(1) << Width) - 1;
      const UWide Bits = UWide(V) & Mask;
      const Wide R = Unsigned || !((Bits >> (Width - 1)) & 1) ? Wide(Bits) : Wide(Bits | ~Mask);
      if (!Unsigned && !Converting && R != V)
        return std::nullopt;
      return R;
    };
    E = E->IgnoreParens();
    if (const auto *IL = dyn_cast<IntegerLiteral>(E))
      return Fit(Wide(IL->getValue().getZExtValue()), true);
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      const Expr *Sub = CE->getSubExpr();
      if (!Sub->getType()->isIntegerType())
        return std::nullopt;
      auto V = unpackedValue(Sub, Byte, Parity, U);
      if (!V)
        return std::nullopt;
      return Fit(*V, true);
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      if (Width != 8)
        return std::nullopt;
      if (!U.Byte)
        U.Byte = ASE;
      else if (!Expr::isSameComparisonOperand(U.Byte, ASE) &&
               sourceText(U.Byte->getSourceRange()) != sourceText(ASE->getSourceRange()))
        return std::nullopt;
      return Fit(Wide(Byte), true);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      auto V = unpackedValue(UO->getSubExpr(), Byte, Parity, U);
      if (!V)
        return std::nullopt;
      switch (UO->getOpcode()) {
      case UO_Plus: return Fit(*V, false);
      case UO_Minus: return Fit(-*V, false);
      case UO_Not: return Fit(~*V, true);
      case UO_LNot: return Fit(*V == 0, false);
      default: return std::nullopt;
      }
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      auto C = unpackedValue(CO->getCond(), Byte, Parity, U);
      if (!C)
        return std::nullopt;
      auto V = unpackedValue(*C ? CO->getTrueExpr() : CO->getFalseExpr(), Byte, Parity, U);
      if (!V)
        return std::nullopt;
      return Fit(*V, true);
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      const BinaryOperatorKind Op = B->getOpcode();
      // The parity of an index: `x % 2` or `x & 1` of an x without the byte.
      for (int Side = 0; Side < 2; ++Side) {
        const Expr *Other = Side ? B->getLHS() : B->getRHS();
        const Expr *X = Side ? B->getRHS() : B->getLHS();
        std::optional<llvm::APSInt> C = Other->getIntegerConstantExpr(Ctx);
        if ((Op == BO_Rem && Side == 0 && C && *C == 2) || (Op == BO_And && C && *C == 1))
          if (!X->getIntegerConstantExpr(Ctx) && !containsByteRead(X)) {
            if (llvm::none_of(U.Parities, [&](const Expr *P) { return P == X; }))
              U.Parities.push_back(X);
            return Fit(Parity, true);
          }
      }
      if (B->isAssignmentOp() || Op == BO_Comma)
        return std::nullopt;
      auto L = unpackedValue(B->getLHS(), Byte, Parity, U);
      if (!L)
        return std::nullopt;
      if (Op == BO_LAnd && !*L)
        return Fit(0, false);
      if (Op == BO_LOr && *L)
        return Fit(1, false);
      auto R = unpackedValue(B->getRHS(), Byte, Parity, U);
      if (!R)
        return std::nullopt;
      const unsigned LeftWidth = Ctx.getIntWidth(B->getLHS()->getType());
      switch (Op) {
      case BO_Add: return Fit(*L + *R, false);
      case BO_Sub: return Fit(*L - *R, false);
      case BO_Mul: return Fit(*L * *R, false);
      case BO_Div: return *R == 0 ? std::nullopt : Fit(*L / *R, false);
      case BO_Rem: return *R == 0 ? std::nullopt : Fit(*L % *R, false);
      case BO_Shl: // (two's complement, as C++20 defines it and compilers do)
        if (*R < 0 || *R >= LeftWidth)
          return std::nullopt;
        return Fit(Wide(UWide(*L) << int(*R)), true);
      case BO_Shr:
        if (*R < 0 || *R >= LeftWidth)
          return std::nullopt;
        return Fit(*L >> int(*R), true); // (arithmetic for a negative signed value)
      case BO_And: return Fit(*L & *R, true);
      case BO_Or: return Fit(*L | *R, true);
      case BO_Xor: return Fit(*L ^ *R, true);
      case BO_LT: return Fit(*L < *R, false);
      case BO_GT: return Fit(*L > *R, false);
      case BO_LE: return Fit(*L <= *R, false);
      case BO_GE: return Fit(*L >= *R, false);
      case BO_EQ: return Fit(*L == *R, false);
      case BO_NE: return Fit(*L != *R, false);
      case BO_LAnd: return Fit(*R != 0, false);
      case BO_LOr: return Fit(*R != 0, false);
      default: return std::nullopt;
      }
    }
    if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx))
      return Fit(C->isSigned() ? Wide(C->getSExtValue()) : Wide(C->getZExtValue()), true);
    return std::nullopt;
  }
  /// Whether E reads an element of an 8-bit integer array.
  bool containsByteRead(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      if (ASE->getType()->isIntegerType() && Ctx.getTypeSize(ASE->getType()) == 8)
        return true;
    for (const Stmt *Child : E->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        if (containsByteRead(ChildExpr))
          return true;
    return false;
  }
  /// E as an unpacking of a 4-bit value (Unpacking): E of integer type
  /// whose byte is read at half an index, evaluated for all 512 pairs of a
  /// byte and a parity to be the nibble that the parity selects (the low
  /// one at even indices), unsigned (0 .. 15) or two's complement (-8 ..
  /// 7), in E's type. Nothing otherwise.
  std::optional<Unpacking> unpacking(const Expr *E) {
    if (!E->getType()->isIntegerType() || E->getType()->isBooleanType() ||
        isa<ArraySubscriptExpr>(E->IgnoreParenImpCasts()) || !containsByteRead(E))
      return std::nullopt;
    for (bool Signed : {false, true}) {
      Unpacking U;
      U.Signed = Signed;
      bool Matches = true;
      for (unsigned Byte = 0; Matches && Byte < 256; ++Byte)
        for (unsigned Parity = 0; Matches && Parity < 2; ++Parity) {
          const int64_t Nibble = (Byte >> (4 * Parity)) & 15;
          const int64_t Expected = Signed && Nibble >= 8 ? Nibble - 16 : Nibble;
          std::optional<Wide> V = unpackedValue(E, Byte, Parity, U);
          Matches = V && *V == Expected;
        }
      if (Matches && U.Byte && !U.Parities.empty()) {
        const Expr *Sub = U.Byte->getIdx();
        if (halving(Sub))
          return U;
      }
    }
    return std::nullopt;
  }
  /// The read of a packed 4-bit value that E unpacks (unpacking()): the
  /// byte's access with its index halved (Access::Divisor 2), each parity
  /// taken of that index, and the array's element type set to U4 or I4.
  /// The value is converted to E's type, as the source computes it there.
  llvm::Expected<ExprPtr> packedRead(const Expr *E, const Unpacking &U, Statement &S) {
    InPackedRead = true;
    auto A = arrayAccess(U.Byte);
    InPackedRead = false;
    if (!A)
      return A.takeError();
    if (A->Divisor != 2)
      return regionError(U.Byte->getExprLoc(),
                         "the 4-bit value is unpacked from a byte not read at half an index",
                         kPackedNote);
    // Each parity must be the halved index's: of the same parity as the
    // nibble's index 2 R + x for every value (x - the parity's operand
    // even in each coefficient).
    const Polynomial Index = Polynomial::affine(A->Index.back());
    for (const Expr *X : U.Parities) {
      auto P = polynomial(X);
      if (!P)
        return P.takeError();
      const Polynomial Difference = Index + *P * -1;
      if (llvm::any_of(Difference.Terms, [](const auto &T) { return T.second % 2 != 0; }))
        return regionError(X->getExprLoc(),
                           "the nibble is chosen by the parity of '" +
                               sourceText(X->getSourceRange()) +
                               "', not by that of the index the byte's subscript halves",
                           kPackedNote);
    }
    Array &Arr = M.Arrays[A->ArrayId];
    const ElementType Packed = U.Signed ? ElementType::I4 : ElementType::U4;
    if ((Arr.Elem == ElementType::U4 || Arr.Elem == ElementType::I4) && Arr.Elem != Packed)
      return regionError(E->getExprLoc(),
                         "'" + Arr.Name + "' is unpacked both as signed and as unsigned "
                         "4-bit values",
                         "unpack each array's nibbles one way");
    Arr.Elem = Packed;
    if (auto Err = checkNotStoredSince(A->ArrayId, E->getExprLoc()))
      return std::move(Err);
    return ExprNode::make(ExprNode::Cast, castTypeName(E->getType()), {readOf(S, *A)});
  }
  llvm::Expected<ExprPtr> expr(const Expr *E, Statement &S) {
    E = E->IgnoreParens();
    // A long double value (`acc * 1.1L`, a conversion to one): as for a
    // variable of the type (checkNamedVariables), device code has none.
    if (isLongDouble(E->getType()) && !isa<DeclRefExpr>(E->IgnoreImpCasts()))
      return regionError(E->getExprLoc(),
                         "'" + sourceText(E->getSourceRange()) + "' is of type '" +
                             typeName(E->getType()) + "'",
                         "device code has no long double (nor __float128); compute in double");
    // A template's non-type argument, in an instantiated region: its value
    // (the replacement's tokens are the parameter's name).
    if (const auto *NT = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
      Expr::EvalResult R;
      QualType T = NT->getType();
      if (!T->isIntegralOrEnumerationType() ||
          !NT->getReplacement()->EvaluateAsInt(R, Ctx))
        return regionError(NT->getExprLoc(),
                           "template argument that is not an integer",
                           "only integer template arguments may appear in a region's values");
      const llvm::APSInt &V = R.Val.getInt();
      auto N = ExprNode::make(ExprNode::Literal,
                              T->isBooleanType() ? (V.isZero() ? "false" : "true")
                                                 : "static_cast<" + castTypeName(T) + ">(" +
                                                       toString(V, 10) + ")");
      N->IsInteger = true;
      N->IsUnsigned = T->isUnsignedIntegerType();
      N->IsPositiveZero = V.isZero();
      N->Value = V.isSigned() ? double(V.getSExtValue()) : double(V.getZExtValue());
      return N;
    }
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return expr(EWC->getSubExpr(), S);
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return expr(MT->getSubExpr(), S);
    if (std::optional<Unpacking> U = unpacking(E))
      return packedRead(E, *U, S);
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      return expr(BT->getSubExpr(), S);
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      auto Sub = expr(IC->getSubExpr(), S);
      if (!Sub)
        return Sub;
      switch (IC->getCastKind()) {
      case CK_IntegralToFloating:
      case CK_FloatingCast:
      case CK_FloatingToIntegral:
      case CK_IntegralCast:
      // `bool b = v;` is 0 or 1, not v (`b + x` reads 1 for v = 0.3).
      case CK_FloatingToBoolean:
      case CK_IntegralToBoolean:
        return ExprNode::make(ExprNode::Cast, castTypeName(IC->getType()), {*Sub});
      default:
        return Sub;
      }
    }
    if (const auto *EC = dyn_cast<ExplicitCastExpr>(E)) {
      auto Sub = expr(EC->getSubExpr(), S);
      if (!Sub)
        return Sub;
      return ExprNode::make(ExprNode::Cast, castTypeName(EC->getType()), {*Sub});
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      // `operator float()` of __half / __nv_bfloat16.
      if (const auto *Conv = dyn_cast_or_null<CXXConversionDecl>(MC->getMethodDecl())) {
        auto Sub = expr(MC->getImplicitObjectArgument(), S);
        if (!Sub)
          return Sub;
        return ExprNode::make(ExprNode::Cast,
                              castTypeName(Conv->getConversionType()), {*Sub});
      }
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() == 1) {
        auto Sub = expr(CE->getArg(0), S);
        if (!Sub)
          return Sub;
        if (CE->getConstructor()->isCopyOrMoveConstructor())
          return Sub;
        return ExprNode::make(ExprNode::Cast, castTypeName(CE->getType()), {*Sub});
      }
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (auto Alias = ElementAliases.find(dyn_cast<VarDecl>(DR->getDecl()));
          Alias != ElementAliases.end())
        return expr(Alias->second, S);
    const auto *Deref = dyn_cast<UnaryOperator>(E);
    if (Deref && Deref->getOpcode() != UO_Deref)
      Deref = nullptr;
    if (isa<ArraySubscriptExpr>(E) || Deref) {
      auto A = Deref ? elementAccess(Deref, Deref->getSubExpr(), {})
                     : arrayAccess(cast<ArraySubscriptExpr>(E));
      if (!A)
        return A.takeError();
      if (auto Err = checkNotStoredSince(A->ArrayId, E->getExprLoc()))
        return std::move(Err);
      return readOf(S, *A);
    }
    // A scalar member of an object from before the region (`p.alpha`, a
    // method's `scale`): passed by value, as it is at the launch, like a
    // variable (nothing in the region writes it).
    if (const auto *ME = dyn_cast<MemberExpr>(E);
        ME && isa<FieldDecl>(ME->getMemberDecl()) &&
        ME->getType().getNonReferenceType()->isArithmeticType()) {
      const QualType T = ME->getMemberDecl()->getType().getNonReferenceType();
      if (T->isIntegerType()) {
        auto Size = memberSize(ME);
        if (!Size)
          return Size.takeError();
        auto Spelling = memberSpelling(ME);
        if (!Spelling)
          return Spelling.takeError();
        return inItsType(ExprNode::make(ExprNode::Scalar, *Spelling), T, /*Scalar=*/true);
      }
      auto Spelling = memberSpelling(ME);
      if (!Spelling)
        return Spelling.takeError();
      addScalar(*Spelling, T);
      return ExprNode::make(ExprNode::Scalar, *Spelling);
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      // An enumerator is its value, in its enumeration's integer type (a
      // function's local enumeration is not visible to the kernels).
      if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl())) {
        const llvm::APSInt &V = EC->getInitVal();
        auto N = ExprNode::make(ExprNode::Literal, "static_cast<" + castTypeName(DR->getType()) +
                                                       ">(" + toString(V, 10) + ")");
        N->IsInteger = true;
        N->IsUnsigned = V.isUnsigned();
        N->IsPositiveZero = V.isZero();
        N->Value = V.isSigned() ? double(V.getSExtValue()) : double(V.getZExtValue());
        return N;
      }
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD && isa<BindingDecl>(DR->getDecl()))
        return structuredBindingError(DR);
      if (!VD)
        return regionError(DR->getLocation(), "unsupported reference",
                           "a region's values may name variables, parameters, enumerators "
                           "and integer template arguments");
      if (Iterators.count(VD)) {
        if (auto E = checkCounterInItsLoop(VD, DR->getLocation()))
          return std::move(E);
        return inItsType(ExprNode::make(ExprNode::Iterator, Iterators[VD]), VD->getType());
      }
      if (auto It = Now.find(VD); It != Now.end() && It->second >= 0)
        return boundValue(VD, It->second, S);
      if (Now.count(VD) && !Locals.count(VD))
        return regionError(DR->getLocation(),
                           "'" + VD->getNameAsString() + "' is read before it is assigned",
                           "initialise the variable where it is declared");
      if (Locals.count(VD))
        return readVariable(VD, -1, S, DR->getLocation());
      if (isInsideRegion(VD->getLocation()))
        return regionError(DR->getLocation(), "unsupported local variable",
                           "a region may read scalars it declares in its loops, and "
                           "variables declared before it");
      if (auto Err = checkHostReadable(VD, DR->getLocation()))
        return std::move(Err);
      // A scalar is passed to the kernels by value: a reference's value at
      // the launch (the kernels cannot follow a host reference).
      const QualType VT = VD->getType().getNonReferenceType();
      if (VT->isIntegerType()) {
        if (auto Err = addParameter(VD, DR->getLocation()))
          return std::move(Err);
        return inItsType(ExprNode::make(ExprNode::Scalar, VD->getNameAsString()), VT,
                         /*Scalar=*/true);
      }
      if (VT->isPointerType() || VT->isArrayType())
        return regionError(DR->getLocation(),
                           "array '" + VD->getNameAsString() +
                               "' used without a subscript",
                           "a region's values read array elements, 'A[i * K + k]' or "
                           "'A[i][k]'");
      if (auto Err = checkScalarReference(VD, DR->getLocation()))
        return std::move(Err);
      addScalar(VD);
      return ExprNode::make(ExprNode::Scalar, VD->getNameAsString());
    }
    // Value-initialisation of a number (`float acc{}`, `= {}`, `float()`)
    // is its zero; a braced single value (`float acc{0.5f}`) is that value.
    if (E->getType()->isArithmeticType()) {
      if (const auto *IL = dyn_cast<InitListExpr>(E); IL && IL->getNumInits() == 1)
        return expr(IL->getInit(0), S);
      if ((isa<InitListExpr>(E) && cast<InitListExpr>(E)->getNumInits() == 0) ||
          isa<CXXScalarValueInitExpr>(E) || isa<ImplicitValueInitExpr>(E)) {
        const bool Integer = E->getType()->isIntegralOrEnumerationType();
        auto N = ExprNode::make(
            ExprNode::Literal,
            Integer ? "0"
                    : E->getType()->isSpecificBuiltinType(BuiltinType::Float) ? "0.0f" : "0.0");
        N->IsPositiveZero = true;
        N->IsInteger = Integer;
        return N;
      }
    }
    if (isa<FloatingLiteral>(E) || isa<IntegerLiteral>(E) ||
        isa<CXXBoolLiteralExpr>(E)) {
      // The literal's own token where it is spelled: inside a macro the
      // expansion's text would be the macro's name (whose definition may
      // differ where the kernel is emitted) or nothing (an argument of a
      // function-like macro).
      auto N = ExprNode::make(ExprNode::Literal, tokenSpelling(E->getBeginLoc()));
      // The value as Clang reads it, whatever the spelling (0x0p0, 0'0).
      if (const auto *F = dyn_cast<FloatingLiteral>(E)) {
        N->IsPositiveZero = F->getValue().isPosZero();
        N->Value = F->getValueAsApproximateDouble();
      } else if (const auto *I = dyn_cast<IntegerLiteral>(E)) {
        N->IsPositiveZero = I->getValue().isZero();
        N->IsInteger = true;
        N->IsUnsigned = I->getType()->isUnsignedIntegerType();
        N->Value = I->getValue().roundToDouble(!N->IsUnsigned);
      } else {
        N->Value = cast<CXXBoolLiteralExpr>(E)->getValue() ? 1 : 0;
        N->IsInteger = true;
      }
      return N;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->isIncrementDecrementOp())
        return regionError(U->getExprLoc(),
                           "side effect inside an expression",
                           "a region's expressions must be pure");
      auto Sub = expr(U->getSubExpr(), S);
      if (!Sub)
        return Sub;
      return ExprNode::make(ExprNode::Unary,
                            UnaryOperator::getOpcodeStr(U->getOpcode()).str(),
                            {*Sub});
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAssignmentOp() || B->getOpcode() == BO_Comma)
        return regionError(B->getOperatorLoc(),
                           "side effect inside an expression",
                           "a region's expressions must be pure");
      auto L = expr(B->getLHS(), S);
      if (!L)
        return L;
      auto R = expr(B->getRHS(), S);
      if (!R)
        return R;
      return ExprNode::make(ExprNode::Binary, B->getOpcodeStr().str(), {*L, *R});
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto Cd = expr(C->getCond(), S);
      if (!Cd)
        return Cd;
      auto T = expr(C->getTrueExpr(), S);
      if (!T)
        return T;
      auto F = expr(C->getFalseExpr(), S);
      if (!F)
        return F;
      return ExprNode::make(ExprNode::Conditional, "?:", {*Cd, *T, *F});
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      // The arithmetic and comparison operators of cuda_fp16.h and
      // cuda_bf16.h, which compute in that type. Not a function object's
      // operator() (two arguments too: the object and one), a subscript,
      // or a class of the user's, whose operator may do anything.
      if (OC->getNumArgs() == 2 && !OC->isAssignmentOp() && OC->isInfixBinaryOp() &&
          OC->getOperator() != OO_Comma && OC->getOperator() != OO_ArrowStar &&
          (isSixteenBitFloat(OC->getArg(0)->getType()) ||
           isSixteenBitFloat(OC->getArg(1)->getType())) &&
          isLibraryDeclaration(OC->getDirectCallee())) {
        auto L = expr(OC->getArg(0), S);
        if (!L)
          return L;
        auto R = expr(OC->getArg(1), S);
        if (!R)
          return R;
        auto N = ExprNode::make(ExprNode::Binary, getOperatorSpelling(OC->getOperator()),
                                {*L, *R});
        N->IsOperatorCall = true;
        return N;
      }
      return regionError(OC->getExprLoc(),
                         "call of operator " + operatorOfType(OC),
                         "a region may use the arithmetic and comparison operators of "
                         "__half and __nv_bfloat16, and the built-in ones");
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      std::string Name = Callee ? Callee->getNameAsString() : "";
      if (!Callee || !isPureFunction(Name))
        return regionError(Call->getExprLoc(),
                           "call to '" + (Name.empty() ? std::string("<indirect>") : Name) +
                               "' may have side effects",
                           "only conversion and math functions (e.g. "
                           "__half2float, fmaxf, expf, tanhf) are allowed in "
                           "a '#pragma tc' region");
      // The kernels compute the library's function of that name; a
      // function of the user's that shares it (an overload, one in the
      // user's namespace) may compute anything.
      if (!isLibraryDeclaration(Callee))
        return regionError(Call->getExprLoc(),
                           "call to '" + Name + "' declared at " +
                               Callee->getLocation().printToString(Ctx.getSourceManager()) +
                               ", not the library's '" + Name + "'",
                           "a region may call the math and conversion functions of the "
                           "CUDA headers and the C and C++ libraries; compute the user's "
                           "function outside the region, or inline its expression");
      std::vector<ExprPtr> Args;
      for (const Expr *A : Call->arguments()) {
        auto V = expr(A, S);
        if (!V)
          return V;
        // An integer argument in the parameter's type: the kernels compute
        // iterators in long long, which would choose another overload of
        // CUDA's max(int, int), or none (max(long long, int) is ambiguous).
        const unsigned I = unsigned(Args.size());
        if (I < Callee->getNumParams() && (*V)->K != ExprNode::Literal)
          if (QualType P = Callee->getParamDecl(I)->getType().getNonReferenceType();
              P->isIntegerType() && !P->isBooleanType() &&
              !((*V)->K == ExprNode::Cast && (*V)->Text == castTypeName(P)))
            *V = ExprNode::make(ExprNode::Cast, castTypeName(P), {*V});
        Args.push_back(*V);
      }
      // std::max and std::min return the first argument unless the other
      // compares greater (less): with a NaN they are not fmaxf and fminf,
      // which CUDA's max and min are.
      if (Callee->isInStdNamespace() && (Name == "max" || Name == "min") && Args.size() == 2) {
        const bool Max = Name == "max";
        auto Less = ExprNode::make(ExprNode::Binary, "<",
                                   {Args[Max ? 0 : 1], Args[Max ? 1 : 0]});
        Less->IsOperatorCall = isSixteenBitFloat(Call->getArg(0)->getType());
        return ExprNode::make(ExprNode::Conditional, "?:", {Less, Args[1], Args[0]});
      }
      return ExprNode::make(ExprNode::Call, Name, Args);
    }
    // Any other integer constant expression (`sizeof(T)`, `alignof(T)`):
    // its value, in its type (`-sizeof(T)` wraps as the source does).
    if (isa<UnaryExprOrTypeTraitExpr>(E) && E->getType()->isIntegerType() &&
        !E->isValueDependent())
      if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx)) {
        const bool Unsigned = E->getType()->isUnsignedIntegerType();
        auto N = ExprNode::make(ExprNode::Literal,
                                "static_cast<" + castTypeName(E->getType()) + ">(" +
                                    toString(*V, 10, !Unsigned) + (Unsigned ? "u" : "") +
                                    ")");
        N->IsInteger = true;
        N->IsUnsigned = Unsigned;
        N->IsPositiveZero = V->isZero();
        N->Value = V->roundToDouble(!Unsigned);
        return N;
      }
    return regionError(E->getExprLoc(),
                       "unsupported expression in a '#pragma tc' region",
                       "a region's values may use arithmetic, comparisons, '?:', casts and "
                       "math functions of array elements, iterators and scalars");
  }

  void addScalar(const VarDecl *VD) {
    addScalar(VD->getNameAsString(), VD->getType().getNonReferenceType());
  }
  /// The scalar `Name` (a variable, or a member's spelling) of type T.
  void addScalar(const std::string &Name, QualType T) {
    for (auto &Sc : M.Scalars)
      if (Sc.Name == Name)
        return;
    M.Scalars.push_back({Name, castTypeName(T), T->isScopedEnumeralType()});
  }

  /// A scalar the kernels read by value, at the launch, and the region
  /// would read through a reference: right where nothing writes the
  /// referent while the region runs. A const reference parameter (the
  /// caller's value), a local bound to a temporary or to a variable: yes.
  /// A non-const parameter, or a local bound to memory (`C[0]`, `*p`,
  /// `s.x`) the region may write: refused.
  llvm::Error checkScalarReference(const VarDecl *VD, SourceLocation Loc) {
    if (!VD->getType()->isReferenceType())
      return llvm::Error::success();
    const std::string Name = VD->getNameAsString();
    if (isa<ParmVarDecl>(VD)) {
      if (VD->getType().getNonReferenceType().isConstQualified())
        return llvm::Error::success();
      return regionError(Loc, "'" + Name + "' is a reference to a non-const scalar",
                         "the kernels read a scalar's value at the launch: bind it to a "
                         "'const' reference, or pass it by value");
    }
    // What it is bound to, under parentheses, implicit casts and cleanups
    // (not under a temporary, as IgnoreParenImpCasts would go).
    const Expr *Bound = VD->getInit() ? IgnoreExprNodes(VD->getInit(), IgnoreParensSingleStep,
                                                         IgnoreImplicitCastsSingleStep)
                                      : nullptr;
    if (isa_and_nonnull<MaterializeTemporaryExpr>(Bound))
      return llvm::Error::success(); // a temporary's value, bound for good
    if (const auto *To = dyn_cast_or_null<DeclRefExpr>(Bound))
      if (const auto *Var = dyn_cast<VarDecl>(To->getDecl());
          Var && !Var->getType()->isReferenceType())
        return llvm::Error::success();
    return regionError(Loc,
                       "'" + Name + "' is a reference to memory that the region may write",
                       "the kernels read a scalar's value at the launch, where the loops "
                       "read the referent as the region changes it: copy the value into "
                       "a variable before the region");
  }

  /// `'*' of type '__half'`: an operator call, for a diagnostic.
  std::string operatorOfType(const CXXOperatorCallExpr *OC) {
    return "'" + std::string(getOperatorSpelling(OC->getOperator())) + "' of type '" +
           typeName(OC->getArg(0)->getType()) + "'";
  }

  /// Whether FD is a declaration of the libraries (the CUDA headers, the C
  /// and C++ libraries: system headers) rather than the user's.
  bool isLibraryDeclaration(const FunctionDecl *FD) const {
    if (!FD)
      return false;
    SourceLocation L = FD->getCanonicalDecl()->getLocation();
    if (L.isInvalid())
      return FD->getBuiltinID() != 0;
    const SourceManager &SM = Ctx.getSourceManager();
    return SM.isInSystemHeader(SM.getExpansionLoc(L));
  }

  /// A variable of device memory (`__constant__`, `__device__`, `__shared__`)
  /// names, in host code, its host shadow: neither the value a
  /// cudaMemcpyToSymbol wrote nor an address the kernels may read. The
  /// launcher, host code, would pass that. (`__managed__` memory is the
  /// same on both sides; a constexpr scalar is its constant.)
  /// Whether VD is declared `__managed__`: memory both the host and the
  /// device read.
  bool isManaged(const VarDecl *VD) const {
    if (VD->hasAttr<HIPManagedAttr>())
      return true;
    // Clang drops CUDA's `__managed__` (an attribute it keeps for HIP
    // only): read it from the declaration's specifiers, as tokens (not in
    // a comment, nor inside another name). (Through a macro of the user's
    // it is not seen: the array is then refused as host memory.)
    const SourceManager &SM = Ctx.getSourceManager();
    const SourceLocation Begin = SM.getExpansionLoc(VD->getOuterLocStart()),
                         End = SM.getExpansionLoc(VD->getLocation());
    if (SM.getFileID(Begin) != SM.getFileID(End))
      return false;
    const llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Begin));
    const unsigned From = SM.getFileOffset(Begin), To = SM.getFileOffset(End);
    Lexer Raw(SM.getLocForStartOfFile(SM.getFileID(Begin)), Ctx.getLangOpts(), Buffer.begin(),
              Buffer.begin() + From, Buffer.end());
    for (Token Tok;;) {
      Raw.LexFromRawLexer(Tok);
      if (Tok.is(tok::eof) || SM.getFileOffset(Tok.getLocation()) >= To)
        return false;
      if (Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "__managed__")
        return true;
    }
  }

  llvm::Error checkHostReadable(const VarDecl *VD, SourceLocation Loc) {
    const char *Space = VD->hasAttr<CUDAConstantAttr>() ? "__constant__"
                        : VD->hasAttr<CUDASharedAttr>() ? "__shared__"
                        : VD->hasAttr<CUDADeviceAttr>() ? "__device__"
                                                        : nullptr;
    if (!Space || isManaged(VD) || (VD->isConstexpr() && VD->getType()->isScalarType()))
      return llvm::Error::success();
    return regionError(Loc,
                       "'" + VD->getNameAsString() + "' is a " + Space +
                           " variable, which the host code that launches the kernels "
                           "cannot read",
                       "pass its value or the address of its memory "
                       "(cudaGetSymbolAddress) in a variable of the host, or declare it "
                       "__managed__");
  }

  // ----- helpers ---------------------------------------------------------
  /// stream(expr), whose text the call passes on: a name must be a
  /// cudaStream_t declared before the region (a parameter, a local, a
  /// member or a variable of an enclosing namespace), an integer must be
  /// 0 (the legacy default stream). Macros, members of base classes and
  /// other expressions (`ctx.stream`, calls) are left to the compiler.
  llvm::Error checkStream(llvm::StringRef Text, SourceLocation Loc) {
    Text = Text.trim();
    const std::string Note = "stream(...) takes a cudaStream_t: a variable declared before "
                             "the region, 0, cudaStreamPerThread, or an expression of that type";
    if (!Text.empty() && llvm::all_of(Text, isDigit))
      return Text.find_first_not_of('0') == llvm::StringRef::npos
                 ? llvm::Error::success()
                 : regionError(Loc, "stream(" + Text.str() + "): an integer other than 0 is "
                                    "not a stream", Note);
    if (!isValidAsciiIdentifier(Text) || Text == "nullptr" || Text == "NULL" ||
        Ctx.Idents.get(Text).hasMacroDefinition())
      return llvm::Error::success();
    const SourceManager &SM = Ctx.getSourceManager();
    const ValueDecl *Found = nullptr;
    bool Unsure = false; // a class with bases: the name may be inherited
    // Locals declared before the region, in this function and the ones
    // around it (a lambda's), then the names of the enclosing scopes.
    for (const DeclContext *DC = &F; DC && !Found; DC = DC->getParent()) {
      if (const auto *Fn = dyn_cast<FunctionDecl>(DC)) {
        for (const ParmVarDecl *P : Fn->parameters())
          if (P->getName() == Text)
            Found = P;
        std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
          if (!S || Found)
            return;
          if (const auto *DS = dyn_cast<DeclStmt>(S))
            for (const Decl *D : DS->decls())
              if (const auto *VD = dyn_cast<VarDecl>(D);
                  VD && VD->getName() == Text &&
                  SM.isBeforeInTranslationUnit(VD->getLocation(), RegionBegin))
                Found = VD;
          for (const Stmt *Child : S->children())
            Scan(Child);
        };
        if (!Found)
          Scan(Fn->getBody());
        continue;
      }
      if (const auto *RD = dyn_cast<CXXRecordDecl>(DC); RD && RD->hasDefinition() &&
                                                        RD->getNumBases() > 0)
        Unsure = true;
      for (const NamedDecl *ND : DC->lookup(&Ctx.Idents.get(Text)))
        if (const auto *VD = dyn_cast<ValueDecl>(ND))
          Found = VD;
    }
    if (!Found)
      return Unsure ? llvm::Error::success()
                    : regionError(Loc, "stream(" + Text.str() + "): no variable '" + Text.str() +
                                       "' is declared before the region", Note);
    QualType T = Found->getType().getNonReferenceType().getCanonicalType();
    const auto *Ptr = T->getAs<PointerType>();
    const auto *Rec = Ptr ? Ptr->getPointeeType()->getAsRecordDecl() : nullptr;
    if (!Rec || Rec->getName() != "CUstream_st")
      return regionError(Loc, "stream(" + Text.str() + "): '" + Text.str() + "' has type '" +
                                  Found->getType().getAsString(*Policy) +
                                  "', not cudaStream_t", Note);
    return llvm::Error::success();
  }

  /// A counter declared before the region (`int i; ... for (i = 0; ...)`)
  /// is left by the loops at their final value; the launch that replaces
  /// them leaves it as it was. So such a counter is taken only where
  /// nothing outside the region can read it before setting it again: a
  /// local of this function (not a reference, not captured from another)
  /// whose every other use lies in a `for` loop that starts by assigning
  /// it from an expression not reading it, and does not hold the region.
  llvm::Error checkCounterDeclaredOutside(const VarDecl *Iter, const ForStmt *For) {
    const std::string Name = Iter->getNameAsString();
    const std::string Note = "the launch that replaces the loops leaves '" + Name +
                             "' as it was, not at the value the loops end with; "
                             "declare the counter in the loop: 'for (int " + Name +
                             " = ...'";
    if (!Iter->hasLocalStorage() || Iter->getType()->isReferenceType() ||
        Iter->getDeclContext() != &F)
      return regionError(For->getInit()->getBeginLoc(),
                         "loop counter '" + Name + "' is not a local variable of '" +
                             F.getNameAsString() + "'",
                         Note);
    if (const DeclRefExpr *Use = useOutsideRegion(Iter))
      return regionError(Use->getLocation(),
                         "'" + Name + "', a counter of the '#pragma tc' region's loops, is "
                         "used here, outside the region",
                         Note);
    return llvm::Error::success();
  }

  /// A use of VD outside the region that a loop assigning VD first does not
  /// cover (checkCounterDeclaredOutside), if there is one.
  const DeclRefExpr *useOutsideRegion(const VarDecl *VD) {
    const Stmt *Body = F.getBody();
    if (!Body)
      return nullptr;
    // `for (VD = e; ...)` with e not reading VD, and not around the region.
    auto Resets = [&](const ForStmt *Loop) {
      const auto *BO = dyn_cast_or_null<BinaryOperator>(Loop->getInit());
      return BO && BO->getOpcode() == BO_Assign && refersTo(BO->getLHS(), VD) &&
             !mentions(BO->getRHS(), VD) &&
             !holds(Loop->getSourceRange(), RegionBegin);
    };
    const DeclRefExpr *Found = nullptr;
    std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool Covered) {
      if (!S || Found)
        return;
      if (const auto *Loop = dyn_cast<ForStmt>(S))
        Covered = Covered || Resets(Loop);
      if (const auto *DR = dyn_cast<DeclRefExpr>(S))
        if (DR->getDecl() == VD && !Covered && !isInsideRegion(DR->getLocation())) {
          Found = DR;
          return;
        }
      // `VD = e` writes VD: only e can read it (report the read).
      if (const auto *BO = dyn_cast<BinaryOperator>(S);
          BO && BO->getOpcode() == BO_Assign && refersTo(BO->getLHS(), VD)) {
        Walk(BO->getRHS(), Covered);
        return;
      }
      for (const Stmt *C : S->children())
        Walk(C, Covered);
    };
    Walk(Body, false);
    return Found;
  }

  bool refersTo(const Expr *E, const VarDecl *VD) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == VD;
  }
  /// Whether S names VD anywhere.
  static bool mentions(const Stmt *S, const VarDecl *VD) {
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S); DR && DR->getDecl() == VD)
      return true;
    return S && llvm::any_of(S->children(), [&](const Stmt *C) { return mentions(C, VD); });
  }
  /// Whether the source range R holds L.
  bool holds(SourceRange R, SourceLocation L) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
           !SM.isBeforeInTranslationUnit(R.getEnd(), L);
  }
  bool isInsideRegion(SourceLocation L) const { return holds({RegionBegin, RegionEnd}, L); }

  /// The variables the region names that its launcher cannot take as they
  /// are: the launcher's parameters are the region's variables under their
  /// unqualified names, so a qualified one (`dims::M`, `::scale`,
  /// `Opt::alpha`) would become another variable of that name at the call
  /// (a parameter `M`), or none; and the kernels cannot keep the order of a
  /// volatile object's accesses. A qualified integer constant (`Cfg::lda`)
  /// is folded to its value.
  llvm::Error checkNamedVariables(const Stmt *S) {
    if (!S)
      return llvm::Error::success();
    // A member (`p.M`, `q->A`, a method's `W`) is passed as it is spelled,
    // without a qualifier: `l.Base::A` would be passed as `l.A`, another
    // member where the derived class hides the base's.
    if (const auto *ME = dyn_cast<MemberExpr>(S);
        ME && isa<FieldDecl>(ME->getMemberDecl())) {
      const std::string Text = sourceText(ME->getSourceRange());
      if (ME->hasQualifier())
        return regionError(ME->getMemberLoc(),
                           "'" + Text + "' is named with a qualifier",
                           "the generated launcher takes a member as 'object.member'; copy it "
                           "to a local variable before the region");
      if (isVolatile(ME->getMemberDecl()->getType()))
        return regionError(ME->getMemberLoc(), "'" + Text + "' is volatile",
                           "the kernels do not keep the order of a volatile object's "
                           "accesses; drop the qualifier or leave the loop without the "
                           "pragma");
      if (isLongDouble(ME->getMemberDecl()->getType().getNonReferenceType()))
        return regionError(ME->getMemberLoc(),
                           "'" + Text + "' is of type '" +
                               typeName(ME->getMemberDecl()->getType().getNonReferenceType()) +
                               "'",
                           "device code has no long double (nor __float128); convert it to "
                           "double before the region");
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
        QualType T = VD->getType().getNonReferenceType();
        const bool Volatile = isVolatile(T);
        if (isLongDouble(T))
          return regionError(DR->getLocation(),
                             "'" + VD->getNameAsString() + "' is of type '" + typeName(T) + "'",
                             "device code has no long double (nor __float128); convert it to "
                             "double before the region");
        if (Volatile)
          return regionError(DR->getLocation(),
                             "'" + VD->getNameAsString() + "' is volatile",
                             "the kernels do not keep the order of a volatile object's "
                             "accesses; drop the qualifier or leave the loop without the "
                             "pragma");
        const bool FoldedConstant = VD->getType()->isIntegralOrEnumerationType() &&
                                    VD->isUsableInConstantExpressions(Ctx);
        if (DR->hasQualifier() && !FoldedConstant)
          return regionError(DR->getBeginLoc(),
                             "'" + sourceText(DR->getSourceRange()) +
                                 "' is named with a qualifier",
                             "the generated launcher takes the region's variables by their "
                             "names alone; copy it to a local variable before the region");
      }
    for (const Stmt *Child : S->children())
      if (auto E = checkNamedVariables(Child))
        return E;
    return llvm::Error::success();
  }
  std::string typeName(QualType T) {
    return T.getUnqualifiedType().getAsString(*Policy);
  }
  /// Whether T, or what it points to or holds, is volatile.
  bool isVolatile(QualType T) const {
    T = T.getNonReferenceType();
    bool Volatile = T.isVolatileQualified();
    for (QualType P = T; !P.isNull();) {
      if (P->isPointerType())
        P = P->getPointeeType();
      else if (const ArrayType *AT = Ctx.getAsArrayType(P))
        P = AT->getElementType();
      else
        break;
      Volatile |= P.isVolatileQualified();
    }
    return Volatile;
  }
  /// Whether T, or what it points to or holds, is a floating type wider
  /// than double, which device code does not have (nvcc takes long double
  /// as double there: a struct or kernel argument of one is laid out
  /// differently on host and device).
  bool isLongDouble(QualType T) const {
    while (!T.isNull()) {
      QualType C = T.getCanonicalType();
      if (C->isPointerType())
        T = C->getPointeeType();
      else if (const ArrayType *AT = Ctx.getAsArrayType(C))
        T = AT->getElementType();
      else
        return C->isSpecificBuiltinType(BuiltinType::LongDouble) ||
               C->isSpecificBuiltinType(BuiltinType::Float128) ||
               C->isSpecificBuiltinType(BuiltinType::Ibm128);
    }
    return false;
  }
  /// Whether T names a typedef or alias declared in a function (through
  /// pointers and arrays): one the generated code, defined before the
  /// function, cannot see.
  bool namesLocalTypedef(QualType T) const {
    while (!T.isNull()) {
      if (const auto *TT = dyn_cast<TypedefType>(T.getTypePtr())) {
        if (TT->getDecl()->getDeclContext()->isFunctionOrMethod())
          return true;
        T = TT->desugar();
      } else if (const auto *PT = dyn_cast<PointerType>(T.getTypePtr())) {
        T = PT->getPointeeType();
      } else if (const auto *RT = dyn_cast<ReferenceType>(T.getTypePtr())) {
        T = RT->getPointeeType();
      } else if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr())) {
        T = AT->getElementType();
      } else {
        QualType Step = T.getSingleStepDesugaredType(Ctx);
        if (Step == T)
          return false;
        T = Step;
      }
    }
    return false;
  }
  /// A type as the generated code names it: as written, but by its
  /// canonical name (float, const __half *__restrict__, ...) where it names
  /// a typedef the function declares. kernelTypeName keeps the qualifiers.
  std::string kernelTypeName(QualType T) {
    return (namesLocalTypedef(T) ? T.getCanonicalType() : T).getAsString(*Policy);
  }
  /// The type of a value (a cast's, a scalar's, an element's), by its
  /// canonical name without qualifiers: `unsigned int`, not the `uint32_t`
  /// written, which a typedef of the user's namespace may declare as
  /// something else, and which the model reads as a type (a conversion
  /// that holds every value, integer arithmetic).
  std::string castTypeName(QualType T) {
    QualType Canonical = T.getCanonicalType().getUnqualifiedType();
    // An enumeration: its integer type, which the kernels can name.
    if (const auto *ET = Canonical->getAs<EnumType>())
      if (QualType Int = ET->getDecl()->getIntegerType(); !Int.isNull())
        return castTypeName(Int);
    return Canonical.getAsString(*Policy);
  }
  /// The text of the token at L, at its spelling location (in a macro's
  /// definition or argument where L is in an expansion).
  std::string tokenSpelling(SourceLocation L) {
    const SourceManager &SM = Ctx.getSourceManager();
    return Lexer::getSourceText(CharSourceRange::getTokenRange(SM.getSpellingLoc(L)), SM,
                                Ctx.getLangOpts())
        .str();
  }
  /// Whether T (references and qualifiers aside) is __half or
  /// __nv_bfloat16.
  static bool isSixteenBitFloat(QualType T) {
    const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
    return RD && (RD->getName() == "__half" || RD->getName() == "__nv_bfloat16");
  }

  ASTContext &Ctx;
  const FunctionDecl &F;
  std::unique_ptr<PrintingPolicy> Policy;
  RegionModel M;
  SourceLocation RegionBegin, RegionEnd;
  const Stmt *RegionRoot = nullptr;
  std::vector<unsigned> LoopStack;
  std::vector<const VarDecl *> CounterStack; // the counters of LoopStack's loops
  /// The counters of the loops around each pointer's declaration: the
  /// iterators its initialiser may use (pointerView).
  std::map<const VarDecl *, std::set<const VarDecl *>> CountersAtBinding;
  /// The constraints of the `if`s and loop conditions around the statement
  /// being read (Statement::Guards).
  std::vector<AffineExpr> GuardStack;
  /// Model names of the iterators whose source values are never negative.
  std::set<std::string> NonNegativeIterators;
  /// The sizes of unsigned types (never negative where the launch passes
  /// them).
  std::set<std::string> UnsignedSizes;
  /// Loops whose own bound or start may wrap (checkWraps), and where.
  std::vector<std::pair<unsigned, const Expr *>> MayWrapPastArrays;
  std::vector<int> Position;
  std::map<const VarDecl *, std::string> Iterators;
  /// The counters of the loops that have ended (declared before a loop,
  /// `int k; for (k = 0; ...)`): read after the loop, a counter's value is
  /// its last, which the model does not compute.
  std::set<const VarDecl *> EndedLoopCounters;
  /// The variables a loop of the region counts with, assigned in its
  /// header (`for (k = 0; ...)`).
  std::set<const VarDecl *> AssignedCounters;
  llvm::Error checkCounterInItsLoop(const VarDecl *VD, SourceLocation Loc) const {
    if (!EndedLoopCounters.count(VD))
      return llvm::Error::success();
    return regionError(Loc,
                       "'" + VD->getNameAsString() + "' is read after its loop has ended",
                       "there it holds the value that stopped the loop; write that value "
                       "(the loop's bound), or read the counter inside the loop");
  }
  std::map<const VarDecl *, std::pair<unsigned, std::vector<unsigned>>> Locals;
  std::set<std::string> NamesInRegion;
  // Rebinding (collectRebindings): the assignments that bind a new value,
  // and the variables only ever bound.
  std::map<const VarDecl *, unsigned> DeclDepth;
  /// The index helpers being read (indexHelper), innermost last: each
  /// one's parameters and their arguments.
  std::vector<std::map<const ParmVarDecl *, const Expr *>> HelperFrames;
  /// Where the last index helper refused (indexHelper) computes in a narrow
  /// unsigned type and returns another: what its diagnostic names.
  mutable const Expr *HelperWrap = nullptr;
  /// References declared in the region to an element (aliasedElement).
  std::map<const VarDecl *, const Expr *> ElementAliases;
  std::map<const VarDecl *, std::vector<Write>> Writes;
  std::set<const Expr *> Rebinding;
  std::set<const VarDecl *> RebindOnly;
  // The bindings of each variable in order, and the one a read sees at the
  // statement being visited (-1: the stored element, or none yet).
  std::map<const VarDecl *, std::vector<Binding>> Chains;
  std::map<const VarDecl *, int> Now;
  // Statements so far that store to each array (locals included), and while
  // a bound value is expanded, the counts where it was bound.
  std::map<unsigned, unsigned> StoreCount;
  const std::map<unsigned, unsigned> *ValueStores = nullptr;
  static constexpr unsigned MaxExpansions = 4096;
  unsigned Expansions = 0; // bound values expanded for the current statement
};

} // namespace

llvm::Expected<RegionModel> extractRegion(ASTContext &Ctx, const FunctionDecl &F,
                                          const Stmt &Region,
                                          const RegionClauses &Clauses) {
  return Extractor(Ctx, F).run(Region, Clauses);
}

} // namespace tc
