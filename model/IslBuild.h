//===- IslBuild.h - isl objects of the model, built through isl's API ----===//
//
// The model's sets and relations are built as PPCG builds its own: spaces
// with named dimensions and parameters, affine functions and constraints
// set coefficient by coefficient. No name of the region passes through
// isl's parser, so no spelling can change what a set means, and a
// coefficient is an isl_val, not text.
//
// A symbol of an AffineExpr is a dimension of the set it constrains, found
// by name, else a parameter; a parameter the space lacks is added at its
// end, as isl's parser adds an unknown name.
//
// Every function throws isl::exception where isl fails (the context's
// last error), as isl's C++ bindings do.
//
//===----------------------------------------------------------------------===//
#ifndef TC_MODEL_ISLBUILD_H
#define TC_MODEL_ISLBUILD_H

#include "Model.h"
#include <isl/cpp.h>
#include <string>
#include <vector>

namespace tc {

/// `[sizes] -> { : }`: the parameter space of M, its sizes in order.
isl::set paramUniverse(isl::ctx Ctx, const RegionModel &M);

/// `[sizes] -> { Name[Dims] }`, every point.
isl::set universeSet(isl::ctx Ctx, const RegionModel &M, const std::string &Name,
                     const std::vector<std::string> &Dims);

/// S with `E >= 0` added (`E = 0` where Equality).
isl::set constrain(isl::set S, const AffineExpr &E, bool Equality = false);

/// S with `Lower <= Dim < UpperExclusive` added.
isl::set bound(isl::set S, const AffineExpr &Lower, const std::string &Dim,
               const AffineExpr &UpperExclusive);

/// `Domain's space -> RangeName[Outs]` (an anonymous range where RangeName
/// is empty): each output the affine function Outs[d] of the domain's
/// dimensions and the parameters.
isl::map functionMap(const isl::set &Domain, const std::string &RangeName,
                     const std::vector<AffineExpr> &Outs);

/// Quasi-affine pieces, for the schedule steps: the Pos-th dimension of
/// set space Sp, parameter Name of Sp (add it with withParameter first), a
/// constant, floor(A / D), A mod D, and E (symbols of Sp) as functions on
/// Sp.
isl::aff dimension(const isl::space &Sp, unsigned Pos);
isl::aff parameter(const isl::space &Sp, const std::string &Name);
isl::aff constant(const isl::space &Sp, int64_t Value);
isl::aff floorDiv(isl::aff A, int64_t D);
isl::aff modulo(isl::aff A, int64_t D);
isl::aff affineFunction(const isl::space &Sp, const AffineExpr &E);
/// Sp with parameter Name at its end, unless it has it.
isl::space withParameter(isl::space Sp, const std::string &Name);
/// `{ x : A(x) = B(x) }` and `{ x : Lo <= A(x) < HiExclusive }`.
isl::set equalSet(const isl::aff &A, const isl::aff &B);
isl::set rangeSet(const isl::aff &A, int64_t Lo, int64_t HiExclusive);
/// `Sp -> RangeName[Outs]`, Outs functions on set space Sp, as a function
/// and as a relation.
isl::multi_aff multiFunction(const isl::space &Sp, const std::string &RangeName,
                             const std::vector<isl::aff> &Outs);
isl::map functionMap(const isl::space &Sp, const std::string &RangeName,
                     const std::vector<isl::aff> &Outs);

/// The sizes' context: each known value fixed, each other size >= 0
/// unless it may be negative (markSignedParameters).
isl::set contextSet(isl::ctx Ctx, const RegionModel &M);

/// `S[iterators] : Lower <= it < Upper (each loop) and G >= 0 (each guard)`.
isl::set domainSet(isl::ctx Ctx, const RegionModel &M, const Statement &S);

/// `S[iterators] : Lower <= it < Upper` for the loops enclosing S's loop
/// at depth Depth: where that loop is reached, as far as the loops tell
/// (their guards left out, so at least where it is reached).
isl::set enclosingLoopsSet(isl::ctx Ctx, const RegionModel &M, const Statement &S,
                           unsigned Depth);

/// `S[iterators] -> Array[subscripts]`.
isl::map accessMap(isl::ctx Ctx, const RegionModel &M, const Statement &S, const Access &A);

/// `S[iterators] -> [p0, i0, p1, i1, ...]`: the statement's place in the
/// source's order (2d+1 form, Depth loop levels; a loop that runs
/// downwards negated).
isl::map scheduleMap(isl::ctx Ctx, const RegionModel &M, const Statement &S, unsigned Depth);

} // namespace tc

#endif
