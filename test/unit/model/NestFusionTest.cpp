//===- NestFusionTest.cpp - fuseReductionNests ----------------------------===//
#include "NestFusion.h"
#include "../RegionTestUtil.h"
#include "gtest/gtest.h"

using namespace tc;
using namespace tc::test;

namespace {

/// C = A * B and R = P * Q in nests of their own, Z = C + R in a third;
/// `Sum` is the third nest's value.
std::string twoNests(const std::string &Sum) {
  return "void gemm(int M, int N, int K1, int K2, const __half *__restrict__ A,\n"
         "          const __half *__restrict__ B, const __half *__restrict__ P,\n"
         "          const __half *__restrict__ Q, float *__restrict__ C,\n"
         "          float *__restrict__ R, float *__restrict__ Z, const float *bias) {\n"
         "  {\n"
         "    for (int i = 0; i < M; ++i)\n"
         "      for (int j = 0; j < N; ++j) {\n"
         "        C[i * N + j] = 0.0f;\n"
         "        for (int k = 0; k < K1; ++k)\n"
         "          C[i * N + j] += __half2float(A[i * K1 + k]) * __half2float(B[k * N + j]);\n"
         "      }\n"
         "    for (int i = 0; i < M; ++i)\n"
         "      for (int j = 0; j < N; ++j) {\n"
         "        R[i * N + j] = 0.0f;\n"
         "        for (int k = 0; k < K2; ++k)\n"
         "          R[i * N + j] += __half2float(P[i * K2 + k]) * __half2float(Q[k * N + j]);\n"
         "      }\n"
         "    for (int i = 0; i < M; ++i)\n"
         "      for (int j = 0; j < N; ++j)\n"
         "        Z[i * N + j] = " + Sum + ";\n"
         "  }\n"
         "}\n";
}

RegionClauses scratch(std::initializer_list<const char *> Names) {
  RegionClauses C;
  for (const char *N : Names)
    C.Temp.push_back({N, {}});
  return C;
}

struct Fused {
  OwnedIslCtx Isl;
  Extracted E;
  std::optional<IslModel> I;
  std::optional<NestFusion> Fusion;
  bool Fuses = false;
  std::optional<ErrorInfo> Error;
};

Fused fuse(const std::string &Code, const RegionClauses &Cl) {
  Fused F;
  F.E = extract(Code, "gemm", Cl);
  if (!F.E.ok())
    return F;
  F.I = IslModel::build(F.Isl.Ctx, *F.E.Model);
  auto R = fuseReductionNests(*F.E.Model, *F.I);
  if (!R) {
    F.Error = takeError(R.takeError());
    return F;
  }
  F.Fuses = R->has_value();
  if (*R)
    F.Fusion = std::move(**R);
  return F;
}

TEST(NestFusionTest, FusesTheOneNestSpelling) {
  Fused F = fuse(twoNests("C[i * N + j] + R[i * N + j]"), scratch({"C", "R"}));
  ASSERT_TRUE(F.E.ok()) << F.E.Error->Message;
  ASSERT_FALSE(F.Error) << F.Error->Message;
  ASSERT_TRUE(F.Fuses);
  const RegionModel &M = F.Fusion->Fused;
  // R's initialisation is gone; its product accumulates into C in C's
  // loops, right after C's product; Z reads C alone.
  ASSERT_EQ(M.Stmts.size(), 4u);
  const Statement &Second = M.Stmts[2];
  EXPECT_EQ(M.Arrays[Second.Write.ArrayId].Name, "C");
  EXPECT_EQ(Second.Loops[0], M.Stmts[1].Loops[0]);
  EXPECT_EQ(Second.Loops[1], M.Stmts[1].Loops[1]);
  const Statement &Sum = M.Stmts[3];
  ASSERT_EQ(Sum.Reads.size(), 1u);
  EXPECT_EQ(M.Arrays[Sum.Reads[0].ArrayId].Name, "C");
  EXPECT_EQ(Sum.Value->K, ExprNode::Read);
  // The source's model is kept for the alias test and the serial kernel.
  ASSERT_TRUE(M.AsWritten);
  EXPECT_EQ(M.AsWritten->Stmts.size(), 5u);
  // Its idiom is the one-nest sum of matmuls.
  IslModel FI = IslModel::build(F.Isl.Ctx, M);
  auto Idiom = recognizeMatmul(M, FI);
  ASSERT_TRUE(bool(Idiom)) << takeError(Idiom.takeError()).Message;
  EXPECT_EQ(Idiom->MoreProducts.size(), 1u);
}

TEST(NestFusionTest, OneAccumulatorIsNoFusion) {
  Fused F = fuse(CanonicalGemm, {});
  ASSERT_TRUE(F.E.ok());
  EXPECT_FALSE(F.Error);
  EXPECT_FALSE(F.Fuses);
}

TEST(NestFusionTest, RefusesWhatChangesTheResult) {
  struct Case {
    std::string Sum;
    RegionClauses Clauses;
    const char *Message;
  } Cases[] = {
      {"C[i * N + j] + R[i * N + j]", scratch({"R"}), "'C' is not named in temp(...)"},
      {"C[i * N + j] + R[j * N + i]", scratch({"C", "R"}),
       "'R' is added at another element than 'C'"},
      {"C[i * N + j] + bias[j] + R[i * N + j]", scratch({"C", "R"}),
       "'C' is read apart from the sum of the products"},
      {"C[i * N + j] * R[i * N + j]", scratch({"C", "R"}),
       "'C' is read apart from the sum of the products"},
  };
  for (const Case &C : Cases) {
    Fused F = fuse(twoNests(C.Sum), C.Clauses);
    ASSERT_TRUE(F.E.ok()) << F.E.Error->Message;
    ASSERT_TRUE(F.Error) << C.Sum;
    EXPECT_NE(F.Error->Message.find(C.Message), std::string::npos) << F.Error->Message;
  }
}

} // namespace
