//===- FloatRounding.h - a double in a narrower floating-point type -------===//
//
// The constant folder rounds values to __half and bf16 as the device stores
// them, and the kernel emitter asks whether a literal is exactly a 16-bit
// value. Both round through APFloat, which implements IEEE conversion to any
// format (to nearest, ties to even; overflow to infinity; denormals kept),
// here in one place so the two cannot disagree.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_FLOATROUNDING_H
#define TC_ANALYSIS_FLOATROUNDING_H

namespace llvm {
struct fltSemantics;
} // namespace llvm

namespace tc {

/// A double converted to a type of given semantics.
struct RoundedValue {
  /// The value in the type, as a double (which holds it exactly): X rounded
  /// to nearest, ties to even; infinite where X overflows the type; NaN where
  /// X is NaN.
  double Value;
  /// Whether the conversion was exact (APFloat reported opOK and lost no
  /// information).
  bool Exact;
  /// Whether the value is a denormal of the type.
  bool Denormal;
};

/// X rounded to the type of semantics S (e.g. llvm::APFloat::IEEEhalf()).
RoundedValue roundToSemantics(double X, const llvm::fltSemantics &S);

} // namespace tc

#endif
