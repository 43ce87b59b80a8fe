//===- IslBuildTest.cpp - isl objects built through isl's API -------------===//
#include "IslBuild.h"
#include "../RegionTestUtil.h"
#include "gtest/gtest.h"

using namespace tc;
using namespace tc::test;

namespace {

/// A model of one statement `S0[i, k]` over `0 <= i < Rows` and `0 <= k < K`
/// that writes `Out[i][k]`, its sizes named as given: names reach isl as
/// identifiers, so isl's keywords and other spellings its parser would
/// misread are names like any other.
RegionModel oneStatement(const std::string &Rows, const std::string &It) {
  RegionModel M;
  M.Params = {{Rows, "int"}, {"K", "int"}};
  Array Out;
  Out.Name = "Out";
  Out.Strides = {Polynomial::symbol("K"), Polynomial::constant(1)};
  M.Arrays.push_back(Out);
  Loop I, K;
  I.Iterator = It;
  I.UpperExclusive = AffineExpr::symbol(Rows);
  K.Iterator = "k";
  K.UpperExclusive = AffineExpr::symbol("K");
  M.Loops = {I, K};
  Statement S;
  S.Name = "S0";
  S.Loops = {0, 1};
  S.Position = {0, 0, 0};
  S.Write.ArrayId = 0;
  S.Write.Index = {AffineExpr::symbol(It), AffineExpr::symbol("k") + AffineExpr::constant(1)};
  M.Stmts.push_back(S);
  return M;
}

TEST(IslBuildTest, DomainAccessScheduleContext) {
  RegionModel M = oneStatement("M", "i");
  const Statement &S = M.Stmts[0];
  EXPECT_EQ(domainText(M, S), "[M, K] -> { S0[i, k] : 0 <= i < M and 0 <= k < K }");
  EXPECT_EQ(accessText(M, S, S.Write), "[M, K] -> { S0[i, k] -> Out[i, 1 + k] }");
  EXPECT_EQ(scheduleText(M, S, 3), "[M, K] -> { S0[i, k] -> [0, i, 0, k, 0] }");
  EXPECT_EQ(contextText(M), "[M, K] -> {  : M >= 0 and K >= 0 }");
}

TEST(IslBuildTest, KeywordsOfIslAreNames) {
  // Through isl's parser, `floor`, `mod`, `min` and `exists` are syntax.
  for (const char *Name : {"floor", "mod", "min", "exists", "and", "infty"}) {
    RegionModel M = oneStatement(Name, std::string(Name) + "_it");
    std::string D = domainText(M, M.Stmts[0]);
    EXPECT_EQ(D, "[" + std::string(Name) + ", K] -> { S0[" + Name + "_it, k] : 0 <= " + Name +
                     "_it < " + Name + " and 0 <= k < K }");
  }
}

TEST(IslBuildTest, ConstraintsWithLargeCoefficients) {
  // A coefficient is an isl_val, not text: INT64_MIN has no C literal.
  isl::ctx Ctx = makeIslContext();
  {
    RegionModel M = oneStatement("M", "i");
    AffineExpr E = AffineExpr::symbol("i") * INT64_MIN + AffineExpr::constant(INT64_MAX);
    isl::set S = constrain(universeSet(Ctx, M, "S", {"i"}), E);
    EXPECT_TRUE(S.is_equal(isl::set(Ctx, "[M, K] -> { S[i] : i <= 0 }"))) << islStr(S);
    // A symbol that is neither a dimension nor a parameter becomes one.
    isl::set T = constrain(universeSet(Ctx, M, "S", {"i"}), AffineExpr::symbol("extra"));
    EXPECT_EQ(islStr(T), "[M, K, extra] -> { S[i] : extra >= 0 }");
  }
  isl_ctx_free(Ctx.release());
}

TEST(IslBuildTest, QuasiAffinePieces) {
  isl::ctx Ctx = makeIslContext();
  {
    RegionModel M = oneStatement("M", "i");
    isl::space Sp = withParameter(universeSet(Ctx, M, "R", {"m", "n"}).get_space(), "tc_b");
    isl::set Tile = equalSet(floorDiv(dimension(Sp, 0), 128), parameter(Sp, "tc_b"))
                        .intersect(rangeSet(modulo(dimension(Sp, 1), 64), 0, 16));
    EXPECT_TRUE(Tile.is_equal(isl::set(
        Ctx, "[M, K, tc_b] -> { R[m, n] : 128 tc_b <= m < 128 tc_b + 128 and "
             "n - 64 * floor(n / 64) < 16 }")));
  }
  isl_ctx_free(Ctx.release());
}

} // namespace
