//===- SmallIntegerArithmetic.cpp -----------------------------------------===//
#include "SmallIntegerArithmetic.h"

#include <algorithm>
#include <cmath>

namespace tc {
namespace {

// fp32 holds every integer of magnitude at most 2^24.
constexpr double ExactInFloat = 16777216.0;

bool isExact(const IntegerRange &R) {
  return std::fabs(R.Min) <= ExactInFloat && std::fabs(R.Max) <= ExactInFloat;
}

// Signed integer types that hold every value of the narrow ones: a
// conversion to them (a promotion) keeps the value.
bool isWideSigned(const std::string &Type) {
  return Type == "int" || Type == "long" || Type == "long long";
}

class Rewriter {
public:
  explicit Rewriter(const std::function<std::string(unsigned)> &ReadType)
      : ReadType(ReadType) {}

  /// The values of E where it is integer arithmetic (of signed type after
  /// the promotions) whose every value is exact in fp32; none otherwise.
  std::optional<IntegerRange> rangeOf(const ExprNode &E) const {
    switch (E.K) {
    case ExprNode::Read:
      // Integer only under an integer conversion (the promotion C++ makes
      // of a narrow value): a bare read is the element stripped of its
      // conversion to float (prologueOfElement), a float.
      return std::nullopt;
    case ExprNode::Literal:
      if (!E.IsInteger || E.IsUnsigned || std::fabs(E.Value) > ExactInFloat)
        return std::nullopt;
      return IntegerRange{E.Value, E.Value};
    case ExprNode::Cast: {
      const ExprNode &Op = *E.Ops[0];
      std::optional<IntegerRange> Inner =
          Op.K == ExprNode::Read ? narrowIntegerRange(ReadType(Op.AccessId)) : rangeOf(Op);
      if (!Inner)
        return std::nullopt;
      if (isWideSigned(E.Text))
        return Inner;
      // A narrow type keeps the value only where it holds all of them
      // (bool does not: it keeps whether the value is zero; char holds
      // 0..127 whichever its signedness).
      std::optional<IntegerRange> Type =
          E.Text == "char" ? std::optional<IntegerRange>({0, 127}) : narrowIntegerRange(E.Text);
      if (!Type || E.Text == "bool" || Inner->Min < Type->Min || Inner->Max > Type->Max)
        return std::nullopt;
      return Inner;
    }
    case ExprNode::Unary: {
      std::optional<IntegerRange> Inner = rangeOf(*E.Ops[0]);
      if (!Inner || (E.Text != "-" && E.Text != "+"))
        return std::nullopt;
      return E.Text == "-" ? IntegerRange{-Inner->Max, -Inner->Min} : *Inner;
    }
    case ExprNode::Binary: {
      if (E.IsOperatorCall)
        return std::nullopt;
      std::optional<IntegerRange> L = rangeOf(*E.Ops[0]), R = rangeOf(*E.Ops[1]);
      if (!L || !R)
        return std::nullopt;
      IntegerRange Result;
      if (E.Text == "+")
        Result = {L->Min + R->Min, L->Max + R->Max};
      else if (E.Text == "-")
        Result = {L->Min - R->Max, L->Max - R->Min};
      else if (E.Text == "*") {
        const double P[] = {L->Min * R->Min, L->Min * R->Max, L->Max * R->Min,
                            L->Max * R->Max};
        Result = {*std::min_element(P, P + 4), *std::max_element(P, P + 4)};
      } else
        return std::nullopt;
      if (!isExact(Result))
        return std::nullopt;
      return Result;
    }
    default:
      return std::nullopt;
    }
  }

  /// E (whose value its user converts to float) with its small integer
  /// arithmetic in fp32.
  ExprPtr rewrite(const ExprPtr &E, bool ConvertedToFloat) const {
    const auto Arithmetic = [](const ExprNode &N) {
      return N.K == ExprNode::Binary || N.K == ExprNode::Unary;
    };
    // fp32's * and unary - make -0 of a zero (0 * -2), which int does not.
    const auto MakesNegativeZero = [](const ExprNode &N) {
      return (N.K == ExprNode::Binary && N.Text == "*") ||
             (N.K == ExprNode::Unary && N.Text == "-");
    };
    if (ConvertedToFloat && anyNode(*E, Arithmetic) && rangeOf(*E)) {
      ExprPtr Float = inFloat(*E);
      // Adding +0 gives +0 for a -0 and changes no other value.
      if (!anyNode(*E, MakesNegativeZero))
        return Float;
      ExprPtr Zero = ExprNode::make(ExprNode::Literal, "0.0f");
      Zero->IsPositiveZero = true;
      return ExprNode::make(ExprNode::Binary, "+", {Float, Zero});
    }
    auto Copy = std::make_shared<ExprNode>(*E);
    const bool Converts = E->K == ExprNode::Cast && (E->Text == "float" || E->Text == "double");
    for (ExprPtr &Op : Copy->Ops)
      Op = rewrite(Op, Converts);
    return Copy;
  }

private:
  // Whether E or a node under it satisfies Pred.
  template <typename Pred> static bool anyNode(const ExprNode &E, const Pred &P) {
    return P(E) || std::any_of(E.Ops.begin(), E.Ops.end(),
                               [&](const ExprPtr &Op) { return anyNode(*Op, P); });
  }

  // A subtree that rangeOf accepted, in fp32.
  static ExprPtr inFloat(const ExprNode &E) {
    switch (E.K) {
    case ExprNode::Cast: // an integer conversion that keeps the value
      return inFloat(*E.Ops[0]);
    case ExprNode::Unary:
    case ExprNode::Binary: {
      auto Copy = std::make_shared<ExprNode>(E);
      for (ExprPtr &Op : Copy->Ops)
        Op = inFloat(*Op);
      return Copy;
    }
    default: // a read or a literal
      return ExprNode::make(ExprNode::Cast, "float", {std::make_shared<ExprNode>(E)});
    }
  }

  const std::function<std::string(unsigned)> &ReadType;
};

} // namespace

std::optional<IntegerRange> narrowIntegerRange(const std::string &Type) {
  if (Type == "bool")
    return IntegerRange{0, 1};
  if (Type == "signed char")
    return IntegerRange{-128, 127};
  if (Type == "unsigned char")
    return IntegerRange{0, 255};
  if (Type == "char") // a read of either signedness
    return IntegerRange{-128, 255};
  if (Type == "short")
    return IntegerRange{-32768, 32767};
  if (Type == "unsigned short")
    return IntegerRange{0, 65535};
  return std::nullopt;
}

ExprPtr smallIntegerArithmeticInFloat(const ExprPtr &E,
                                      const std::function<std::string(unsigned)> &ReadType) {
  return Rewriter(ReadType).rewrite(E, /*ConvertedToFloat=*/true);
}

} // namespace tc
