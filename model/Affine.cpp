//===- Affine.cpp ---------------------------------------------------------===//
#include "Affine.h"
#include <numeric>
#include <optional>
#include <algorithm>
#include <iterator>

namespace tc {

// Checked int64_t arithmetic: a subscript like `A[i * 4611686018427387904 *
// 4]` must be refused, not wrapped into a different access.
static void addTo(int64_t &Acc, int64_t V, bool &Overflow) {
  Overflow |= __builtin_add_overflow(Acc, V, &Acc);
}
static int64_t product(int64_t A, int64_t B, bool &Overflow) {
  int64_t R;
  Overflow |= __builtin_mul_overflow(A, B, &R);
  return R;
}
// |C| as text; -INT64_MIN has no int64_t value.
static std::string magnitude(int64_t C) {
  uint64_t A = C < 0 ? 0 - static_cast<uint64_t>(C) : static_cast<uint64_t>(C);
  return std::to_string(A);
}

bool AffineExpr::isConstant() const {
  for (auto &[S, C] : Coeffs)
    if (C != 0)
      return false;
  return true;
}

bool AffineExpr::involves(const std::string &S) const {
  auto It = Coeffs.find(S);
  return It != Coeffs.end() && It->second != 0;
}

AffineExpr AffineExpr::renamed(const std::map<std::string, std::string> &Names) const {
  AffineExpr R = *this;
  R.Coeffs.clear();
  for (auto &[Sym, C] : Coeffs) {
    auto It = Names.find(Sym);
    R.Coeffs[It == Names.end() ? Sym : It->second] += C;
  }
  return R;
}

std::string AffineExpr::str() const {
  return str([](const std::string &S) { return S; });
}

std::string
AffineExpr::str(const std::function<std::string(const std::string &)> &Subst) const {
  std::string Out;
  for (auto &[S, C] : Coeffs) {
    if (C == 0)
      continue;
    std::string Sym = Subst(S);
    if (Sym != S)
      Sym = "(" + Sym + ")";
    if (!Out.empty())
      Out += C < 0 ? " - " : " + ";
    else if (C < 0)
      Out += "-";
    Out += C == 1 || C == -1 ? Sym : magnitude(C) + " * " + Sym;
  }
  if (Out.empty())
    return std::to_string(Constant);
  if (Constant > 0)
    Out += " + " + std::to_string(Constant);
  else if (Constant < 0)
    Out += " - " + magnitude(Constant);
  return Out;
}

AffineExpr AffineExpr::operator+(const AffineExpr &O) const {
  AffineExpr R = *this;
  R.Overflow |= O.Overflow;
  for (auto &[S, C] : O.Coeffs)
    addTo(R.Coeffs[S], C, R.Overflow);
  addTo(R.Constant, O.Constant, R.Overflow);
  return R;
}

AffineExpr AffineExpr::operator*(int64_t F) const {
  AffineExpr R = *this;
  for (auto &[S, C] : R.Coeffs)
    C = product(C, F, R.Overflow);
  R.Constant = product(R.Constant, F, R.Overflow);
  return R;
}

Polynomial Polynomial::constant(int64_t C) {
  Polynomial P;
  if (C != 0)
    P.Terms[{}] = C;
  return P;
}

Polynomial Polynomial::affine(const AffineExpr &E) {
  Polynomial R = constant(E.Constant);
  for (auto &[Sym, C] : E.Coeffs)
    R = R + symbol(Sym) * C;
  R.Overflow |= E.Overflow;
  return R;
}

Polynomial Polynomial::symbol(const std::string &S) {
  Polynomial P;
  P.Terms[{S}] = 1;
  return P;
}

Polynomial Polynomial::operator+(const Polynomial &O) const {
  Polynomial R = *this;
  R.Overflow |= O.Overflow;
  for (auto &[M, C] : O.Terms) {
    int64_t &T = R.Terms[M];
    addTo(T, C, R.Overflow);
    if (T == 0)
      R.Terms.erase(M);
  }
  return R;
}

Polynomial Polynomial::operator*(const Polynomial &O) const {
  Polynomial R;
  R.Overflow = Overflow || O.Overflow;
  for (auto &[M1, C1] : Terms)
    for (auto &[M2, C2] : O.Terms) {
      Monomial M = M1;
      M.insert(M.end(), M2.begin(), M2.end());
      std::sort(M.begin(), M.end());
      int64_t &T = R.Terms[M];
      addTo(T, product(C1, C2, R.Overflow), R.Overflow);
      if (T == 0)
        R.Terms.erase(M);
    }
  return R;
}

Polynomial Polynomial::operator*(int64_t F) const {
  return *this * Polynomial::constant(F);
}

std::optional<int64_t> Polynomial::asConstant() const {
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

std::optional<AffineExpr> Polynomial::asAffine() const {
  AffineExpr E;
  E.Overflow = Overflow;
  for (auto &[M, C] : Terms) {
    if (M.empty())
      addTo(E.Constant, C, E.Overflow);
    else if (M.size() == 1)
      addTo(E.Coeffs[M[0]], C, E.Overflow);
    else
      return std::nullopt;
  }
  return E;
}

std::string Polynomial::str() const {
  if (Terms.empty())
    return "0";
  std::string Out;
  for (auto &[M, C] : Terms) {
    std::string T;
    for (auto &S : M)
      T += (T.empty() ? "" : " * ") + S;
    if (!Out.empty())
      Out += C < 0 ? " - " : " + ";
    else if (C < 0)
      Out += "-";
    if (T.empty())
      Out += magnitude(C);
    else
      Out += C == 1 || C == -1 ? T : magnitude(C) + " * " + T;
  }
  return Out;
}

static bool divides(const Polynomial::Monomial &Small,
                    const Polynomial::Monomial &Big) {
  return std::includes(Big.begin(), Big.end(), Small.begin(), Small.end());
}

/// `E`, affine with constant coefficients, split into dimensions whose
/// strides are its iterators' distinct coefficients (the smallest 1, each
/// dividing the next; at least two of them), outermost first; its
/// constant carried into the outer ones as the whole rows it spans (rounded
/// down), the rest in the innermost; a parameter's term into the outermost
/// dimension whose stride divides its coefficient (`(i + off) * 128 + k`
/// is row i + off). None otherwise.
static std::optional<Delinearized> splitConstantStrides(const AffineExpr &E,
                                                        const std::set<std::string> &Iterators) {
  if (E.Overflow)
    return std::nullopt;
  std::set<int64_t> Coefficients;
  for (auto &[Sym, C] : E.Coeffs) {
    if (C == INT64_MIN)
      return std::nullopt;
    if (C != 0 && Iterators.count(Sym))
      Coefficients.insert(C < 0 ? -C : C);
  }
  if (Coefficients.size() < 2 || *Coefficients.begin() != 1)
    return std::nullopt;
  std::vector<int64_t> Strides(Coefficients.rbegin(), Coefficients.rend());
  for (size_t D = 0; D + 1 < Strides.size(); ++D)
    if (Strides[D] % Strides[D + 1] != 0)
      return std::nullopt;
  Delinearized R;
  R.Index.resize(Strides.size());
  for (auto &[Sym, C] : E.Coeffs) {
    if (C == 0)
      continue;
    const int64_t Magnitude = C < 0 ? -C : C;
    const size_t D = std::find_if(Strides.begin(), Strides.end(),
                                  [&](int64_t S) { return Magnitude % S == 0; }) -
                     Strides.begin();
    R.Index[D].Coeffs[Sym] = C / Strides[D];
  }
  // The rows a constant spans, rounded down: (i - 1) * 64 + j is row i - 1.
  int64_t Constant = E.Constant;
  for (size_t D = 0; D < Strides.size(); ++D) {
    if (Strides[D] > 1) {
      int64_t Rows = Constant / Strides[D];
      if (Constant % Strides[D] < 0)
        --Rows;
      R.Index[D].Constant = Rows;
      Constant -= Rows * Strides[D];
    }
  }
  R.Index.back().Constant += Constant;
  for (int64_t S : Strides)
    R.Strides.push_back(Polynomial::constant(S));
  return R;
}

/// The product of `M`'s symbols times `C`.
static Polynomial scaledMonomial(int64_t C, const Polynomial::Monomial &M) {
  Polynomial S = Polynomial::constant(C);
  for (auto &Sym : M)
    S = S * Polynomial::symbol(Sym);
  return S;
}

/// Literal strides beside parameter ones, `(b * M + i) * 128 + k`: the
/// terms grouped by their parameter part (`Groups`, as delinearize builds
/// them), the group whose iterators have several coefficients split by
/// them (splitConstantStrides: i and k of stride 128 and 1), and the
/// common factor of another group's coefficients moved into its stride
/// (b of stride 128 M). The dimensions, ordered by their strides, must be
/// a chain of divisors. None where no group splits, or no chain results.
static std::optional<Delinearized>
splitMixedStrides(const std::map<Polynomial::Monomial, AffineExpr> &Groups,
                  const std::set<std::string> &Iterators) {
  struct Dimension {
    int64_t Factor;
    Polynomial::Monomial Params;
    AffineExpr Index;
  };
  std::vector<Dimension> Dims;
  bool Split = false;
  for (auto &[Key, G] : Groups) {
    if (G.Overflow)
      return std::nullopt;
    if (auto S = splitConstantStrides(G, Iterators)) {
      for (size_t D = 0; D < S->Index.size(); ++D)
        Dims.push_back({*S->Strides[D].asConstant(), Key, S->Index[D]});
      Split = true;
      continue;
    }
    int64_t Common = 0;
    for (auto &[Sym, C] : G.Coeffs)
      Common = std::gcd(Common, C == INT64_MIN ? 1 : (C < 0 ? -C : C));
    Common = std::gcd(Common, G.Constant == INT64_MIN ? 1 : std::abs(G.Constant));
    if (Key.empty() || Common <= 1) {
      Dims.push_back({1, Key, G});
      continue;
    }
    AffineExpr Index;
    for (auto &[Sym, C] : G.Coeffs)
      Index.Coeffs[Sym] = C / Common;
    Index.Constant = G.Constant / Common;
    Dims.push_back({Common, Key, Index});
  }
  if (!Split)
    return std::nullopt;
  // Outermost first: more parameters, then the larger factor.
  std::stable_sort(Dims.begin(), Dims.end(), [](const Dimension &A, const Dimension &B) {
    return std::make_pair(A.Params.size(), A.Factor) > std::make_pair(B.Params.size(), B.Factor);
  });
  for (size_t D = 0; D + 1 < Dims.size(); ++D) {
    const Dimension &Outer = Dims[D], &Inner = Dims[D + 1];
    if (Outer.Factor % Inner.Factor != 0 || !divides(Inner.Params, Outer.Params) ||
        (Outer.Factor == Inner.Factor && Outer.Params == Inner.Params))
      return std::nullopt;
  }
  if (Dims.back().Factor != 1 || !Dims.back().Params.empty())
    return std::nullopt;
  Delinearized R;
  for (const Dimension &D : Dims) {
    R.Index.push_back(D.Index);
    R.Strides.push_back(scaledMonomial(D.Factor, D.Params));
    if (R.Strides.back().Overflow)
      return std::nullopt;
  }
  return R;
}

/// The dimensions of `P` (delinearize, before its check).
static std::optional<Delinearized> splitDimensions(const Polynomial &P,
                                                   const std::set<std::string> &Iterators,
                                                   std::string &Reason) {
  // Group the terms by their parameter part; the iterator part of each term
  // (at most one iterator) becomes the index of that group's dimension.
  std::map<Polynomial::Monomial, AffineExpr> Groups;
  Groups[{}]; // the innermost dimension always exists
  for (auto &[M, C] : P.Terms) {
    Polynomial::Monomial Params;
    std::string Iter;
    for (auto &S : M) {
      if (!Iterators.count(S)) {
        Params.push_back(S);
        continue;
      }
      if (!Iter.empty()) {
        Reason = "the subscript multiplies two loop iterators";
        return std::nullopt;
      }
      Iter = S;
    }
    AffineExpr &G = Groups[Params];
    if (Iter.empty())
      addTo(G.Constant, C, G.Overflow);
    else
      addTo(G.Coeffs[Iter], C, G.Overflow);
  }
  // A term without an iterator whose parameter part is another dimension's
  // stride times one parameter is an offset in that dimension, not a
  // dimension of its own: `(i - lo) * N + j` is row i - lo of stride N (the
  // address is the same either way). A dimension with iterator terms is
  // preferred, then the one of the larger stride.
  auto HasIterator = [&](const AffineExpr &G) {
    for (auto &[Sym, C] : G.Coeffs)
      if (C != 0 && Iterators.count(Sym))
        return true;
    return false;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto It = Groups.begin(); It != Groups.end() && !Changed; ++It) {
      const Polynomial::Monomial &Key = It->first;
      if (Key.empty() || HasIterator(It->second) || !It->second.Coeffs.empty())
        continue;
      std::optional<std::pair<Polynomial::Monomial, std::string>> Best;
      for (size_t D = 0; D < Key.size(); ++D) {
        Polynomial::Monomial Rest = Key;
        Rest.erase(Rest.begin() + D);
        auto H = Groups.find(Rest);
        if (H == Groups.end())
          continue;
        auto Rank = [&](const Polynomial::Monomial &K) {
          return std::make_pair(HasIterator(Groups[K]), K.size());
        };
        if (!Best || Rank(Rest) > Rank(Best->first))
          Best = std::make_pair(Rest, Key[D]);
      }
      if (!Best)
        continue;
      AffineExpr &H = Groups[Best->first];
      addTo(H.Coeffs[Best->second], It->second.Constant, H.Overflow);
      H.Overflow |= It->second.Overflow;
      Groups.erase(It);
      Changed = true;
    }
  }
  // Literal leading dimensions (`i * 128 + k`, `(b * M + i) * 128 + k`):
  // the iterators' coefficients are strides too.
  if (auto Split = splitMixedStrides(Groups, Iterators))
    return Split;
  // Dimensions, innermost first, ordered by the degree of their stride.
  std::vector<Polynomial::Monomial> Keys;
  for (auto &[K, _] : Groups)
    Keys.push_back(K);
  std::stable_sort(Keys.begin(), Keys.end(),
                   [](auto &A, auto &B) { return A.size() < B.size(); });
  for (size_t D = 1; D < Keys.size(); ++D)
    if (Keys[D].size() == Keys[D - 1].size() || !divides(Keys[D - 1], Keys[D])) {
      Reason = "the subscript is not a row-major linearisation (its "
               "parameter strides do not divide one another)";
      return std::nullopt;
    }
  Delinearized R;
  for (auto It = Keys.rbegin(); It != Keys.rend(); ++It) {
    R.Index.push_back(Groups[*It]);
    R.Strides.push_back(scaledMonomial(1, *It));
  }
  return R;
}

std::optional<Delinearized> delinearize(const Polynomial &P,
                                        const std::set<std::string> &Iterators,
                                        std::string &Reason) {
  std::optional<Delinearized> R = splitDimensions(P, Iterators, Reason);
  if (!R)
    return R;
  // A mirrored index (`C[i * N + (N - 1 - j)]`) splits as row i + 1 and
  // column -1 - j, which is never inside a row; the same address is row i
  // and column N - 1 - j. Where a dimension's index is negative for every
  // value of its iterators (a negative constant, no positive coefficient)
  // and the outer stride is the inner one times one size, move one row.
  for (size_t D = R->Index.size(); D-- > 1;) {
    AffineExpr &Inner = R->Index[D];
    bool Negative = Inner.Constant < 0;
    for (const auto &[Sym, C] : Inner.Coeffs)
      Negative &= C <= 0;
    if (!Negative || R->Strides[D - 1].Terms.size() != 1 || R->Strides[D].Terms.size() != 1)
      continue;
    const auto &[Outer, OuterC] = *R->Strides[D - 1].Terms.begin();
    const auto &[InnerM, InnerC] = *R->Strides[D].Terms.begin();
    if (OuterC != InnerC || Outer.size() != InnerM.size() + 1 ||
        !std::includes(Outer.begin(), Outer.end(), InnerM.begin(), InnerM.end()))
      continue;
    std::vector<std::string> Extra;
    std::set_difference(Outer.begin(), Outer.end(), InnerM.begin(), InnerM.end(),
                        std::back_inserter(Extra));
    if (Extra.size() != 1 || Iterators.count(Extra[0]))
      continue;
    Inner = Inner + AffineExpr::symbol(Extra[0]);
    R->Index[D - 1] = R->Index[D - 1] + AffineExpr::constant(-1);
  }
  // The dimensions must address exactly what the subscript does: the sum
  // of index times stride is the subscript, term for term. A split that
  // does not (a bug, or an overflow) is refused rather than modelled.
  Polynomial Address;
  for (size_t D = 0; D < R->Index.size() && D < R->Strides.size(); ++D)
    Address = Address + Polynomial::affine(R->Index[D]) * R->Strides[D];
  if (R->Index.size() != R->Strides.size() || Address.Overflow || P.Overflow ||
      Address.Terms != P.Terms) {
    Reason = "the subscript could not be split into dimensions exactly";
    return std::nullopt;
  }
  return R;
}

} // namespace tc
