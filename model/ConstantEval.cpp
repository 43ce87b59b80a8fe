//===- ConstantEval.cpp - the value of an expression tree at known leaves -===//

#include "ConstantEval.h"
#include "FloatRounding.h"
#include "PureFunctions.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <cfloat>
#include <cmath>
#include <optional>

namespace tc {
namespace {

using Value = std::optional<double>;

/// How the device may round: every float operation to float, the same with
/// denormals flushed to zero (--use_fast_math, -ftz=true), or, for
/// expressions the source computes in double, without rounding. A value is
/// known only where all three agree on finiteness (finiteAtZero).
enum class Arith { Float, FloatFlushed, Double };

double toFloat(double X) { return static_cast<double>(static_cast<float>(X)); }

/// X rounded to __half or bf16: beyond the largest value it is infinite.
double toHalf(double X) { return roundToSemantics(X, llvm::APFloat::IEEEhalf()).Value; }
double toBFloat(double X) { return roundToSemantics(X, llvm::APFloat::BFloat()).Value; }

bool isIntegerType(const std::string &T) {
  return llvm::StringSwitch<bool>(T)
      .Cases({"int", "long", "long long", "short", "signed char", "char", "bool"}, true)
      .Cases({"unsigned int", "unsigned long", "unsigned long long"}, true)
      .Cases({"unsigned short", "unsigned char", "int8_t", "uint8_t"}, true)
      .Cases({"int32_t", "uint32_t", "int64_t", "uint64_t", "size_t"}, true)
      .Default(false);
}

bool isUnsignedType(const std::string &T) {
  return isIntegerType(T) &&
         (T.rfind("unsigned", 0) == 0 || T.rfind("uint", 0) == 0 || T == "size_t");
}

/// Two facts about each node of a tree, found in one bottom-up pass (each
/// depends on the node's operands only), so that the evaluator asks them of
/// every node in constant time:
/// - IsInteger: whether the node is of integer type, where arithmetic
///   truncates (`1 / 2` is 0). The operand's element is a floating-point
///   number (8-bit operands are converted by the copier and never folded).
/// - InvolvesUnsigned: whether the subtree holds an unsigned integer (a
///   literal or a conversion): unsigned arithmetic wraps (0u - 1u is
///   4294967295) and mixed comparisons convert to unsigned, which the
///   evaluator does not model.
class NodeTypes {
public:
  explicit NodeTypes(const ExprNode &Root) { visit(Root); }

  bool isInteger(const ExprNode &E) const { return Facts.lookup(&E).IsInteger; }
  bool involvesUnsigned(const ExprNode &E) const { return Facts.lookup(&E).InvolvesUnsigned; }

private:
  struct Fact {
    bool IsInteger = false;
    bool InvolvesUnsigned = false;
  };

  // A subtree shared by several parents is visited once.
  Fact visit(const ExprNode &E) {
    if (auto It = Facts.find(&E); It != Facts.end())
      return It->second;
    bool AllInteger = true;
    bool AnyUnsigned = false;
    for (auto &Op : E.Ops) {
      Fact F = visit(*Op);
      AllInteger &= F.IsInteger;
      AnyUnsigned |= F.InvolvesUnsigned;
    }
    Fact R;
    R.IsInteger = integerTyped(E, AllInteger);
    R.InvolvesUnsigned = AnyUnsigned ||
                         (E.K == ExprNode::Literal && E.IsUnsigned) ||
                         (E.K == ExprNode::Cast && isUnsignedType(E.Text));
    Facts[&E] = R;
    return R;
  }

  /// Whether E is of integer type, given whether all its operands are.
  bool integerTyped(const ExprNode &E, bool AllInteger) const {
    switch (E.K) {
    case ExprNode::Literal:
      return E.IsInteger;
    case ExprNode::Unary:
      return E.Text == "!" || AllInteger;
    case ExprNode::Binary:
      return llvm::StringSwitch<bool>(E.Text)
                 .Cases({"<", ">", "<=", ">=", "==", "!=", "&&", "||"}, true)
                 .Default(false) ||
             AllInteger;
    case ExprNode::Conditional:
      // The value is one of the branches; the condition's type does not matter.
      return E.Ops.size() == 3 && isInteger(*E.Ops[1]) && isInteger(*E.Ops[2]);
    case ExprNode::Cast:
      return isIntegerType(E.Text);
    case ExprNode::Call: {
      const PureFunction *F = findPureFunction(E.Text);
      if (!F)
        return false;
      return F->Result == PureResult::Boolean ||
             (F->Result == PureResult::LikeArguments && AllInteger);
    }
    default:
      return false;
    }
  }

