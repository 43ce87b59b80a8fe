//===- LoopOrigins.h - every loop of the model starts at 0 ----------------===//
//
// Code is written with 1-based and offset loops (`for (int i = 1; i <= M;
// ++i) ... A[(i - 1) * K + k - 1]`) and with reversed ones (`for (int k =
// K - 1; k >= 0; --k)`). The kernels tile domains that start at 0, so each
// loop whose lower bound is not 0 (and names no other iterator) is shifted:
// the model's iterator i stands for the source's i + L. Subscripts, the
// bounds of inner loops and the values that read the iterator are
// rewritten accordingly (`A[(i - 1) * K ...]` becomes `A[i * K ...]`); a
// reversed loop keeps its order in the original schedule (Loop::Reversed),
// so that the dependences are the source's. A strided loop (`k += 2`)
// counts its iterations: the source's k is start + Step * k, and the loop
// runs to the last iteration (exactly where Step divides the span's
// coefficients, else over a box with a guard, DomainBox.h).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_LOOPORIGINS_H
#define TC_ANALYSIS_LOOPORIGINS_H

#include "Model.h"
#include "RegionError.h"

namespace tc {

/// Shifts each loop of M whose lower bound is not 0 and involves no
/// iterator to start at 0, recording the shift in Loop::Shift, and makes
/// each strided loop count its iterations (Loop::Step). A
/// RegionError at the loop where a shifted coefficient leaves int64_t.
llvm::Error shiftLoopsToZero(RegionModel &M);

} // namespace tc

#endif
