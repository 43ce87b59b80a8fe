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
//
// An fp32 operand stored with its free index contiguous (A stored [k][m],
// B stored [k][n]: C = A B with both row-major) cannot be staged as it is:
// wgmma takes tf32 operands K-major only. tma_map_2d_transposed copies it
// transposed, K-major, into the operand's buffer instead, rows padded to 16
// bytes, and maps the copy: again a read and a write of the operand per
// launch (made every launch, whatever the operand's alignment), which the
// K-major main loop then reads as it would a K-major operand.
// repack_transposed moves 32 x 32 element tiles through shared memory
// (rows padded to 33 words: no bank conflicts either way), so that both
// the reads (along the free index) and the writes (along k) are coalesced.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda.h>
#include <cuda_runtime.h>

#include "device_facts.cuh"
#include "mma.cuh"
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

// The grid of a copy that wants `blocks` blocks: at most 8 per SM of
// `device` (each loops over the rest).
__host__ inline unsigned copy_grid(long long blocks, const DeviceFacts &device) {
  const long long cap = 8ll * device.multiprocessors;
  return static_cast<unsigned>(blocks < cap ? blocks : cap);
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
  repack_rows<Bits><<<copy_grid((chunks + 255) / 256, device), 256, 0, stream>>>(
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

// The K-major copy of a matrix of fp32 elements stored with its free
// index contiguous: `rows` free elements by `k` reduction elements, element
// (r, c) at src[c * ld + r], into dst[r * padded + c], zeros in columns k ..
// padded - 1; each element rounded to tf32 (to nearest, tc::to_tf32), as
// the tensor cores are to read it: wgmma, which reads the copy, would only
// truncate, and rounding here spares the consumers a pass over each stage. Blocks of 32 x 8 threads take 32 x 32 tiles of the copy (tile
// t: rows 32 (t % tiles_r) .., columns 32 (t / tiles_r) ..) one after the
// other: thread (x, y) reads src's elements (r0 + x, c0 + y + 8 i), 32
// consecutive words a warp, into tile[y + 8 i][x], and writes tile[x][y +
// 8 i] to the copy's (r0 + y + 8 i, c0 + x), again 32 consecutive words.
template <typename Bits>
__global__ void __launch_bounds__(256) repack_transposed(const Bits *__restrict__ src,
                                                         long long ld, long long rows,
                                                         long long k, long long padded,
                                                         Bits *__restrict__ dst) {
  static_assert(sizeof(Bits) == 4, "32-bit elements");
  __shared__ Bits tile[32][33];
  const int x = threadIdx.x, y = threadIdx.y;
  const long long tiles_r = (rows + 31) / 32, tiles = tiles_r * ((padded + 31) / 32);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long r0 = t % tiles_r * 32, c0 = t / tiles_r * 32;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const long long r = r0 + x, c = c0 + y + 8 * i;
      tile[y + 8 * i][x] = r < rows && c < k ? to_tf32(src[c * ld + r]) : Bits(0);
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const long long r = r0 + y + 8 * i, c = c0 + x;
      if (r < rows && c < padded)
        dst[r * padded + c] = tile[x][y + 8 * i];
    }
    __syncthreads();  // (the tile is refilled)
  }
}

// Launches repack_transposed on `stream`, up to 8 blocks per SM of
// `device`: the K-major copy, rounded to tf32, of `rows` x `k` fp32 elements at `base`
// (free index contiguous, pitch `ld`) into `copy`, rows `padded` apart.
__host__ inline bool transpose_into(void *copy, const void *base, long long ld, long long rows,
                                    long long k, long long padded, cudaStream_t stream,
                                    const DeviceFacts &device) {
  repack_transposed<uint32_t>
      <<<copy_grid((rows + 31) / 32 * ((padded + 31) / 32), device), dim3(32, 8), 0, stream>>>(
          static_cast<const uint32_t *>(base), ld, rows, k, padded,
          static_cast<uint32_t *>(copy));
  return cudaPeekAtLastError() == cudaSuccess;
}

// The tensor map of a matrix of 32-bit (fp32) elements stored with its
// free index contiguous (`rows` free elements by `k` reduction elements,
// element (r, c) at base[c * ld + r]) as a K-major one: of its transposed
// copy, its elements rounded to tf32 (inner = k, outer = rows, pitch
// repacked_pitch(k, 4)), made on
// `stream` in the buffer of `operand` (the operand's index in the region,
// as tma_map_2d_aligned's: one buffer each) by up to 8 blocks per SM of
// `device`. The copy is made every launch: a read and a write of the
// operand. False when it cannot be made or mapped (no driver support,
// extents out of range, no memory, a stream being captured): the caller
// must copy another way.
__host__ inline bool tma_map_2d_transposed(CUtensorMap *map, const void *base, long long rows,
                                           long long k, long long ld, int box_inner,
                                           int box_outer, cudaStream_t stream, int operand,
                                           const DeviceFacts &device) {
  constexpr int kBytes = 4;
  if (!tensor_map_encoder() || rows < 1 || k < 1 || ld < rows || rows >= (1ll << 32) ||
      k >= (1ll << 32))
    return false;
  const long long padded = repacked_pitch(k, kBytes);
  if (rows > (1ll << 40) / padded)  // (no device holds 4 TiB)
    return false;
  const size_t bytes = kBytes * static_cast<size_t>(padded) * static_cast<size_t>(rows);
  void *copy = stream_buffer(stream, kRepackedOperand + operand, bytes, false);
  return copy && tma_map_2d<kBytes>(map, copy, k, rows, padded, box_inner, box_outer) &&
         transpose_into(copy, base, ld, rows, k, padded, stream, device);
}

}  // namespace tc
