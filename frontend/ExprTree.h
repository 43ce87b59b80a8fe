//===- ExprTree.h - the value computed by a statement ---------------------===//
//
// Each statement carries the expression tree of the value it stores (the
// paper's "expression tree" attribute, Sec. III). Leaves are array reads
// (through the statement's access relations), loop-invariant scalars,
// iterators and literals; inner nodes are operators, casts and calls of
// pure functions. Code generation prints the tree with reads redirected
// (to registers, shared memory or global memory).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_EXPRTREE_H
#define TC_ANALYSIS_EXPRTREE_H

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tc {

struct ExprNode {
  enum Kind { Read, Scalar, Iterator, Literal, Unary, Binary, Conditional, Cast, Call };
  Kind K;
  std::string Text;     // operator, literal, scalar/iterator name, callee, cast type
  unsigned AccessId = 0; // for Read: index into the statement's reads
  /// For Literal: its value is +0 (set by extraction from Clang's value of
  /// the literal, not from its spelling: 0x0p0, 0'0 and 0ull are +0, 0x0F
  /// is not).
  bool IsPositiveZero = false;
  /// For Literal: its value as Clang reads it (false and true are 0 and 1),
  /// and whether it is of integer type (`1 / 2` is 0).
  double Value = 0;
  bool IsInteger = false;
  bool IsUnsigned = false;
  /// For Binary: an overloaded operator of a class type (__half,
  /// __nv_bfloat16), which computes in that type, not in float.
  bool IsOperatorCall = false;
  std::vector<std::shared_ptr<ExprNode>> Ops;

  static std::shared_ptr<ExprNode> make(Kind K, std::string Text,
                                        std::vector<std::shared_ptr<ExprNode>> Ops = {});
};
using ExprPtr = std::shared_ptr<ExprNode>;

/// How leaves are spelled in generated code.
struct ExprPrinter {
  std::function<std::string(unsigned AccessId)> PrintRead;
  std::function<std::string(const std::string &Iter)> PrintIterator;
  std::function<std::string(const std::string &Scalar)> PrintScalar =
      [](const std::string &S) { return S; };
  /// Calls are of the library's functions (a region may call no others),
  /// named from the global namespace in generated code, so that a function
  /// of the user's namespace cannot capture them (`std::tanh` is ::tanh's
  /// float overload in device code); as written in messages.
  bool QualifiedCalls = true;
  /// Subtrees printed as a name instead (a local that holds their value).
  std::map<const ExprNode *, std::string> Named;
  std::string print(const ExprNode &E) const;
};

/// The tree in the paper's notation, e.g. `add(R0, mul(cvt(R1), cvt(R2)))`.
std::string describe(const ExprNode &E);

/// Strips value-preserving conversions to float (`__half2float`, casts).
const ExprNode *stripConversions(const ExprNode *E);

/// Whether E is a literal whose value is +0 (ExprNode::IsPositiveZero),
/// maybe under conversions to float: adding it to a sum that starts at +0
/// changes no bit of the sum (in round-to-nearest arithmetic without
/// flushing denormals; with --use_fast_math the addition of 0.0f would also
/// flush a denormal sum to zero).
bool isPositiveZeroLiteral(const ExprNode *E);

} // namespace tc

#endif
