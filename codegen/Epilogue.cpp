//===- Epilogue.cpp -------------------------------------------------------===//
#include "Epilogue.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace tc {

std::string printStride(const Polynomial &P, const RegionModel &M) {
  Polynomial Known = Polynomial::constant(0);
  for (auto &[Mono, Coeff] : P.Terms) {
    Polynomial T = Polynomial::constant(Coeff);
    for (auto &Sym : Mono) {
      Polynomial F = Polynomial::symbol(Sym);
      for (auto &Par : M.Params)
        if (Par.Name == Sym && Par.Value)
          F = Polynomial::constant(*Par.Value);
      T = T * F;
    }
    Known = Known + T;
  }
  return Known.str();
}

/// printAccess, the element through tc::read_only where ReadOnly.
static std::string printElement(const RegionModel &M, const Access &A,
                                const std::function<std::string(const std::string &)> &Iter,
                                bool ReadOnly) {
  const Array &Arr = M.Arrays[A.ArrayId];
  auto Subst = [&](const std::string &S) {
    for (auto &P : M.Params)
      if (P.Name == S && P.Value)
        return std::to_string(*P.Value);
    return Iter(S);
  };
  std::string Index;
  // A divided last index (Access::Divisor) in the source's rounding: the
  // subscripts it divides are not negative (Extraction), so `/` is floor.
  std::string Nibble;
  for (size_t D = 0; D < A.Index.size(); ++D) {
    std::string Idx = A.Index[D].str(Subst);
    if (D + 1 == A.Index.size() && A.Divisor != 1) {
      Nibble = Idx;
      Idx = "tc::floor_div(" + Idx + ", " + std::to_string(A.Divisor) + ")";
    }
    std::string Stride = printStride(Arr.Strides[D], M);
    std::string Term = Stride == "1" ? "(" + Idx + ")"
                                     : "(long long)(" + Idx + ") * (" + Stride + ")";
    Index += (D ? " + " : "") + Term;
  }
  const std::string Element = Arr.Name + "[" + Index + "]";
  const std::string Value = ReadOnly ? "tc::read_only(" + Element + ")" : Element;
  // A packed 4-bit value: the nibble of the byte that its index's parity
  // selects (tc/packed.cuh).
  if (Arr.Elem == ElementType::U4 || Arr.Elem == ElementType::I4)
    return std::string(Arr.Elem == ElementType::U4 ? "tc::unsigned_nibble("
                                                   : "tc::signed_nibble(") +
           Value + ", " + Nibble + ")";
  return Value;
}

std::string printAccess(const RegionModel &M, const Access &A,
                        const std::function<std::string(const std::string &)> &Iter) {
  return printElement(M, A, Iter, false);
}

/// Whether a statement of the region (as modelled or as written) writes
/// array ArrayId of M.
static bool regionWrites(const RegionModel &M, unsigned ArrayId) {
  const std::string &Name = M.Arrays[ArrayId].Name;
  auto Writes = [&](const RegionModel &R) {
    return llvm::any_of(R.Stmts,
                        [&](const Statement &S) { return R.Arrays[S.Write.ArrayId].Name == Name; });
  };
  return Writes(M) || Writes(M.asWritten());
}

/// A read in the epilogue functor, which runs once the arrays are known
/// apart (not in the serial kernel): `tc::read_only(X[...])`, the
/// read-only data path, for an array the region never writes; else
/// printAccess.
static std::string printRead(const RegionModel &M, const Access &A,
                             const std::function<std::string(const std::string &)> &Iter) {
  const Array &Arr = M.Arrays[A.ArrayId];
  return printElement(M, A, Iter, !Arr.IsLocalScalar && !regionWrites(M, A.ArrayId));
}