  llvm::DenseMap<const ExprNode *, Fact> Facts;
};

/// Folds a prologue where its element (read Element) is 0, in one of the
/// device's ways of rounding (Arith). Other leaves are unknown.
class Evaluator {
public:
  Evaluator(Arith Mode, unsigned Element, const NodeTypes &Types)
      : Mode(Mode), Element(Element), Types(Types) {}

  Value eval(const ExprNode &E) const {
    if (!Types.isInteger(E))
      return evalNode(E);
    // Integer values: exact, +0 for zero, within int's range (wider values
    // and unsigned wrap-around are not modelled).
    if (Types.involvesUnsigned(E))
      return std::nullopt;
    Value V = evalNode(E);
    if (!V || !std::isfinite(*V) || std::fabs(*V) >= 2147483648.0)
      return std::nullopt;
    return *V + 0.0;
  }

private:
  Value evalNode(const ExprNode &E) const {
    switch (E.K) {
    case ExprNode::Read:
      return E.AccessId == Element ? Value(0.0) : std::nullopt;
    case ExprNode::Literal:
      return E.IsInteger ? E.Value : round(E.Value);
    case ExprNode::Scalar:
    case ExprNode::Iterator:
      return std::nullopt;
    case ExprNode::Unary: {
      Value X = E.Ops.size() == 1 ? eval(*E.Ops[0]) : std::nullopt;
      if (!X)
        return std::nullopt;
      if (E.Text == "-" || E.Text == "+")
        return E.Text == "-" ? -*X : *X;
      if (E.Text == "!")
        return *X == 0 ? 1.0 : 0.0;
      return std::nullopt;
    }
    case ExprNode::Binary: {
      if (E.Ops.size() != 2)
        return std::nullopt;
      Value L = eval(*E.Ops[0]), R = eval(*E.Ops[1]);
      if (!L || !R)
        return std::nullopt;
      // An operator of __half or __nv_bfloat16 computes in that type.
      if (E.IsOperatorCall)
        return std::nullopt;
      if (Types.isInteger(*E.Ops[0]) && Types.isInteger(*E.Ops[1]))
        return integerBinary(E.Text, *L, *R);
      return binary(E.Text, *L, *R);
    }
    case ExprNode::Conditional: {
      if (E.Ops.size() != 3)
        return std::nullopt;
      // Only the branch taken: the other may be anything at this point.
      Value Cond = eval(*E.Ops[0]);
      if (!Cond)
        return std::nullopt;
      return eval(*E.Ops[*Cond != 0 ? 1 : 2]);
    }
    case ExprNode::Cast: {
      Value X = E.Ops.size() == 1 ? eval(*E.Ops[0]) : std::nullopt;
      if (!X)
        return std::nullopt;
      return cast(E.Text, *X, Types.isInteger(*E.Ops[0]));
    }
    case ExprNode::Call: {
      std::vector<double> Args;
      for (auto &Op : E.Ops) {
        Value X = eval(*Op);
        if (!X)
          return std::nullopt;
        Args.push_back(*X);
      }
      return call(E.Text, Args, Types.isInteger(E));
    }
    }
    return std::nullopt;
  }

  /// X as a floating-point operation's result.
  double round(double X) const {
    if (Mode == Arith::Double)
      return X;
    double F = toFloat(X);
    if (Mode == Arith::FloatFlushed && std::fabs(F) < FLT_MIN)
      return std::copysign(0.0, F);
    return F;
  }

