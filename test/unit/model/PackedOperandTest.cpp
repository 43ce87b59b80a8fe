//===- PackedOperandTest.cpp - the packed factor as the decode kernel's ---===//
//
// dequantizedOperand's NibbleGroups: the packed 4-bit operand's factor as
// (w - z) * s with z and s functions of the row and of k / g, which the
// 4-bit decode kernel evaluates once a row and group; the forms it is not
// say why.
//
//===----------------------------------------------------------------------===//
#include "../RegionTestUtil.h"
#include "PackedOperand.h"
#include "gtest/gtest.h"

using namespace tc;
using namespace tc::test;

namespace {

struct Dequantized {
  OwnedIslCtx Isl; // first: destroyed after every isl object below
  Extracted E;
  std::optional<IslModel> I;
  std::optional<DequantizedOperand> D;
  std::string Error;
};

const char *Types = "typedef unsigned char uint8_t;\ntypedef signed char int8_t;\n";

/// The region of `gemm(...)` with `Factor` as the packed operand's factor
/// of `X[i * K + k] * Factor`, the other arrays declared by `Params`.
Dequantized dequantize(const std::string &Params, const std::string &Factor) {
  const std::string Snippet = std::string(Types) +
                              "void gemm(int M, int N, int K, const __half *X, const uint8_t *Wq, " +
                              Params + ", float *Y) {\n"
                              "  for (int i = 0; i < M; ++i)\n"
                              "    for (int j = 0; j < N; ++j) {\n"
                              "      float acc = 0.0f;\n"
                              "      for (int k = 0; k < K; ++k)\n"
                              "        acc += __half2float(X[i * K + k]) * (" + Factor + ");\n"
                              "      Y[i * N + j] = acc;\n"
                              "    }\n"
                              "}\n";
  Dequantized R;
  R.E = extract(Snippet, "gemm");
  if (!R.E.ok()) {
    R.Error = "extraction: " + R.E.Error->Message;
    return R;
  }
  R.I = IslModel::build(R.Isl.Ctx, *R.E.Model);
  auto Idiom = recognizeMatmul(*R.E.Model, *R.I);
  if (!Idiom) {
    R.Error = "idiom: " + takeError(Idiom.takeError()).Message;
    return R;
  }
  auto D = dequantizedOperand(*R.E.Model, *Idiom);
  if (!D) {
    R.Error = "dequantized: " + takeError(D.takeError()).Message;
    return R;
  }
  R.D = std::move(*D);
  return R;
}

const std::string Low = "((Wq[j * (K / 2) + k / 2] >> (4 * (k % 2))) & 15)";

TEST(PackedOperandTest, GroupedZeroPointsAndScales) {
  Dequantized R = dequantize("const __half *zero, const __half *scale",
                             "((float)" + Low + " - __half2float(zero[j * (K / 128) + k / 128])) * "
                             "__half2float(scale[j * (K / 128) + k / 128])");
  ASSERT_TRUE(R.D) << R.Error;
  ASSERT_TRUE(R.D->Groups) << R.D->GroupsMismatch;
  EXPECT_FALSE(R.D->Groups->Signed);
  EXPECT_EQ(R.D->Groups->GroupSize, 128);
  EXPECT_TRUE(R.D->Groups->Zero);
  EXPECT_FALSE(R.D->Groups->ZeroAdded);
  EXPECT_EQ(R.D->Groups->Scale.size(), 1u);
}

TEST(PackedOperandTest, RowZeroPointInInt) {
  // An int nibble minus an 8-bit zero point: int arithmetic, nothing wraps.
  Dequantized R = dequantize("const uint8_t *zero", Low + " - zero[j]");
  ASSERT_TRUE(R.D) << R.Error;
  ASSERT_TRUE(R.D->Groups) << R.D->GroupsMismatch;
  EXPECT_EQ(R.D->Groups->GroupSize, 0);
  EXPECT_TRUE(R.D->Groups->Zero);
  EXPECT_TRUE(R.D->Groups->Scale.empty());
}

TEST(PackedOperandTest, SignedNibblesWithoutZeroPoint) {
  Dequantized R = dequantize("const float *scale",
                             "(float)((int8_t)(Wq[j * (K / 2) + k / 2] << (4 * (1 - k % 2))) >> 4) "
                             "* scale[j * (K / 64) + k / 64]");
  ASSERT_TRUE(R.D) << R.Error;
  ASSERT_TRUE(R.D->Groups) << R.D->GroupsMismatch;
  EXPECT_TRUE(R.D->Groups->Signed);
  EXPECT_FALSE(R.D->Groups->Zero);
  EXPECT_EQ(R.D->Groups->GroupSize, 64);
}

TEST(PackedOperandTest, SymmetricZeroPointAsLiteral) {
  // `(w - 8) * s`, in int: the usual symmetric spelling.
  Dequantized R = dequantize("const __half *scale",
                             "(float)(" + Low + " - 8) * __half2float(scale[j * (K / 128) + k / 128])");
  ASSERT_TRUE(R.D) << R.Error;
  ASSERT_TRUE(R.D->Groups) << R.D->GroupsMismatch;
  EXPECT_FALSE(R.D->Groups->Signed);
  ASSERT_TRUE(R.D->Groups->Zero);
  EXPECT_EQ(R.D->Groups->Zero->K, ExprNode::Literal);
  // An unsigned literal makes the difference wrap.
  Dequantized U = dequantize("const __half *scale",
                             "(float)(" + Low + " - 8u) * __half2float(scale[j * (K / 128) + k / 128])");
  ASSERT_TRUE(U.D) << U.Error;
  EXPECT_FALSE(U.D->Groups);
}

TEST(PackedOperandTest, AddedZeroPoint) {
  Dequantized R = dequantize("const float *zero", "(float)" + Low + " + zero[j]");
  ASSERT_TRUE(R.D) << R.Error;
  ASSERT_TRUE(R.D->Groups) << R.D->GroupsMismatch;
  EXPECT_TRUE(R.D->Groups->ZeroAdded);
}

TEST(PackedOperandTest, FormsTheKernelDoesNotCompute) {
  struct Case {
    const char *Params;
    std::string Factor, Why;
  };
  const Case Cases[] = {
      // The nibble changed before the zero point: not (w - z).
      {"const float *scale", "((float)(" + Low + " ^ 8) - 8.0f) * scale[j]",
       "the nibble's factor is not (w - z)"},
      // An unsigned zero point: `w - z` wraps in the source.
      {"const unsigned *zero", Low + " - zero[j]", "the nibble's factor is not (w - z)"},
      // Zero points and scales in groups of different sizes.
      {"const float *zero, const float *scale",
       "((float)" + Low + " - zero[j * (K / 64) + k / 64]) * scale[j * (K / 128) + k / 128]",
       "groups of two sizes"},
      // A zero point of each k, not of a group.
      {"const float *zero", "(float)" + Low + " - zero[j * K + k]",
       "read at another index than [row][k / g]"},
  };
  for (const Case &C : Cases) {
    Dequantized R = dequantize(C.Params, C.Factor);
    ASSERT_TRUE(R.D) << C.Factor << ": " << R.Error;
    EXPECT_FALSE(R.D->Groups) << C.Factor;
    EXPECT_NE(R.D->GroupsMismatch.find(C.Why), std::string::npos)
        << C.Factor << ": " << R.D->GroupsMismatch;
  }
}

} // namespace
