//===- SignedParametersTest.cpp - markSignedParameters --------------------===//
#include "IslModel.h"
#include "../RegionTestUtil.h"
#include "gtest/gtest.h"
#include <set>

using namespace tc;
using namespace tc::test;

namespace {

/// The parameters of `Code`'s region that markSignedParameters marks.
std::set<std::string> signedParameters(const std::string &Code) {
  Extracted E = extract(Code, "gemm");
  EXPECT_TRUE(E.ok());
  std::set<std::string> R;
  if (!E.ok())
    return R;
  markSignedParameters(*E.Model);
  for (const Parameter &P : E.Model->Params)
    if (P.MayBeNegative)
      R.insert(P.Name);
  return R;
}

TEST(SignedParametersTest, OffsetsMayBeNegativeExtentsNot) {
  // off offsets C's subscript in a statement that runs for off < 0; M, N
  // and K bound loops (the reduction, which reads K, runs only for K > 0);
  // ldc is a stride, not in any index.
  std::set<std::string> S = signedParameters(
      "void gemm(int M, int N, int K, int ldc, int off, const __half *__restrict__ A,\n"
      "          const __half *__restrict__ B, float *__restrict__ C) {\n"
      "#pragma tc\n"
      "  for (int i = 0; i < M; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float acc = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
      "      C[i * ldc + j + off] = acc;\n"
      "    }\n"
      "}\n");
  EXPECT_EQ(S, (std::set<std::string>{"off"}));
  // A loop's lower bound offsets the subscripts once the loop starts at 0.
  std::set<std::string> T = signedParameters(
      "void gemm(int lo, int hi, int N, int K, const __half *__restrict__ A,\n"
      "          const __half *__restrict__ B, float *__restrict__ C) {\n"
      "#pragma tc\n"
      "  for (int i = lo; i < hi; ++i)\n"
      "    for (int j = 0; j < N; ++j) {\n"
      "      float acc = 0.0f;\n"
      "      for (int k = 0; k < K; ++k)\n"
      "        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
      "      C[i * N + j] = acc;\n"
      "    }\n"
      "}\n");
  EXPECT_TRUE(T.count("lo")) << "lo";
  EXPECT_FALSE(T.count("N"));
  EXPECT_FALSE(T.count("K"));
}

} // namespace
