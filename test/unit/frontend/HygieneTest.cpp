//===- HygieneTest.cpp - placeholders for the user's names ----------------===//
#include "Hygiene.h"
#include "../RegionTestUtil.h"
#include "gtest/gtest.h"

using namespace tc;
using namespace tc::test;

namespace {

TEST(HygieneTest, PlaceholdersAreReservedIdentifiers) {
  EXPECT_EQ(userNamePlaceholder(0), "__tc_u0__");
  EXPECT_TRUE(isUserNamePlaceholder("__tc_u12__"));
  EXPECT_FALSE(isUserNamePlaceholder("__tc_u__"));
  EXPECT_FALSE(isUserNamePlaceholder("__tc_u01__"));
  EXPECT_FALSE(isUserNamePlaceholder("__tc_u1"));
  EXPECT_FALSE(isUserNamePlaceholder("tc_u1__"));
}

TEST(HygieneTest, BindingReplacesWholeIdentifiersOnly) {
  std::vector<std::string> Names = {"k", "A"};
  EXPECT_EQ(bindPlaceholders("__tc_u1__[i * __tc_u0__ + x__tc_u0__] __tc_u7__", Names),
            "A[i * k + x__tc_u0__] __tc_u7__");
  EXPECT_EQ(bindPlaceholders("", Names), "");
  // isl's coefficients stand against the name (`2i < M`); numbers stay.
  EXPECT_EQ(bindPlaceholders("2__tc_u0__ < 0x1f and 1e5", Names), "2k < 0x1f and 1e5");
}

TEST(HygieneTest, DefinitionNamesAvoidTakenAndEachOther) {
  std::set<std::string> Taken = {"k", "k_1", "tc_smem", "min"};
  EXPECT_EQ(definitionNames({"M", "k", "tc_smem", "min", "k_2"}, Taken),
            (std::vector<std::string>{"M", "k_2", "tc_smem_1", "min_1", "k_2_1"}));
}

TEST(HygieneTest, CodeIdentifiersSkipCommentsAndLiterals) {
  std::set<std::string> Ids = codeIdentifiersOf(
      "int a; // b c\n/* d */ e(\"f \\\" g\", 'h'); i");
  EXPECT_EQ(Ids, (std::set<std::string>{"int", "a", "e", "i"}));
  EXPECT_TRUE(identifiersOf("// b").count("b"));
  // As the compiler lexes them: a raw string, a spliced comment, u8 and
  // character prefixes, a digraph and a name continued over a line splice.
  Ids = codeIdentifiersOf("R\"x(q \" r)x\" s // t \\\n u\n"
                          "u8\"v\" L'w' <% y %> z\\\nz");
  EXPECT_EQ(Ids, (std::set<std::string>{"s", "y", "zz"}));
  // A splice with blanks before its newline; `//*` is a line comment.
  EXPECT_EQ(codeIdentifiersOf("tc_ge\\  \nmm_0 //* a\nb"),
            (std::set<std::string>{"tc_gemm_0", "b"}));
}

// A member read as a size is passed as written and named by its path in
// the definitions.
TEST(HygieneTest, MemberSpellingsGiveIdentifiers) {
  EXPECT_EQ(definitionBase("N"), "N");
  EXPECT_EQ(definitionBase("d.m"), "d_m");
  EXPECT_EQ(definitionBase("p->dims.m"), "p_dims_m");
  EXPECT_EQ(definitionBase("this->M"), "M");
  EXPECT_EQ(definitionNames({"this->M", "M", "d.m"}, {"d_m"}),
            (std::vector<std::string>{"M", "M_1", "d_m_1"}));
}

// A size computed from others (a quotient the call spells as the source
// does) is named by its parts and operators, never with a leading '_' nor
// a run of them; a user's own identifier stays as it is.
TEST(HygieneTest, QuotientSpellingsGiveIdentifiers) {
  EXPECT_EQ(definitionBase("K / 2"), "K_div_2");
  EXPECT_EQ(definitionBase("(K + 127) / 128"), "K_127_div_128");
  EXPECT_EQ(definitionBase("K >> 1"), "K_shr_1");
  EXPECT_EQ(definitionBase("p.K / 2"), "p_K_div_2");
  EXPECT_EQ(definitionBase("_n"), "_n");
  EXPECT_EQ(definitionNames({"K / 2", "K_div_2"}, {}),
            (std::vector<std::string>{"K_div_2", "K_div_2_1"}));
}

// A qualified name is found in its scope whatever a local name is: the
// definitions' names that a user's spelling must avoid are the others.
TEST(HygieneTest, UnqualifiedIdentifiersSkipNamesAfterTheScopeOperator) {
  const char *Code = "using m = tc::sm90::Tile<T, tc::sm90::Major::K>; f(K, ::N, s.x);";
  EXPECT_EQ(unqualifiedIdentifiersOf(Code),
            (std::set<std::string>{"using", "m", "tc", "T", "f", "K", "s", "x"}));
  EXPECT_TRUE(codeIdentifiersOf(Code).count("Major"));
  EXPECT_TRUE(codeIdentifiersOf(Code).count("N"));
}

// The model after renaming names no user spelling: sizes, arrays, iterators
// and their uses in strides, subscripts, bounds and expressions are all
// placeholders, and UserNames spells them.
TEST(HygieneTest, ModelCarriesPlaceholdersOnly) {
  Extracted E = extract(R"(
void gemm(int m, int n, int k, const __half *__restrict__ A,
       const __half *__restrict__ B, float *__restrict__ C, float alpha) {
  for (int min = 0; min < m; ++min)
    for (int j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int kk = 0; kk < k; ++kk)
        acc += __half2float(A[min * k + kk]) * __half2float(B[kk * n + j]);
      C[min * n + j] = alpha * acc;
    }
}
)");
  ASSERT_TRUE(E.ok());
  RegionModel M = *E.Model;
  usePlaceholderNames(M);
  std::set<std::string> Spellings(M.UserNames.begin(), M.UserNames.end());
  for (const char *S : {"m", "n", "k", "A", "B", "C", "alpha", "min", "j", "kk", "acc"})
    EXPECT_TRUE(Spellings.count(S)) << S;
  auto IsPlaceholder = [](const std::string &S) { return isUserNamePlaceholder(S); };
  for (auto &P : M.Params)
    EXPECT_TRUE(IsPlaceholder(P.Name)) << P.Name;
  for (auto &A : M.Arrays) {
    EXPECT_TRUE(IsPlaceholder(A.Name)) << A.Name;
    for (auto &S : A.Strides)
      for (auto &[Mono, C] : S.Terms)
        for (auto &Sym : Mono)
          EXPECT_TRUE(IsPlaceholder(Sym)) << Sym;
  }
  for (auto &L : M.Loops) {
    EXPECT_TRUE(IsPlaceholder(L.Iterator)) << L.Iterator;
    for (auto &[Sym, C] : L.UpperExclusive.Coeffs)
      EXPECT_TRUE(IsPlaceholder(Sym)) << Sym;
  }
  for (auto &S : M.Stmts)
    for (auto &R : S.Reads)
      for (auto &I : R.Index)
        for (auto &[Sym, C] : I.Coeffs)
          EXPECT_TRUE(IsPlaceholder(Sym)) << Sym;
  // isl reads the model: `k` is a parameter, not the tuple variable k.
  std::string Domain = domainText(M, M.Stmts.back());
  EXPECT_EQ(Domain.find(" k "), std::string::npos) << Domain;
  EXPECT_NE(bindPlaceholders(Domain, M.UserNames).find("0 <= min < m"), std::string::npos)
      << bindPlaceholders(Domain, M.UserNames);
}

} // namespace