/// Prints E, each subtree that it computes more than once (a local scalar
/// of the source, inlined into each of its uses) bound to a local of its
/// own: `const auto <Prefix><n> = ...;` in Definitions, innermost first.
/// Only subtrees of which at least one copy is evaluated unconditionally
/// (not in a branch of ?:, nor right of && or ||), so that none is
/// evaluated where the source would not have evaluated it; and within a
/// shared subtree, only what it does not already compute once.
static std::string printSharingSubtrees(ExprPrinter P, const ExprNode &E,
                                        const std::string &Prefix, std::string &Definitions) {
  struct Copies {
    std::vector<const ExprNode *> Nodes;
    bool Unconditional = false;
  };
  std::map<std::string, Copies> ByText;
  std::function<void(const ExprNode &, bool)> Visit = [&](const ExprNode &N, bool Conditional) {
    if (!N.Ops.empty()) { // operators, casts and calls: not leaves
      Copies &C = ByText[P.print(N)];
      C.Nodes.push_back(&N);
      C.Unconditional |= !Conditional;
    }
    for (size_t I = 0; I < N.Ops.size(); ++I) {
      const bool Branch = (N.K == ExprNode::Conditional && I > 0) ||
                          (N.K == ExprNode::Binary && I > 0 && (N.Text == "&&" || N.Text == "||"));
      Visit(*N.Ops[I], Conditional || Branch);
    }
  };
  Visit(E, false);
  std::vector<std::pair<const std::string *, const Copies *>> Candidates;
  for (auto &[Text, C] : ByText)
    if (C.Nodes.size() > 1 && C.Unconditional)
      Candidates.push_back({&Text, &C});
  // Outer subtrees first: a subtree inside a shared one counts once for
  // all the copies of that one (its definition computes it once).
  std::stable_sort(Candidates.begin(), Candidates.end(), [](const auto &A, const auto &B) {
    return A.first->size() > B.first->size();
  });
  std::set<const ExprNode *> Covered; // nodes inside a shared subtree's copies
  std::function<void(const ExprNode &)> Cover = [&](const ExprNode &N) {
    Covered.insert(&N);
    for (auto &Op : N.Ops)
      Cover(*Op);
  };
  std::vector<const Copies *> Shared;
  for (auto &[Text, C] : Candidates) {
    size_t Outside = 0;
    bool Inside = false;
    for (const ExprNode *N : C->Nodes) {
      Outside += !Covered.count(N);
      Inside |= Covered.count(N) > 0;
    }
    if (Outside + (Inside ? 1 : 0) < 2)
      continue;
    Shared.push_back(C);
    for (const ExprNode *N : C->Nodes)
      for (auto &Op : N->Ops)
        Cover(*Op);
  }
  // Defined innermost first, so that outer definitions use inner names.
  std::reverse(Shared.begin(), Shared.end());
  int Count = 0;
  for (const Copies *C : Shared) {
    std::string Name = Prefix + std::to_string(Count++);
    Definitions += "const auto " + Name + " = " + P.print(*C->Nodes.front()) + ";\n";
    for (const ExprNode *N : C->Nodes)
      P.Named[N] = Name;
  }
  return P.print(E);
}

