//===- PackedOperand.h - a packed 4-bit operand read from a 16-bit copy --===//
//
// An operand of 4-bit values packed two a byte, with group-wise zero points
// and scales (`((float)((Wq[j * ldw + k / 2] >> (4 * (k % 2))) & 15) -
// zero[j * groups + k / 128]) * scale[j * groups + k / 128]`, OperandView::
// FourBit), is the one operand whose elements are not a 16-bit matrix the
// kernels' producers can copy or convert on the way: each element needs its
// nibble and its group's terms. The launcher dequantises it first, running
// the operand's factor as the source computes it once per element into a
// K-major copy of the other operand's type (tc::dequantize_operand), and the
// region's kernels multiply that copy: the model below, whose product reads
// the copy where the source's reads the packed factor. Its AsWritten is the
// source's model, so that the alias test and the serial fallback follow the
// source's reads of the packed bytes, zero points and scales.
//
// The copy is a launch's own (tc::dequantized_buffer), rows of the operand's
// own dimension, a leading dimension of K rounded up to 8 (16-byte rows for
// TMA), each value rounded once to the element type as any prologue's is.
//===----------------------------------------------------------------------===//
#ifndef TC_MODEL_PACKEDOPERAND_H
#define TC_MODEL_PACKEDOPERAND_H

#include "MatmulIdiom.h"

namespace tc {

struct DequantizedOperand {
  /// The region reading the copy; AsWritten: the source's model.
  RegionModel Model;
  /// The copy (an array of Model) and its leading dimension (a parameter).
  unsigned Copy = 0;
  std::string LeadingDimension;
  /// The packed operand's factor as the source computes it (its reads are
  /// those of the source's reduction statement, Reduction), and the
  /// iterators of its row and of k in the source's model.
  ExprPtr Value;
  unsigned Reduction = 0;
  std::string IterRow, IterK;
  /// The copy's extents (in the source's sizes): rows, and k.
  AffineExpr Rows, Columns;
  /// Whether the packed operand is the product's B (else its A).
  bool IsB = true;
};

/// The region with its packed operand (Idiom.A or Idiom.B FourBit) read
/// from a 16-bit copy, or a RegionError where the launcher cannot make the
/// copy as the source reads the operand (a batched product, guards on the
/// reduction's domain, several nests, an accumulation in __half).
llvm::Expected<DequantizedOperand> dequantizedOperand(const RegionModel &M,
                                                      const MatmulIdiom &Idiom);

} // namespace tc

#endif
