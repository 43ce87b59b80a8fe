//===- ConstantEval.cpp - the value of an expression tree at known leaves -===//

#include "ConstantEval.h"

#include "llvm/ADT/APFloat.h"
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

/// X rounded to a type of the given semantics: beyond its largest value it
/// is infinite.
double toSemantics(double X, const llvm::fltSemantics &S) {
  llvm::APFloat F(X);
  bool LosesInfo = false;
  F.convert(S, llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return F.convertToDouble();
}
double toHalf(double X) { return toSemantics(X, llvm::APFloat::IEEEhalf()); }
double toBFloat(double X) { return toSemantics(X, llvm::APFloat::BFloat()); }

bool isIntegerType(const std::string &T) {
  return llvm::StringSwitch<bool>(T)
      .Cases({"int", "long", "long long", "short", "signed char", "char", "bool"}, true)
      .Cases({"unsigned int", "unsigned long", "unsigned long long"}, true)
      .Cases({"unsigned short", "unsigned char", "int8_t", "uint8_t"}, true)
      .Cases({"int32_t", "uint32_t", "int64_t", "uint64_t", "size_t"}, true)
      .Default(false);
}

/// Whether E is of integer type, where arithmetic truncates (`1 / 2` is 0).
/// The operand's element is a floating-point number (8-bit operands are
/// converted by the copier and never folded).
bool integerTyped(const ExprNode &E) {
  auto All = [&] {
    for (auto &Op : E.Ops)
      if (!integerTyped(*Op))
        return false;
    return true;
  };
  switch (E.K) {
  case ExprNode::Literal:
    return E.IsInteger;
  case ExprNode::Unary:
    return E.Text == "!" || All();
  case ExprNode::Binary:
    return llvm::StringSwitch<bool>(E.Text)
               .Cases({"<", ">", "<=", ">=", "==", "!=", "&&", "||"}, true)
               .Default(false) ||
           All();
  case ExprNode::Conditional:
    return integerTyped(*E.Ops[1]) && integerTyped(*E.Ops[2]);
  case ExprNode::Cast:
    return isIntegerType(E.Text);
  case ExprNode::Call:
    return llvm::StringSwitch<bool>(E.Text)
               .Cases({"__hlt", "__hgt", "__hle", "__hge", "__heq", "__hne"}, true)
               .Default(false) ||
           ((E.Text == "abs" || E.Text == "max" || E.Text == "min") && All());
  default:
    return false;
  }
}

/// Whether E involves an unsigned integer (a literal or a conversion):
/// unsigned arithmetic wraps (0u - 1u is 4294967295) and mixed comparisons
/// convert to unsigned, which the evaluator does not model.
bool involvesUnsigned(const ExprNode &E) {
  if (E.K == ExprNode::Literal && E.IsUnsigned)
    return true;
  if (E.K == ExprNode::Cast && isIntegerType(E.Text) &&
      (E.Text.rfind("unsigned", 0) == 0 || E.Text.rfind("uint", 0) == 0 || E.Text == "size_t"))
    return true;
  for (auto &Op : E.Ops)
    if (involvesUnsigned(*Op))
      return true;
  return false;
}

/// Folds a prologue where its element (read Element) is 0, in one of the
/// device's ways of rounding (Arith). Other leaves are unknown.
class Evaluator {
public:
  Evaluator(Arith Mode, unsigned Element) : Mode(Mode), Element(Element) {}

  Value eval(const ExprNode &E) const {
    if (!integerTyped(E))
      return evalNode(E);
    // Integer values: exact, +0 for zero, within int's range (wider values
    // and unsigned wrap-around are not modelled).
    if (involvesUnsigned(E))
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
      if (integerTyped(*E.Ops[0]) && integerTyped(*E.Ops[1]))
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
      return cast(E.Text, *X, integerTyped(*E.Ops[0]));
    }
    case ExprNode::Call: {
      std::vector<double> Args;
      for (auto &Op : E.Ops) {
        Value X = eval(*Op);
        if (!X)
          return std::nullopt;
        Args.push_back(*X);
      }
      return call(E.Text, Args);
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

  /// Calls of the pure functions a region may use (Extraction's list), on
  /// evaluated arguments; none for those not modelled.
  Value call(const std::string &F, const std::vector<double> &X) const {
    auto One = [&](double (*Fn)(double)) -> Value {
      if (X.size() != 1)
        return std::nullopt;
      return round(Fn(X[0]));
    };
    auto Two = [&](double (*Fn)(double, double)) -> Value {
      if (X.size() != 2)
        return std::nullopt;
      return round(Fn(X[0], X[1]));
    };
    // Conversions.
    if (X.size() == 1 && (F == "__half2float" || F == "__bfloat162float" || F == "__low2float"))
      return X[0];
    if (X.size() == 1 && (F == "__float2half" || F == "__float2half_rn"))
      return toHalf(X[0]);
    if (X.size() == 1 && (F == "__float2bfloat16" || F == "__float2bfloat16_rn"))
      return toBFloat(X[0]);
    // __half arithmetic rounds each result to half.
    if (X.size() == 2 && F.rfind("__h", 0) == 0) {
      if (F == "__hmax" || F == "__hmin")
        return F == "__hmax" ? std::fmax(X[0], X[1]) : std::fmin(X[0], X[1]);
      std::string Op = llvm::StringSwitch<std::string>(F)
                           .Case("__hadd", "+")
                           .Case("__hsub", "-")
                           .Case("__hmul", "*")
                           .Case("__hdiv", "/")
                           .Case("__hlt", "<")
                           .Case("__hgt", ">")
                           .Case("__hle", "<=")
                           .Case("__hge", ">=")
                           .Case("__heq", "==")
                           .Case("__hne", "!=")
                           .Default("");
      Value V = Op.empty() ? std::nullopt : exactBinary(Op, X[0], X[1]);
      return V ? Value(toHalf(*V)) : std::nullopt;
    }
    if (X.size() == 1 && (F == "__hneg" || F == "__habs"))
      return F == "__hneg" ? -X[0] : std::fabs(X[0]);
    if (X.size() == 3 && (F == "__hfma" || F == "fmaf" || F == "fma")) {
      double V = std::fma(X[0], X[1], X[2]);
      return F == "__hfma" ? toHalf(V) : round(V);
    }
    if (F == "fmaxf" || F == "fmax" || F == "max")
      return Two([](double A, double B) { return std::fmax(A, B); });
    if (F == "fminf" || F == "fmin" || F == "min")
      return Two([](double A, double B) { return std::fmin(A, B); });
    if (F == "powf" || F == "pow")
      return Two([](double A, double B) { return std::pow(A, B); });
    if (F == "copysignf" || F == "copysign")
      return Two([](double A, double B) { return std::copysign(A, B); });
    if (F == "fdimf")
      return Two([](double A, double B) { return std::fdim(A, B); });
    if (F == "fmodf" || F == "fmod")
      return Two([](double A, double B) { return std::fmod(A, B); });
    if (F == "hypotf")
      return Two([](double A, double B) { return std::hypot(A, B); });
    if (F == "__fdividef")
      return Two([](double A, double B) { return A / B; });
    using Fn = double (*)(double);
    Fn Unary = llvm::StringSwitch<Fn>(F)
                   .Cases({"expf", "exp", "__expf"}, [](double A) { return std::exp(A); })
                   .Cases({"exp2f", "exp2"}, [](double A) { return std::exp2(A); })
                   .Cases({"expm1f", "expm1"}, [](double A) { return std::expm1(A); })
                   .Cases({"logf", "log", "__logf"}, [](double A) { return std::log(A); })
                   .Cases({"log2f", "log2"}, [](double A) { return std::log2(A); })
                   .Cases({"log10f", "log10"}, [](double A) { return std::log10(A); })
                   .Cases({"log1pf", "log1p"}, [](double A) { return std::log1p(A); })
                   .Cases({"sqrtf", "sqrt"}, [](double A) { return std::sqrt(A); })
                   .Case("rsqrtf", [](double A) { return 1.0 / std::sqrt(A); })
                   .Case("__frcp_rn", [](double A) { return 1.0 / A; })
                   .Cases({"cbrtf", "cbrt"}, [](double A) { return std::cbrt(A); })
                   .Cases({"tanhf", "tanh"}, [](double A) { return std::tanh(A); })
                   .Cases({"erff", "erf"}, [](double A) { return std::erf(A); })
                   .Cases({"erfcf", "erfc"}, [](double A) { return std::erfc(A); })
                   .Case("normcdff",
                         [](double A) { return 0.5 * std::erfc(-A / std::sqrt(2.0)); })
                   .Cases({"fabsf", "fabs", "abs"}, [](double A) { return std::fabs(A); })
                   .Cases({"sinf", "sin"}, [](double A) { return std::sin(A); })
                   .Cases({"cosf", "cos"}, [](double A) { return std::cos(A); })
                   .Cases({"tanf", "tan"}, [](double A) { return std::tan(A); })
                   .Cases({"atanf", "atan"}, [](double A) { return std::atan(A); })
                   .Case("sinhf", [](double A) { return std::sinh(A); })
                   .Case("coshf", [](double A) { return std::cosh(A); })
                   .Cases({"floorf", "floor"}, [](double A) { return std::floor(A); })
                   .Cases({"ceilf", "ceil"}, [](double A) { return std::ceil(A); })
                   .Cases({"truncf", "trunc"}, [](double A) { return std::trunc(A); })
                   .Cases({"roundf", "round"}, [](double A) { return std::round(A); })
                   .Cases({"rintf", "rint"}, [](double A) { return std::rint(A); })
                   .Default(nullptr);
    if (Unary)
      return One(Unary);
    return std::nullopt;
  }

  Arith Mode;
  unsigned Element;
};

} // namespace

bool finiteAtZero(const ExprNode &F, unsigned Element, ElementType Stage) {
  for (Arith Mode : {Arith::Float, Arith::FloatFlushed, Arith::Double}) {
    Value V = Evaluator(Mode, Element).eval(F);
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
