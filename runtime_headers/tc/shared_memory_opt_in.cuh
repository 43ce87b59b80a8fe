// tc/shared_memory_opt_in.cuh - the opt-in of kernels to more than 48 KiB
// of dynamic shared memory, once per device.
//
// cudaFuncSetAttribute sets the attribute of the kernel loaded on the
// current device only, so a launcher that ran on device 0 must opt in
// again on device 1 (cudaSetDevice between launches), or its launches
// there fail. A launcher keeps one SharedMemoryOptIn (static) and calls
// apply() before each launch: the first call on a device sets the
// attribute of each kernel; the others return what it returned. The first
// devices are kept (tc/per_device.cuh); on any other, every call sets it.
#pragma once

#include <cuda_runtime.h>

#include "per_device.cuh"

namespace tc {

struct SharedMemoryOptIn {
  PerDevice<cudaError_t> result;

  // Lets each of `kernels` use `bytes` of dynamic shared memory on the
  // current device; the first error, else cudaSuccess.
  template <typename... Kernels>
  __host__ cudaError_t apply(int bytes, Kernels... kernels) {
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess)
      device = -1;
    return result.get(device, [&] {
      cudaError_t first = cudaSuccess;
      for (cudaError_t e : {cudaFuncSetAttribute(kernels,
                                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 bytes)...})
        if (first == cudaSuccess)
          first = e;
      return first;
    });
  }
};

}  // namespace tc
