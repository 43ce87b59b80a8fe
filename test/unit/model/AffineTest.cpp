//===- AffineTest.cpp - Polynomial, AffineExpr, delinearize ---------------===//
#include "Affine.h"
#include "gtest/gtest.h"
#include <random>

using namespace tc;

namespace {

Polynomial sym(const std::string &S) { return Polynomial::symbol(S); }
Polynomial cst(int64_t C) { return Polynomial::constant(C); }

// ----- Polynomial --------------------------------------------------------

TEST(PolynomialTest, ConstantZeroHasNoTerms) {
  EXPECT_TRUE(cst(0).Terms.empty());
  EXPECT_EQ(cst(0).asConstant(), std::optional<int64_t>(0));
  EXPECT_EQ(cst(0).str(), "0");
  EXPECT_EQ(cst(7).asConstant(), std::optional<int64_t>(7));
  EXPECT_EQ(cst(-3).str(), "-3");
}

TEST(PolynomialTest, AdditionCollectsAndCancelsTerms) {
  Polynomial P = sym("i") + sym("i") + cst(3);
  ASSERT_EQ(P.Terms.size(), 2u);
  EXPECT_EQ(P.Terms.at({"i"}), 2);
  EXPECT_EQ(P.Terms.at({}), 3);
  // i - i cancels completely: no zero-coefficient term is kept.
  Polynomial Z = sym("i") + sym("i") * -1;
  EXPECT_TRUE(Z.Terms.empty());
  EXPECT_EQ(Z.asConstant(), std::optional<int64_t>(0));
  EXPECT_EQ(Z.str(), "0");
}

TEST(PolynomialTest, MultiplicationSortsMonomials) {
  // (b * M + i) * K + k: the monomial of b * M * K is sorted [K, M, b].
  Polynomial P = (sym("b") * sym("M") + sym("i")) * sym("K") + sym("k");
  ASSERT_EQ(P.Terms.size(), 3u);
  EXPECT_EQ(P.Terms.at((Polynomial::Monomial{"K", "M", "b"})), 1);
  EXPECT_EQ(P.Terms.at((Polynomial::Monomial{"K", "i"})), 1);
  EXPECT_EQ(P.Terms.at((Polynomial::Monomial{"k"})), 1);
  // Commutativity: M * K and K * M are the same monomial.
  EXPECT_EQ((sym("M") * sym("K")).Terms, (sym("K") * sym("M")).Terms);
}

TEST(PolynomialTest, ProductOfDifferencesCancels) {
  // (i + 1) * (i - 1) = i*i - 1: the cross terms i and -i cancel.
  Polynomial P = (sym("i") + cst(1)) * (sym("i") + cst(-1));
  ASSERT_EQ(P.Terms.size(), 2u);
  EXPECT_EQ(P.Terms.at((Polynomial::Monomial{"i", "i"})), 1);
  EXPECT_EQ(P.Terms.at({}), -1);
  EXPECT_EQ(P.str(), "-1 + i * i");
}

TEST(PolynomialTest, ScalarMultiplication) {
  Polynomial P = (sym("i") + cst(2)) * 3;
  EXPECT_EQ(P.Terms.at({"i"}), 3);
  EXPECT_EQ(P.Terms.at({}), 6);
  EXPECT_TRUE(((sym("i") + cst(2)) * 0).Terms.empty());
  EXPECT_EQ(((sym("i")) * -2).str(), "-2 * i");
}

TEST(PolynomialTest, AsConstant) {
  EXPECT_EQ((cst(2) * cst(21)).asConstant(), std::optional<int64_t>(42));
  EXPECT_EQ(sym("M").asConstant(), std::nullopt);
  EXPECT_EQ((sym("M") + cst(1)).asConstant(), std::nullopt);
}

TEST(PolynomialTest, AsAffine) {
  auto A = (sym("i") * 2 + sym("K") + cst(-1)).asAffine();
  ASSERT_TRUE(A.has_value());
  EXPECT_EQ(A->Coeffs.at("i"), 2);
  EXPECT_EQ(A->Coeffs.at("K"), 1);
  EXPECT_EQ(A->Constant, -1);
  // A product of two symbols has degree two: not affine.
  EXPECT_FALSE((sym("i") * sym("K")).asAffine().has_value());
  EXPECT_FALSE((sym("i") * sym("K") + sym("k")).asAffine().has_value());
  // The zero polynomial is the affine constant 0.
  auto Z = cst(0).asAffine();
  ASSERT_TRUE(Z.has_value());
  EXPECT_TRUE(Z->isConstant());
  EXPECT_EQ(Z->Constant, 0);
}

TEST(PolynomialTest, Str) {
  EXPECT_EQ((sym("i") * sym("K") + sym("k")).str(), "K * i + k");
  EXPECT_EQ((sym("M") * sym("K")).str(), "K * M");
  EXPECT_EQ((sym("i") * -1 + cst(5)).str(), "5 - i");
  EXPECT_EQ((sym("i") * 3 + sym("j") * -2).str(), "3 * i - 2 * j");
}

// ----- AffineExpr --------------------------------------------------------

TEST(AffineExprTest, ConstantAndSymbol) {
  AffineExpr C = AffineExpr::constant(5);
  EXPECT_TRUE(C.isConstant());
  EXPECT_EQ(C.Constant, 5);
  EXPECT_EQ(C.str(), "5");
  AffineExpr S = AffineExpr::symbol("i");
  EXPECT_FALSE(S.isConstant());
  EXPECT_TRUE(S.involves("i"));
  EXPECT_FALSE(S.involves("j"));
  EXPECT_EQ(S.str(), "i");
}

TEST(AffineExprTest, ZeroCoefficientIsNotInvolved) {
  AffineExpr E = AffineExpr::symbol("i") + AffineExpr::symbol("i") * -1;
  EXPECT_TRUE(E.isConstant());
  EXPECT_FALSE(E.involves("i"));
  EXPECT_EQ(E.str(), "0");
}

TEST(AffineExprTest, Arithmetic) {
  AffineExpr E = (AffineExpr::symbol("i") + AffineExpr::constant(1)) * 3 +
                 AffineExpr::symbol("j");
  EXPECT_EQ(E.Coeffs.at("i"), 3);
  EXPECT_EQ(E.Coeffs.at("j"), 1);
  EXPECT_EQ(E.Constant, 3);
}

TEST(AffineExprTest, StrFormatting) {
  // Symbols print in name order (upper case sorts first), then the constant.
  AffineExpr E = AffineExpr::symbol("i") * 2 + AffineExpr::symbol("K") +
                 AffineExpr::constant(-1);
  EXPECT_EQ(E.str(), "K + 2 * i - 1");
  EXPECT_EQ((AffineExpr::symbol("i") * -1).str(), "-i");
  EXPECT_EQ((AffineExpr::symbol("i") * -3 + AffineExpr::constant(4)).str(),
            "-3 * i + 4");
  EXPECT_EQ((AffineExpr::symbol("i") + AffineExpr::symbol("j") * -1).str(),
            "i - j");
  EXPECT_EQ(AffineExpr::constant(-7).str(), "-7");
  EXPECT_EQ(AffineExpr().str(), "0");
}

TEST(AffineExprTest, StrWithSubstitutionParenthesises) {
  AffineExpr E = AffineExpr::symbol("i") * 2 + AffineExpr::symbol("M") +
                 AffineExpr::constant(1);
  std::string S = E.str([](const std::string &Sym) {
    return Sym == "i" ? std::string("tc_block_m * 128 + r") : Sym;
  });
  // Replaced symbols are parenthesised; unchanged ones are not.
  EXPECT_EQ(S, "M + 2 * (tc_block_m * 128 + r) + 1");
}

// ----- delinearize ---------------------------------------------------------

/// Runs delinearize, failing the test when it fails.
Delinearized mustDelinearize(const Polynomial &P,
                             const std::set<std::string> &Iters) {
  std::string Reason;
  auto D = delinearize(P, Iters, Reason);
  EXPECT_TRUE(D.has_value()) << "delinearize failed: " << Reason;
  EXPECT_TRUE(Reason.empty());
  return D ? *D : Delinearized{};
}

TEST(DelinearizeTest, MirroredColumnStaysInItsRow) {
  // i * N + (N - 1 - j) -> [i, N - 1 - j], not [i + 1, -1 - j].
  Delinearized D = mustDelinearize(
      sym("i") * sym("N") + sym("N") + cst(-1) + sym("j") * cst(-1), {"i", "j"});
  ASSERT_EQ(D.Index.size(), 2u);
  EXPECT_EQ(D.Index[0].str(), "i");
  EXPECT_EQ(D.Index[1].str(), "N - j - 1");
  EXPECT_EQ(D.Strides[0].str(), "N");
}

TEST(DelinearizeTest, RowMajor2D) {
  // i * K + k -> [i, k] with strides [K, 1].
  Delinearized D = mustDelinearize(sym("i") * sym("K") + sym("k"), {"i", "k"});
  ASSERT_EQ(D.Index.size(), 2u);
  ASSERT_EQ(D.Strides.size(), 2u);
  EXPECT_EQ(D.Index[0].str(), "i");
  EXPECT_EQ(D.Index[1].str(), "k");
  EXPECT_EQ(D.Strides[0].Terms, sym("K").Terms);
  EXPECT_EQ(D.Strides[1].asConstant(), std::optional<int64_t>(1));
}

TEST(DelinearizeTest, Batched3D) {
  // (b * M + i) * K + k -> [b, i, k] with strides [M*K, K, 1].
  Polynomial P = (sym("b") * sym("M") + sym("i")) * sym("K") + sym("k");
  Delinearized D = mustDelinearize(P, {"b", "i", "k"});
  ASSERT_EQ(D.Index.size(), 3u);
  ASSERT_EQ(D.Strides.size(), 3u);
  EXPECT_EQ(D.Index[0].str(), "b");
  EXPECT_EQ(D.Index[1].str(), "i");
  EXPECT_EQ(D.Index[2].str(), "k");
  EXPECT_EQ(D.Strides[0].Terms, (sym("M") * sym("K")).Terms);
  EXPECT_EQ(D.Strides[0].str(), "K * M");
  EXPECT_EQ(D.Strides[1].Terms, sym("K").Terms);
  EXPECT_EQ(D.Strides[2].asConstant(), std::optional<int64_t>(1));
}

TEST(DelinearizeTest, ParameterOffsetsStayInTheirDimension) {
  // (i - lo) * K + k + off -> [i - lo, k + off]: the terms lo * K and off
  // have no iterator; they offset the row and the column, not new strides.
  Polynomial P = (sym("i") + sym("lo") * Polynomial::constant(-1)) * sym("K") + sym("k") + sym("off");
  Delinearized D = mustDelinearize(P, {"i", "k"});
  ASSERT_EQ(D.Index.size(), 2u);
  EXPECT_EQ(D.Index[0].str(), "i - lo");
  EXPECT_EQ(D.Index[1].str(), "k + off");
  EXPECT_EQ(D.Strides[0].Terms, sym("K").Terms);
  // Batched: a batch offset - b0 * M * K lands in the batch dimension.
  Polynomial Q = ((sym("b") + sym("b0") * Polynomial::constant(-1)) * sym("M") + sym("i")) * sym("K") + sym("k");
  Delinearized E = mustDelinearize(Q, {"b", "i", "k"});
  ASSERT_EQ(E.Index.size(), 3u);
  EXPECT_EQ(E.Index[0].str(), "b - b0");
}

TEST(DelinearizeTest, ColumnMajor) {
  // k * M + i: the reduction iterator is the outer dimension.
  Delinearized D = mustDelinearize(sym("k") * sym("M") + sym("i"), {"i", "k"});
  ASSERT_EQ(D.Index.size(), 2u);
  EXPECT_EQ(D.Index[0].str(), "k");
  EXPECT_EQ(D.Index[1].str(), "i");
  EXPECT_EQ(D.Strides[0].Terms, sym("M").Terms);
  EXPECT_EQ(D.Strides[1].asConstant(), std::optional<int64_t>(1));
}

TEST(DelinearizeTest, OffsetsStayInTheirDimension) {
  // (i + 1) * N + j - 2 -> [i + 1, j - 2].
  Polynomial P = (sym("i") + cst(1)) * sym("N") + sym("j") + cst(-2);
  Delinearized D = mustDelinearize(P, {"i", "j"});
  ASSERT_EQ(D.Index.size(), 2u);
  EXPECT_EQ(D.Index[0].str(), "i + 1");
  EXPECT_EQ(D.Index[1].str(), "j - 2");
}

TEST(DelinearizeTest, ConstantStrides) {
  // 128 * i + k: a literal leading dimension splits like a parameter one.
  Delinearized D = mustDelinearize(sym("i") * 128 + sym("k"), {"i", "k"});
  ASSERT_EQ(D.Index.size(), 2u);
  EXPECT_EQ(D.Index[0].str(), "i");
  EXPECT_EQ(D.Index[1].str(), "k");
  EXPECT_EQ(D.Strides[0].asConstant(), std::optional<int64_t>(128));
  EXPECT_EQ(D.Strides[1].asConstant(), std::optional<int64_t>(1));
  // Three dimensions, a constant carried into the rows it fills:
  // (b * 64 + i + 1) * 128 + k + 2.
  Polynomial P = (sym("b") * 64 + sym("i") + cst(1)) * 128 + sym("k") + cst(2);
  Delinearized E = mustDelinearize(P, {"b", "i", "k"});
  ASSERT_EQ(E.Index.size(), 3u);
  EXPECT_EQ(E.Index[0].str(), "b");
  EXPECT_EQ(E.Index[1].str(), "i + 1");
  EXPECT_EQ(E.Index[2].str(), "k + 2");
  EXPECT_EQ(E.Strides[0].asConstant(), std::optional<int64_t>(8192));
  EXPECT_EQ(E.Strides[1].asConstant(), std::optional<int64_t>(128));
  // A negative constant: the rows it spans, rounded down.
  Delinearized N = mustDelinearize((sym("i") + cst(-1)) * 64 + sym("j"), {"i", "j"});
  ASSERT_EQ(N.Index.size(), 2u);
  EXPECT_EQ(N.Index[0].str(), "i - 1");
  EXPECT_EQ(N.Index[1].str(), "j");
  Delinearized O = mustDelinearize(sym("i") * 128 + sym("k") + cst(-2), {"i", "k"});
  EXPECT_EQ(O.Index[0].str(), "i - 1");
  EXPECT_EQ(O.Index[1].str(), "k + 126");
  // Column-major: k * 64 + i.
  Delinearized C = mustDelinearize(sym("k") * 64 + sym("i"), {"i", "k"});
  ASSERT_EQ(C.Index.size(), 2u);
  EXPECT_EQ(C.Index[0].str(), "k");
  EXPECT_EQ(C.Index[1].str(), "i");
  // Not a row-major chain (no unit coefficient, or 128 not a multiple of
  // 48), or one coefficient only: one dimension, as written.
  for (const Polynomial &Q : {sym("i") * 128 + sym("k") * 2, sym("i") * 128 + sym("j") * 48 + sym("k"),
                              sym("i") * 2 + sym("j") * 2}) {
    Delinearized F = mustDelinearize(Q, {"i", "j", "k"});
    EXPECT_EQ(F.Index.size(), 1u) << Q.str();
  }
}

TEST(DelinearizeTest, ConstantStridesBesideParameters) {
  // (i + off) * 128 + k: the parameter offsets the row.
  Polynomial P = (sym("i") + sym("off")) * 128 + sym("k");
  Delinearized D = mustDelinearize(P, {"i", "k"});
  ASSERT_EQ(D.Index.size(), 2u);
  EXPECT_EQ(D.Index[0].str(), "i + off");
  EXPECT_EQ(D.Index[1].str(), "k");
  EXPECT_EQ(D.Strides[0].asConstant(), std::optional<int64_t>(128));
  // A column offset and a multiple of a row: (i + 2 * r) * 64 + k + c.
  Polynomial Q = (sym("i") + sym("r") * 2) * 64 + sym("k") + sym("c");
  Delinearized E = mustDelinearize(Q, {"i", "k"});
  ASSERT_EQ(E.Index.size(), 2u);
  EXPECT_EQ(E.Index[0].str(), "i + 2 * r");
  EXPECT_EQ(E.Index[1].str(), "c + k");
  // (b * M + i) * 128 + k: strides 128 M, 128 and 1.
  Polynomial B = (sym("b") * sym("M") + sym("i")) * 128 + sym("k");
  Delinearized F = mustDelinearize(B, {"b", "i", "k"});
  ASSERT_EQ(F.Index.size(), 3u);
  EXPECT_EQ(F.Index[0].str(), "b");
  EXPECT_EQ(F.Index[1].str(), "i");
  EXPECT_EQ(F.Index[2].str(), "k");
  EXPECT_EQ(F.Strides[0].str(), "128 * M");
  EXPECT_EQ(F.Strides[1].asConstant(), std::optional<int64_t>(128));
  // (b * M + i - b0 * M) * 64 + k, the batch offset in its dimension.
  Polynomial G = ((sym("b") + sym("b0") * cst(-1)) * sym("M") + sym("i")) * 64 + sym("k");
  Delinearized H = mustDelinearize(G, {"b", "i", "k"});
  ASSERT_EQ(H.Index.size(), 3u);
  EXPECT_EQ(H.Index[0].str(), "b - b0");
  // Not a chain: b * N * 3 + i * 128 + k (3 N is not a multiple of 128)
  // keeps the parameter grouping, i and k in one dimension, as written.
  Delinearized J = mustDelinearize(sym("b") * sym("N") * 3 + sym("i") * 128 + sym("k"),
                                   {"b", "i", "k"});
  EXPECT_EQ(J.Index.size(), 2u);
}

TEST(DelinearizeTest, DimensionsAddressWhatTheSubscriptDoes) {
  // Random row-major linearisations of three iterators over literal and
  // parameter strides, with offsets: whatever the split, the sum of index
  // times stride is the subscript (delinearize refuses any other split).
  std::mt19937 Rng(7);
  const char *Params[] = {"M", "N", "off"};
  int Split = 0;
  for (int Trial = 0; Trial < 2000; ++Trial) {
    Polynomial P;
    for (const char *It : {"b", "i", "k"}) {
      Polynomial Stride = cst(std::uniform_int_distribution<int>(-3, 256)(Rng));
      for (const char *Q : Params)
        if (Rng() % 3 == 0)
          Stride = Stride * sym(Q);
      P = P + sym(It) * Stride;
    }
    for (const char *Q : Params)
      if (Rng() % 2)
        P = P + sym(Q) * cst(std::uniform_int_distribution<int>(-130, 130)(Rng));
    P = P + cst(std::uniform_int_distribution<int>(-300, 300)(Rng));
    std::string Reason;
    auto D = delinearize(P, {"b", "i", "k"}, Reason);
    if (!D)
      continue;
    ++Split;
    Polynomial Address;
    for (size_t I = 0; I < D->Index.size(); ++I)
      Address = Address + Polynomial::affine(D->Index[I]) * D->Strides[I];
    EXPECT_EQ(Address.Terms, P.Terms) << P.str();
  }
  EXPECT_GT(Split, 1000);
}

TEST(DelinearizeTest, ConstantsOnlyIsOneDimensional) {
  Delinearized D = mustDelinearize(cst(5), {"i", "k"});
  ASSERT_EQ(D.Index.size(), 1u);
  ASSERT_EQ(D.Strides.size(), 1u);
  EXPECT_TRUE(D.Index[0].isConstant());
  EXPECT_EQ(D.Index[0].Constant, 5);
  EXPECT_EQ(D.Strides[0].asConstant(), std::optional<int64_t>(1));

  Delinearized Z = mustDelinearize(cst(0), {"i"});
  ASSERT_EQ(Z.Index.size(), 1u);
  EXPECT_EQ(Z.Index[0].str(), "0");
}

TEST(DelinearizeTest, SingleIteratorIsOneDimensional) {
  Delinearized D = mustDelinearize(sym("k"), {"i", "k"});
  ASSERT_EQ(D.Index.size(), 1u);
  EXPECT_EQ(D.Index[0].str(), "k");
}

TEST(DelinearizeTest, FailsOnProductOfIterators) {
  std::string Reason;
  auto D = delinearize(sym("i") * sym("j"), {"i", "j"}, Reason);
  EXPECT_FALSE(D.has_value());
  EXPECT_NE(Reason.find("two loop iterators"), std::string::npos) << Reason;

  Reason.clear();
  EXPECT_FALSE(delinearize(sym("i") * sym("i"), {"i"}, Reason).has_value());
  EXPECT_NE(Reason.find("two loop iterators"), std::string::npos) << Reason;
}

TEST(DelinearizeTest, ProductOfParametersIsNotAnIteratorProduct) {
  // j * M * N: one iterator scaled by two parameters is fine.
  Delinearized D =
      mustDelinearize(sym("j") * sym("M") * sym("N") + sym("i") * sym("N") + sym("k"),
                      {"i", "j", "k"});
  ASSERT_EQ(D.Index.size(), 3u);
  EXPECT_EQ(D.Index[0].str(), "j");
  EXPECT_EQ(D.Strides[0].str(), "M * N");
}

TEST(DelinearizeTest, FailsOnNonChainedStrides) {
  // i * M + k * N: strides M and N do not divide one another.
  std::string Reason;
  auto D = delinearize(sym("i") * sym("M") + sym("k") * sym("N"), {"i", "k"},
                       Reason);
  EXPECT_FALSE(D.has_value());
  EXPECT_NE(Reason.find("row-major linearisation"), std::string::npos) << Reason;

  // b * M * K + i * N + k: N does not divide K * M.
  Reason.clear();
  D = delinearize(sym("b") * sym("M") * sym("K") + sym("i") * sym("N") + sym("k"),
                  {"b", "i", "k"}, Reason);
  EXPECT_FALSE(D.has_value());
  EXPECT_NE(Reason.find("row-major linearisation"), std::string::npos) << Reason;
}

TEST(PolynomialTest, OverflowIsStickyAndExact) {
  const int64_t Big = int64_t(1) << 62;
  Polynomial P = sym("i") * Polynomial::constant(Big);
  EXPECT_FALSE(P.Overflow);
  EXPECT_TRUE((P * 2).Overflow);                 // i * 2^63
  EXPECT_TRUE((P * 2 + sym("k")).Overflow);      // kept through a sum
  EXPECT_TRUE((sym("k") + P * 4).Overflow);      // from either operand
  EXPECT_FALSE((P * -2).Overflow);               // -2^63 fits
  EXPECT_EQ((P * -2).str(), "-9223372036854775808 * i");
  EXPECT_TRUE((P * -2 * -1).Overflow);           // its negation does not
  EXPECT_TRUE((Polynomial::constant(Big) + Polynomial::constant(Big)).Overflow);
  EXPECT_FALSE((Polynomial::constant(Big) + Polynomial::constant(-Big)).Overflow);
  AffineExpr A = *(P * -2).asAffine();
  EXPECT_FALSE(A.Overflow);
  EXPECT_TRUE((A * -1).Overflow);
  EXPECT_TRUE((A + A).Overflow);
}

} // namespace
