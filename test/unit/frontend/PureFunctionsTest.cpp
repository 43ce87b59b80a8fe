//===- PureFunctionsTest.cpp - the functions a region may call ------------===//
#include "PureFunctions.h"
#include "gtest/gtest.h"

#include "llvm/ADT/StringSet.h"

using namespace tc;

namespace {

TEST(PureFunctionsTest, RegionsMayCallConversionsHalfArithmeticAndMath) {
  // One of each family (the table is the list; this pins that each family
  // stays admitted, not the list itself).
  for (const char *N : {"__half2float", "__float2half_rn", "__bfloat162float",
                        "__float2bfloat16", "__hadd", "__hfma", "__hmax", "__hlt", "__hneg",
                        "fmaxf", "max", "expf", "__expf", "tanhf", "erff", "normcdff",
                        "rsqrtf", "__frcp_rn", "powf", "fmaf", "floorf", "log1pf"})
    EXPECT_TRUE(isPureFunction(N)) << N;
}

TEST(PureFunctionsTest, OthersAreNotPure) {
  for (const char *N : {"", "printf", "mystery", "fdim", "atan2", "sinh", "__hfoo", "EXPF"})
    EXPECT_FALSE(isPureFunction(N)) << N;
  // Folded (ExprTree strips it as a conversion too), but not admitted.
  ASSERT_NE(findPureFunction("__low2float"), nullptr);
  EXPECT_FALSE(isPureFunction("__low2float"));
}

TEST(PureFunctionsTest, ConversionsToFloat) {
  for (const char *N : {"__half2float", "__bfloat162float", "__low2float"})
    EXPECT_TRUE(isConversionToFloat(N)) << N;
  for (const char *N : {"__float2half", "__float2bfloat16_rn", "__hneg", "__hmax", "expf", "x"})
    EXPECT_FALSE(isConversionToFloat(N)) << N;
}

TEST(PureFunctionsTest, EveryEntryIsFoldableAndListedOnce) {
  llvm::StringSet<> Seen;
  for (const PureFunction &F : pureFunctions()) {
    EXPECT_TRUE(Seen.insert(F.Name).second) << F.Name.str() << " is listed twice";
    EXPECT_NE(F.Fold, nullptr) << F.Name.str();
    EXPECT_TRUE(F.Arity >= 1 && F.Arity <= 3) << F.Name.str();
    EXPECT_EQ(findPureFunction(F.Name), &F);
  }
}

TEST(PureFunctionsTest, FoldsAndRoundings) {
  const PureFunction *Exp = findPureFunction("expf");
  ASSERT_NE(Exp, nullptr);
  EXPECT_EQ(Exp->Arity, 1u);
  EXPECT_EQ(Exp->Fold({0.0}), 1.0);
  EXPECT_EQ(Exp->Rounding, PureRounding::Float);

  const PureFunction *Fma = findPureFunction("__hfma");
  ASSERT_NE(Fma, nullptr);
  EXPECT_EQ(Fma->Arity, 3u);
  EXPECT_EQ(Fma->Fold({2.0, 3.0, 1.0}), 7.0);
  EXPECT_EQ(Fma->Rounding, PureRounding::Half);

  EXPECT_EQ(findPureFunction("__float2bfloat16_rn")->Rounding, PureRounding::BFloat);
  EXPECT_EQ(findPureFunction("__hneg")->Rounding, PureRounding::Exact);
  EXPECT_EQ(findPureFunction("__hlt")->Result, PureResult::Boolean);
  EXPECT_EQ(findPureFunction("__hlt")->Fold({1.0, 2.0}), 1.0);
  EXPECT_EQ(findPureFunction("max")->Result, PureResult::LikeArguments);
  EXPECT_EQ(findPureFunction("fmaxf")->Result, PureResult::Floating);
}

} // namespace
