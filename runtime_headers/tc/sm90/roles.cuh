// tc/sm90/roles.cuh - the policies that complete a main loop's type
// (tc/sm90/mainloop.cuh): how its consumers read the operands, and who
// fills the stages.
//
// Consumer policies. An operand's prologue is a functor on its elements
// (tc/prologue.cuh: `float operator()(float)`, and on packed pairs where
// kPacked), or NoPrologue. It must be finite at 0: the stages' zero
// padding (past K, past the operand's rows) goes through it, and the other
// operand's zeros keep those products zero. At most one operand of a
// product has one.
//
//   SharedOperands<APrologue, BPrologue>
//       wgmma reads both operands from the stages. A prologue rewrites each
//       landed stage in place before its wgmma: A's 64-row slice by the
//       warpgroup that multiplies it (then that warpgroup's barrier), B's
//       tile by all consumers (then theirs), 16 bytes a thread at a time.
//       fp32 operands: SharedOperands<RoundToTf32, RoundToTf32> rounds
//       both to tf32 that way, but for a tile whose elements land rounded
//       (OperandTile::kLandsRounded: a transposed copy's).
//       Converted<F> in place of a prologue (either operand, or both): an
//       operand converted with the element's place, F the region's functor
//       (`float operator()(float x, long long free_index)`, or of a masked
//       operand `(x, free_index, k)`: tc::conversion_takes_k, the element
//       outside the mask an exact 0), which need not be finite at 0 (1 /
//       x) and may hold values (zero points by row): the stage lands raw
//       and the consumers convert it in place as above, each element by its
//       row and k in the operand (OperandTile::place), an element past the
//       operand's edge an exact 0, not F(0). F travels in the kernel's
//       operands (KernelOperands::conversions). TMA reads the operand's
//       whole rectangle: a mask zeroes elements that must still be readable.
//   RawRegisterA<Convert>
//       RegisterA's reading for an 8-bit A (RawOperandTile: int8/uint8
//       weights, TMA landing the raw bytes): each consumer thread converts
//       its fragments straight from the landed stage (tc/raw_fragment.cuh:
//       warp w of the consumers rows 16 w .. 16 w + 15, a thread's rows
//       16 w + lane / 4 and 8 further), each element by its row's functor,
//       elements past the reduction exact zeros; nothing is written back
//       and no barrier precedes the wgmma. Convert is the region's:
//       `row(r, inside)` gives row r's functor, once a tile, either a
//       unary `float(float)` or a tc::OffsetRow (the element minus an
//       offset, converted in fp16 pairs where the warp's offsets are
//       exact); `inside` is false past the operand's edge, where it must
//       read no row values (those rows reach no output). 16-bit B, no
//       prologue on it.
//   RegisterA<APrologue, BPrologue>
//       A K-major A through registers: warp w of the consumers loads rows
//       16 w .. 16 w + 15 of each landed stage with ldmatrix (one m16k16
//       fragment a k step, or m16k8 of tf32: wgmma's A layout), applies
//       the prologue there (or A's conversion, Converted<F>, by each
//       element's row, an exact 0 past the operand's rows and reduction)
//       and issues wgmma with A from registers. Two
//       buffers of fragments by the tile's parity: tile t's loads overlap
//       tile t - 1's group. Nothing of A is written back to the stages,
//       and no barrier precedes the wgmma. fp32 operands:
//       RegisterA<RoundToTf32, RoundToTf32> rounds A's fragments and B's
//       landed stage (as SharedOperands does, with all consumers' barrier;
//       not a tile that lands rounded).
//
// Producer policies. The producer threads follow the consumers; one of
// them issues the copies, and the rest of them idle.
//
//   ProducerWarp
//       one warp, registers as ptxas gives them.
//   ProducerWarpgroup<kProducerRegisters, kConsumerRegisters,
//                     kEpilogueRegisters>
//       a warpgroup that releases its registers to kProducerRegisters once
//       (setmaxnreg, tc/registers.cuh) while each consumer warpgroup claims
//       kConsumerRegisters: room for A's fragments beside 128 x 256
//       accumulators. The persistent kernel then has one epilogue
//       warpgroup (of kEpilogueRegisters) instead of one per consumer
//       warpgroup.
#pragma once

#include <type_traits>

#include "../convert.cuh"
#include "../mma.cuh"
#include "../prologue.cuh"
#include "../registers.cuh"
#include "../tile_convert.cuh"

