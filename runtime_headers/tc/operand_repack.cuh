// tc/operand_repack.cuh - an operand TMA cannot describe, copied into an
// aligned buffer first.
//
// A tensor map needs a 16-byte aligned base and a row pitch of a multiple
// of 16 bytes (tma.cuh): a row-major B of an odd N (DeepBench's 35 x 8457 x
// 4096), or an operand that starts at an odd element of a larger array,
// has neither. Its copies would have to go element by element, an order of
// magnitude slower than TMA. Instead the launcher copies the operand's
// `outer` rows of `inner` elements once into a buffer kept per stream
// (stream_buffer.cuh) whose rows are padded to 16 bytes (8 16-bit
// elements, or 4 32-bit ones: fp32 operands read as tf32), and the tensor
// map describes the copy: a read and a write of the operand, against the
// main loop's reading it once per block row or column of the output.
//
// repack_rows: thread t of the grid writes the 16-byte chunks t, t +
// threads, ... of the padded copy (row r = chunk / chunks_per_row); a
// chunk's 8 (4) elements are loaded one by one (the source has no
// alignment), the padding is zero. Consecutive threads take consecutive chunks, so
// both the loads and the stores are coalesced. A batch of matrices
// (tma_map_3d_aligned) is copied as their rows one after the other: copy
// row r is row r % matrix_rows of matrix r / matrix_rows, which starts
// matrix_pitch elements after the previous one (any sign).
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda.h>
#include <cuda_runtime.h>

#include "device_facts.cuh"
#include "stream_buffer.cuh"
#include "tma.cuh"

namespace tc {

// A template, so that every file rewritten into a program may define it.
template <typename Bits>
__global__ void __launch_bounds__(256) repack_rows(const Bits *__restrict__ src, long long ld,
                                                   long long inner, long long outer,
                                                   long long padded, uint4 *__restrict__ dst,
                                                   long long matrix_rows, long long matrix_pitch) {
  static_assert(sizeof(Bits) == 2 || sizeof(Bits) == 4, "16- or 32-bit elements");
  constexpr int kChunk = 16 / sizeof(Bits);  // elements of a 16-byte chunk
  const long long chunks_per_row = padded / kChunk, chunks = chunks_per_row * outer;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long c = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; c < chunks;
       c += stride) {
    const long long row = c / chunks_per_row, col = c % chunks_per_row * kChunk;
    const Bits *s = src + col +
                    (matrix_pitch == 0 ? row * ld
                                       : row / matrix_rows * matrix_pitch + row % matrix_rows * ld);
    uint32_t e[kChunk];
#pragma unroll
    for (int i = 0; i < kChunk; ++i)
      e[i] = col + i < inner ? s[i] : 0u;
    if constexpr (kChunk == 8)
      dst[c] = make_uint4(e[0] | e[1] << 16, e[2] | e[3] << 16, e[4] | e[5] << 16,
                          e[6] | e[7] << 16);
    else
      dst[c] = make_uint4(e[0], e[1], e[2], e[3]);
  }
}

// The padded row pitch, in elements of `bytes` bytes, of an operand's
// aligned copy: a multiple of 16 bytes.
__host__ inline long long repacked_pitch(long long inner, int bytes = 2) {
  const long long chunk = 16 / bytes;
  return (inner + chunk - 1) / chunk * chunk;
}

// Launches repack_rows on `stream`, up to 8 blocks per SM of `device`:
// `rows` rows of `inner` kBytes-byte elements from `base` into `copy`,
// `padded` apart.
template <int kBytes = 2>
__host__ inline bool repack_into(void *copy, const void *base, long long ld, long long inner,
                                 long long rows, long long padded, long long matrix_rows,
                                 long long matrix_pitch, cudaStream_t stream,
                                 const DeviceFacts &device) {
  static_assert(kBytes == 2 || kBytes == 4, "16- or 32-bit elements");
  using Bits = std::conditional_t<kBytes == 4, uint32_t, uint16_t>;
  const long long chunks = padded / (16 / kBytes) * rows;
  const long long wanted = (chunks + 255) / 256, cap = 8ll * device.multiprocessors;
  repack_rows<Bits><<<static_cast<unsigned>(wanted < cap ? wanted : cap), 256, 0, stream>>>(
      static_cast<const Bits *>(base), ld, inner, rows, padded, static_cast<uint4 *>(copy),
      matrix_rows, matrix_pitch);
  return cudaPeekAtLastError() == cudaSuccess;
}

// The tensor map of a matrix of 16-bit elements, or of kBytes = 4: fp32
// (tma_map_2d's arguments):
// of the matrix itself where TMA can describe it, else of its aligned copy,
// made on `stream` in the buffer of `operand` (the operand's index in the
// region: one buffer each) by up to 8 blocks per SM of `device`. False when neither works (no driver support,
// extents out of range, no memory): the caller must copy another way.
template <int kBytes = 2>
__host__ inline bool tma_map_2d_aligned(CUtensorMap *map, const void *base, long long inner,
                                        long long outer, long long ld, int box_inner,
                                        int box_outer, cudaStream_t stream, int operand,
                                        const DeviceFacts &device) {
  if (tma_map_2d<kBytes>(map, base, inner, outer, ld, box_inner, box_outer))
    return true;
  if (!tensor_map_encoder() || inner < 1 || outer < 1 || ld < inner)
    return false;
  const long long padded = repacked_pitch(inner, kBytes);
  const size_t bytes = kBytes * static_cast<size_t>(padded) * static_cast<size_t>(outer);
  void *copy = stream_buffer(stream, kRepackedOperand + operand, bytes, false);
  return copy && tma_map_2d<kBytes>(map, copy, inner, outer, padded, box_inner, box_outer) &&
         repack_into<kBytes>(copy, base, ld, inner, outer, padded, outer, 0, stream, device);
}

// The same for `matrices` matrices, matrix z at base + z * matrix_pitch
// elements (tma_map_3d; 0: one matrix every batch entry reads): the copy
// holds them one after the other, each `outer` rows of the padded pitch.
template <int kBytes = 2>
__host__ inline bool tma_map_3d_aligned(CUtensorMap *map, const void *base, long long inner,
                                        long long outer, long long ld, long long matrices,
                                        long long matrix_pitch, int box_inner, int box_outer,
                                        cudaStream_t stream, int operand,
                                        const DeviceFacts &device) {
  if (tma_map_3d<kBytes>(map, base, inner, outer, ld, matrices, matrix_pitch, box_inner,
                         box_outer))
    return true;
  if (matrix_pitch == 0)
    matrices = 1;
  if (!tensor_map_encoder() || inner < 1 || outer < 1 || ld < inner || matrices < 1 ||
      outer > (1ll << 40) / matrices)
    return false;
  const long long padded = repacked_pitch(inner, kBytes), rows = outer * matrices;
  const size_t bytes = kBytes * static_cast<size_t>(padded) * static_cast<size_t>(rows);
  void *copy = stream_buffer(stream, kRepackedOperand + operand, bytes, false);
  return copy &&
         tma_map_3d<kBytes>(map, copy, inner, outer, padded, matrices,
                            matrices > 1 ? outer * padded : 0, box_inner, box_outer) &&
         repack_into<kBytes>(copy, base, ld, inner, rows, padded, outer, matrix_pitch, stream,
                             device);
}

}  // namespace tc
