//===- ExprTreeTest.cpp - expression trees of statements ------------------===//
#include "ExprTree.h"
#include "gtest/gtest.h"

using namespace tc;

namespace {

/// A literal node as extraction makes it: the spelling, and whether Clang's
/// value of it is +0 (ExtractionTest checks that flag against the spellings).
ExprPtr literal(const std::string &Text, bool IsPositiveZero) {
  ExprPtr N = ExprNode::make(ExprNode::Literal, Text);
  N->IsPositiveZero = IsPositiveZero;
  return N;
}

// A +0 initialisation is folded into the sum (codegen/Epilogue.cpp): a
// literal of value +0, maybe under conversions to float; nothing else.
TEST(ExprTreeTest, PositiveZeroLiterals) {
  EXPECT_TRUE(isPositiveZeroLiteral(literal("0.0f", true).get()));
  EXPECT_FALSE(isPositiveZeroLiteral(literal("1.0f", false).get()));
  // -0.0f is a negation of a literal, not a literal.
  EXPECT_FALSE(
      isPositiveZeroLiteral(ExprNode::make(ExprNode::Unary, "-", {literal("0.0f", true)}).get()));
  // (float)0 and __half2float(0) are +0; a conversion to another type is not
  // stripped, and a scalar or a read is not a literal.
  EXPECT_TRUE(
      isPositiveZeroLiteral(ExprNode::make(ExprNode::Cast, "float", {literal("0", true)}).get()));
  EXPECT_TRUE(isPositiveZeroLiteral(
      ExprNode::make(ExprNode::Call, "__half2float", {literal("0", true)}).get()));
  EXPECT_FALSE(
      isPositiveZeroLiteral(ExprNode::make(ExprNode::Cast, "int", {literal("0.0f", true)}).get()));
  EXPECT_FALSE(isPositiveZeroLiteral(ExprNode::make(ExprNode::Scalar, "beta").get()));
  EXPECT_FALSE(isPositiveZeroLiteral(nullptr));
}

} // namespace
