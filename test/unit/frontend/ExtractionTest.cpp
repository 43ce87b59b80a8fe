//===- ExtractionTest.cpp - Clang AST of a region -> RegionModel ----------===//
#include "../RegionTestUtil.h"
#include "gtest/gtest.h"

using namespace tc;
using namespace tc::test;

namespace {

std::vector<std::string> names(const std::vector<Parameter> &Ps) {
  std::vector<std::string> R;
  for (auto &P : Ps)
    R.push_back(P.Name);
  return R;
}

/// Extracts `Snippet` and expects a RegionError whose message contains
/// `MessagePart`, located on the line of the first occurrence of `LineOf`.
void expectError(const std::string &Snippet, const std::string &MessagePart,
                 const std::string &LineOf) {
  Extracted E = extract(Snippet);
  ASSERT_TRUE(E.AST) << "snippet does not parse";
  ASSERT_TRUE(E.Region) << "no for loop in the snippet";
  ASSERT_FALSE(E.ok()) << "extraction unexpectedly succeeded";
  ASSERT_TRUE(E.Error->IsRegionError) << E.Error->Message;
  EXPECT_NE(E.Error->Message.find(MessagePart), std::string::npos)
      << "message: " << E.Error->Message;
  ASSERT_TRUE(E.Error->Loc.isValid());
  unsigned Expected = E.lineOf(LineOf);
  ASSERT_NE(Expected, 0u) << "'" << LineOf << "' is not in the snippet";
  EXPECT_EQ(E.line(E.Error->Loc), Expected) << "message: " << E.Error->Message;
}

// ----- the canonical GEMM ----------------------------------------------------

class CanonicalGemmTest : public ::testing::Test {
protected:
  void SetUp() override {
    E = extract(CanonicalGemm);
    ASSERT_TRUE(E.AST);
    ASSERT_TRUE(E.ok()) << (E.Error ? E.Error->Message : "no region");
  }
  const RegionModel &M() const { return *E.Model; }
  Extracted E;
};

TEST_F(CanonicalGemmTest, FunctionAndRange) {
  EXPECT_EQ(M().FunctionName, "gemm");
  EXPECT_EQ(E.line(M().Range.getBegin()), E.lineOf("for (int i"));
  EXPECT_EQ(E.line(M().Range.getEnd()), E.lineOf("    }\n}"));
}

TEST_F(CanonicalGemmTest, LoopsAndIterators) {
  ASSERT_EQ(M().Loops.size(), 3u);
  const char *Its[] = {"i", "j", "k"};
  const char *Upper[] = {"M", "N", "K"};
  for (unsigned L = 0; L < 3; ++L) {
    SCOPED_TRACE(Its[L]);
    EXPECT_EQ(M().Loops[L].Iterator, Its[L]);
    EXPECT_EQ(M().Loops[L].TypeSpelling, "int");
    EXPECT_TRUE(M().Loops[L].Lower.isConstant());
    EXPECT_EQ(M().Loops[L].Lower.Constant, 0);
    EXPECT_EQ(M().Loops[L].UpperExclusive.str(), Upper[L]);
  }
  EXPECT_EQ(E.line(M().Loops[2].Range.getBegin()), E.lineOf("for (int k"));
}

TEST_F(CanonicalGemmTest, Parameters) {
  // In order of first use: the loop bounds M, N, K.
  EXPECT_EQ(names(M().Params), (std::vector<std::string>{"M", "N", "K"}));
  for (auto &P : M().Params) {
    EXPECT_EQ(P.TypeSpelling, "int");
    EXPECT_FALSE(P.Value.has_value());
    EXPECT_TRUE(P.IsKernelArgument);
  }
  EXPECT_EQ(M().paramList(), "[M, N, K]");
  EXPECT_TRUE(M().Scalars.empty());
}

TEST_F(CanonicalGemmTest, Arrays) {
  ASSERT_EQ(M().Arrays.size(), 4u);
  // The accumulator is declared first, then A and B are read, then C written.
  int Acc = M().findArray("acc"), A = M().findArray("A"), B = M().findArray("B"),
      C = M().findArray("C");
  ASSERT_GE(Acc, 0);
  ASSERT_GE(A, 0);
  ASSERT_GE(B, 0);
  ASSERT_GE(C, 0);
  EXPECT_EQ(M().findArray("D"), -1);

  const Array &AccA = M().Arrays[Acc];
  EXPECT_TRUE(AccA.IsLocalScalar);
  EXPECT_EQ(AccA.Elem, ElementType::F32);
  EXPECT_EQ(AccA.ElemSpelling, "float");
  EXPECT_EQ(AccA.rank(), 2u); // expanded over loops i and j
  EXPECT_EQ(E.line(AccA.DeclLoc), E.lineOf("float acc"));

  // The record named __half is classified as fp16.
  const Array &AA = M().Arrays[A];
  EXPECT_EQ(AA.Elem, ElementType::F16);
  EXPECT_EQ(AA.ElemSpelling, "__half");
  EXPECT_STREQ(spelling(AA.Elem), "__half");
  EXPECT_TRUE(AA.IsConst);
  EXPECT_TRUE(AA.IsRestrict);
  EXPECT_FALSE(AA.IsLocalScalar);
  EXPECT_FALSE(AA.IsStaticShape);
  ASSERT_EQ(AA.rank(), 2u);
  EXPECT_EQ(AA.Strides[0].str(), "K");
  EXPECT_EQ(AA.Strides[1].str(), "1");

  const Array &BA = M().Arrays[B];
  EXPECT_EQ(BA.Elem, ElementType::F16);
  ASSERT_EQ(BA.rank(), 2u);
  EXPECT_EQ(BA.Strides[0].str(), "N");
  EXPECT_EQ(BA.Strides[1].str(), "1");

  const Array &CA = M().Arrays[C];
  EXPECT_EQ(CA.Elem, ElementType::F16);
  EXPECT_FALSE(CA.IsConst);
  ASSERT_EQ(CA.rank(), 2u);
  EXPECT_EQ(CA.Strides[0].str(), "N");
}

TEST_F(CanonicalGemmTest, StatementsAndPositions) {
  ASSERT_EQ(M().Stmts.size(), 3u);
  const Statement &S0 = M().Stmts[0], &S1 = M().Stmts[1], &S2 = M().Stmts[2];
  EXPECT_EQ(S0.Name, "S0");
  EXPECT_EQ(S1.Name, "S1");
  EXPECT_EQ(S2.Name, "S2");

  EXPECT_EQ(S0.Loops, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(S1.Loops, (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(S2.Loops, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(M().iterators(S1), (std::vector<std::string>{"i", "j", "k"}));

  // Textual order inside the j loop: acc = 0 (1st), the k loop (2nd), the
  // store (3rd); the reduction is the 1st statement of the k loop.
  EXPECT_EQ(S0.Position, (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(S1.Position, (std::vector<int>{1, 1, 2, 1}));
  EXPECT_EQ(S2.Position, (std::vector<int>{1, 1, 3}));

  EXPECT_EQ(E.line(S0.Range.getBegin()), E.lineOf("float acc"));
  EXPECT_EQ(E.line(S1.Range.getBegin()), E.lineOf("acc +="));
  EXPECT_EQ(E.line(S2.Range.getBegin()), E.lineOf("C[i * N + j] ="));
}

TEST_F(CanonicalGemmTest, AccessesAndValues) {
  const Statement &S0 = M().Stmts[0], &S1 = M().Stmts[1], &S2 = M().Stmts[2];
  int Acc = M().findArray("acc");
  // S0: acc = 0.0f.
  EXPECT_EQ(int(S0.Write.ArrayId), Acc);
  EXPECT_TRUE(S0.Reads.empty());
  ASSERT_TRUE(S0.Value);
  EXPECT_EQ(S0.Value->K, ExprNode::Literal);
  EXPECT_EQ(S0.Value->Text, "0.0f");
  EXPECT_TRUE(S0.Value->IsPositiveZero);

  // S1: acc += cvt(A) * cvt(B): the old value is a read of the write.
  EXPECT_EQ(int(S1.Write.ArrayId), Acc);
  ASSERT_EQ(S1.Reads.size(), 3u);
  EXPECT_EQ(int(S1.Reads[0].ArrayId), M().findArray("A"));
  EXPECT_EQ(int(S1.Reads[1].ArrayId), M().findArray("B"));
  EXPECT_EQ(int(S1.Reads[2].ArrayId), Acc);
  EXPECT_EQ(describe(*S1.Value),
            "add(R2, mul(__half2float(R0), __half2float(R1)))");

  // S2: C = __float2half(acc).
  EXPECT_EQ(int(S2.Write.ArrayId), M().findArray("C"));
  ASSERT_EQ(S2.Reads.size(), 1u);
  EXPECT_EQ(int(S2.Reads[0].ArrayId), Acc);
  EXPECT_EQ(describe(*S2.Value), "__float2half(R0)");
}

TEST_F(CanonicalGemmTest, DomainStrings) {
  const Statement &S0 = M().Stmts[0], &S1 = M().Stmts[1];
  EXPECT_EQ(domainText(M(), S0),
            "[M, N, K] -> { S0[i, j] : 0 <= i < M and 0 <= j < N }");
  EXPECT_EQ(domainText(M(), S1),
            "[M, N, K] -> { S1[i, j, k] : 0 <= i < M and 0 <= j < N and "
            "0 <= k < K }");
  EXPECT_EQ(contextText(M()), "[M, N, K] -> {  : M >= 0 and N >= 0 and K >= 0 }");
}

TEST_F(CanonicalGemmTest, AccessStrings) {
  const Statement &S0 = M().Stmts[0], &S1 = M().Stmts[1], &S2 = M().Stmts[2];
  EXPECT_EQ(accessText(M(), S0, S0.Write), "[M, N, K] -> { S0[i, j] -> acc[i, j] }");
  EXPECT_EQ(accessText(M(), S1, S1.Write),
            "[M, N, K] -> { S1[i, j, k] -> acc[i, j] }");
  EXPECT_EQ(accessText(M(), S1, S1.Reads[0]),
            "[M, N, K] -> { S1[i, j, k] -> A[i, k] }");
  EXPECT_EQ(accessText(M(), S1, S1.Reads[1]),
            "[M, N, K] -> { S1[i, j, k] -> B[k, j] }");
  EXPECT_EQ(accessText(M(), S2, S2.Write), "[M, N, K] -> { S2[i, j] -> C[i, j] }");
}

TEST_F(CanonicalGemmTest, ScheduleStrings) {
  const Statement &S0 = M().Stmts[0], &S1 = M().Stmts[1];
  EXPECT_EQ(scheduleText(M(), S1, 4),
            "[M, N, K] -> { S1[i, j, k] -> [1, i, 1, j, 2, k, 1] }");
  EXPECT_EQ(scheduleText(M(), S0, 4),
            "[M, N, K] -> { S0[i, j] -> [1, i, 1, j, 1, 0, 0] }");
}

// ----- other shapes ------------------------------------------------------------

TEST(ExtractionTest, ClausesAreCopied) {
  RegionClauses Cl;
  Cl.Tile = std::vector<int>{64, 64, 32};
  Cl.Sync = true;
  Extracted E = extract(CanonicalGemm, "gemm", Cl);
  ASSERT_TRUE(E.ok());
  ASSERT_TRUE(E.Model->Clauses.Tile.has_value());
  EXPECT_EQ(*E.Model->Clauses.Tile, (std::vector<int>{64, 64, 32}));
  EXPECT_TRUE(E.Model->Clauses.Sync);
}

TEST(ExtractionTest, BatchedSubscriptHasThreeDimensions) {
  Extracted E = extract(
      "void gemm(int Bt, int M, int K, const float *X, float *Y) {\n"
      "  for (int b = 0; b < Bt; ++b)\n"
      "    for (int i = 0; i < M; ++i)\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        Y[(b * M + i) * K + k] = X[(b * M + i) * K + k];\n"
      "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  int X = E.Model->findArray("X");
  ASSERT_GE(X, 0);
  const Array &XA = E.Model->Arrays[X];
  EXPECT_EQ(XA.Elem, ElementType::F32);
  ASSERT_EQ(XA.rank(), 3u);
  EXPECT_EQ(XA.Strides[0].str(), "K * M");
  EXPECT_EQ(XA.Strides[1].str(), "K");
  EXPECT_EQ(XA.Strides[2].str(), "1");
  const Statement &S = E.Model->Stmts[0];
  EXPECT_EQ(accessText(*E.Model, S, S.Reads[0]),
            "[Bt, M, K] -> { S0[b, i, k] -> X[b, i, k] }");
}

TEST(ExtractionTest, InclusiveBoundsOffsetsAndConstexprParameters) {
  Extracted E = extract(
      "void gemm(int N, double *X) {\n"
      "  constexpr int W = 16;\n"
      "  for (int i = 1; i <= N; i++)\n"
      "    for (int j = 0; j < W; j += 1)\n"
      "      X[(i - 1) * W + j + 2] = 2.0;\n"
      "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  const RegionModel &M = *E.Model;
  ASSERT_EQ(M.Loops.size(), 2u);
  // Shifted to start at 0 (LoopOrigins.h): the source's i is i + 1.
  EXPECT_EQ(M.Loops[0].Lower.str(), "0");
  EXPECT_EQ(M.Loops[0].Shift.str(), "1");
  EXPECT_EQ(M.Loops[0].UpperExclusive.str(), "N");
  EXPECT_EQ(M.Loops[1].UpperExclusive.str(), "W");
  ASSERT_EQ(M.Params.size(), 2u);
  EXPECT_EQ(M.Params[0].Name, "N");
  EXPECT_TRUE(M.Params[0].IsKernelArgument);
  EXPECT_EQ(M.Params[1].Name, "W");
  ASSERT_TRUE(M.Params[1].Value.has_value());
  EXPECT_EQ(*M.Params[1].Value, 16);
  EXPECT_FALSE(M.Params[1].IsKernelArgument);
  EXPECT_EQ(contextText(M), "[N, W] -> {  : W = 16 and N >= 0 }");
  const Array &XA = M.Arrays[M.findArray("X")];
  EXPECT_EQ(XA.Elem, ElementType::F64);
  ASSERT_EQ(XA.rank(), 2u);
  EXPECT_EQ(XA.Strides[0].str(), "W");
  const Statement &S = M.Stmts[0];
  EXPECT_EQ(accessText(M, S, S.Write), "[N, W] -> { S0[i, j] -> X[i, 2 + j] }");
  EXPECT_EQ(domainText(M, S),
            "[N, W] -> { S0[i, j] : 0 <= i < N and 0 <= j < W }");
}

TEST(ExtractionTest, StaticShapeArrays) {
  Extracted E = extract("void gemm(float (*A)[64], float (*B)[64]) {\n"
                        "  for (int i = 0; i < 32; ++i)\n"
                        "    for (int j = 0; j < 64; ++j)\n"
                        "      B[i][j] = A[i][j] * 2.0f;\n"
                        "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  const Array &AA = E.Model->Arrays[E.Model->findArray("A")];
  EXPECT_TRUE(AA.IsStaticShape);
  ASSERT_EQ(AA.rank(), 2u);
  EXPECT_EQ(AA.Strides[0].asConstant(), std::optional<int64_t>(64));
  EXPECT_EQ(AA.Strides[1].asConstant(), std::optional<int64_t>(1));
  EXPECT_TRUE(E.Model->Params.empty());
  EXPECT_EQ(E.Model->paramList(), "[]");
}

TEST(ExtractionTest, SiblingLoopsReusingIteratorNamesGetSuffixes) {
  Extracted E = extract(
      "void gemm(int M, int N, int K, float alpha, float beta, const float *A,\n"
      "          const float *B, float *C) {\n"
      "  for (int i = 0; i < M; i++) {\n"
      "    for (int j = 0; j < N; j++)\n"
      "      C[i * N + j] *= beta;\n"
      "    for (int k = 0; k < K; k++)\n"
      "      for (int j = 0 + 0; j < N; j++)\n"
      "        C[i * N + j] += alpha * A[i * K + k] * B[k * N + j];\n"
      "  }\n"
      "}\n");
  // PolyBench's gemm: the second `j` loop is a loop of its own in the model.
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Loops.size(), 4u);
  EXPECT_EQ(E.Model->Loops[1].Iterator, "j");
  EXPECT_EQ(E.Model->Loops[3].Iterator, "j_1");
  EXPECT_EQ(accessText(*E.Model, E.Model->Stmts[1], E.Model->Stmts[1].Write),
            "[M, N, K] -> { S1[i, k, j_1] -> C[i, j_1] }");
}

TEST(ExtractionTest, ScalarInputs) {
  Extracted E = extract(
      "void gemm(int M, int N, float alpha, float beta, float *C) {\n"
      "  for (int i = 0; i < M; i++)\n"
      "    for (int j = 0; j < N; j++)\n"
      "      C[i * N + j] = alpha * C[i * N + j] + beta;\n"
      "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Scalars.size(), 2u);
  EXPECT_EQ(E.Model->Scalars[0].Name, "alpha");
  EXPECT_EQ(E.Model->Scalars[0].TypeSpelling, "float");
  EXPECT_EQ(E.Model->Scalars[1].Name, "beta");
  EXPECT_EQ(describe(*E.Model->Stmts[0].Value), "add(mul(alpha, R0), beta)");
}

// A literal's +0 comes from Clang's value of it, not from its spelling
// (the epilogue folds a +0 initialisation into the sum: Epilogue.cpp).
TEST(ExtractionTest, PositiveZeroLiteralsByValue) {
  struct Case {
    const char *Spelling;
    bool IsPositiveZero;
  };
  for (Case C : {Case{"0", true}, {"0.0f", true}, {"0.f", true}, {"0.", true}, {"0e5", true},
                 {"0x0p0", true}, {"0x0p0f", true}, {"0x0", true}, {"00", true}, {"0u", true},
                 {"0x0ull", true}, {"0\'0", true}, {"1", false}, {"0.5f", false},
                 {"1e-30f", false}, {"0x1p-149", false}, {"0xF", false}, {"0x0F", false},
                 {"0x0f", false}, {"0x00FFu", false}, {"1.0F", false}, {"1e-50f", true}}) {
    SCOPED_TRACE(C.Spelling);
    Extracted E = extract(std::string("void gemm(int M, float *X) {\n"
                                      "  for (int i = 0; i < M; i++)\n"
                                      "    X[i] = ") +
                          C.Spelling + ";\n}\n");
    ASSERT_TRUE(E.ok()) << E.Error->Message;
    // (An integer literal stored to a float is under a cast to float.)
    const ExprNode *Value = E.Model->Stmts[0].Value.get();
    const ExprNode *V = stripConversions(Value);
    ASSERT_EQ(V->K, ExprNode::Literal);
    EXPECT_EQ(V->IsPositiveZero, C.IsPositiveZero);
    EXPECT_EQ(isPositiveZeroLiteral(Value), C.IsPositiveZero);
  }
}

// Assignments to a scalar the region declares, in the loop body that
// declares it and after any assignment from an inner loop, bind a new
// value instead of storing one: the reads after them see that value, as
// the reads after a declaration see its initialiser.
std::string rebindingRegion(const std::string &Body) {
  return "float fmaxf(float, float);\n"
         "void gemm(int M, int N, int K, const float *X, const float *A, const float *B,\n"
         "       const float *bias, float *C) {\n"
         "  for (int i = 0; i < M; ++i)\n"
         "    for (int j = 0; j < N; ++j) {\n" +
         Body +
         "    }\n"
         "}\n";
}

TEST(ExtractionTest, ReassignedLocalIsRebound) {
  Extracted E = extract(rebindingRegion("      float v = X[i * N + j] + 1.0f;\n"
                                        "      v = fmaxf(v, 0.0f);\n"
                                        "      C[i * N + j] = v;\n"));
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Stmts.size(), 1u); // only the store: v is a name
  EXPECT_EQ(describe(*E.Model->Stmts[0].Value),
            "cvt<float>(fmaxf(cvt<float>(add(R0, 1.0f)), 0.0f))");
}

TEST(ExtractionTest, IfOnALocalSelectsItsValue) {
  Extracted E = extract(rebindingRegion("      float v = X[i * N + j];\n"
                                        "      if (v < 0.0f)\n"
                                        "        v *= 0.5f;\n"
                                        "      C[i * N + j] = v;\n"));
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Stmts.size(), 1u);
  EXPECT_EQ(describe(*E.Model->Stmts[0].Value),
            "select(lt(cvt<float>(R0), 0.0f), mul(cvt<float>(R0), 0.5f), cvt<float>(R0))");
  ASSERT_EQ(E.Model->Stmts[0].Reads.size(), 1u); // one element, read three times
}

TEST(ExtractionTest, IfElseAssignsALocalDeclaredWithoutValue) {
  Extracted E = extract(rebindingRegion("      float r;\n"
                                        "      if (X[i * N + j] > 0.0f) {\n"
                                        "        r = X[i * N + j];\n"
                                        "      } else {\n"
                                        "        r = 0.5f;\n"
                                        "      }\n"
                                        "      C[i * N + j] = r;\n"));
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Stmts.size(), 1u);
  EXPECT_EQ(describe(*E.Model->Stmts[0].Value),
            "select(gt(R0, 0.0f), cvt<float>(R0), cvt<float>(0.5f))");
}

TEST(ExtractionTest, ElseIfChainSelectsInOrder) {
  Extracted E = extract(rebindingRegion("      float v = X[i * N + j];\n"
                                        "      if (v > 6.0f)\n"
                                        "        v = 6.0f;\n"
                                        "      else if (v < 0.0f)\n"
                                        "        v = 0.0f;\n"
                                        "      C[i * N + j] = v;\n"));
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Stmts.size(), 1u);
  EXPECT_EQ(describe(*E.Model->Stmts[0].Value),
            "select(gt(cvt<float>(R0), 6.0f), cvt<float>(6.0f), "
            "select(lt(cvt<float>(R0), 0.0f), cvt<float>(0.0f), cvt<float>(R0)))");
}

TEST(ExtractionTest, BindingSeesTheValuesOfItsPlace) {
  // b names a's first value; the product reads a's second.
  Extracted E = extract(rebindingRegion("      float a = X[i * N + j];\n"
                                        "      float b = a;\n"
                                        "      a = a * 2.0f;\n"
                                        "      C[i * N + j] = a + b;\n"));
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Stmts.size(), 1u);
  EXPECT_EQ(describe(*E.Model->Stmts[0].Value),
            "add(cvt<float>(mul(cvt<float>(R0), 2.0f)), cvt<float>(cvt<float>(R0)))");
}

TEST(ExtractionTest, CompoundAssignmentConvertsBackToTheVariablesType) {
  // `q *= 0.5f` on an int truncates: the value is int(q * 0.5f).
  Extracted E = extract(rebindingRegion("      int q = X[i * N + j];\n"
                                        "      q *= 0.5f;\n"
                                        "      C[i * N + j] = q;\n"));
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Stmts.size(), 1u);
  EXPECT_EQ(describe(*E.Model->Stmts[0].Value),
            "cvt<float>(cvt<int>(mul(cvt<int>(R0), 0.5f)))");
}

TEST(ExtractionTest, AccumulatorUpdatedAfterItsReduction) {
  // The reduction stores acc per element; `acc += bias[j]` after the loop
  // and the `if` rebind it, so C's value reads the stored sum.
  Extracted E = extract(rebindingRegion("      float acc = 0.0f;\n"
                                        "      for (int k = 0; k < K; ++k)\n"
                                        "        acc += A[i * K + k] * B[k * N + j];\n"
                                        "      acc += bias[j];\n"
                                        "      if (acc < 0.0f)\n"
                                        "        acc = 0.0f;\n"
                                        "      C[i * N + j] = acc;\n"));
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Stmts.size(), 3u); // acc = 0, acc += A * B, C = ...
  const Statement &Store = E.Model->Stmts[2];
  EXPECT_EQ(E.Model->Arrays[Store.Write.ArrayId].Name, "C");
  EXPECT_EQ(describe(*Store.Value),
            "select(lt(add(R1, R0), 0.0f), cvt<float>(0.0f), add(R1, R0))");
  // A compound assignment reads its right-hand side first, then the old value.
  EXPECT_EQ(E.Model->Arrays[Store.Reads[0].ArrayId].Name, "bias");
  EXPECT_EQ(E.Model->Arrays[Store.Reads[1].ArrayId].Name, "acc");
}

TEST(ExtractionTest, AssignmentBeforeAnInnerLoopsUpdateIsStored) {
  // acc = X[...] precedes the reduction into acc: it stays a statement.
  Extracted E = extract(rebindingRegion("      float acc = 0.0f;\n"
                                        "      acc = X[i * N + j];\n"
                                        "      for (int k = 0; k < K; ++k)\n"
                                        "        acc += A[i * K + k] * B[k * N + j];\n"
                                        "      C[i * N + j] = acc;\n"));
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  ASSERT_EQ(E.Model->Stmts.size(), 4u);
  EXPECT_EQ(E.Model->Arrays[E.Model->Stmts[1].Write.ArrayId].Name, "acc");
}

TEST(ExtractionTest, BlockOfNests) {
  // extractRegion also takes a `{ }` block of nests.
  std::string Code = std::string(HalfPrelude) +
                     "void gemm(int N, float *X, float *Y) {\n"
                     "  {\n"
                     "    for (int i = 0; i < N; ++i) X[i] = 1.0f;\n"
                     "    for (int j = 0; j < N; ++j) Y[j] = X[j];\n"
                     "  }\n"
                     "}\n";
  auto AST = buildTestAST(Code, {"-xc++", "-std=c++17"});
  ASSERT_TRUE(AST);
  const clang::FunctionDecl *F = nullptr;
  for (const clang::Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (FD->getNameAsString() == "gemm" && FD->hasBody())
        F = FD;
  ASSERT_TRUE(F);
  const auto *Body = llvm::cast<clang::CompoundStmt>(F->getBody());
  const clang::Stmt *Block = Body->body_front();
  ASSERT_TRUE(llvm::isa<clang::CompoundStmt>(Block));
  auto M = extractRegion(AST->getASTContext(), *F, *Block, {});
  ASSERT_TRUE(bool(M)) << takeError(M.takeError()).Message;
  ASSERT_EQ(M->Stmts.size(), 2u);
  EXPECT_EQ(M->Stmts[0].Position, (std::vector<int>{1, 1}));
  EXPECT_EQ(M->Stmts[1].Position, (std::vector<int>{2, 1}));
  EXPECT_EQ(scheduleText(*M, M->Stmts[1], 2), "[N] -> { S1[j] -> [2, j, 1] }");
}

// ----- errors ------------------------------------------------------------------

TEST(ExtractionErrorTest, ProductOfIteratorsInSubscript) {
  expectError("void gemm(int N, float *A, float *C) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    C[i] = A[i * i];\n"
              "}\n",
              "cannot delinearise the subscript of 'A'", "A[i * i]");
}

TEST(ExtractionErrorTest, NonChainedStrides) {
  expectError("void gemm(int M, int N, int K, float *A, float *C) {\n"
              "  for (int i = 0; i < M; ++i)\n"
              "    for (int k = 0; k < K; ++k)\n"
              "      C[i] = A[i * M + k * N];\n"
              "}\n",
              "row-major linearisation", "A[i * M + k * N]");
}

TEST(ExtractionErrorTest, IndirectSubscript) {
  expectError("void gemm(int N, const int *idx, float *A, float *C) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    C[i] = A[idx[i]];\n"
              "}\n",
              "indirect access", "A[idx[i]]");
}

TEST(ExtractionErrorTest, Break) {
  expectError("void gemm(int N, float *C) {\n"
              "  for (int i = 0; i < N; ++i) {\n"
              "    C[i] = 0.0f;\n"
              "    break;\n"
              "  }\n"
              "}\n",
              "early exit", "break;");
}

TEST(ExtractionErrorTest, UnknownFunctionCall) {
  expectError("float mystery(float);\n"
              "void gemm(int N, float *A, float *C) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    C[i] = 2.0f * mystery(A[i]);\n"
              "}\n",
              "call to 'mystery' may have side effects", "mystery(A[i])");
}

TEST(ExtractionErrorTest, KnownPureFunctionIsAccepted) {
  Extracted E = extract("float expf(float);\n"
                        "void gemm(int N, float *A, float *C) {\n"
                        "  for (int i = 0; i < N; ++i)\n"
                        "    C[i] = expf(A[i]);\n"
                        "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  EXPECT_EQ(describe(*E.Model->Stmts[0].Value), "expf(R0)");
}

// A conversion to bool is kept: `bool b = v;` is 0 or 1, and `v + b`
// reads 1 for v = 0.3, where dropping it would read (int)0.3 = 0.
TEST(ExtractionTest, ConversionToBoolIsKept) {
  Extracted E = extract("void gemm(int N, float *A, int *I, float *C) {\n"
                        "  for (int i = 0; i < N; ++i) {\n"
                        "    bool b = A[i];\n"
                        "    bool c = I[i];\n"
                        "    C[i] = A[i] + b + c;\n"
                        "  }\n"
                        "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  EXPECT_EQ(describe(*E.Model->Stmts[0].Value),
            "add(add(R0, cvt<float>(cvt<int>(cvt<bool>(R0)))), cvt<float>(cvt<int>(cvt<bool>(R1))))");
}

// A subscript converted to bool or narrowed is not the affine expression.
TEST(ExtractionErrorTest, ValueChangingConversionInSubscript) {
  expectError("void gemm(int N, float *A, float *C) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    C[i] = A[(bool)i];\n"
              "}\n",
              "conversion to 'bool' in a subscript or loop bound changes the value", "A[(bool)i]");
  expectError("void gemm(int N, float *A, float *C) {\n"
              "  for (int i = 0; i < N; ++i) {\n"
              "    short s = i * 40000;\n"
              "    C[i] = A[s];\n"
              "  }\n"
              "}\n",
              "conversion to 'short' in a subscript or loop bound changes the value", "i * 40000");
}

TEST(ExtractionErrorTest, WhileLoop) {
  expectError("void gemm(int N, float *C) {\n"
              "  for (int i = 0; i < N; ++i) {\n"
              "    while (C[i] > 1.0f)\n"
              "      C[i] = C[i] * 0.5f;\n"
              "  }\n"
              "}\n",
              "control flow other than counted 'for' loops", "while (");
}

TEST(ExtractionErrorTest, IfStatementWithElse) {
  expectError("void gemm(int N, float *C) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    if (i > 2) C[i] = 0.0f;\n"
              "    else C[i] = 1.0f;\n"
              "}\n",
              "an 'if' around statements may not have an 'else'", "else C[i] = 1.0f;");
}

TEST(ExtractionErrorTest, IfOnValues) {
  expectError("void gemm(int N, float *C, const float *X) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    if (X[i] > 0.0f) C[i] = 0.0f;\n"
              "}\n",
              "must compare iterators and sizes", "if (X[i] > 0.0f)");
}

TEST(ExtractionErrorTest, LoopConjunctAgainstTheDirection) {
  expectError("void gemm(int N, int L, float *C) {\n"
              "  for (int i = 0; i < N && i >= L; ++i)\n"
              "    C[i] = 0.0f;\n"
              "}\n",
              "must bound the iterator from above", "for (int i = 0; i < N && i >= L; ++i)");
}

TEST(ExtractionTest, GuardsOfIfsAndLoopConjunctions) {
  // `if` conditions and further conjuncts of a loop condition are the
  // statements' guards (G >= 0); the loop keeps the bound of the sizes.
  Extracted E = extract("void gemm(int N, int K, float *C) {\n"
                        "  for (int i = 1; i <= N; ++i)\n"
                        "    for (int k = 0; k <= i && k < K; ++k)\n"
                        "      if (2 * k >= i && k == i - 1)\n"
                        "        C[i * K + k] = 1.0f;\n"
                        "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  const RegionModel &M = *E.Model;
  ASSERT_EQ(M.Loops.size(), 2u);
  EXPECT_EQ(M.Loops[1].UpperExclusive.str(), "K");
  const Statement &S = M.Stmts[0];
  // Shifted with i (source i = i + 1): k <= i + 1, 2k >= i + 1, k == i.
  std::vector<std::string> Guards;
  for (const AffineExpr &G : S.Guards)
    Guards.push_back(G.str());
  EXPECT_EQ(Guards,
            (std::vector<std::string>{"i - k + 1", "-i + 2 * k - 1", "i - k", "-i + k"}));
  EXPECT_EQ(domainText(M, S), "[N, K] -> { S0[i, k = i] : 0 < i < K and i < N }");
}

TEST(ExtractionErrorTest, IfAssigningTwoVariables) {
  // Only an `if` that rebinds one variable in each branch is a value.
  expectError(rebindingRegion("      float a = X[i * N + j], b = 0.0f;\n"
                              "      if (a > 0.0f) a = 1.0f; else b = 1.0f;\n"
                              "      C[i * N + j] = a + b;\n"),
              "must compare iterators and sizes", "if (a > 0.0f)");
}

TEST(ExtractionErrorTest, ElseIfAssigningAnotherVariable) {
  expectError(rebindingRegion("      float a = X[i * N + j], b = 0.0f;\n"
                              "      if (a > 6.0f) a = 6.0f; else if (a < 0.0f) b = 1.0f;\n"
                              "      C[i * N + j] = a + b;\n"),
              "must compare iterators and sizes", "if (a > 6.0f)");
}

TEST(ExtractionErrorTest, BoundValueReadsAnElementStoredBeforeItsUse) {
  // v's value reads C[i][j]; the store to C comes before v is used.
  expectError(rebindingRegion("      float v = C[i * N + j];\n"
                              "      v = v * 2.0f;\n"
                              "      C[i * N + j] = X[i * N + j];\n"
                              "      C[i * N + j] = v;\n"),
              "'C' is stored to between this read", "float v = C[i * N + j];");
}

TEST(ExtractionErrorTest, LocalReadBeforeAssigned) {
  expectError(rebindingRegion("      float r;\n"
                              "      C[i * N + j] = r;\n"
                              "      r = 1.0f;\n"),
              "'r' is read before it is assigned", "C[i * N + j] = r;");
}

TEST(ExtractionErrorTest, StridedLoopWithNotEqual) {
  expectError("void gemm(int N, float *C) {\n"
              "  for (int i = 0; i != N; i += 2)\n"
              "    C[i] = 0.0f;\n"
              "}\n",
              "a strided loop's condition must not be '!='", "for (int i = 0; i != N; i += 2)");
}

TEST(ExtractionTest, StridedLoopsCountTheirIterations) {
  // i from 1 in steps of 2 below N: the source's i is 2 * i + 1, a guard
  // bounds it (2 does not divide N's coefficient); j in steps of 3 down
  // from 3 * W + 2 to 2: exactly W + 1 iterations.
  Extracted E = extract("void gemm(int N, int W, float *C) {\n"
                        "  for (int i = 1; i < N; i += 2)\n"
                        "    for (int j = 3 * W + 2; j >= 2; j -= 3)\n"
                        "      C[i * N + j] = (float)i;\n"
                        "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  const RegionModel &M = *E.Model;
  ASSERT_EQ(M.Loops.size(), 2u);
  EXPECT_EQ(M.Loops[0].Step, 2);
  EXPECT_EQ(M.Loops[0].Shift.str(), "1");
  EXPECT_EQ(M.Loops[0].UpperExclusive.str(), "N - 1");
  EXPECT_EQ(M.Loops[1].Step, -3);
  EXPECT_EQ(M.Loops[1].UpperExclusive.str(), "W + 1");
  EXPECT_FALSE(M.Loops[1].Reversed);
  const Statement &S = M.Stmts[0];
  ASSERT_EQ(S.Guards.size(), 1u);
  EXPECT_EQ(S.Guards[0].str(), "N - 2 * i - 2");
  EXPECT_EQ(domainText(M, S),
            "[N, W] -> { S0[i, j] : 0 <= i <= -2 + N and 2i <= -2 + N and 0 <= j <= W }");
  EXPECT_EQ(accessText(M, S, S.Write), "[N, W] -> { S0[i, j] -> C[1 + 2i, 2 + 3W - 3j] }");
}

TEST(ExtractionTest, StridedLoopStartingAtAStridedLoop) {
  // k from i in steps of 2, i in steps of 3: the source's k is 2 * k + 3 *
  // i in the model's iterators, also in the subscript (the substitution is
  // simultaneous, whatever the names' order).
  Extracted E = extract("void gemm(int N, int K, float *C) {\n"
                        "  for (int i = 0; i < N; i += 3)\n"
                        "    for (int k = i; k < i + 4; k += 2)\n"
                        "      C[i * K + k] = (float)k;\n"
                        "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  const RegionModel &M = *E.Model;
  ASSERT_EQ(M.Loops.size(), 2u);
  EXPECT_EQ(M.Loops[1].Shift.str(), "3 * i");
  EXPECT_EQ(M.Loops[1].UpperExclusive.str(), "2");
  const Statement &S = M.Stmts[0];
  EXPECT_EQ(accessText(M, S, S.Write), "[N, K] -> { S0[i, k] -> C[3i, 3i + 2k] }");
}

TEST(ExtractionErrorTest, ConditionAgainstTheIncrement) {
  expectError("void gemm(int N, float *C) {\n"
              "  for (int i = N; i < 0; --i)\n"
              "    C[i] = 0.0f;\n"
              "}\n",
              "a downward loop's condition must compare", "i < 0");
  expectError("void gemm(int N, float *C) {\n"
              "  for (int i = 0; i > N; ++i)\n"
              "    C[i] = 0.0f;\n"
              "}\n",
              "loop condition must compare the iterator with '<', '<=' or '!='", "i > N");
}

TEST(ExtractionTest, DownwardLoopsAndBoundsOnEitherSide) {
  // `i > 0` from N: the source's i runs N, N - 1, ..., 1; `N > j` and
  // `j != N` are `j < N`.
  Extracted E = extract("void gemm(int N, float *C) {\n"
                        "  for (int i = N; i > 0; --i)\n"
                        "    for (int j = 0; N > j; j++)\n"
                        "      for (int k = 0; k != N; k += 1)\n"
                        "        C[(i - 1) * N + j] = 0.0f;\n"
                        "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  const RegionModel &M = *E.Model;
  ASSERT_EQ(M.Loops.size(), 3u);
  EXPECT_TRUE(M.Loops[0].Reversed);
  EXPECT_EQ(M.Loops[0].Shift.str(), "1");
  EXPECT_EQ(M.Loops[0].UpperExclusive.str(), "N");
  EXPECT_FALSE(M.Loops[1].Reversed);
  EXPECT_EQ(M.Loops[1].UpperExclusive.str(), "N");
  EXPECT_EQ(M.Loops[2].UpperExclusive.str(), "N");
  const Statement &S = M.Stmts[0];
  EXPECT_EQ(accessText(M, S, S.Write), "[N] -> { S0[i, j, k] -> C[i, j] }");
  // The original schedule runs i downwards.
  EXPECT_EQ(scheduleText(M, S, 3), "[N] -> { S0[i, j, k] -> [1, -i, 1, j, 1, k] }");
}

TEST(ExtractionTest, ShiftedIteratorsKeepTheirValuesAndLocalsTheirIndex) {
  // Loops from a parameter: the value reads the source's i (i + lo); the
  // accumulator stays indexed by the model's iterators.
  Extracted E = extract("void gemm(int lo, int hi, int N, float *C) {\n"
                        "  for (int i = lo; i < hi; ++i)\n"
                        "    for (int j = 0; j < N; ++j) {\n"
                        "      float acc = float(i);\n"
                        "      for (int k = 0; k < N; ++k)\n"
                        "        acc += 1.0f;\n"
                        "      C[(i - lo) * N + j] = acc;\n"
                        "    }\n"
                        "}\n");
  ASSERT_TRUE(E.ok()) << E.Error->Message;
  const RegionModel &M = *E.Model;
  EXPECT_EQ(M.Loops[0].Shift.str(), "lo");
  EXPECT_EQ(M.Loops[0].UpperExclusive.str(), "hi - lo");
  ASSERT_EQ(M.Stmts.size(), 3u);
  EXPECT_EQ(describe(*M.Stmts[0].Value), "cvt<float>(cvt<float>(add(i, lo)))");
  EXPECT_EQ(accessText(M, M.Stmts[0], M.Stmts[0].Write),
            "[lo, hi, N] -> { S0[i, j] -> acc[i, j] }");
  EXPECT_EQ(accessText(M, M.Stmts[2], M.Stmts[2].Write),
            "[lo, hi, N] -> { S2[i, j] -> C[i, j] }");
}

TEST(ExtractionErrorTest, DivisionInSubscript) {
  expectError("void gemm(int N, float *A, float *C) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    C[i] = A[i / 2];\n"
              "}\n",
              "non-affine operator '/'", "A[i / 2]");
}

TEST(ExtractionErrorTest, NonAffineLoopBound) {
  expectError("void gemm(int N, float *C) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    for (int j = 0; j < i * i; ++j)\n"
              "      C[j] = 0.0f;\n"
              "}\n",
              "non-affine expression", "i * i;");
}

TEST(ExtractionErrorTest, SideEffectInExpression) {
  expectError("void gemm(int N, float *A, float *C) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    C[i] = A[i]++;\n"
              "}\n",
              "side effect inside an expression", "A[i]++");
}

TEST(ExtractionErrorTest, AssignmentToOuterScalar) {
  expectError("void gemm(int N, float *A, float &s) {\n"
              "  for (int i = 0; i < N; ++i)\n"
              "    s = A[i];\n"
              "}\n",
              "which is not an array element", "s = A[i]");
}

TEST(ExtractionErrorTest, InconsistentShapes) {
  expectError("void gemm(int M, int N, float *A, float *C) {\n"
              "  for (int i = 0; i < M; ++i)\n"
              "    for (int j = 0; j < N; ++j)\n"
              "      C[i * N + j] = A[i * N + j] + A[j * M + i];\n"
              "}\n",
              "indexed with different shapes", "A[j * M + i]");
}

TEST(ExtractionErrorTest, EmptyRegion) {
  expectError("void gemm(int N) {\n"
              "  for (int i = 0; i < N; ++i) {}\n"
              "}\n",
              "has no statement to compute", "for (int i");
}

} // namespace
