//===- Model.h - the polyhedral model of one `#pragma tc` region ----------===//
//
// What extraction (Extraction.h) produces from the Clang AST and what every
// later stage reads: parameters, arrays (with their delinearised shape),
// loops, and statements with iteration domains, access relations and
// expression trees. The isl objects are built from this description by
// `IslModel` (IslModel.h); both print in isl notation for --explain.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_MODEL_H
#define TC_ANALYSIS_MODEL_H

#include "Affine.h"
#include "Clauses.h"
#include "ExprTree.h"
#include "clang/Basic/SourceLocation.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tc {

/// U4 and I4: 4-bit values packed two a byte (an int8_t/uint8_t array read
/// at half an index and unpacked, Access::Divisor): unsigned 0..15 or two's
/// complement -8..7, the even index in the low nibble.
enum class ElementType { F16, BF16, F32, F64, I8, U8, U4, I4, Other };
const char *spelling(ElementType T); // "__half", "__nv_bfloat16", "float", ...
int byteSize(ElementType T);          // 2 for F16; 0 for Other

/// An integer variable that is invariant in the region (function parameter,
/// outer local, constexpr). It becomes an isl parameter.
struct Parameter {
  std::string Name;
  std::string TypeSpelling;     // e.g. "int", "size_t"
  std::optional<int64_t> Value; // known value of a constexpr/const variable
  bool IsKernelArgument = true; // false for constexpr values (inlined)
  /// Some statement runs where it is negative (an offset, a loop's lower
  /// bound): the model does not assume it >= 0 (markSignedParameters).
  bool MayBeNegative = false;
};

/// A loop-invariant non-integer scalar read in the region (alpha, beta).
struct ScalarInput {
  std::string Name;
  std::string TypeSpelling;
  /// A scoped enumeration's value, which the launch converts to its
  /// integer type (TypeSpelling) explicitly.
  bool CastAtCall = false;
};

struct Array {
  std::string Name;
  /// A local's own name, for diagnostics: the model renames a second
  /// local `acc` of the region acc_1, and later stages use placeholders.
  std::string SourceName;
  std::string DeclTypeSpelling; // type of the variable, as declared
  ElementType Elem = ElementType::Other;
  std::string ElemSpelling;
  /// Strides[d] scales dimension d, outermost first; the last is 1.
  std::vector<Polynomial> Strides;
  bool IsLocalScalar = false; // `float acc` inside the nest (scalar expanded)
  bool IsRestrict = false;
  /// A parameter of the function, not a reference: no other pointer of
  /// the region is based on it, nor it on another (C's `restrict` promises
  /// nothing about a pointer based on the restrict one, `float *C = buf +
  /// N`, or a reference to it).
  bool IsParameter = false;
  bool IsConst = false;
  bool IsStaticShape = false; // `T A[M][K]` / `T (*A)[K]`: indexed as A[i][k]
  clang::SourceLocation DeclLoc;
  unsigned rank() const { return Strides.size(); }
};

struct Access {
  unsigned ArrayId = 0;
  std::vector<AffineExpr> Index; // one per array dimension, outermost first
  clang::SourceRange Range;
  /// The access as written (`W[j * K + k]`), for diagnostics; empty where
  /// it is not one range of the file (inside a macro's expansion).
  std::string Spelling;
  /// The last dimension is indexed at floor(Index.back() / Divisor): a
  /// group-wise scale read at `k / 128`, or a packed 4-bit operand's byte
  /// at `k / 2` (ElementType U4/I4; its nibble is Index.back() mod 2).
  /// Index.back() counts the elements of the divided index, so that it is
  /// affine: `W[j * ldw + k / 2]` is Index {j, k} with Divisor 2.
  int64_t Divisor = 1;
  /// The division's operator and where it is (`/` or `>>`), for diagnostics.
  clang::SourceLocation DivisorLoc;
  std::string DivisorOperator;
};

struct Loop {
  std::string Iterator;
  std::string TypeSpelling;
  AffineExpr Lower;          // inclusive
  AffineExpr UpperExclusive; // exclusive
  /// The source's iterator is Shift + Step * the model's (LoopOrigins.h).
  /// Extraction records a strided loop (`k += 2`) with its source's start
  /// in Lower, its bound in UpperExclusive (exclusive upwards; inclusive
  /// downwards, Step < 0) and Step; shiftLoopsToZero makes it count.
  AffineExpr Shift;
  int64_t Step = 1;
  /// shiftLoopsToZero has made the strided loop count its iterations; a
  /// later shift (of a triangular loop's box) moves it by whole steps.
  bool Counted = false;
  /// The source runs the loop downwards (`--k`); the original schedule
  /// orders its iterations so.
  bool Reversed = false;
  clang::SourceRange Range;
};

/// Whether X and Y access the same element: one array, equal subscripts.
bool sameAccess(const Access &X, const Access &Y);

struct Statement {
  std::string Name;             // S0, S1, ... in source order
  std::vector<unsigned> Loops;  // enclosing loops, outermost first
  std::vector<int> Position;    // textual order: 2d+1 schedule constants
  Access Write;
  std::vector<Access> Reads;    // leaves of Value (ExprNode::AccessId)
  ExprPtr Value;
  clang::SourceRange Range;
  /// Constraints `G >= 0` on the iterators and sizes besides the loops'
  /// bounds: the conditions of enclosing `if`s, further conjuncts of a loop
  /// condition (`k <= i && k < K`), and, after boxDomains (DomainBox.h),
  /// the bounds of loops that name another loop. The statement runs where
  /// all of them hold.
  std::vector<AffineExpr> Guards;

