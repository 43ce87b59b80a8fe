// tc/packed.cuh - packed 4-bit operands and operands dequantised ahead of
// the product.
//
// A region may read 4-bit weights packed two a byte (`(Wq[j * ldw + k / 2]
// >> (4 * (k % 2))) & 15`, the even k in the low nibble) with group-wise
// zero points and scales (`zero[j * groups + k / 128]`). The model indexes
// such an array by the nibble (Access::Divisor); generated code reads it
// through unsigned_nibble / signed_nibble and divides indices with
// floor_div, as the source does for the non-negative indices it divides.
//
// dequantize_operand runs the operand's prologue once per element into a
// K-major matrix of the other operand's type (thread -> data: thread t of
// block (x, y) computes row y of the matrix at k = 8 (256 x + t) .. + 7,
// one 16-byte store where the 8 lie inside the row and the row's start is
// 16-byte aligned, else one element at a time), which the region's GEMM
// kernels then read like any 16-bit operand. Each value is rounded once,
// to nearest, to the element type, as a prologue's value is for the
// tensor cores.
#pragma once

#include <cstdint>
#include <type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "stream_buffer.cuh"

namespace tc {

// x / d rounded down (d > 0): the source's `/` where x >= 0, and what the
// model's floor(x / d) is for every x.
__host__ __device__ __forceinline__ constexpr long long floor_div(long long x, long long d) {
  return x / d - (x % d != 0 && x < 0 ? 1 : 0);
}

// The 4-bit value of `byte` that `index`'s parity selects (even: the low
// nibble): 0 .. 15, or as two's complement -8 .. 7.
__host__ __device__ __forceinline__ constexpr int unsigned_nibble(unsigned char byte,
                                                                  long long index) {
  return (byte >> (4 * (index & 1))) & 15;
}
__host__ __device__ __forceinline__ constexpr int signed_nibble(unsigned char byte,
                                                                long long index) {
  return unsigned_nibble(byte, index) - ((unsigned_nibble(byte, index) & 8) << 1);
}

// A prologue's value as T (__half or __nv_bfloat16), rounded once.
template <class T, class V>
__device__ __forceinline__ T round_to_element(V v) {
  static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>,
                "operands dequantise to __half or __nv_bfloat16");
  if constexpr (std::is_same_v<V, double>) {
    if constexpr (std::is_same_v<T, __half>)
      return __double2half(v);
    else
      return __double2bfloat16(v);
  } else if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(static_cast<float>(v));
  } else {
    return __float2bfloat16_rn(static_cast<float>(v));
  }
}

namespace detail {
constexpr int kDequantizeThreads = 256, kDequantizeElements = 8;

template <class T, class Value>
__global__ void __launch_bounds__(kDequantizeThreads)
    dequantize_operand_kernel(long long rows, long long cols, Value value, T *out,
                              long long ld) {
  const long long row = blockIdx.y + 65535LL * blockIdx.z;
  const long long k0 =
      (static_cast<long long>(blockIdx.x) * kDequantizeThreads + threadIdx.x) *
      kDequantizeElements;
  if (row >= rows || k0 >= cols)
    return;
  T *dst = out + row * ld + k0;
  if (k0 + kDequantizeElements <= cols && reinterpret_cast<uintptr_t>(dst) % 16 == 0) {
    alignas(16) T v[kDequantizeElements];
#pragma unroll
    for (int e = 0; e < kDequantizeElements; ++e)
      v[e] = round_to_element<T>(value(row, k0 + e));
    *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(v);
  } else {
    for (long long k = k0; k < cols && k < k0 + kDequantizeElements; ++k)
      dst[k - k0] = round_to_element<T>(value(row, k));
  }
}
}  // namespace detail

// The leading dimension of a dequantised rows x cols operand: cols rounded
// up to 8 elements, so that its rows are 16-byte aligned for TMA (8 where
// K < 1: no element, and the kernels store the epilogue of empty sums).
__host__ inline long long dequantized_leading_dimension(long long cols) {
  return cols < 1 ? 8 : (cols + 7) / 8 * 8;
}

// out[r * ld + c] = value(r, c) rounded to T, for r < rows and c < cols
// (value a device functor of (long long r, long long c)). False where the
// launch failed (its error left for the caller to read).
template <class T, class Value>
__host__ bool dequantize_operand(long long rows, long long cols, const Value &value, T *out,
                                 long long ld, cudaStream_t stream) {
  if (rows < 1 || cols < 1)
    return true;
  const long long per_block = detail::kDequantizeThreads * detail::kDequantizeElements;
  const long long blocks_x = (cols + per_block - 1) / per_block;
  const long long blocks_z = (rows + 65534) / 65535;
  if (blocks_x > 2147483647LL || blocks_z > 65535)
    return false;
  const dim3 grid(static_cast<unsigned>(blocks_x),
                  static_cast<unsigned>(rows < 65535 ? rows : 65535),
                  static_cast<unsigned>(blocks_z));
  detail::dequantize_operand_kernel<T, Value>
      <<<grid, detail::kDequantizeThreads, 0, stream>>>(rows, cols, value, out, ld);
  return cudaPeekAtLastError() == cudaSuccess;
}

// Device memory for a dequantised operand of `bytes` on `stream`: the
// stream's kept buffer (stream_buffer.cuh), or, while the stream is being
// captured into a graph (which a kept buffer may not serve), memory of the
// stream's pool, freed by release() on the stream after the kernels.
struct DequantizedBuffer {
  void *data = nullptr;
  bool pooled = false;
};
__host__ inline DequantizedBuffer dequantized_buffer(cudaStream_t stream, size_t bytes) {
  if (void *kept = stream_buffer(stream, kDequantizedOperand, bytes, false))
    return {kept, false};
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
      capture == cudaStreamCaptureStatusNone) {
    (void)cudaGetLastError();  // (no memory: the caller reports it)
    return {};
  }
  void *data = nullptr;
  if (cudaMallocAsync(&data, bytes > 0 ? bytes : 1, stream) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  return {data, true};
}
__host__ inline void release(const DequantizedBuffer &b, cudaStream_t stream) {
  if (b.pooled && b.data)
    cudaFreeAsync(b.data, stream);
}
// Releases a buffer when the launcher returns, after its kernels were
// enqueued on the stream.
struct ReleasedAtExit {
  DequantizedBuffer buffer;
  cudaStream_t stream;
  ReleasedAtExit(const DequantizedBuffer &b, cudaStream_t s) : buffer(b), stream(s) {}
  ReleasedAtExit(const ReleasedAtExit &) = delete;
  ReleasedAtExit &operator=(const ReleasedAtExit &) = delete;
  ~ReleasedAtExit() { release(buffer, stream); }
};

}  // namespace tc
