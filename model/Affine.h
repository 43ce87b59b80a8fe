//===- Affine.h - integer expressions of iterators and parameters --------===//
//
// Subscripts and bounds are first read into a `Polynomial` over the loop
// iterators and the region's parameters, because real code writes
// linearised subscripts (`A[i * lda + k]`, `A[(b * M + i) * K + k]`) whose
// products of an iterator and a parameter are not affine. `delinearize`
// recovers the multi-dimensional view (PPCG/Polly do the same), after which
// every index is an `AffineExpr` that isl can take.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_AFFINE_H
#define TC_ANALYSIS_AFFINE_H

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tc {

/// c0 + sum(coeff * symbol): symbols are iterator or parameter names.
struct AffineExpr {
  std::map<std::string, int64_t> Coeffs;
  int64_t Constant = 0;

  static AffineExpr constant(int64_t C) { AffineExpr E; E.Constant = C; return E; }
  static AffineExpr symbol(const std::string &S) { AffineExpr E; E.Coeffs[S] = 1; return E; }
  bool isConstant() const;
  bool isZero() const { return isConstant() && Constant == 0; }
  bool involves(const std::string &S) const;
  /// The expression with each symbol that Names maps renamed.
  AffineExpr renamed(const std::map<std::string, std::string> &Names) const;
  /// Text in C and isl syntax alike, e.g. "2*i + K - 1".
  std::string str() const;
  /// Text with each symbol replaced by `Subst(symbol)` (parenthesised).
  std::string str(const std::function<std::string(const std::string &)> &Subst) const;
  AffineExpr operator+(const AffineExpr &O) const;
  AffineExpr operator*(int64_t F) const;
  /// Set, and kept through later arithmetic, once a coefficient or the
  /// constant leaves int64_t: the value is then meaningless.
  bool Overflow = false;
};

/// A sum of integer-coefficient monomials over symbols.
class Polynomial {
public:
  using Monomial = std::vector<std::string>; // sorted multiset of symbols
  std::map<Monomial, int64_t> Terms;

  static Polynomial constant(int64_t C);
  static Polynomial symbol(const std::string &S);
  /// `E` as a polynomial (the inverse of asAffine).
  static Polynomial affine(const AffineExpr &E);
  Polynomial operator+(const Polynomial &O) const;
  Polynomial operator*(const Polynomial &O) const;
  Polynomial operator*(int64_t F) const;
  std::optional<int64_t> asConstant() const;
  /// The affine form, if no term has degree above one.
  std::optional<AffineExpr> asAffine() const;
  std::string str() const;
  /// As AffineExpr::Overflow.
  bool Overflow = false;
};

/// A linearised subscript split into dimensions: Index[d] is affine in the
/// iterators (and parameters); Strides[d] is the product of parameters or
/// the constant that dimension d is scaled by (innermost stride is "1").
struct Delinearized {
  std::vector<AffineExpr> Index;
  std::vector<Polynomial> Strides;
};

/// Splits `P` by the parameter part of its terms. Fails (returns a reason)
/// when a term is nonlinear in the iterators or when the parameter parts do
/// not form a chain of divisors (the shape of a row-major linearisation).
std::optional<Delinearized> delinearize(const Polynomial &P,
                                        const std::set<std::string> &Iterators,
                                        std::string &Reason);

} // namespace tc

#endif
