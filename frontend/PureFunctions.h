//===- PureFunctions.h - the functions a region may call ------------------===//
//
// One table of the side-effect-free functions the tool knows by name:
// extraction admits calls of them in a region (isPureFunction), and the
// constant folder (ConstantEval) evaluates them on known arguments. Keeping
// both in one entry means a function admitted in a region cannot silently
// miss its folding rule, or the other way round.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_PUREFUNCTIONS_H
#define TC_ANALYSIS_PUREFUNCTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace tc {

/// How the folder rounds the exact value a function's Fold computes.
enum class PureRounding {
  Exact,  // kept as is: conversions to float, __hmax, __hneg, ...
  Float,  // a float or double operation: the folder's own arithmetic
  Half,   // __half arithmetic and __float2half: to IEEE half
  BFloat, // __float2bfloat16: to bfloat16
};

/// The type of a call's value where it is an integer, in which arithmetic
/// truncates (`1 / __hlt(a, b)` divides integers).
enum class PureResult {
  Floating,
  Boolean,       // the __half comparisons
  LikeArguments, // abs, max, min: an integer where all arguments are
};

struct PureFunction {
  llvm::StringRef Name;
  /// The number of arguments of the calls the folder evaluates; a call with
  /// another number of arguments has an unknown value.
  unsigned Arity;
  /// The exact value on the arguments (Arity of them), before Rounding.
  double (*Fold)(llvm::ArrayRef<double> Args);
  PureRounding Rounding;
  PureResult Result;
  /// Whether a region may call it. The folder also knows __low2float,
  /// which extraction does not admit.
  bool InRegions;
};

/// Every entry, each name once.
llvm::ArrayRef<PureFunction> pureFunctions();

/// The entry named Name, or null.
const PureFunction *findPureFunction(llvm::StringRef Name);

/// Whether a region may call the function named Name: conversions and math.
bool isPureFunction(llvm::StringRef Name);

/// Whether the function named Name converts a 16-bit value to float, which
/// is exact (__half2float, __bfloat162float, __low2float).
bool isConversionToFloat(llvm::StringRef Name);

} // namespace tc

#endif
