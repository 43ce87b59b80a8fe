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
#include <optional>

namespace tc {

/// The packed operand's factor in the form the 4-bit decode kernel computes
/// (tc/decode/weight_stream_int4.cuh): (w - z) * s, w the nibble, z and s
/// functions of the operand's row and of the group k / GroupSize only,
/// which the kernel evaluates once a row and group and rounds to fp16
/// (each weight is (w - z) * s in fp16, as the copy's value is rounded once
/// to the copy's type). At few rows the launcher runs that kernel on the
/// packed bytes instead of making the copy (codegen/Dequantize.h).
struct NibbleGroups {
  bool Signed = false;        // I4: w is -8 .. 7 (else 0 .. 15)
  ExprPtr Zero;               // z as written (reads of the source's reduction); null: 0
  bool ZeroAdded = false;     // the source adds it: `w + Zero`
  std::vector<ExprPtr> Scale; // s: the factors besides (w - z), as written; none: 1
  int64_t GroupSize = 0;      // the divisor of k in z's and s's reads; 0: no k
  unsigned Packed = 0;        // the reduction's read of the packed bytes
};

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
  /// The factor as the decode kernel computes it, or why it cannot
  /// (GroupsMismatch, for --explain).
  std::optional<NibbleGroups> Groups;
  std::string GroupsMismatch;
};

/// The region with its packed operand (Idiom.A or Idiom.B FourBit) read
/// from a 16-bit copy, or a RegionError where the launcher cannot make the
/// copy as the source reads the operand (a batched product, guards on the
/// reduction's domain, several nests, an accumulation in __half).
llvm::Expected<DequantizedOperand> dequantizedOperand(const RegionModel &M,
                                                      const MatmulIdiom &Idiom);

} // namespace tc

#endif