  /// A cast to the type spelled T of X (of integer type where FromInteger).
  /// Conversions of floating-point values to integers saturate or wrap on
  /// the device and are not modelled; neither are integer conversions that
  /// might narrow.
  Value cast(const std::string &T, double X, bool FromInteger) const {
    if (T == "float")
      return Mode == Arith::Double ? toFloat(X) : round(X);
    if (T == "double")
      return X;
    if (T == "__half" || T == "half")
      return toHalf(X);
    if (T == "__nv_bfloat16")
      return toBFloat(X);
    if (T == "bool")
      return X != 0 ? 1.0 : 0.0;
    if (FromInteger && (T == "int" || T == "long" || T == "long long" || T == "int64_t") &&
        std::fabs(X) < 2147483648.0)
      return X;
    return std::nullopt;
  }

  static Value integerBinary(const std::string &Op, double L, double R) {
    if (Op == "/") {
      if (R == 0)
        return std::nullopt; // undefined
      return std::trunc(L / R);
    }
    if (Op == "%")
      return std::nullopt;
    return exactBinary(Op, L, R);
  }

  Value binary(const std::string &Op, double L, double R) const {
    Value V = exactBinary(Op, L, R);
    return V ? Value(round(*V)) : std::nullopt;
  }

  /// The operation on exact values (comparisons give 0 or 1).
  static Value exactBinary(const std::string &Op, double L, double R) {
    if (Op == "+")
      return L + R;
    if (Op == "-")
      return L - R;
    if (Op == "*")
      return L * R;
    if (Op == "/")
      return L / R;
    if (Op == "<")
      return L < R ? 1.0 : 0.0;
    if (Op == ">")
      return L > R ? 1.0 : 0.0;
    if (Op == "<=")
      return L <= R ? 1.0 : 0.0;
    if (Op == ">=")
      return L >= R ? 1.0 : 0.0;
    if (Op == "==")
      return L == R ? 1.0 : 0.0;
    if (Op == "!=")
      return L != R ? 1.0 : 0.0;
    if (Op == "&&")
      return L != 0 && R != 0 ? 1.0 : 0.0;
    if (Op == "||")
      return L != 0 || R != 0 ? 1.0 : 0.0;
    return std::nullopt;
  }

  /// Calls of the pure functions (PureFunctions.h) on evaluated arguments;
  /// none for other functions or another number of arguments. A call of
  /// integer type (abs, max, min of integers; the __half comparisons) is
  /// exact: rounding max(16777217, 0) to float would make it 16777216.
  Value call(const std::string &Name, const std::vector<double> &X, bool IntegerTyped) const {
    const PureFunction *F = findPureFunction(Name);
    if (!F || X.size() != F->Arity)
      return std::nullopt;
    double V = F->Fold(X);
    if (IntegerTyped)
      return V;
    switch (F->Rounding) {
    case PureRounding::Exact:
      return V;
    case PureRounding::Float:
      return round(V);
    case PureRounding::Half:
      return toHalf(V);
    case PureRounding::BFloat:
      return toBFloat(V);
    }
    return std::nullopt;
  }

  Arith Mode;
  unsigned Element;
  const NodeTypes &Types;
};

} // namespace

bool finiteAtZero(const ExprNode &F, unsigned Element, ElementType Stage) {
  NodeTypes Types(F);
  for (Arith Mode : {Arith::Float, Arith::FloatFlushed, Arith::Double}) {
    Value V = Evaluator(Mode, Element, Types).eval(F);
    if (!V)
      return false;
    // The functor returns float, which the stage then rounds to its type.
    double Stored = toFloat(*V);
    if (Stage == ElementType::F16)
      Stored = toHalf(Stored);
    else if (Stage == ElementType::BF16)
      Stored = toBFloat(Stored);
    if (!std::isfinite(Stored))
      return false;
    // An fp32 operand is rounded to tf32 (10 mantissa bits, to nearest,
    // ties away: cvt.rna.tf32.f32): from (2 - 2^-11) * 2^127 on, to inf.
    if (Stage == ElementType::F32 && std::fabs(Stored) >= std::ldexp(2.0 - std::ldexp(1.0, -11), 127))
      return false;
  }
  return true;
}

} // namespace tc
