// tc/device_trap.cuh - the body of a helper on a pass without its instruction.
//
// The host pass (which never executes __device__ code) does nothing; a
// device pass for an architecture below the instruction's minimum traps at
// run time instead of breaking a multi-architecture build.
#pragma once

#if defined(__CUDA_ARCH__)
#define TC_DEVICE_TRAP_() __trap()
#else
#define TC_DEVICE_TRAP_() ((void)0)
#endif
