//===- Epilogue.h - pointwise code applied to each accumulator element ---===//
//
// For every output element (m, n) the kernel holds sum_k A[m][k] * B[k][n]
// in `tc_sum`. The epilogue rebuilds what the source computed from it:
//   value = init(m, n) + scale * tc_sum      (init: the initialisation
//                                             statement, or C's old value)
// and then runs the consumer statements with the accumulator replaced by
// `value`, or stores `value` to the accumulator array itself.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_EPILOGUE_H
#define TC_TRANSFORMS_EPILOGUE_H

#include "MatmulIdiom.h"

namespace tc {

/// C text of a polynomial (a stride), with known constants substituted.
std::string printStride(const Polynomial &P, const RegionModel &M);

/// `X[...]` for an access, the iterators printed by `Iter`.
std::string printAccess(const RegionModel &M, const Access &A,
                        const std::function<std::string(const std::string &)> &Iter);

/// The statements of the epilogue for one element; `tc_m`, `tc_n` hold its
/// coordinates and `tc_sum` the reduction. Fails for forms not supported.
llvm::Expected<std::string> emitEpilogue(const RegionModel &M,
                                         const MatmulIdiom &Idiom);

} // namespace tc

#endif
