// tc/shared_memory_opt_in.cuh - the opt-in of kernels to more than 48 KiB
// of dynamic shared memory, once per device.
//
// cudaFuncSetAttribute sets the attribute of the kernel loaded on the
// current device only, so a launcher that ran on device 0 must opt in
// again on device 1 (cudaSetDevice between launches), or its launches
// there fail. A launcher keeps one SharedMemoryOptIn (static) and calls
// apply() before each launch: the first call on a device sets the
// attribute of each kernel; the others return what it returned. The first
// kKeptDevices devices are kept; on any other, every call sets it.
#pragma once

#include <mutex>

#include <cuda_runtime.h>

namespace tc {

struct SharedMemoryOptIn {
  static constexpr int kKeptDevices = 64;
  std::once_flag done[kKeptDevices];
  cudaError_t result[kKeptDevices] = {};

  // Lets each of `kernels` use `bytes` of dynamic shared memory on the
  // current device; the first error, else cudaSuccess.
  template <typename... Kernels>
  __host__ cudaError_t apply(int bytes, Kernels... kernels) {
    auto set = [&] {
      cudaError_t first = cudaSuccess;
      for (cudaError_t e : {cudaFuncSetAttribute(kernels,
                                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 bytes)...})
        if (first == cudaSuccess)
          first = e;
      return first;
    };
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kKeptDevices)
      return set();
    std::call_once(done[device], [&] { result[device] = set(); });
    return result[device];
  }
};

}  // namespace tc
