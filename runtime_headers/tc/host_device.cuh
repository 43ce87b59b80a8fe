// tc/host_device.cuh - TC_HOST_DEVICE_: __host__ __device__ under nvcc, and
// nothing for a host compiler, for the pure choice functions that the
// kernels' launchers and the code generator's host tests share.
#pragma once

#ifndef TC_HOST_DEVICE_
#if defined(__CUDACC__)
#define TC_HOST_DEVICE_ __host__ __device__
#else
#define TC_HOST_DEVICE_
#endif
#endif