  /// The write, then the reads.
  std::vector<const Access *> accesses() const {
    std::vector<const Access *> R{&Write};
    for (const Access &A : Reads)
      R.push_back(&A);
    return R;
  }
};

inline clang::SourceLocation locOf(const Statement &S) { return S.Range.getBegin(); }

/// How a statement adds a product to the element it writes (X, read by
/// AccRead): `X + P`, `P + X`, `X - P`, or `fma(x, y, X)` / `fmaf(x, y, X)`,
/// whose product is x * y (the same sum; only each step's rounding differs,
/// as it does between `+=` and the tensor cores). `X - P` is Subtracted:
/// negation is exact, so the kernel may negate the sum once. (`X + -(P)` is
/// not the same where P is unsigned: the tree does not carry types.)
struct Accumulation {
  unsigned AccRead = 0;
  ExprPtr Product;
  bool Subtracted = false;
  /// `+` or `-` of a class type (__half's operators), which rounds the
  /// partial sum to that type at each step.
  bool IsOperatorCall = false;
};
std::optional<Accumulation> accumulationOf(const Statement &S);

struct RegionModel {
  std::string FunctionName;
  clang::SourceRange Range; // the annotated statement
  RegionClauses Clauses;
  std::vector<Parameter> Params;
  std::vector<ScalarInput> Scalars;
  std::vector<Array> Arrays;
  std::vector<Loop> Loops;
  std::vector<Statement> Stmts;
  /// Whether a local's value reads an array after a store to another array
  /// that follows the local's binding (`float a = A[i]; C[i] = 0; D[i] =
  /// a;`): the statements read it where the value is used. Equal unless
  /// the arrays overlap, so a run-time alias check cannot keep the order.
  bool ReadsMovedPastStores = false;
  /// Arrays with a subscript that the source computes in an unsigned type
  /// narrower than 64 bits (`A[i * K + k]` over `unsigned`): the source
  /// wraps it modulo 2^Bits where the model's integer does not, so the
  /// launcher tests that the array's subscripts stay in [0, 2^Bits)
  /// (codegen/SubscriptRange.h). One entry an array, the narrowest type.
  struct NarrowSubscript {
    unsigned ArrayId = 0;
    unsigned Bits = 32;
    /// What is tested, each: the whole subscript (Dim < 0: the flat index,
    /// or each index of a statically shaped array), or where the part
    /// computed unsigned is one dimension's index (`(size_t)(M - 1 - i) *
    /// N + j`: Only), that index times its stride (`(size_t)b * M * K + i
    /// * K + k`: Only, Scaled) or the flat index of the dimensions from
    /// Dim on (`(size_t)b * M * K + (i * K + k)`), that alone.
    struct Check {
      int Dim = -1;
      bool Only = false;
      bool Scaled = false; // with Only: the index times its stride (`i * K`)
      bool operator==(const Check &O) const {
        return Dim == O.Dim && Only == O.Only && Scaled == O.Scaled;
      }
    };
    std::vector<Check> Checks;
  };
  std::vector<NarrowSubscript> NarrowSubscripts;
  /// Values of the sizes alone that the source computes in such a type in
  /// a loop's bound or start or an `if`'s condition (`j < N + D` over
  /// `unsigned`): the launcher tests that each is in [0, 2^Bits) where the
  /// region runs (codegen/SubscriptRange.h). `Spelling` is the source's.
  struct NarrowValue {
    Polynomial Value;
    unsigned Bits = 32;
    std::string Spelling;
    /// The iterators of Value (a bound or condition of iterators, `j < i +
    /// U`): the launcher tests Value at their largest values in the
    /// statements' domains (none: of the sizes alone).
    std::vector<std::string> Iterators;
    /// For an upward loop's start of iterators (`j = i + U`), that loop's
    /// iterator: the value is computed where the loop is reached, also
    /// where it runs no statement, so it is tested over its enclosing
    /// loops' ranges instead (empty: where statements run).
    std::string StartOf;
  };
  std::vector<NarrowValue> NarrowValues;
  /// After usePlaceholderNames (Hygiene.h): the user's spelling of each
  /// placeholder `__tc_u<N>__`, indexed by N.
  std::vector<std::string> UserNames;
  /// Where a model step changed the statements (NestFusion.h), the region
  /// as the source writes it: the run-time alias test and the serial
  /// fallback follow the source's accesses and order. Null otherwise.
  std::shared_ptr<const RegionModel> AsWritten;
  const RegionModel &asWritten() const { return AsWritten ? *AsWritten : *this; }

  std::vector<std::string> iterators(const Statement &S) const;
  int findArray(const std::string &Name) const;
  /// The value of E where each of its symbols is a size of known value (a
  /// constexpr or const variable), else nothing: e.g. a loop's trip count
  /// that the source fixes.
  std::optional<int64_t> knownValue(const AffineExpr &E) const;
  /// Whether array ArrayId is named in temp(...): dead after the region.
  bool isTemp(unsigned ArrayId) const;
  /// "[M, N, K]": the sizes, as the kernel schedule's isl text names them.
  /// The model's own sets and relations are built by IslBuild.h.
  std::string paramList() const;
};

} // namespace tc

#endif
