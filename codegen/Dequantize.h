//===- Dequantize.h - the launcher's copy of a packed 4-bit operand -------===//
//
// A region whose operand is packed 4-bit values (model/PackedOperand.h) is
// generated from the model that reads a 16-bit copy of it. Its entry
// launcher makes the copy after the alias test and before any kernel: the
// functor below computes one element of the operand as the source does, and
// tc::dequantize_operand (tc/packed.cuh) runs it over the operand's rows and
// k into memory of tc::dequantized_buffer, released after the kernels (on
// the stream) where it is a graph's.
//===----------------------------------------------------------------------===//
#ifndef TC_CODEGEN_DEQUANTIZE_H
#define TC_CODEGEN_DEQUANTIZE_H

#include "ComponentKernel.h"
#include "PackedOperand.h"

namespace tc {

/// `struct <Name> { members; __device__ auto operator()(long long tc_row,
/// long long tc_k) const; };`: the operand's element (tc_row, tc_k) as the
/// source computes it, reading the members (the launcher's arguments).
std::string dequantizeFunctor(const DequantizedOperand &D, const std::string &Name,
                              const std::string &Comment,
                              const std::vector<FunctorMember> &Members);

/// `struct <Name> { members; __device__ tc::decode::NibbleGroup operator()(
/// long long tc_row, long long tc_group) const; };`: row tc_row's zero point
/// and scale in group tc_group of k (D.Groups), as the source computes
/// them, in fp16 (the 4-bit decode kernel's groups,
/// tc/decode/weight_stream_int4.cuh).
std::string nibbleGroupsFunctor(const DequantizedOperand &D, const std::string &Name,
                                const std::string &Comment,
                                const std::vector<FunctorMember> &Members);

/// The entry launcher's statements that make the copy: `Rows` and
/// `Columns` its extents as C, `Functor` the functor's name, `Members` its
/// members' values (the launcher's arguments), `Where` the region's place
/// for errors. The copy's pointer and leading dimension are locals the
/// launcher declared (copyDeclarations).
std::string dequantizeStep(const DequantizedOperand &D, const std::string &Rows,
                           const std::string &Columns, const std::string &Functor,
                           const std::string &Members, const std::string &Where);

/// The copy's pointer and leading dimension, declared at the top of the
/// entry launcher (null and 0 until the copy is made: the serial kernel,
/// which reads the source's operand, takes them as unused arguments).
std::string copyDeclarations(const DequantizedOperand &D);

} // namespace tc

#endif
