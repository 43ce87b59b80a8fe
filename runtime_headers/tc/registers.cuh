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
// that needs the registers. The block's total must stay within what it
// had at launch (launch_registers below): a claim waits for registers the
// block's own warpgroups released.
//
// launch_registers is also the code generator's (schedule/KernelConfig),
// so this header compiles on the host too; the setmaxnreg calls are CUDA's.
#pragma once

#include "host_device.cuh"

namespace tc {

// The registers a thread has at launch in a block of `threads` whose
// warpgroups resize theirs: the kernels are built for one such block an SM
// (__launch_bounds__(threads, 1)), and ptxas gives each thread the most that
// the block can hold, a multiple of 8 below 256 (168 at 384 threads, 128 at
// 512). setmaxnreg.inc waits for registers that the block's own warpgroups
// released, so the roles' counts must add up to at most threads *
// launch_registers(threads): on an H100 a block of 384 threads whose
// producer kept 64 and consumers asked for 224 hung.
TC_HOST_DEVICE_ constexpr int launch_registers(int threads) {
  return (65536 / threads < 255 ? 65536 / threads : 255) / 8 * 8;
}

#if defined(__CUDACC__)

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

#endif  // __CUDACC__

}  // namespace tc