namespace tc {
namespace sm90 {

// An operand without a prologue (tc/prologue.cuh).
using ::tc::NoPrologue;

template <class F>
inline constexpr bool has_prologue = !std::is_same_v<F, NoPrologue>;

// An operand converted with the element's place, F its functor (above).
template <class F>
struct Converted {
  using Functor = F;
};
template <class P>
inline constexpr bool is_converted = false;
template <class F>
inline constexpr bool is_converted<Converted<F>> = true;
// A prologue of the element alone (not a conversion).
template <class P>
inline constexpr bool has_plain_prologue = has_prologue<P> && !is_converted<P>;

// The functors of a policy's converted operands (NoConversion for the
// others), as the kernel's operands carry them.
struct NoConversion {};
template <class P>
struct conversion_of {
  using type = NoConversion;
};
template <class F>
struct conversion_of<Converted<F>> {
  using type = F;
};
template <class APrologue, class BPrologue>
struct OperandConversions {
  using A = typename conversion_of<APrologue>::type;
  using B = typename conversion_of<BPrologue>::type;
  A a;
  B b;
};

// An fp32 operand's elements rounded to tf32 (to nearest, ties away:
// cvt.rna), what mma.sync's fragments hold; wgmma itself would drop the
// low 13 mantissa bits of a stage's element (a bias toward zero). Finite
// at 0, so the zero padding stays zero; on both operands of a product.
struct RoundToTf32 {
  static constexpr bool kPacked = false;
  __device__ __forceinline__ float operator()(float x) const {
    return __uint_as_float(to_tf32(__float_as_uint(x)));
  }
};

template <class APrologue_ = NoPrologue, class BPrologue_ = NoPrologue>
struct SharedOperands {
  using APrologue = APrologue_;
  using BPrologue = BPrologue_;
  static constexpr bool kRegisterA = false;
  static constexpr bool kRawA = false;
  using Conversions = OperandConversions<APrologue, BPrologue>;
  // (A converted operand is an exact 0 outside it, so the other's
  // prologue may make its padding anything finite.)
  static_assert(!has_plain_prologue<APrologue> || !has_plain_prologue<BPrologue> ||
                    (std::is_same_v<APrologue, RoundToTf32> &&
                     std::is_same_v<BPrologue, RoundToTf32>),
                "a prologue on one operand of the product (or tf32 rounding on both)");
};

template <class APrologue_ = NoPrologue, class BPrologue_ = NoPrologue>
struct RegisterA {
  using APrologue = APrologue_;
  using BPrologue = BPrologue_;
  static constexpr bool kRegisterA = true;
  static constexpr bool kRawA = false;
  using Conversions = OperandConversions<APrologue, NoPrologue>;
  static_assert(!is_converted<BPrologue>,
                "a converted B is read from its stages (SharedOperands)");
  static_assert(!is_converted<APrologue> ||
                    !conversion_takes_k<typename conversion_of<APrologue>::type>,
                "A's fragments converted by their rows alone (no mask)");
  static_assert(!has_prologue<BPrologue> || (std::is_same_v<APrologue, RoundToTf32> &&
                                             std::is_same_v<BPrologue, RoundToTf32>),
                "B's prologue only as tf32 rounding, A's too");
};

// A's 8-bit elements (RawOperandTile) converted into register fragments.
template <class Convert>
struct RawRegisterA {
  using APrologue = Converted<Convert>;
  using BPrologue = NoPrologue;
  static constexpr bool kRegisterA = true;
  static constexpr bool kRawA = true;
  using Conversions = OperandConversions<APrologue, NoPrologue>;
};

// Whether a raw operand's row functor is an offset row (tc::OffsetRow: the
// element minus an offset, which a warp of exact offsets converts in fp16
// pairs).
template <class R>
inline constexpr bool is_offset_row = false;
template <class F>
inline constexpr bool is_offset_row<OffsetRow<F>> = true;

// Whether a block of `threads` fits the registers its roles ask of
// setmaxnreg under Producer (ProducerWarp or ProducerWarpgroup): the
// producer's, `consumer_threads` consumers' and `epilogue_threads` epilogue
// threads' (those keep their launch count where the policy names none).
template <class Producer>
__host__ __device__ constexpr bool roles_fit_launch_registers(int threads, int consumer_threads,
                                                              int epilogue_threads = 0) {
  if (!Producer::kMovesRegisters)
    return true;
  const int epilogue = Producer::kEpilogueRegisters > 0 ? Producer::kEpilogueRegisters
                                                         : launch_registers(threads);
  return Producer::kThreads * Producer::kProducerRegisters +
             consumer_threads * Producer::kConsumerRegisters + epilogue_threads * epilogue <=
         threads * launch_registers(threads);
}

struct ProducerWarp {
  static constexpr int kThreads = 32;
  static constexpr bool kMovesRegisters = false;
  static constexpr int kProducerRegisters = 0, kConsumerRegisters = 0, kEpilogueRegisters = 0;
  // The persistent kernel's epilogue threads: as many as consumers (0).
  static constexpr int kEpilogueThreads = 0;
  __device__ static void enter_producer() {}
  __device__ static void enter_consumer() {}
  __device__ static void enter_epilogue() {}
};

template <int kProducerRegisters_, int kConsumerRegisters_, int kEpilogueRegisters_ = 0>
struct ProducerWarpgroup {
  static constexpr int kThreads = 128;
  static constexpr bool kMovesRegisters = true;
  static constexpr int kProducerRegisters = kProducerRegisters_;
  static constexpr int kConsumerRegisters = kConsumerRegisters_;
  static constexpr int kEpilogueRegisters = kEpilogueRegisters_;
  static constexpr int kEpilogueThreads = 128;
  static_assert(is_register_count<kProducerRegisters> && is_register_count<kConsumerRegisters>,
                "setmaxnreg takes a multiple of 8 in [24, 256]");
  static_assert(kEpilogueRegisters == 0 || is_register_count<kEpilogueRegisters>,
                "setmaxnreg takes a multiple of 8 in [24, 256]");
  // Each is called once by all 128 threads of a warpgroup of that role,
  // before the role's loop, on a path that does not join another role's.
  __device__ static void enter_producer() { release_registers<kProducerRegisters>(); }
  __device__ static void enter_consumer() { claim_registers<kConsumerRegisters>(); }
  __device__ static void enter_epilogue() {
    if constexpr (kEpilogueRegisters > 0)
      release_registers<kEpilogueRegisters>();
  }
};

}  // namespace sm90
}  // namespace tc
