//===- ConstantEval.h - the value of an expression tree at known leaves ---===//
//
// Folds an expression tree whose leaves are all known, in the arithmetic
// the kernel may use (float, flushed float or double; integers exact, 16-bit
// conversions and __half intrinsics rounded to their type), and answers
// one question for the idiom:
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

namespace tc {

/// Whether prologue F of an operand read by access Element is known to be
/// finite, once stored as Stage, where the element is 0 (the operand's
/// zero padding).
bool finiteAtZero(const ExprNode &F, unsigned Element, ElementType Stage);

} // namespace tc

#endif
