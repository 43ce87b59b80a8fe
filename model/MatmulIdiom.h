//===- MatmulIdiom.h - recognise C = f(init + s * sum_k A * B) ------------===//
//
// The idiom is decided on the isl model: a statement whose write is also
// read (a reduction) over exactly one dimension that the write does not
// involve, whose value adds a product of two operands each involving that
// dimension and one of the two others; dependences must relate only
// instances of the same output element, so that (m, n) can be mapped to
// blocks and warps in parallel.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_MATMULIDIOM_H
#define TC_ANALYSIS_MATMULIDIOM_H

#include "Aliasing.h"
#include "IslModel.h"
#include "RegionError.h"
#include <map>
#include <optional>

namespace tc {

/// How an operand of the product is laid out: a 2-D view of an array.
struct OperandView {
  unsigned ArrayId = 0;
  unsigned AccessId = 0;      // read of the reduction statement
  bool ReductionIsContiguous; // A: row-major (k inner); B: column-major
  Polynomial LeadingDim;      // stride of the outer of the two matrix dims
  Polynomial BatchStride;     // stride of the batch dimension, if batched
  /// A pointwise function of the element applied before the product (at
  /// most one entry: the operand factor as written, e.g. fmaxf(A[i][k], 0)).
  std::vector<ExprPtr> Prologue;
  /// The operand is converted to the mma type while it is copied to shared
  /// memory, with its prologue if any, instead of in register fragments: it
  /// is int8/uint8 (a quantized weight), or its prologue reads more than the
  /// element (a per-row or per-column scale or zero point, a scalar), which
  /// needs the element's row or column, or it may not be finite at 0.
  bool ConvertWhileCopying = false;
  /// The operand is stored as int8/uint8 (so ConvertWhileCopying).
  bool EightBit = false;
  /// The operand is 4-bit values packed two a byte (ElementType U4/I4),
  /// its prologue the whole factor that reads them (with group-wise zero
  /// points and scales, arrays indexed by the operand's own dimension and
  /// the reduction's index divided, Access::Divisor): the region's kernels
  /// read it dequantised into a 16-bit copy (model/PackedOperand.h).
  bool FourBit = false;
  /// An fp32 operand stored M- or N-major that the sm_90 components stage
  /// K-major from a transposed copy made at launch (wgmma reads tf32
  /// K-major only): ReductionIsContiguous then says how it is staged
  /// (tf32StagedKMajor, codegen/ComponentKernel.h).
  bool StagedTransposed = false;
  /// The prologue is not known to be finite where the element is 0 (the
  /// zero padding of partial k tiles), so ConvertWhileCopying: the copier
  /// applies it to the elements inside the matrix only.
  bool PrologueNotFiniteAtZero = false;
  /// Arrays the prologue reads besides the operand (indexed by the
  /// operand's own output dimension, and the batch).
  std::vector<unsigned> PrologueArrays;
  /// For an 8-bit operand: where its prologue is the element minus an
  /// offset z computed exactly (`(float)W[j][k] - zero[j]`; no prologue is
  /// minus 0), that offset, which the kernel may subtract in fp16 pairs
  /// (tc::OffsetRow). Found for either operand; the kernels use B's (raw
  /// TMA stages are B's only).
  struct ElementOffset {
    ExprPtr Value;      // z as written; null for 0
    bool Added = false; // the source adds it: the offset is -Value
  };
  std::optional<ElementOffset> Offset;
  /// Where the operand's view starts: the subscript is the plain iterators
  /// plus these offsets (outermost first, in the sizes), e.g. `A[(i + r0) *
  /// lda + k + c0]` gives {r0, c0}. Empty where all are 0. The launcher
  /// moves the pointer there (the array has no other access).
  std::vector<AffineExpr> IndexOffset;
  /// Where the reduction's domain is not a box (OperandMasks.h): the
  /// constraints `G >= 0` on the operand's own row or column, k and the
  /// batch under which an element enters the product; the copier stores
  /// exact zeros elsewhere (ConvertWhileCopying).
  std::vector<AffineExpr> Mask;
  /// Elements of the contiguous dimension apart (a strided loop, `A[i * K
  /// + 2 * k]`): the copier gathers them (ConvertWhileCopying). 1 where
  /// the view is dense.
  int64_t InnerStride = 1;
};

/// A further product of a sum of matmuls: `acc += A2[i][k2] * B2[k2][j]` in
/// a reduction loop of its own after the first one, into the same
/// accumulator. The kernel runs the products' k tiles one after the other
/// (a concatenated K, each product padded to whole k tiles) into the same
/// registers.
struct ProductTerm {
  unsigned Reduction = 0; // statement index
  std::string IterK;
  AffineExpr ExtentK;
  OperandView A, B;
};

struct MatmulIdiom {
  unsigned Reduction = 0;               // statement index
  std::optional<unsigned> Init;         // statement that sets the accumulator
  std::vector<unsigned> Epilogue;       // statements that consume it
  unsigned Accumulator = 0;             // array id
  std::string IterM, IterN, IterK;      // iterators of the reduction statement
  AffineExpr ExtentM, ExtentN, ExtentK; // loop trip counts (lower bound 0)
  std::string IterBatch;                // a loop around the GEMM, or empty
  AffineExpr ExtentBatch;
  OperandView A, B;
  ElementType InputType = ElementType::F16;
  std::vector<ExprPtr> Scale;           // loop-invariant factors of the product
  /// The products after the first (Reduction, IterK, ExtentK, A, B) of a
  /// sum of matmuls; same output, element types and operand layouts.
  std::vector<ProductTerm> MoreProducts;
  /// The arrays the launcher tests for overlap before it launches the
  /// kernel (Aliasing.h); the region runs serially where they overlap.
  std::vector<AliasPair> MayAlias;
  /// Constraints `G >= 0` on (IterM, IterN, IterBatch) and the sizes: the
  /// output elements the region writes, where not all (OperandMasks.h).
  std::vector<AffineExpr> OutputGuard;
  /// The sizes (an isl set of parameters) for which the kernel would read
  /// an operand's box outside the elements the source reads: the launcher
  /// runs the region as written there. Empty where there are none.
  std::string SerialWhen;

  bool isReduction(unsigned Stmt) const {
    if (Stmt == Reduction)
      return true;
    for (auto &P : MoreProducts)
      if (P.Reduction == Stmt)
        return true;
    return false;
  }
  unsigned lastReduction() const {
    return MoreProducts.empty() ? Reduction : MoreProducts.back().Reduction;
  }

  std::string describe(const RegionModel &M) const;
};

/// For an initialisation or epilogue statement (possibly in a loop nest of
/// its own), which of its iterators is the output row (the reduction's
/// IterM), column (IterN) or batch: read off its access to the accumulator,
/// which must index it like the reduction does, one iterator per dimension.
/// Maps each iterator of the statement to IterM, IterN or IterBatch.
std::optional<std::map<std::string, std::string>>
outputCoordinates(const RegionModel &M, const MatmulIdiom &Idiom, unsigned Stmt);

/// Recognises the matmul idiom, or explains (with a location) why not.
llvm::Expected<MatmulIdiom> recognizeMatmul(const RegionModel &M,
                                            const IslModel &I);

/// The reads of E (ExprNode::AccessId), in order, repeats included.
void collectReads(const ExprNode &E, std::vector<unsigned> &Out);
/// The factors of a product `a * b * ...` (E itself where it is none).
void flattenProduct(const ExprPtr &E, std::vector<ExprPtr> &Factors);

} // namespace tc

#endif
