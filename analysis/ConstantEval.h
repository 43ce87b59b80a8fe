//===- ConstantEval.h - the value of an expression tree at known leaves ---===//
//
// Folds an expression tree whose leaves are all known, in the arithmetic
// the kernel would use (float, with 16-bit conversions and __half
// intrinsics rounded to their type). Code generation asks it one question:
// what a prologue makes of an operand's zero padding. The kernels pad
// partial k tiles with zeros and rely on the other operand's zeros to keep
// padded products zero, which fails where f(0) is not finite (1 / x,
// logf(x)): inf * 0 is NaN.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_CONSTANTEVAL_H
#define TC_ANALYSIS_CONSTANTEVAL_H

#include "ExprTree.h"
#include "Model.h"

#include <functional>
#include <optional>

namespace tc {

/// The value of E where read AccessId has the value Leaf(AccessId); none
/// where a leaf is unknown (Leaf gives none, a scalar, an iterator) or an
/// operation is one this evaluator does not model. Conservative callers
/// treat none as "anything".
std::optional<double>
evaluateConstant(const ExprNode &E,
                 const std::function<std::optional<double>(unsigned AccessId)> &Leaf);

/// Whether prologue F of an operand read by access Element is known to be
/// finite, once stored as Stage, where the element is 0 (the operand's
/// zero padding).
bool finiteAtZero(const ExprNode &F, unsigned Element, ElementType Stage);

} // namespace tc

#endif
