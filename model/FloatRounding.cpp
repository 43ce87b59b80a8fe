//===- FloatRounding.cpp - a double in a narrower floating-point type -----===//
#include "FloatRounding.h"

#include "llvm/ADT/APFloat.h"

namespace tc {

RoundedValue roundToSemantics(double X, const llvm::fltSemantics &S) {
  llvm::APFloat F(X);
  bool LosesInfo = false;
  llvm::APFloat::opStatus Status = F.convert(S, llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return {F.convertToDouble(), Status == llvm::APFloat::opOK && !LosesInfo, F.isDenormal()};
}

} // namespace tc
