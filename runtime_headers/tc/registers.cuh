// tc/registers.cuh - setmaxnreg (sm_90a): moving registers between the
// warpgroups of a warp-specialised block.
//
// A kernel's threads all start with the register count that ptxas gave it
// (at most 64K registers / threads of the block, rounded down to 8). In a
// TMA kernel the producer warpgroup needs few - it only waits on barriers
// and issues copies - while the consumers hold the accumulators; each
// warpgroup therefore resizes its own share once, before its loop:
//   release_registers<N>()  every thread of the warpgroup drops to N;
//   claim_registers<N>()    every thread of the warpgroup grows to N,
//                           waiting until the SM has that many free.
// Both are .sync.aligned: all 128 threads of the warpgroup execute the same
// call, without divergence. N is a multiple of 8 in [24, 256]. ptxas
// allocates the code that follows each call within its N (the kernel's
// reported count is its starting one), so the claim must dominate the code
// that needs the registers. The block's total must stay within the SM's:
// producer threads x released + consumer threads x claimed <= 64K.
#pragma once

namespace tc {

template <int kRegisters>
constexpr bool is_register_count = kRegisters % 8 == 0 && kRegisters >= 24 && kRegisters <= 256;

template <int kRegisters>
__device__ __forceinline__ void release_registers() {
  static_assert(is_register_count<kRegisters>, "setmaxnreg takes a multiple of 8 in [24, 256]");
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
#endif
}

template <int kRegisters>
__device__ __forceinline__ void claim_registers() {
  static_assert(is_register_count<kRegisters>, "setmaxnreg takes a multiple of 8 in [24, 256]");
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
#endif
}

}  // namespace tc
