//===- FloatRoundingTest.cpp - a double in a narrower floating-point type -===//
#include "FloatRounding.h"
#include "gtest/gtest.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace tc;

namespace {

const llvm::fltSemantics &Half = llvm::APFloat::IEEEhalf();
const llvm::fltSemantics &BF16 = llvm::APFloat::BFloat();

TEST(FloatRoundingTest, ExactValues) {
  for (double X : {0.0, 1.0, -2.5, 65504.0, 1.0 + std::ldexp(1.0, -10)}) {
    RoundedValue R = roundToSemantics(X, Half);
    EXPECT_EQ(R.Value, X);
    EXPECT_TRUE(R.Exact) << X;
    EXPECT_FALSE(R.Denormal) << X;
  }
  RoundedValue NegZero = roundToSemantics(-0.0, Half);
  EXPECT_TRUE(NegZero.Exact);
  EXPECT_TRUE(std::signbit(NegZero.Value));
}

// To nearest, ties to even.
TEST(FloatRoundingTest, TiesToEven) {
  RoundedValue Down = roundToSemantics(1.0 + std::ldexp(1.0, -11), Half);
  EXPECT_EQ(Down.Value, 1.0);
  EXPECT_FALSE(Down.Exact);
  RoundedValue Up = roundToSemantics(1.0 + 3 * std::ldexp(1.0, -11), Half);
  EXPECT_EQ(Up.Value, 1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(roundToSemantics(1.0 + std::ldexp(1.0, -8), BF16).Value, 1.0);
  EXPECT_FALSE(roundToSemantics(1.0 / 3, BF16).Exact);
}

// Beyond the largest value by half an ulp or more: infinite.
TEST(FloatRoundingTest, Overflow) {
  RoundedValue Below = roundToSemantics(65519.0, Half);
  EXPECT_EQ(Below.Value, 65504.0);
  EXPECT_FALSE(Below.Exact);
  RoundedValue Over = roundToSemantics(65520.0, Half);
  EXPECT_TRUE(std::isinf(Over.Value) && Over.Value > 0);
  EXPECT_FALSE(Over.Exact);
  EXPECT_TRUE(std::isinf(roundToSemantics(-3.4e38, BF16).Value));
  RoundedValue Inf = roundToSemantics(INFINITY, Half);
  EXPECT_TRUE(std::isinf(Inf.Value));
  EXPECT_TRUE(Inf.Exact);
}

// Denormals are kept (and said to be), not flushed.
TEST(FloatRoundingTest, Denormals) {
  RoundedValue Smallest = roundToSemantics(std::ldexp(1.0, -24), Half);
  EXPECT_EQ(Smallest.Value, std::ldexp(1.0, -24));
  EXPECT_TRUE(Smallest.Exact);
  EXPECT_TRUE(Smallest.Denormal);
  EXPECT_FALSE(roundToSemantics(std::ldexp(1.0, -14), Half).Denormal);
  RoundedValue Tie = roundToSemantics(std::ldexp(1.0, -25), Half);
  EXPECT_EQ(Tie.Value, 0.0);
  EXPECT_FALSE(Tie.Exact);
  EXPECT_EQ(roundToSemantics(1.5 * std::ldexp(1.0, -25), Half).Value, std::ldexp(1.0, -24));
}

TEST(FloatRoundingTest, NaNStaysNaN) {
  EXPECT_TRUE(std::isnan(roundToSemantics(NAN, Half).Value));
  EXPECT_TRUE(std::isnan(roundToSemantics(NAN, BF16).Value));
}

} // namespace
