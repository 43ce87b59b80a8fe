// tc/decode/launch.cuh - what a generated launcher calls for a layer with
// 8-bit weights at decoding shapes: the decode component
// (weight_stream.cuh) where the layer pays (weight_stream_pays), with W
// through TMA stages where the kernel was built for sm_90
// (weight_stream_tma.cuh), else through registers (sm_80, or the TMA maps
// declined); false elsewhere, and the region's other kernels run.
#pragma once

#include "weight_stream.cuh"
#include "weight_stream_tma.cuh"

namespace tc {
namespace decode {

template <typename Src, class Rows, class Epilogue>
__host__ bool launch_weight_stream(long long m, long long n, long long k, const __half *x,
                                   long long ldx, const Src *w, long long ldw, const Rows &rows,
                                   const Epilogue &epilogue, const DeviceFacts &device,
                                   cudaStream_t stream) {
  if (!weight_stream_pays(m, n, k, rows_of_16_bytes(x, ldx) && rows_of_16_bytes(w, ldw)))
    return false;
  if (launch_weight_stream_tma<1, kTmaDepth>(m, n, k, x, ldx, w, ldw, rows, epilogue, device,
                                             stream))
    return true;
  return cudaPeekAtLastError() == cudaSuccess &&
         launch_weight_stream_tiles<1>(m, n, k, x, ldx, w, ldw, rows, epilogue, device, stream);
}

}  // namespace decode
}  // namespace tc
