//===- OperandMasks.h - guards of a matmul as masks of its tiles ---------===//
//
// A triangular product (TRMM: `for (k = i; k < N; ++k)`), a triangular
// output (SYRK: `for (j = 0; j <= i; ++j)`) or a guard (`if (i <= j)`,
// `k <= i && k < K`) leaves the statements of the matmul idiom with guards
// (Statement::Guards, DomainBox.h). The kernels run the box of the loops
// and honour the guards exactly:
//   - each operand is masked to the elements the reduction reads: the
//     projection of its domain onto the operand's row (or column), k and
//     the batch (OperandView::Mask). The copier loads only those and stores
//     exact zeros in place of the others (tc/tile_convert.cuh), so the box
//     reads no element the loops do not;
//   - the reduction's guards without k are the output's: the epilogue
//     stores only the elements inside them (MatmulIdiom::OutputGuard),
//     which must be where every statement of the output element runs.
// The box with the masks and the output's guard must be the reduction's
// domain (isl decides); a guard that relates the row, the column and k at
// once is none of these and is refused. The kernels' schedules are built
// from the guarded domains, so the wgmma of k tiles outside them are
// skipped (KernelSchedule.h). Where a prologue array would still be read
// beyond the source's elements for some sizes, the launcher runs the
// region as written for those (MatmulIdiom::SerialWhen).
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_OPERANDMASKS_H
#define TC_ANALYSIS_OPERANDMASKS_H

#include "MatmulIdiom.h"

namespace tc {

/// Places the guards of the idiom's statements (see above) into Idiom, or
/// a RegionError at the statement whose guard no kernel can honour.
llvm::Error placeGuards(const RegionModel &M, const IslModel &I, MatmulIdiom &Idiom);

} // namespace tc

#endif
