//===- ConstantEvalTest.cpp - the value of a prologue at a zero element ---===//
#include "ConstantEval.h"
#include "gtest/gtest.h"

using namespace tc;

namespace {

/// The element (read 0), which finiteAtZero takes to be 0.
ExprPtr element() { return ExprNode::make(ExprNode::Read, "A[i]"); }

ExprPtr literal(double V, bool IsInteger = false, bool IsUnsigned = false) {
  ExprPtr N = ExprNode::make(ExprNode::Literal, std::to_string(V));
  N->Value = V;
  N->IsInteger = IsInteger;
  N->IsUnsigned = IsUnsigned;
  return N;
}
ExprPtr integer(double V) { return literal(V, true); }

ExprPtr call(const std::string &F, std::vector<ExprPtr> Args) {
  return ExprNode::make(ExprNode::Call, F, std::move(Args));
}
ExprPtr binary(const std::string &Op, ExprPtr L, ExprPtr R) {
  return ExprNode::make(ExprNode::Binary, Op, {std::move(L), std::move(R)});
}

bool finite(const ExprPtr &F, ElementType Stage = ElementType::F32) {
  return finiteAtZero(*F, 0, Stage);
}

TEST(ConstantEvalTest, MathAtZero) {
  EXPECT_TRUE(finite(call("expf", {element()})));
  EXPECT_TRUE(finite(call("tanhf", {element()}), ElementType::F16));
  EXPECT_FALSE(finite(call("logf", {element()})));
  EXPECT_FALSE(finite(call("__frcp_rn", {element()})));
  EXPECT_FALSE(finite(call("rsqrtf", {element()})));
  EXPECT_FALSE(finite(binary("/", literal(1), element())));
  EXPECT_TRUE(finite(call("fmaxf", {element(), literal(1)})));
  EXPECT_TRUE(finite(call("__hfma", {element(), element(), literal(1)}), ElementType::F16));
}

// A function the folder does not know, or a call with another number of
// arguments, has an unknown value.
TEST(ConstantEvalTest, UnknownCallsAreNotFinite) {
  EXPECT_FALSE(finite(call("mystery", {element()})));
  EXPECT_FALSE(finite(call("expf", {element(), element()})));
  EXPECT_FALSE(finite(call("fmaxf", {element()})));
  EXPECT_FALSE(finite(call("__hadd", {element()})));
  // Folded although no region calls it (a conversion).
  EXPECT_TRUE(finite(call("expf", {call("__low2float", {element()})})));
}

// __float2half rounds to nearest, ties to even: 65519 is 65504, 65520 is
// infinite. bf16 reaches further.
TEST(ConstantEvalTest, ConversionsRoundTo16Bits) {
  auto ToHalf = [](double V) {
    return call("__float2half", {binary("+", element(), literal(V))});
  };
  EXPECT_TRUE(finite(ToHalf(65519)));
  EXPECT_FALSE(finite(ToHalf(65520)));
  EXPECT_TRUE(finite(call("__float2bfloat16_rn", {binary("+", element(), literal(3.0e38))})));
  EXPECT_FALSE(finite(call("__float2bfloat16_rn", {binary("+", element(), literal(3.4e38))})));
  // __hadd rounds its sum to half.
  EXPECT_FALSE(finite(call("__hadd", {literal(65504), literal(16)})));
  EXPECT_TRUE(finite(call("__hadd", {literal(65504), literal(15)})));
}

// Integer arithmetic truncates: a __half comparison is an integer, and so
// are abs, max and min of integers (fmaxf is not).
TEST(ConstantEvalTest, IntegerTypedCalls) {
  // x + 1.0 / D: not finite where D is 0.
  auto Reciprocal = [](ExprPtr D) {
    return binary("+", element(), binary("/", literal(1), std::move(D)));
  };
  auto OneOver = [](ExprPtr D) { return binary("/", integer(1), std::move(D)); };
  // 1 / (__hlt(0, 1) + 1) is 1 / 2, 0.
  EXPECT_FALSE(finite(Reciprocal(
      OneOver(binary("+", call("__hlt", {element(), literal(1)}), integer(1))))));
  EXPECT_TRUE(finite(Reciprocal(
      OneOver(binary("+", call("fmaxf", {element(), literal(1)}), integer(1))))));
  // 1 / max(2, 3) is 0, unless an argument is not an integer.
  EXPECT_FALSE(finite(Reciprocal(OneOver(call("max", {integer(2), integer(3)})))));
  EXPECT_FALSE(finite(Reciprocal(OneOver(call("abs", {integer(3)})))));
  EXPECT_TRUE(finite(Reciprocal(OneOver(call("fmaxf", {integer(2), integer(3)})))));
  EXPECT_TRUE(finite(Reciprocal(OneOver(call("max", {integer(2), literal(3)})))));
  // Integer max, min and abs are exact beyond float's 2^24:
  // 1.0 / (max(16777217, 0) - 16777216) is 1 on the device (rounded to
  // float, max would give 16777216 and a division by 0).
  auto OneOverDifference = [](ExprPtr Big) {
    return binary("+", element(),
                  binary("/", literal(1), binary("-", std::move(Big), integer(16777216))));
  };
  EXPECT_TRUE(finite(OneOverDifference(call("max", {integer(16777217), integer(0)}))));
  EXPECT_TRUE(finite(OneOverDifference(call("min", {integer(16777217), integer(16777219)}))));
  EXPECT_TRUE(finite(OneOverDifference(call("abs", {integer(-16777217)}))));
  EXPECT_FALSE(finite(OneOverDifference(call("abs", {integer(-16777216)}))));
}

// A conditional is an integer where both branches are (whatever its
// condition), and a conversion to an integer type is one.
TEST(ConstantEvalTest, IntegerTypedConditionalsAndCasts) {
  auto Reciprocal = [](ExprPtr D) {
    return binary("+", element(), binary("/", literal(1), std::move(D)));
  };
  auto OneOver = [](ExprPtr D) { return binary("/", integer(1), std::move(D)); };
  auto Select = [](ExprPtr Then, ExprPtr Else) {
    return ExprNode::make(ExprNode::Conditional, "?:",
                          {binary("<", element(), literal(1)), std::move(Then), std::move(Else)});
  };
  // 1 / (x < 1.0 ? 2 : 3) is 1 / 2, 0; with a float branch it is 0.5.
  EXPECT_FALSE(finite(Reciprocal(OneOver(Select(integer(2), integer(3))))));
  EXPECT_TRUE(finite(Reciprocal(OneOver(Select(integer(2), literal(3))))));
  // 1 / (long)2 is 1 / 2, 0; 1 / (float)2 is 0.5.
  EXPECT_FALSE(finite(Reciprocal(OneOver(ExprNode::make(ExprNode::Cast, "long", {integer(2)})))));
  EXPECT_TRUE(finite(Reciprocal(OneOver(ExprNode::make(ExprNode::Cast, "float", {integer(2)})))));
}

// Unsigned integer arithmetic wraps, which the folder does not model.
TEST(ConstantEvalTest, UnsignedIntegersAreUnknown) {
  EXPECT_TRUE(finite(binary("+", element(), binary("-", integer(0), integer(1)))));
  EXPECT_FALSE(finite(
      binary("+", element(), binary("-", literal(0, true, true), literal(1, true, true)))));
  EXPECT_FALSE(finite(binary("+", element(),
                             ExprNode::make(ExprNode::Cast, "unsigned int", {integer(1)}))));
}

// A subtree shared by several parents (extraction shares a local's value
// among its uses) is folded like a copy of it.
TEST(ConstantEvalTest, SharedSubtrees) {
  ExprPtr Shared = call("expf", {element()});
  EXPECT_TRUE(finite(binary("*", Shared, Shared)));
  ExprPtr Zero = binary("-", integer(1), integer(1));
  EXPECT_FALSE(finite(binary("/", binary("+", element(), Zero), Zero)));
}

} // namespace
