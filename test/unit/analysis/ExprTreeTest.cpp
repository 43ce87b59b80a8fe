//===- ExprTreeTest.cpp - expression trees of statements ------------------===//
#include "ExprTree.h"
#include "gtest/gtest.h"

using namespace tc;

namespace {

ExprPtr literal(const std::string &Text) { return ExprNode::make(ExprNode::Literal, Text); }

// A +0 initialisation is folded into the sum (transforms/Epilogue.cpp): only
// literals whose value is +0, under conversions to float.
TEST(ExprTreeTest, PositiveZeroLiterals) {
  for (const char *Zero :
       {"0", "0.0f", "0.f", "0.", "0.0", "0e5", "0x0p0", "0x0p0f", "0x0", "00", "0u", "0x0ull"})
    EXPECT_TRUE(isPositiveZeroLiteral(literal(Zero).get())) << Zero;
  // A hexadecimal integer's f and F are digits, not a suffix.
  for (const char *Other : {"1", "0.5f", "1e-30f", "0x1p-149", "0xF", "0x0F", "0x0f", "0x00FFu",
                            "1.0F", "0'0"})
    EXPECT_FALSE(isPositiveZeroLiteral(literal(Other).get())) << Other;
  // -0.0f is a negation of a literal, not a literal.
  EXPECT_FALSE(isPositiveZeroLiteral(ExprNode::make(ExprNode::Unary, "-", {literal("0.0f")}).get()));
  // (float)0 and __half2float(0) are +0; a scalar or a read is not a literal.
  EXPECT_TRUE(isPositiveZeroLiteral(ExprNode::make(ExprNode::Cast, "float", {literal("0")}).get()));
  EXPECT_TRUE(
      isPositiveZeroLiteral(ExprNode::make(ExprNode::Call, "__half2float", {literal("0")}).get()));
  EXPECT_FALSE(isPositiveZeroLiteral(ExprNode::make(ExprNode::Scalar, "beta").get()));
  EXPECT_FALSE(isPositiveZeroLiteral(nullptr));
}

} // namespace
