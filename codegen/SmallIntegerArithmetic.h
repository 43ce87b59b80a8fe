//===- SmallIntegerArithmetic.h - integer prologues computed in fp32 ------===//
//
// A prologue such as `w + shift[j]` (an 8-bit weight and an 8-bit shift,
// promoted to int) computes in int, then converts to float. The kernels
// hold the element as a float already, so printed as written it costs a
// float -> int conversion per element and another back, and the registers
// of both (a raw-fragment kernel beside a producer warp spilled on them).
// Where every value of the integer arithmetic is an integer of magnitude at
// most 2^24, fp32 holds it exactly and its +, - and * are exact, so the
// same expression in fp32 gives the same number: this rewrites such
// subtrees into float arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef TC_CODEGEN_SMALLINTEGERARITHMETIC_H
#define TC_CODEGEN_SMALLINTEGERARITHMETIC_H

#include "ExprTree.h"

#include <functional>
#include <optional>
#include <string>

namespace tc {

/// The values an integer expression takes, where they are known to be
/// bounded (a narrow type's range, a literal).
struct IntegerRange {
  double Min = 0, Max = 0;
};

/// The range of an integer type by its canonical spelling ("signed char",
/// "unsigned short", "bool", ...), for types of at most 16 bits; none for
/// wider types and non-integers (their values are not known to be small).
/// For char, the values of either signedness (a read's; a conversion to
/// char keeps only 0..127 whichever it is).
std::optional<IntegerRange> narrowIntegerRange(const std::string &Type);

/// E with each integer subtree that contains arithmetic and whose values
/// all lie within +-2^24 computed in float instead (reads and literals
/// converted to float, integer conversions that keep their values dropped,
/// and + 0.0f where fp32 could make a -0 that int makes +0). `ReadType`
/// gives the canonical element type of a read; a read is an integer only
/// under an integer conversion (C++ promotes every narrow operand of
/// arithmetic; a bare read may be an element stripped of its conversion
/// to float). Subtrees of unsigned
/// arithmetic (which wraps), division, remainder, shifts, bit operations,
/// comparisons, calls, scalars or iterators are left as written.
ExprPtr smallIntegerArithmeticInFloat(const ExprPtr &E,
                                      const std::function<std::string(unsigned)> &ReadType);

} // namespace tc

#endif