llvm::Expected<std::string> emitEpilogue(const RegionModel &M, const MatmulIdiom &Idiom,
                                         EpilogueLanes *Lanes, bool ReadOnlyLoads) {
  const Array &Acc = M.Arrays[Idiom.Accumulator];
  std::function<std::string(const std::string &)> Iter = [&](const std::string &It) -> std::string {
    if (It == Idiom.IterM)
      return "tc_m";
    if (It == Idiom.IterN)
      return "tc_n";
    if (It == Idiom.IterBatch)
      return "tc_batch";
    return It; // rejected below
  };
  // Statements of the epilogue may run in a loop nest of their own (an
  // initialisation nest before a k-outermost reduction): their iterators
  // are renamed to the output coordinates they stand for.
  std::map<std::string, std::string> Roles;
  auto CheckIterators = [&](const Statement &S) -> llvm::Error {
    auto R = outputCoordinates(M, Idiom, unsigned(&S - &M.Stmts[0]));
    if (!R)
      return regionError(S.Range.getBegin(),
                         "the statement's loops cannot be matched to the "
                         "matmul's output elements",
                         "index the accumulator with one loop iterator per "
                         "dimension, as the reduction does");
    Roles = *R;
    return llvm::Error::success();
  };
  auto RoleIter = Iter;
  Iter = [&, RoleIter](const std::string &It) -> std::string {
    auto R = Roles.find(It);
    return RoleIter(R == Roles.end() ? It : R->second);
  };
  ExprPrinter P;
  const Statement *Current = nullptr;
  bool InInit = false; // the initialisation reads the accumulator's old value
  // The sum as the epilogue reads it: in the accumulator's own type where
  // that is 16-bit (`__half acc`), rounded once, as the source's reads of
  // it see a __half (`acc + bias[j]`, `__hadd(acc, acc)`).
  const std::string AccValue = Acc.Elem == ElementType::F16 || Acc.Elem == ElementType::BF16
                                   ? "static_cast<" + Acc.ElemSpelling + ">(tc_value)"
                                   : std::string("tc_value");
  P.PrintIterator = Iter;
  P.PrintRead = [&](unsigned Id) {
    const Access &A = Current->Reads[Id];
    if (A.ArrayId == Idiom.Accumulator && !InInit)
      return AccValue;
    return ReadOnlyLoads ? printRead(M, A, Iter) : printAccess(M, A, Iter);
  };
  P.PrintScalar = [&](const std::string &S) {
    for (auto &Par : M.Params)
      if (Par.Name == S && Par.Value)
        return std::to_string(*Par.Value);
    return S;
  };

  std::string Out;
  // The lane form differs from Out in its stores only (EpilogueLanes).
  std::string LaneOut;
  auto Emit = [&](const std::string &Text) {
    Out += Text;
    LaneOut += Text;
  };
  auto EmitStore = [&](const Access &W, const std::string &Value) {
    const Array &Dst = M.Arrays[W.ArrayId];
    Out += printAccess(M, W, Iter) + " = " + Value + ";\n";
    if (!Lanes)
      return;
    // Contiguous along n: one dimension indexed by n alone, with coefficient
    // 1 and stride 1.
    int Dims = 0;
    bool Unit = false;
    for (size_t D = 0; D < W.Index.size(); ++D)
      for (auto &[Sym, Coeff] : W.Index[D].Coeffs)
        if (Iter(Sym) == "tc_n") {
          ++Dims;
          Unit = Coeff == 1 && printStride(Dst.Strides[D], M) == "1";
        }
    Lanes->Contiguous &= Dims == 1 && Unit;
    std::string Var = "tc_lanes_" + std::to_string(Lanes->Stores.size());
    auto AtFirst = [&](const std::string &It) {
      std::string R = Iter(It);
      return R == "tc_n" ? std::string("tc_n0") : R;
    };
    Lanes->Stores.push_back({Dst.Elem, Dst.ElemSpelling, Var, "&" + printAccess(M, W, AtFirst)});
    LaneOut += Var + "[tc_v] = " + Value + ";\n";
  };
  // value = init + scale * sum. An initialisation to +0 without a scale is
  // the sum itself: the accumulators start at +0 and hold 0 + the products
  // already (adding 0.0f again would cost an instruction per element and
  // change no bit of a sum that starts at +0, but for flushing a denormal
  // sum under --use_fast_math).
  const bool SumIsValue = Idiom.Init && Idiom.Scale.empty() &&
                          isPositiveZeroLiteral(M.Stmts[*Idiom.Init].Value.get());
  if (Idiom.Init) {
    const Statement &S = M.Stmts[*Idiom.Init];
    if (auto E = CheckIterators(S))
      return std::move(E);
    if (SumIsValue) {
      Emit("float tc_value = tc_sum;\n");
    } else {
      Current = &S;
      InInit = true;
      Emit("float tc_value = static_cast<float>(" + P.print(*S.Value) + ");\n");
      InInit = false;
    }
  } else {
    const Statement &R = M.Stmts[Idiom.Reduction];
    Emit("float tc_value = static_cast<float>(" + printAccess(M, R.Write, Iter) + ");\n");
  }
  std::string Scale;
  Roles.clear(); // the reduction's own iterators from here on
  Current = &M.Stmts[Idiom.Reduction];
  for (auto &F : Idiom.Scale)
    Scale += "static_cast<float>(" + P.print(*F) + ") * ";
  if (!SumIsValue)
    Emit("tc_value += " + Scale + "tc_sum;\n");
  // Arrays named in temp(...) are dead after the region: their values stay
  // in registers and are forwarded to later reads of the same element.
  std::map<unsigned, std::pair<std::string, std::string>> Forwarded; // array -> (index, var)
  auto Reads = P.PrintRead;
  P.PrintRead = [&](unsigned Id) {
    const Access &A = Current->Reads[Id];
    auto It = Forwarded.find(A.ArrayId);
    if (It != Forwarded.end() && It->second.first == printAccess(M, A, Iter))
      return It->second.second;
    return Reads(Id);
  };
  const Statement &R = M.Stmts[Idiom.Reduction];
  bool Stored = false;
  if (!Acc.IsLocalScalar) {
    std::string Target = printAccess(M, R.Write, Iter);
    std::string Value = "tc::from_float<" + Acc.ElemSpelling + ">(tc_value)";
    if (M.isTemp(Idiom.Accumulator)) {
      Forwarded[Idiom.Accumulator] = {Target, AccValue};
    } else {
      EmitStore(R.Write, Value);
      Stored = true;
    }
  }
  for (unsigned E : Idiom.Epilogue) {
    const Statement &S = M.Stmts[E];
    if (auto Err = CheckIterators(S))
      return std::move(Err);
    Current = &S;
    const Array &Dst = M.Arrays[S.Write.ArrayId];
    if (Dst.IsLocalScalar)
      return regionError(S.Range.getBegin(),
                         "the epilogue writes the local '" + Dst.Name + "'",
                         "chains of local scalars after the reduction are not "
                         "supported yet");
    std::string Target = printAccess(M, S.Write, Iter);
    std::string Shared;
    std::string Value =
        printSharingSubtrees(P, *S.Value, "tc_common_" + S.Name + "_", Shared);
    Emit(Shared);
    if (M.isTemp(S.Write.ArrayId)) {
      std::string Var = "tc_temp_" + S.Name;
      Emit("const " + Dst.ElemSpelling + " " + Var + " = " + Value + ";\n");
      Forwarded[S.Write.ArrayId] = {Target, Var};
    } else {
      // Later statements that read the element get the value from a
      // register instead of reading back what this thread just stored.
      bool ReadLater = false;
      for (unsigned L : Idiom.Epilogue)
        if (L > E)
          for (auto &Rd : M.Stmts[L].Reads)
            ReadLater |= Rd.ArrayId == S.Write.ArrayId;
      if (ReadLater) {
        std::string Var = "tc_result_" + S.Name;
        Emit("const " + Dst.ElemSpelling + " " + Var + " = " + Value + ";\n");
        EmitStore(S.Write, Var);
        Forwarded[S.Write.ArrayId] = {Target, Var};
      } else {
        EmitStore(S.Write, Value);
      }
      Stored = true;
    }
  }
  if (!Stored)
    return regionError(R.Range.getBegin(),
                       "every array the region writes is named in temp(...)",
                       "nothing would be stored; remove the live-out array from "
                       "temp(...)");
  // A guarded output (OperandMasks.h) stores only the elements inside the
  // guard, one by one: the lanes of a vector store may straddle it.
  if (!Idiom.OutputGuard.empty()) {
    std::string Cond;
    for (const AffineExpr &G : Idiom.OutputGuard)
      Cond += (Cond.empty() ? "" : " && ") + G.str([&](const std::string &Sym) {
                for (auto &Par : M.Params)
                  if (Par.Name == Sym && Par.Value)
                    return std::to_string(*Par.Value);
                return RoleIter(Sym);
              }) + " >= 0";
    std::string Body;
    for (llvm::StringRef Line : llvm::split(llvm::StringRef(Out).rtrim('\n'), '\n'))
      Body += "  " + Line.str() + "\n";
    Out = "if (" + Cond + ") {\n" + Body + "}\n";
    if (Lanes)
      Lanes->Contiguous = false;
  }
  if (Lanes)
    Lanes->Text = LaneOut;
  return Out;
}

} // namespace tc
