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

/// An array the epilogue stores, in its lane form (EpilogueLanes).
struct LaneStore {
  ElementType Elem;         // of the array
  std::string ElemSpelling;
  std::string Lanes;        // the local array of its values: tc_lanes_0
  std::string FirstAddress; // &C[...] of the element (tc_m, tc_n0)
};

/// The epilogue of V consecutive elements (tc_m, tc_n0 + tc_v) of a row,
/// tc_v = 0 .. V-1: Text computes element tc_v (`tc_n` = tc_n0 + tc_v) as
/// the scalar form does, but puts each stored value into lane tc_v of a
/// local array instead of memory, so that the caller stores each array's
/// V values with one vector store (tc/lane_store.cuh). Only where every
/// stored array is contiguous along n (Contiguous).
struct EpilogueLanes {
  std::string Text;
  std::vector<LaneStore> Stores;
  bool Contiguous = true;
};

/// The statements of the epilogue for one element; `tc_m`, `tc_n` hold its
/// coordinates and `tc_sum` the reduction. Fails for forms not supported.
/// With Lanes, also its lane form. With ReadOnlyLoads, the reads of arrays
/// the region never writes are printRead's (the epilogue functor, whose
/// pointers are struct members); else as written (the text kernels, whose
/// __restrict__ parameters nvcc already reads through the read-only path).
llvm::Expected<std::string> emitEpilogue(const RegionModel &M, const MatmulIdiom &Idiom,
                                         EpilogueLanes *Lanes = nullptr,
                                         bool ReadOnlyLoads = false);

} // namespace tc

#endif
