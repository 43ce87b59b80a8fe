//===- MatmulIdiomTest.cpp - IslModel and recognizeMatmul -----------------===//
#include "../RegionTestUtil.h"
#include "gtest/gtest.h"

using namespace tc;
using namespace tc::test;

namespace {

/// A snippet extracted, modelled in isl and (maybe) recognised.
struct Recognized {
  OwnedIslCtx Isl; // first: destroyed after every isl object below
  Extracted E;
  std::optional<IslModel> I;
  std::optional<MatmulIdiom> Idiom;
  std::optional<ErrorInfo> Error;
};

Recognized recognize(const std::string &Snippet, const RegionClauses &Cl = {}) {
  Recognized R;
  R.E = extract(Snippet, "gemm", Cl);
  if (!R.E.ok())
    return R;
  R.I = IslModel::build(R.Isl.Ctx, *R.E.Model);
  auto Idiom = recognizeMatmul(*R.E.Model, *R.I);
  if (Idiom)
    R.Idiom = std::move(*Idiom);
  else
    R.Error = takeError(Idiom.takeError());
  return R;
}

/// Expects extraction to succeed and recognition to fail with a RegionError
/// containing `MessagePart`, on the line of the first `LineOf`.
void expectRejected(const std::string &Snippet, const std::string &MessagePart,
                    const std::string &LineOf) {
  Recognized R = recognize(Snippet);
  ASSERT_TRUE(R.E.ok()) << "extraction failed: " << R.E.Error->Message;
  ASSERT_FALSE(R.Idiom.has_value()) << "recognised as a matmul";
  ASSERT_TRUE(R.Error->IsRegionError) << R.Error->Message;
  EXPECT_NE(R.Error->Message.find(MessagePart), std::string::npos)
      << "message: " << R.Error->Message;
  unsigned Line = R.E.lineOf(LineOf);
  ASSERT_NE(Line, 0u) << "'" << LineOf << "' is not in the snippet";
  ASSERT_TRUE(R.Error->Loc.isValid());
  EXPECT_EQ(R.E.line(R.Error->Loc), Line) << "message: " << R.Error->Message;
}

// ----- IslModel of the canonical GEMM ----------------------------------------

class CanonicalIslModelTest : public ::testing::Test {
protected:
  void SetUp() override {
    E = extract(CanonicalGemm);
    ASSERT_TRUE(E.ok());
    I = IslModel::build(Ctx, *E.Model);
  }
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  Extracted E;
  IslModel I;
};

TEST_F(CanonicalIslModelTest, Domains) {
  ASSERT_EQ(I.Domain.size(), 3u);
  std::string D1 = islStr(I.Domain.at("S1"));
  EXPECT_NE(D1.find("0 <= k < K"), std::string::npos) << D1;
  EXPECT_NE(D1.find("S1[i, j, k]"), std::string::npos) << D1;
  EXPECT_TRUE(I.Domain.at("S1").is_equal(isl::set(
      Ctx, "[M, N, K] -> { S1[i, j, k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }")));
  EXPECT_TRUE(I.Domain.at("S0").is_equal(
      isl::set(Ctx, "[M, N, K] -> { S0[i, j] : 0 <= i < M and 0 <= j < N and K >= 0 }")));
  EXPECT_TRUE(I.Context.is_equal(
      isl::set(Ctx, "[M, N, K] -> { : M >= 0 and N >= 0 and K >= 0 }")));
}

TEST_F(CanonicalIslModelTest, Accesses) {
  EXPECT_TRUE(I.RawReads.at("S1")[0].is_equal(
      isl::map(Ctx, "[M, N, K] -> { S1[i, j, k] -> A[i, k] }")));
  EXPECT_TRUE(I.RawReads.at("S1")[1].is_equal(
      isl::map(Ctx, "[M, N, K] -> { S1[i, j, k] -> B[k, j] }")));
  // The restricted relations only hold for points of the domain.
  EXPECT_TRUE(I.Write.at("S2").is_equal(isl::map(
      Ctx, "[M, N, K] -> { S2[i, j] -> C[i, j] : 0 <= i < M and 0 <= j < N and K >= 0 }")));
  EXPECT_EQ(I.Reads.at("S1").size(), 3u);
}

TEST_F(CanonicalIslModelTest, FlowDependences) {
  EXPECT_FALSE(I.dependenceKinds().Flow.is_empty());
  EXPECT_FALSE(I.dependences().is_empty());
  // acc = 0 feeds the first k iteration (or the store when K = 0), each k
  // feeds the next, and the last feeds the store.
  isl::union_map Expected(
      Ctx, "[M, N, K] -> { "
           "S0[i, j] -> S1[i, j, 0] : 0 <= i < M and 0 <= j < N and K > 0; "
           "S1[i, j, k] -> S1[i, j, k + 1] : 0 <= i < M and 0 <= j < N and "
           "0 <= k < K - 1; "
           "S1[i, j, k] -> S2[i, j] : 0 <= i < M and 0 <= j < N and k = K - 1 and "
           "K > 0; "
           "S0[i, j] -> S2[i, j] : 0 <= i < M and 0 <= j < N and K = 0 }");
  EXPECT_TRUE(I.dependenceKinds().Flow.is_equal(Expected)) << islStr(I.dependenceKinds().Flow);
  // Nothing is written twice except acc: S0 then every S1 of the element.
  isl::union_map OutputSuperset(
      Ctx, "[M, N, K] -> { S0[i, j] -> S1[i, j, k]; S1[i, j, k] -> S1[i, j, k2] : "
           "k2 > k }");
  EXPECT_TRUE(I.dependenceKinds().Output.is_subset(OutputSuperset)) << islStr(I.dependenceKinds().Output);
  EXPECT_FALSE(I.dependenceKinds().Output.is_empty());
}

TEST_F(CanonicalIslModelTest, ExplainMentionsEveryStatement) {
  std::string S = explainModel(*E.Model, I);
  EXPECT_NE(S.find("S0: 0.0f"), std::string::npos) << S;
  EXPECT_NE(S.find("S1: add(R2, mul(__half2float(R0), __half2float(R1)))"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("array A: __half, strides [K, 1]"), std::string::npos) << S;
  EXPECT_NE(S.find("flow dependences:"), std::string::npos) << S;
}

// ----- recognition ----------------------------------------------------------------

TEST(MatmulIdiomTest, CanonicalGemm) {
  Recognized R = recognize(CanonicalGemm);
  ASSERT_TRUE(R.Idiom.has_value()) << R.Error->Message;
  const RegionModel &M = *R.E.Model;
  const MatmulIdiom &Id = *R.Idiom;
  EXPECT_EQ(Id.IterM, "i");
  EXPECT_EQ(Id.IterN, "j");
  EXPECT_EQ(Id.IterK, "k");
  EXPECT_EQ(Id.ExtentM.str(), "M");
  EXPECT_EQ(Id.ExtentN.str(), "N");
  EXPECT_EQ(Id.ExtentK.str(), "K");
  EXPECT_EQ(Id.Reduction, 1u);
  ASSERT_TRUE(Id.Init.has_value());
  EXPECT_EQ(*Id.Init, 0u);
  EXPECT_EQ(Id.Epilogue, (std::vector<unsigned>{2}));
  EXPECT_EQ(int(Id.Accumulator), M.findArray("acc"));
  EXPECT_EQ(Id.InputType, ElementType::F16);
  EXPECT_TRUE(Id.Scale.empty());

  EXPECT_EQ(int(Id.A.ArrayId), M.findArray("A"));
  EXPECT_EQ(Id.A.AccessId, 0u);
  EXPECT_TRUE(Id.A.ReductionIsContiguous); // A[i][k]: row-major
  EXPECT_EQ(Id.A.LeadingDim.str(), "K");
  EXPECT_EQ(int(Id.B.ArrayId), M.findArray("B"));
  EXPECT_EQ(Id.B.AccessId, 1u);
  EXPECT_FALSE(Id.B.ReductionIsContiguous); // B[k][j]: row-major
  EXPECT_EQ(Id.B.LeadingDim.str(), "N");

  std::string D = Id.describe(M);
  EXPECT_NE(D.find("matmul over (i, j) reducing k: M = M, N = N, K = K"),
            std::string::npos)
      << D;
  EXPECT_NE(D.find("A = A (row-major, leading dimension K)"), std::string::npos) << D;
  EXPECT_NE(D.find("B = B (row-major, leading dimension N)"), std::string::npos) << D;
  EXPECT_NE(D.find("reduction S1, initialisation S0, epilogue S2"), std::string::npos)
      << D;
}

TEST(MatmulIdiomTest, PolyBenchIkjOrderWithScale) {
  // PolyBench's gemm: C *= beta, then C += alpha * A * B in i-k-j order.
  // (The second j loop is named jj: the extractor rejects sibling loops
  // that reuse an iterator name, see ExtractionTest.)
  Recognized R = recognize(
      "void gemm(int M, int N, int K, float alpha, float beta,\n"
      "          const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {\n"
      "  for (int i = 0; i < M; i++) {\n"
      "    for (int j = 0; j < N; j++)\n"
      "      C[i * N + j] *= beta;\n"
      "    for (int k = 0; k < K; k++)\n"
      "      for (int jj = 0; jj < N; jj++)\n"
      "        C[i * N + jj] += alpha * A[i * K + k] * B[k * N + jj];\n"
      "  }\n"
      "}\n");
  ASSERT_TRUE(R.Idiom.has_value()) << (R.Error ? R.Error->Message : R.E.Error->Message);
  const RegionModel &M = *R.E.Model;
  const MatmulIdiom &Id = *R.Idiom;
  EXPECT_EQ(Id.IterM, "i");
  EXPECT_EQ(Id.IterN, "jj");
  EXPECT_EQ(Id.IterK, "k");
  EXPECT_EQ(Id.Reduction, 1u);
  ASSERT_TRUE(Id.Init.has_value());
  EXPECT_EQ(*Id.Init, 0u);
  EXPECT_TRUE(Id.Epilogue.empty());
  EXPECT_EQ(int(Id.Accumulator), M.findArray("C"));
  ASSERT_EQ(Id.Scale.size(), 1u);
  EXPECT_EQ(Id.Scale[0]->K, ExprNode::Scalar);
  EXPECT_EQ(Id.Scale[0]->Text, "alpha");
  EXPECT_TRUE(Id.A.ReductionIsContiguous);
  EXPECT_FALSE(Id.B.ReductionIsContiguous);
}

TEST(MatmulIdiomTest, ColumnMajorA) {
  Recognized R = recognize(
      "void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float acc = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        acc += __half2float(A[k * M + i]) * __half2float(B[j * K + k]);\n"
      "      C[i * N + j] = acc;\n"
      "    }\n"
      "}\n");
  ASSERT_TRUE(R.Idiom.has_value()) << (R.Error ? R.Error->Message : R.E.Error->Message);
  const MatmulIdiom &Id = *R.Idiom;
  EXPECT_FALSE(Id.A.ReductionIsContiguous); // A[k][i]: column-major
  EXPECT_EQ(Id.A.LeadingDim.str(), "M");
  EXPECT_TRUE(Id.B.ReductionIsContiguous); // B[j][k]: column-major
  EXPECT_EQ(Id.B.LeadingDim.str(), "K");
  std::string D = Id.describe(*R.E.Model);
  EXPECT_NE(D.find("A = A (column-major, leading dimension M)"), std::string::npos) << D;
  EXPECT_NE(D.find("B = B (column-major, leading dimension K)"), std::string::npos) << D;
}

TEST(MatmulIdiomTest, OperandsFoundWhateverTheirOrderInTheProduct) {
  // B * A: the operand indexed by the outer output iterator is A.
  Recognized R = recognize(
      "void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      C[i * N + j] = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * N + j] += float(B[k * N + j]) * float(A[i * K + k]);\n"
      "    }\n"
      "}\n");
  ASSERT_TRUE(R.Idiom.has_value()) << (R.Error ? R.Error->Message : R.E.Error->Message);
  const RegionModel &M = *R.E.Model;
  EXPECT_EQ(int(R.Idiom->A.ArrayId), M.findArray("A"));
  EXPECT_EQ(int(R.Idiom->B.ArrayId), M.findArray("B"));
  EXPECT_EQ(R.Idiom->IterM, "i");
  EXPECT_EQ(R.Idiom->IterN, "j");
}

TEST(MatmulIdiomTest, BatchLoopAroundTheGemm) {
  Recognized R = recognize(
      "void gemm(int Bt, int M, int N, int K, const __half *__restrict__ A,\n"
      "          const __half *__restrict__ B, __half *__restrict__ C) {\n"
      "  for (int b = 0; b < Bt; ++b)\n"
      "    for (int i = 0; i < M; ++i)\n"
      "      for (int j = 0; j < N; ++j) {\n"
      "        float acc = 0.0f;\n"
      "        for (int k = 0; k < K; ++k)\n"
      "          acc += __half2float(A[(b * M + i) * K + k]) *\n"
      "                 __half2float(B[(b * K + k) * N + j]);\n"
      "        C[(b * M + i) * N + j] = __float2half(acc);\n"
      "      }\n"
      "}\n");
  ASSERT_TRUE(R.Idiom.has_value()) << (R.Error ? R.Error->Message : R.E.Error->Message);
  const MatmulIdiom &Id = *R.Idiom;
  EXPECT_EQ(Id.IterBatch, "b");
  EXPECT_EQ(Id.ExtentBatch.str(), "Bt");
  EXPECT_EQ(Id.IterM, "i");
  EXPECT_EQ(Id.IterN, "j");
  EXPECT_EQ(Id.IterK, "k");
  EXPECT_TRUE(Id.A.ReductionIsContiguous);
  EXPECT_EQ(Id.A.LeadingDim.str(), "K");
  EXPECT_EQ(Id.A.BatchStride.str(), "K * M");
  EXPECT_FALSE(Id.B.ReductionIsContiguous);
  EXPECT_EQ(Id.B.LeadingDim.str(), "N");
  EXPECT_EQ(Id.B.BatchStride.str(), "K * N");
}

TEST(MatmulIdiomTest, ReadOfAccumulatorAtAnotherElementInReduction) {
  // The accumulator's neighbour is added inside the reduction: the second
  // summand is not a product of two operands.
  expectRejected(
      "void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j)\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * N + j] += float(A[i * K + k]) * float(B[k * N + j]) + C[(i + 1) * N + j];\n"
      "}\n",
      "is not a pointwise function of one array element", "C[i * N + j] +=");
}

TEST(MatmulIdiomTest, EpilogueReadsAccumulatorAtAnotherElement) {
  expectRejected(
      "void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,\n"
      "          float *__restrict__ D) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      C[i * N + j] = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * N + j] += float(A[i * K + k]) * float(B[k * N + j]);\n"
      "      D[i * N + j] = C[(i + 1) * N + j];\n"
      "    }\n"
      "}\n",
      "does not cover the same elements", "D[i * N + j] =");
}

TEST(MatmulIdiomTest, DependenceAcrossOutputElements) {
  // The store reads D at the previous row: a flow dependence between
  // different (i, j), which forbids computing the elements in parallel.
  expectRejected(
      "void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ D) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float acc = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
      "      D[i * N + j] = acc + D[(i - 1) * N + j];\n"
      "    }\n"
      "}\n",
      "a dependence crosses output elements", "D[i * N + j] =");
}

TEST(MatmulIdiomTest, ThreeOperandProduct) {
  expectRejected(
      "void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B,\n"
      "          const __half *__restrict__ E, float *__restrict__ C) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float acc = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]) *\n"
      "               __half2float(E[k]);\n"
      "      C[i * N + j] = acc;\n"
      "    }\n"
      "}\n",
      "multiplies 3 operands that depend on 'k'", "acc +=");
}

TEST(MatmulIdiomTest, Fp32OperandsNeedTf32) {
  expectRejected(
      "void gemm(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float acc = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        acc += A[i * K + k] * B[k * N + j];\n"
      "      C[i * N + j] = acc;\n"
      "    }\n"
      "}\n",
      "operand 'A' is fp32", "acc +=");
}

TEST(MatmulIdiomTest, NoReduction) {
  expectRejected("void gemm(int M, int N, float *__restrict__ C) {\n"
                 "  for (int i = 0; i < M; ++i)\n"
                 "    for (int j = 0; j < N; ++j)\n"
                 "      C[i * N + j] += 1.0f;\n"
                 "}\n",
                 "no matrix multiplication found", "for (int i");
}

TEST(MatmulIdiomTest, AccumulatorNeverStored) {
  expectRejected(
      "void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float acc = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
      "    }\n"
      "}\n",
      "is never stored", "float acc");
}

TEST(MatmulIdiomTest, UnrelatedStatement) {
  expectRejected(
      "void gemm(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,\n"
      "          float *__restrict__ D) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      D[i * N + j] = 1.0f;\n"
      "      C[i * N + j] = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * N + j] += float(A[i * K + k]) * float(B[k * N + j]);\n"
      "    }\n"
      "}\n",
      "statement is not part of the matmul", "D[i * N + j] = 1.0f");
}

TEST(MatmulIdiomTest, OutputMayAliasOperandsIsTestedAtRunTime) {
  // Without __restrict__ the output may overlap an operand: the launcher
  // tests C against A and B (each pair once), not the two inputs.
  Recognized R = recognize(
      "void gemm(int M, int N, int K, const __half *A, const __half *B,\n"
      "          float *C) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      C[i * N + j] = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * N + j] += float(A[i * K + k]) * float(B[k * N + j]);\n"
      "    }\n"
      "}\n");
  ASSERT_TRUE(R.Idiom.has_value()) << (R.Error ? R.Error->Message : "");
  const RegionModel &M = *R.E.Model;
  std::vector<std::pair<std::string, std::string>> Pairs;
  for (const AliasPair &P : R.Idiom->MayAlias)
    Pairs.emplace_back(M.Arrays[P.Written].Name, M.Arrays[P.Other].Name);
  using Pair = std::pair<std::string, std::string>;
  EXPECT_EQ(Pairs, (std::vector<Pair>{{"C", "A"}, {"C", "B"}}));
}

TEST(MatmulIdiomTest, RestrictOnOneSideRemovesTheTest) {
  Recognized R = recognize(
      "void gemm(int M, int N, int K, const __half *A, const __half *B,\n"
      "          float *__restrict__ C) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      C[i * N + j] = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * N + j] += float(A[i * K + k]) * float(B[k * N + j]);\n"
      "    }\n"
      "}\n");
  ASSERT_TRUE(R.Idiom.has_value()) << (R.Error ? R.Error->Message : "");
  EXPECT_TRUE(R.Idiom->MayAlias.empty());
}

TEST(MatmulIdiomTest, ValueReadPastAStoreCannotBeTested) {
  // `a` reads A where it is used, after the store to C: equal to the
  // source only if C and A do not overlap, which is what would be tested.
  expectRejected(
      "void gemm(int M, int N, int K, const __half *A, const __half *B,\n"
      "          float *C, float *D) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float a = float(A[i * K]);\n"
      "      C[i * N + j] = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * N + j] += float(A[i * K + k]) * float(B[k * N + j]);\n"
      "      D[i * N + j] = C[i * N + j] + a;\n"
      "    }\n"
      "}\n",
      "output 'C' may alias 'A'", "float *C");
}

TEST(MatmulIdiomTest, DependenceThroughFlippedRowOfStaticArray) {
  // D is read at the mirrored column and written by the store: iteration
  // (i, j) reads what iteration (i, N - 1 - j) stores, across elements.
  expectRejected(
      "void gemm(int M, int N, int K, const __half *__restrict__ A,\n"
      "          const __half *__restrict__ B, float *__restrict__ C,\n"
      "          float (*__restrict__ D)[64]) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      C[i * N + j] = D[i][N - 1 - j];\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * N + j] += float(A[i * K + k]) * float(B[k * N + j]);\n"
      "      D[i][j] = C[i * N + j];\n"
      "    }\n"
      "}\n",
      "a dependence crosses output elements", "C[i * N + j] = D");
}

// BUG (delinearize, model/Affine.cpp): the same region with D as a
// linearised pointer is accepted. `D[i * N + (N - 1 - j)]` is grouped by the
// parameter part of each term into D[i + 1, -j - 1] (the `N` term lands in
// the row dimension), while the store is D[i, j]. isl then sees two
// disjoint cells and finds no dependence, although both name the same
// memory (i*N + N-1-j): iteration (i, j) reads what (i, N-1-j) stored
// earlier. The parallel kernel would read the old value instead. Nothing
// checks that a delinearised inner index stays within [0, stride).
// D[i * N + (j - 1)] is D[i][j - 1], whose column -1 (j = 0) is the last
// of row i - 1: the same memory as the store D[i * N + j] of another
// iteration. rowAssumptions rejects the subscript that leaves its row, so
// the missed dependence cannot mislead. (A mirrored D[i * N + (N - 1 - j)]
// delinearises into its row, DelinearizeTest.MirroredColumnStaysInItsRow.)
TEST(MatmulIdiomTest, SubscriptLeavingItsRowIsRejected) {
  Extracted E = extract(
      "void gemm(int M, int N, int K, const __half *__restrict__ A,\n"
      "          const __half *__restrict__ B, float *__restrict__ C,\n"
      "          float *__restrict__ D) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      C[i * N + j] = D[i * N + (j - 1)];\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * N + j] += float(A[i * K + k]) * float(B[k * N + j]);\n"
      "      D[i * N + j] = C[i * N + j];\n"
      "    }\n"
      "}\n");
  ASSERT_TRUE(E.ok());
  OwnedIslCtx Isl;
  auto Assumed = rowAssumptions(Isl.Ctx, *E.Model);
  ASSERT_FALSE(bool(Assumed));
  std::string Message;
  clang::SourceLocation Loc;
  llvm::handleAllErrors(Assumed.takeError(), [&](const RegionError &Err) {
    Message = Err.Message;
    Loc = Err.Loc;
  });
  EXPECT_NE(Message.find("leaves the row"), std::string::npos) << Message;
  EXPECT_EQ(E.line(Loc), E.lineOf("C[i * N + j] = D"));
}

// C[i * ldc + j] is only C's element (i, j) when N <= ldc: an assumption.
/// An int8 weight's prologue and the offset it subtracts (OperandView::Offset).
std::string weightOffset(const std::string &ZeroType, const std::string &Factor) {
  Recognized R = recognize(
      "#include <cstdint>\n"
      "void gemm(int M, int N, int K, const __half *__restrict__ X,\n"
      "          const int8_t *__restrict__ W, const " + ZeroType + " *__restrict__ zero,\n"
      "          float *__restrict__ Y) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float acc = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        acc += __half2float(X[i * K + k]) * (" + Factor + ");\n"
      "      Y[i * N + j] = acc;\n"
      "    }\n"
      "}\n");
  if (!R.E.ok())
    return "not extracted: " + R.E.Error->Message;
  if (!R.Idiom)
    return "rejected: " + R.Error->Message;
  const OperandView &B = R.Idiom->B;
  if (!B.EightBit)
    return "not 8-bit";
  if (!B.Offset)
    return "none";
  if (!B.Offset->Value)
    return "0";
  return std::string(B.Offset->Added ? "-" : "") + describe(*B.Offset->Value);
}

TEST(MatmulIdiomTest, EightBitOperandMinusAnOffset) {
  // Floating-point arithmetic: the element is converted, or z is fp32.
  EXPECT_EQ(weightOffset("float", "((float)W[j * K + k] - zero[j]) * 0.5f"), "R2");
  EXPECT_EQ(weightOffset("float", "W[j * K + k] - zero[j]"), "R2");
  EXPECT_EQ(weightOffset("float", "zero[j] + (float)W[j * K + k]"), "-R1");
  EXPECT_EQ(weightOffset("float", "(float)W[j * K + k] - 3.0f"), "3.0f");
  EXPECT_EQ(weightOffset("float", "(float)W[j * K + k] * zero[j]"), "0");
  // int on 8-bit values: the promotion cannot wrap.
  EXPECT_EQ(weightOffset("uint8_t", "(float)(W[j * K + k] - zero[j])"), "cvt<int>(R2)");
  // An unsigned zero point wraps W - z modulo 2^32 before the conversion.
  EXPECT_EQ(weightOffset("unsigned", "(float)(W[j * K + k] - zero[j])"), "none");
  // Not the element minus something.
  EXPECT_EQ(weightOffset("float", "zero[j] - (float)W[j * K + k]"), "none");
  EXPECT_EQ(weightOffset("float", "(float)W[j * K + k] / zero[j]"), "none");
  EXPECT_EQ(weightOffset("float", "-((float)W[j * K + k] - zero[j])"), "none");
}

TEST(MatmulIdiomTest, LeadingDimensionOfOutputIsAnAssumption) {
  Extracted E = extract(
      "void gemm(int M, int N, int K, int ldc, const __half *__restrict__ A,\n"
      "          const __half *__restrict__ B, float *__restrict__ C) {\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j)\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        C[i * ldc + j] += float(A[i * K + k]) * float(B[k * N + j]);\n"
      "}\n");
  ASSERT_TRUE(E.ok());
  OwnedIslCtx Isl;
  auto Assumed = rowAssumptions(Isl.Ctx, *E.Model);
  ASSERT_TRUE(bool(Assumed));
  isl::set Expected(Isl.Ctx, "[M, N, K, ldc] -> { : M >= 0 and N >= 0 and K >= 0 and "
                             "ldc >= 0 and (ldc >= N or M = 0 or K = 0) }");
  EXPECT_TRUE(Assumed->is_equal(Expected)) << islStr(*Assumed);
}

} // namespace

// ----- Prologues at the zero padding ------------------------------------------

/// Whether A's prologue `Factor` (over the element `A[i * K + k]`, of type
/// Elem) is applied by the copier because it is not known to be finite at 0.
std::string prologueAtZero(const std::string &Elem, const std::string &Factor) {
  RegionClauses Cl;
  Cl.AllowTf32 = true;
  Recognized R = recognize(
      "struct __nv_bfloat16 { __nv_bfloat16(float); operator float() const; };\n"
      "float fmaxf(float, float); float expf(float); float tanhf(float);\n"
      "float logf(float); float rsqrtf(float); float powf(float, float);\n"
      "void gemm(int M, int N, int K, const " + Elem + " *__restrict__ A,\n"
      "          const " + Elem + " *__restrict__ B, float *__restrict__ C) {\n"
      "#pragma tc\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float acc = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        acc += " + Factor + " * (float)B[k * N + j];\n"
      "      C[i * N + j] = acc;\n"
      "    }\n"
      "}\n",
      Cl);
  if (!R.E.ok())
    return "extraction failed: " + R.E.Error->Message;
  if (!R.Idiom)
    return "rejected: " + R.Error->Message;
  const OperandView &A = R.Idiom->A;
  if (A.Prologue.empty())
    return "no prologue";
  if (A.PrologueNotFiniteAtZero)
    return A.ConvertWhileCopying ? "copier" : "flagged, not copied";
  return A.ConvertWhileCopying ? "copied for another reason" : "tiles";
}

TEST(MatmulIdiomTest, PrologueNotFiniteAtZeroIsAppliedByTheCopier) {
  const std::string A = "(float)A[i * K + k]";
  // Finite at 0: applied to the landed tiles or fragments.
  EXPECT_EQ(prologueAtZero("__half", "fmaxf(" + A + ", 0.0f)"), "tiles");
  EXPECT_EQ(prologueAtZero("__half", "expf(" + A + ")"), "tiles");
  EXPECT_EQ(prologueAtZero("__half", "(" + A + " > 0.0f ? " + A + " : 0.01f * " + A + ")"),
            "tiles");
  EXPECT_EQ(prologueAtZero("__half", "tanhf(" + A + ") / (1.0f + " + A + " * " + A + ")"),
            "tiles");
  // Only the branch taken at 0 counts.
  EXPECT_EQ(prologueAtZero("__half", "(" + A + " != 0.0f ? 1.0f / " + A + " : 0.0f)"), "tiles");
  // Infinite or NaN at 0.
  EXPECT_EQ(prologueAtZero("__half", "1.0f / " + A), "copier");
  EXPECT_EQ(prologueAtZero("__half", "logf(" + A + ")"), "copier");
  EXPECT_EQ(prologueAtZero("__half", "rsqrtf(" + A + ")"), "copier");
  EXPECT_EQ(prologueAtZero("__half", "powf(" + A + ", -1.0f)"), "copier");
  EXPECT_EQ(prologueAtZero("__half", "(" + A + " / " + A + ")"), "copier");
  EXPECT_EQ(prologueAtZero("__half", "(" + A + " == 0.0f ? 1.0f / " + A + " : 0.0f)"), "copier");
  // Finite in float, but not once stored in the 16-bit stage: 1e5 is
  // beyond fp16's 65504, within bf16's range; expf(100) overflows float.
  EXPECT_EQ(prologueAtZero("__half", "(" + A + " + 1.0e5f)"), "copier");
  EXPECT_EQ(prologueAtZero("__nv_bfloat16", "(" + A + " + 1.0e5f)"), "tiles");
  EXPECT_EQ(prologueAtZero("__nv_bfloat16", "expf(" + A + " + 100.0f) * 0.0f"), "copier");
  // Integer arithmetic truncates: 1 / 2 is 0, so this is 1 / 0 at 0.
  EXPECT_EQ(prologueAtZero("__half", "1.0f / (" + A + " + 1 / 2)"), "copier");
  EXPECT_EQ(prologueAtZero("__half", "1.0f / (" + A + " + 3 / 2)"), "tiles");
  // Conversions of floats to integers saturate or wrap: not modelled.
  EXPECT_EQ(prologueAtZero("__half", "(float)(unsigned)(" + A + " - 1.0f)"), "copier");
  // A denormal flushed to zero (--use_fast_math) leaves logf(0).
  EXPECT_EQ(prologueAtZero("__half", "logf(" + A + " + 1.0e-40f)"), "copier");
  // Computed in double, 1e-50 is not 0, and 1 / 1e-50 overflows float.
  EXPECT_EQ(prologueAtZero("__half", "(float)((double)" + A + " + 1e-50 == 0.0 ? 0.0 : "
                                     "1.0 / ((double)" + A + " + 1e-50))"),
            "copier");
  // Unsigned arithmetic wraps (0u - 1u > 0u is true): not modelled.
  EXPECT_EQ(prologueAtZero("__half", "1.0f / (" + A + " + (0u - 1u > 0u ? 0.0f : 1.0f))"),
            "copier");
  // An integer zero is +0: -1 / 2 is 0, not -0, so this is expf(1 / +0).
  EXPECT_EQ(prologueAtZero("__half", "expf(1.0f / ((float)(-1 / 2) - " + A + "))"), "copier");
  // fp32 operands (tf32) keep float's range, less what rounding to tf32
  // carries to inf.
  EXPECT_EQ(prologueAtZero("float", "4.0f / (" + A + " + 1.1756e-38f)"), "copier");
  EXPECT_EQ(prologueAtZero("float", "(" + A + " + 1.0e5f)"), "tiles");
  EXPECT_EQ(prologueAtZero("float", "1.0f / " + A), "copier");
}
