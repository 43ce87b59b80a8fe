//===- PureFunctions.cpp - the functions a region may call ----------------===//
#include "PureFunctions.h"

#include "llvm/ADT/StringMap.h"

#include <cassert>
#include <cmath>

namespace tc {
namespace {

using Args = llvm::ArrayRef<double>;
using R = PureRounding;
using T = PureResult;

// The exact value of each family of functions on its arguments. They compute
// in double: the table's rounding then gives the value in the function's
// type (float, half, or none at all).
double first(Args X) { return X[0]; }
double negate(Args X) { return -X[0]; }
double add(Args X) { return X[0] + X[1]; }
double subtract(Args X) { return X[0] - X[1]; }
double multiply(Args X) { return X[0] * X[1]; }
double divide(Args X) { return X[0] / X[1]; }
double fusedMultiplyAdd(Args X) { return std::fma(X[0], X[1], X[2]); }
// Comparisons give 0 or 1.
double less(Args X) { return X[0] < X[1] ? 1.0 : 0.0; }
double greater(Args X) { return X[0] > X[1] ? 1.0 : 0.0; }
double lessEqual(Args X) { return X[0] <= X[1] ? 1.0 : 0.0; }
double greaterEqual(Args X) { return X[0] >= X[1] ? 1.0 : 0.0; }
double equal(Args X) { return X[0] == X[1] ? 1.0 : 0.0; }
double notEqual(Args X) { return X[0] != X[1] ? 1.0 : 0.0; }
double maximum(Args X) { return std::fmax(X[0], X[1]); }
double minimum(Args X) { return std::fmin(X[0], X[1]); }
double power(Args X) { return std::pow(X[0], X[1]); }
double copySign(Args X) { return std::copysign(X[0], X[1]); }
double positiveDifference(Args X) { return std::fdim(X[0], X[1]); }
double modulo(Args X) { return std::fmod(X[0], X[1]); }
double hypotenuse(Args X) { return std::hypot(X[0], X[1]); }
double exponential(Args X) { return std::exp(X[0]); }
double exponential2(Args X) { return std::exp2(X[0]); }
double exponentialMinus1(Args X) { return std::expm1(X[0]); }
double logarithm(Args X) { return std::log(X[0]); }
double logarithm2(Args X) { return std::log2(X[0]); }
double logarithm10(Args X) { return std::log10(X[0]); }
double logarithm1Plus(Args X) { return std::log1p(X[0]); }
double squareRoot(Args X) { return std::sqrt(X[0]); }
double reciprocalSquareRoot(Args X) { return 1.0 / std::sqrt(X[0]); }
double reciprocal(Args X) { return 1.0 / X[0]; }
double cubeRoot(Args X) { return std::cbrt(X[0]); }
double hyperbolicTangent(Args X) { return std::tanh(X[0]); }
double errorFunction(Args X) { return std::erf(X[0]); }
double complementaryErrorFunction(Args X) { return std::erfc(X[0]); }
double normalCdf(Args X) { return 0.5 * std::erfc(-X[0] / std::sqrt(2.0)); }
double absolute(Args X) { return std::fabs(X[0]); }
double sine(Args X) { return std::sin(X[0]); }
double cosine(Args X) { return std::cos(X[0]); }
double tangent(Args X) { return std::tan(X[0]); }
double arcTangent(Args X) { return std::atan(X[0]); }
double hyperbolicSine(Args X) { return std::sinh(X[0]); }
double hyperbolicCosine(Args X) { return std::cosh(X[0]); }
double floorOf(Args X) { return std::floor(X[0]); }
double ceilingOf(Args X) { return std::ceil(X[0]); }
double truncation(Args X) { return std::trunc(X[0]); }
double roundAway(Args X) { return std::round(X[0]); }
double roundEven(Args X) { return std::rint(X[0]); }

const PureFunction Table[] = {
    // Conversions between float and the 16-bit types. __low2float is folded
    // but not admitted in a region (extraction never produces it).
    {"__half2float", 1, first, R::Exact, T::Floating, true},
    {"__bfloat162float", 1, first, R::Exact, T::Floating, true},
    {"__low2float", 1, first, R::Exact, T::Floating, false},
    {"__float2half", 1, first, R::Half, T::Floating, true},
    {"__float2half_rn", 1, first, R::Half, T::Floating, true},
    {"__float2bfloat16", 1, first, R::BFloat, T::Floating, true},
    {"__float2bfloat16_rn", 1, first, R::BFloat, T::Floating, true},

    // __half arithmetic rounds each result to half; the maximum, minimum,
    // negation and absolute value of halves are halves.
    {"__hadd", 2, add, R::Half, T::Floating, true},
    {"__hsub", 2, subtract, R::Half, T::Floating, true},
    {"__hmul", 2, multiply, R::Half, T::Floating, true},
    {"__hdiv", 2, divide, R::Half, T::Floating, true},
    {"__hfma", 3, fusedMultiplyAdd, R::Half, T::Floating, true},
    {"__hmax", 2, maximum, R::Exact, T::Floating, true},
    {"__hmin", 2, minimum, R::Exact, T::Floating, true},
    {"__hneg", 1, negate, R::Exact, T::Floating, true},
    {"__habs", 1, absolute, R::Exact, T::Floating, true},
    // __half comparisons are bool: 0 or 1, exact in any type.
    {"__hlt", 2, less, R::Exact, T::Boolean, true},
    {"__hgt", 2, greater, R::Exact, T::Boolean, true},
    {"__hle", 2, lessEqual, R::Exact, T::Boolean, true},
    {"__hge", 2, greaterEqual, R::Exact, T::Boolean, true},
    {"__heq", 2, equal, R::Exact, T::Boolean, true},
    {"__hne", 2, notEqual, R::Exact, T::Boolean, true},

    // Math of float or double: computed exactly, then rounded as the folder
    // rounds any floating-point operation. abs, max and min are overloaded
    // for integers too.
    {"fmaf", 3, fusedMultiplyAdd, R::Float, T::Floating, true},
    {"fma", 3, fusedMultiplyAdd, R::Float, T::Floating, true},
    {"fmaxf", 2, maximum, R::Float, T::Floating, true},
    {"fmax", 2, maximum, R::Float, T::Floating, true},
    {"max", 2, maximum, R::Float, T::LikeArguments, true},
    {"fminf", 2, minimum, R::Float, T::Floating, true},
    {"fmin", 2, minimum, R::Float, T::Floating, true},
    {"min", 2, minimum, R::Float, T::LikeArguments, true},
    {"powf", 2, power, R::Float, T::Floating, true},
    {"pow", 2, power, R::Float, T::Floating, true},
    {"copysignf", 2, copySign, R::Float, T::Floating, true},
    {"copysign", 2, copySign, R::Float, T::Floating, true},
    {"fdimf", 2, positiveDifference, R::Float, T::Floating, true},
    {"fmodf", 2, modulo, R::Float, T::Floating, true},
    {"fmod", 2, modulo, R::Float, T::Floating, true},
    {"hypotf", 2, hypotenuse, R::Float, T::Floating, true},
    {"__fdividef", 2, divide, R::Float, T::Floating, true},
    {"expf", 1, exponential, R::Float, T::Floating, true},
    {"exp", 1, exponential, R::Float, T::Floating, true},
    {"__expf", 1, exponential, R::Float, T::Floating, true},
    {"exp2f", 1, exponential2, R::Float, T::Floating, true},
    {"exp2", 1, exponential2, R::Float, T::Floating, true},
    {"expm1f", 1, exponentialMinus1, R::Float, T::Floating, true},
    {"expm1", 1, exponentialMinus1, R::Float, T::Floating, true},
    {"logf", 1, logarithm, R::Float, T::Floating, true},
    {"log", 1, logarithm, R::Float, T::Floating, true},
    {"__logf", 1, logarithm, R::Float, T::Floating, true},
    {"log2f", 1, logarithm2, R::Float, T::Floating, true},
    {"log2", 1, logarithm2, R::Float, T::Floating, true},
    {"log10f", 1, logarithm10, R::Float, T::Floating, true},
    {"log10", 1, logarithm10, R::Float, T::Floating, true},
    {"log1pf", 1, logarithm1Plus, R::Float, T::Floating, true},
    {"log1p", 1, logarithm1Plus, R::Float, T::Floating, true},
    {"sqrtf", 1, squareRoot, R::Float, T::Floating, true},
    {"sqrt", 1, squareRoot, R::Float, T::Floating, true},
    {"rsqrtf", 1, reciprocalSquareRoot, R::Float, T::Floating, true},
    {"__frcp_rn", 1, reciprocal, R::Float, T::Floating, true},
    {"cbrtf", 1, cubeRoot, R::Float, T::Floating, true},
    {"cbrt", 1, cubeRoot, R::Float, T::Floating, true},
    {"tanhf", 1, hyperbolicTangent, R::Float, T::Floating, true},
    {"tanh", 1, hyperbolicTangent, R::Float, T::Floating, true},
    {"erff", 1, errorFunction, R::Float, T::Floating, true},
    {"erf", 1, errorFunction, R::Float, T::Floating, true},
    {"erfcf", 1, complementaryErrorFunction, R::Float, T::Floating, true},
    {"erfc", 1, complementaryErrorFunction, R::Float, T::Floating, true},
    {"normcdff", 1, normalCdf, R::Float, T::Floating, true},
    {"fabsf", 1, absolute, R::Float, T::Floating, true},
    {"fabs", 1, absolute, R::Float, T::Floating, true},
    {"abs", 1, absolute, R::Float, T::LikeArguments, true},
    {"sinf", 1, sine, R::Float, T::Floating, true},
    {"sin", 1, sine, R::Float, T::Floating, true},
    {"cosf", 1, cosine, R::Float, T::Floating, true},
    {"cos", 1, cosine, R::Float, T::Floating, true},
    {"tanf", 1, tangent, R::Float, T::Floating, true},
    {"tan", 1, tangent, R::Float, T::Floating, true},
    {"atanf", 1, arcTangent, R::Float, T::Floating, true},
    {"atan", 1, arcTangent, R::Float, T::Floating, true},
    {"sinhf", 1, hyperbolicSine, R::Float, T::Floating, true},
    {"coshf", 1, hyperbolicCosine, R::Float, T::Floating, true},
    {"floorf", 1, floorOf, R::Float, T::Floating, true},
    {"floor", 1, floorOf, R::Float, T::Floating, true},
    {"ceilf", 1, ceilingOf, R::Float, T::Floating, true},
    {"ceil", 1, ceilingOf, R::Float, T::Floating, true},
    {"truncf", 1, truncation, R::Float, T::Floating, true},
    {"trunc", 1, truncation, R::Float, T::Floating, true},
    {"roundf", 1, roundAway, R::Float, T::Floating, true},
    {"round", 1, roundAway, R::Float, T::Floating, true},
    {"rintf", 1, roundEven, R::Float, T::Floating, true},
    {"rint", 1, roundEven, R::Float, T::Floating, true},
};

} // namespace

llvm::ArrayRef<PureFunction> pureFunctions() { return Table; }

const PureFunction *findPureFunction(llvm::StringRef Name) {
  static const llvm::StringMap<const PureFunction *> Index = [] {
    llvm::StringMap<const PureFunction *> M;
    for (const PureFunction &F : Table) {
      bool Inserted = M.try_emplace(F.Name, &F).second;
      assert(Inserted && "a function listed twice");
      (void)Inserted;
    }
    return M;
  }();
  return Index.lookup(Name);
}

bool isPureFunction(llvm::StringRef Name) {
  const PureFunction *F = findPureFunction(Name);
  return F && F->InRegions;
}

bool isConversionToFloat(llvm::StringRef Name) {
  // The entries that keep their argument as it is.
  const PureFunction *F = findPureFunction(Name);
  return F && F->Fold == first && F->Rounding == PureRounding::Exact;
}

} // namespace tc
