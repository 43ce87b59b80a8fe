// tc/decode/launch.cuh - what a generated launcher calls for a layer with
// 8-bit weights at decoding shapes: the decode kernel decode_kernel
// (weight_stream_grid.cuh) chooses, where the layer pays. The mma.sync
// kernel takes W through TMA stages where it was built for sm_90
// (weight_stream_tma.cuh), else through registers (sm_80, or the TMA maps
// declined); the wgmma kernel (weight_stream_wgmma.cuh) only where kWgmma,
// which a launcher generated for sm_90a passes. False elsewhere, and the
// region's other kernels run. For packed 4-bit weights: launch_nibble_decode.
#pragma once

#include "weight_stream.cuh"
#include "weight_stream_int4.cuh"
#include "weight_stream_int4_wgmma.cuh"
#include "weight_stream_tma.cuh"
#include "weight_stream_wgmma.cuh"

namespace tc {
namespace decode {

template <bool kWgmma = false, typename Src, class Rows, class Epilogue>
__host__ bool launch_weight_stream(long long m, long long n, long long k, const __half *x,
                                   long long ldx, const Src *w, long long ldw, const Rows &rows,
                                   const Epilogue &epilogue, const DeviceFacts &device,
                                   cudaStream_t stream) {
  const bool aligned = rows_of_16_bytes(x, ldx) && rows_of_16_bytes(w, ldw);
  switch (decode_kernel(m, n, k, aligned, kWgmma)) {
  case DecodeKernel::kMmaRows:
    if (launch_weight_stream_tma<1, kTmaDepth>(m, n, k, x, ldx, w, ldw, rows, epilogue, device,
                                               stream))
      return true;
    return cudaPeekAtLastError() == cudaSuccess &&
           launch_weight_stream_tiles<1>(m, n, k, x, ldx, w, ldw, rows, epilogue, device, stream);
  case DecodeKernel::kWgmma:
    if constexpr (kWgmma)
      return launch_weight_stream_wgmma<kWgmmaDecodeRows, kTmaDepth>(m, n, k, x, ldx, w, ldw,
                                                                     rows, epilogue, device,
                                                                     stream);
    return false;
  default:
    return false;
  }
}

// A layer of packed 4-bit weights (w two a byte, the even k in the low
// nibble; kSigned: -8 .. 7), `groups(n, G)` giving row n's zero point and
// scale of group G = k / group_size (group_size 0: one group of all of
// K), on the 4-bit decode kernel nibble_decode_kernel chooses: at up to
// 16 rows the mma.sync kernel, through TMA stages where built for sm_90,
// else through cp.async stages (sm_80); above, up to 64 rows, the wgmma
// kernel, only where kWgmma, which a launcher generated for sm_90a passes.
// False elsewhere, and the region's dequantised copy and GEMM kernels run.
template <bool kSigned, bool kWgmma = false, typename Byte, class Groups, class Epilogue>
__host__ bool launch_nibble_decode(long long m, long long n, long long k, const __half *x,
                                   long long ldx, const Byte *w, long long ldw,
                                   long long group_size, const Groups &groups,
                                   const Epilogue &epilogue, const DeviceFacts &device,
                                   cudaStream_t stream) {
  static_assert(sizeof(Byte) == 1, "packed weights are bytes");
  const bool aligned = rows_of_16_bytes(x, ldx) && rows_of_16_bytes(w, ldw);
  const long long size = group_size ? group_size : 32 * ((k + 31) / 32);
  const auto *bytes = reinterpret_cast<const uint8_t *>(w);
  switch (nibble_decode_kernel(m, n, k, group_size, aligned, kWgmma)) {
  case NibbleKernel::kMmaRows:
    // TMA: one sub-chunk a stage, faster than two on seven of eight Llama-3
    // layers (docs/results/int4-wgmma-h100-2026-12-08.md).
    if (launch_weight_stream_int4<kSigned, 1, kTmaDepth, 1>(m, n, k, x, ldx, bytes, ldw, size,
                                                            groups, epilogue, device, stream))
      return true;
    return cudaPeekAtLastError() == cudaSuccess &&
           launch_weight_stream_int4_copy<kSigned, 1, kTmaDepth>(m, n, k, x, ldx, bytes, ldw,
                                                                size, groups, epilogue, device,
                                                                stream);
  case NibbleKernel::kWgmma:
    if constexpr (kWgmma)
      return m <= 32 ? launch_weight_stream_int4_wgmma<kSigned, 32, kTmaDepth>(
                           m, n, k, x, ldx, bytes, ldw, size, groups, epilogue, device, stream)
                     : launch_weight_stream_int4_wgmma<kSigned, 64, kTmaDepth>(
                           m, n, k, x, ldx, bytes, ldw, size, groups, epilogue, device, stream);
    return false;
  default:
    return false;
  }
}

}  // namespace decode
}  // namespace tc
