//===- OperandMasksTest.cpp - boxDomains and the idiom's masks -----------===//
#include "DomainBox.h"
#include "MatmulIdiom.h"
#include "../RegionTestUtil.h"
#include "gtest/gtest.h"

using namespace tc;
using namespace tc::test;

namespace {

/// A function over the sizes M, N, K and the arrays A, B, C whose body is
/// `Nest`.
std::string product(const std::string &Nest) {
  return "void gemm(int M, int N, int K, const __half *__restrict__ A,\n"
         "          const __half *__restrict__ B, float *__restrict__ C) {\n" +
         Nest + "}\n";
}

struct Placed {
  OwnedIslCtx Isl;
  Extracted E;
  std::optional<RegionModel> Boxed;
  std::optional<MatmulIdiom> Idiom;
  std::optional<ErrorInfo> Error;
  const RegionModel &model() const { return Boxed ? *Boxed : *E.Model; }
};

Placed place(const std::string &Code) {
  Placed P;
  P.E = extract(Code);
  if (!P.E.ok())
    return P;
  IslModel I = IslModel::build(P.Isl.Ctx, *P.E.Model);
  auto Box = boxDomains(*P.E.Model, I);
  if (!Box) {
    P.Error = takeError(Box.takeError());
    return P;
  }
  P.Boxed = std::move(*Box);
  IslModel BI = IslModel::build(P.Isl.Ctx, P.model());
  auto Idiom = recognizeMatmul(P.model(), BI);
  if (!Idiom) {
    P.Error = takeError(Idiom.takeError());
    return P;
  }
  P.Idiom = std::move(*Idiom);
  return P;
}

std::vector<std::string> texts(const std::vector<AffineExpr> &Es) {
  std::vector<std::string> T;
  for (const AffineExpr &E : Es)
    T.push_back(E.str());
  return T;
}

using Strings = std::vector<std::string>;

TEST(DomainBoxTest, LeavesBoxesAlone) {
  Placed P = place(product("  for (int i = 0; i < M; ++i)\n"
                           "    for (int j = 0; j < N; ++j) {\n"
                           "      float acc = 0.0f;\n"
                           "      for (int k = 0; k < K; ++k)\n"
                           "        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
                           "      C[i * N + j] = acc;\n"
                           "    }\n"));
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_FALSE(P.Error) << P.Error->Message;
  EXPECT_FALSE(P.Boxed);
  EXPECT_TRUE(P.Idiom->A.Mask.empty());
  EXPECT_TRUE(P.Idiom->OutputGuard.empty());
}

TEST(OperandMasksTest, TriangularOperand) {
  // TRMM: k from i. The loop runs over [0, N); A is masked to k >= i.
  Placed P = place(product("  for (int i = 0; i < M; ++i)\n"
                           "    for (int j = 0; j < N; ++j) {\n"
                           "      float acc = 0.0f;\n"
                           "      for (int k = i; k < M; ++k)\n"
                           "        acc += __half2float(A[i * M + k]) * __half2float(B[k * N + j]);\n"
                           "      C[i * N + j] = acc;\n"
                           "    }\n"));
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_FALSE(P.Error) << P.Error->Message;
  ASSERT_TRUE(P.Boxed);
  const Loop &K = P.Boxed->Loops[2];
  EXPECT_EQ(K.Lower.str(), "0");
  EXPECT_EQ(K.UpperExclusive.str(), "M");
  EXPECT_EQ(texts(P.Idiom->A.Mask), Strings{"-i + k"});
  EXPECT_TRUE(P.Idiom->A.ConvertWhileCopying);
  EXPECT_TRUE(P.Idiom->B.Mask.empty());
  EXPECT_TRUE(P.Idiom->OutputGuard.empty());
  EXPECT_TRUE(P.Idiom->SerialWhen.empty());
}

TEST(DomainBoxTest, StridedLoopIsScaledOnce) {
  // Odd rows, k from the row: the box of k is shifted a second time, which
  // must not scale the counted i again (the source's i is 2 * i + 1).
  Placed P = place(product("  for (int i = 1; i < M; i += 2)\n"
                           "    for (int j = 0; j < N; ++j) {\n"
                           "      float acc = 0.0f;\n"
                           "      for (int k = i + 1; k < K; ++k)\n"
                           "        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
                           "      C[i * N + j] = acc;\n"
                           "    }\n"));
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_FALSE(P.Error) << P.Error->Message;
  ASSERT_TRUE(P.Boxed);
  const Loop &I = P.Boxed->Loops[0];
  EXPECT_EQ(I.Step, 2);
  EXPECT_TRUE(I.Counted);
  EXPECT_EQ(I.Shift.str(), "1");
  // k's box starts at 2 (the source's k is k + 2): k + 2 >= (2 * i + 1) + 1.
  EXPECT_EQ(P.Boxed->Loops[2].Shift.str(), "2");
  EXPECT_EQ(texts(P.Idiom->A.Mask), (Strings{"M - 2 * i - 2", "-2 * i + k"}));
}

TEST(OperandMasksTest, TriangularOutput) {
  // SYRK-like: j up to i. Only the output is guarded.
  Placed P = place(product("  for (int i = 0; i < M; ++i)\n"
                           "    for (int j = 0; j <= i; ++j) {\n"
                           "      float acc = 0.0f;\n"
                           "      for (int k = 0; k < K; ++k)\n"
                           "        acc += __half2float(A[i * K + k]) * __half2float(B[j * K + k]);\n"
                           "      C[i * M + j] = acc;\n"
                           "    }\n"));
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_FALSE(P.Error) << P.Error->Message;
  EXPECT_EQ(P.Boxed->Loops[1].UpperExclusive.str(), "M");
  EXPECT_EQ(texts(P.Idiom->OutputGuard), Strings{"i - j"});
  EXPECT_TRUE(P.Idiom->A.Mask.empty());
  EXPECT_TRUE(P.Idiom->B.Mask.empty());
}

TEST(OperandMasksTest, GuardAroundTheBodyMasksUnreadRows) {
  // Rows i >= N have no j with i <= j < N: A's mask keeps them unread.
  Placed P = place(product("  for (int i = 0; i < M; ++i)\n"
                           "    for (int j = 0; j < N; ++j)\n"
                           "      if (i <= j) {\n"
                           "        float acc = 0.0f;\n"
                           "        for (int k = 0; k < K; ++k)\n"
                           "          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
                           "        C[i * N + j] = acc;\n"
                           "      }\n"));
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_FALSE(P.Error) << P.Error->Message;
  EXPECT_FALSE(P.Boxed);
  EXPECT_EQ(texts(P.Idiom->OutputGuard), Strings{"-i + j"});
  EXPECT_EQ(texts(P.Idiom->A.Mask), Strings{"N - i - 1"});
  EXPECT_TRUE(P.Idiom->SerialWhen.empty());
}

TEST(OperandMasksTest, ConjunctionMasksBothOperands) {
  Placed P = place(product("  for (int i = 0; i < M; ++i)\n"
                           "    for (int j = 0; j < N; ++j) {\n"
                           "      float acc = 0.0f;\n"
                           "      for (int k = 0; k <= i && k < K; ++k)\n"
                           "        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
                           "      C[i * N + j] = acc;\n"
                           "    }\n"));
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_FALSE(P.Error) << P.Error->Message;
  EXPECT_EQ(texts(P.Idiom->A.Mask), Strings{"i - k"});
  // B's rows k < M: beyond them no i reads B.
  EXPECT_EQ(texts(P.Idiom->B.Mask), Strings{"M - k - 1"});
  EXPECT_TRUE(P.Idiom->B.ConvertWhileCopying);
}

TEST(OperandMasksTest, MasksHoldForAnySizesNotOnlyTheRowAssumptions) {
  // Leading dimensions make the dependences assume rows apart (a union of
  // conditions on the sizes); the masks are one polyhedron regardless.
  Placed P = place("void gemm(unsigned long M, unsigned long N, unsigned long K, unsigned long ldb,\n"
                   "          unsigned long ldc,\n"
                   "          const __half *__restrict__ A, const __half *__restrict__ B,\n"
                   "          float *__restrict__ C) {\n"
                   "  for (unsigned long i = 0; i < M; ++i)\n"
                   "    for (unsigned long j = 0; j <= i && j < N; ++j) {\n"
                   "      float acc = 0.0f;\n"
                   "      for (unsigned long k = 0; k < K; ++k)\n"
                   "        acc += __half2float(A[i * K + k]) * __half2float(B[j * ldb + k]);\n"
                   "      C[i * ldc + j] = acc;\n"
                   "    }\n"
                   "}\n");
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_FALSE(P.Error) << P.Error->Message;
  EXPECT_EQ(texts(P.Idiom->B.Mask), Strings{"M - j - 1"});
  EXPECT_EQ(texts(P.Idiom->OutputGuard), Strings{"i - j"});
}

TEST(OperandMasksTest, RefusesAGuardOfRowColumnAndK) {
  Placed P = place(product("  for (int i = 0; i < M; ++i)\n"
                           "    for (int j = 0; j < N; ++j) {\n"
                           "      float acc = 0.0f;\n"
                           "      for (int k = 0; k < K; ++k)\n"
                           "        if (k < i + j)\n"
                           "          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
                           "      C[i * N + j] = acc;\n"
                           "    }\n"));
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_TRUE(P.Error);
  EXPECT_NE(P.Error->Message.find("relates the output row 'i', column 'j' and 'k'"),
            std::string::npos)
      << P.Error->Message;
}

TEST(OperandMasksTest, RefusesAReductionGuardedApartFromItsOutput) {
  Placed P = place(product("  for (int i = 0; i < M; ++i)\n"
                           "    for (int j = 0; j < N; ++j) {\n"
                           "      float acc = 0.0f;\n"
                           "      for (int k = 0; k < K; ++k)\n"
                           "        if (i <= j)\n"
                           "          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
                           "      C[i * N + j] = acc;\n"
                           "    }\n"));
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_TRUE(P.Error);
  EXPECT_NE(P.Error->Message.find("other output elements"), std::string::npos)
      << P.Error->Message;
}

TEST(DomainBoxTest, RefusesABoxWithPieces) {
  // k < min(i, K): its largest value over the region is min(M - 2, K - 1).
  Placed P = place(product("  for (int i = 0; i < M; ++i)\n"
                           "    for (int j = 0; j < N; ++j) {\n"
                           "      float acc = 0.0f;\n"
                           "      for (int k = 0; k < i; ++k)\n"
                           "        if (k < K)\n"
                           "          acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
                           "      C[i * N + j] = acc;\n"
                           "    }\n"));
  ASSERT_TRUE(P.E.ok()) << P.E.Error->Message;
  ASSERT_TRUE(P.Error);
  EXPECT_NE(P.Error->Message.find("not one affine function of the sizes"), std::string::npos)
      << P.Error->Message;
}

} // namespace
