// tc/tma.cuh - tensor memory accelerator copies of operand tiles (sm_90).
//
// A 2-D tensor map describes an operand in global memory: `inner`
// contiguous elements per row, `outer` rows `ld` elements apart, and the box
// one copy moves: box_inner x box_outer elements. One elected thread issues
// tma_load_2d(dst, map, bar, x, y), which copies the box whose first element
// is (row y, element x) into shared memory at `dst` and completes its bytes
// on the mbarrier `bar` (mbarrier.cuh). Elements outside the tensor arrive
// as zeros, so partial tiles need no predicates; the transaction count is
// always the whole box.
//
// Shared-memory layout: the maps use the 128-byte swizzle with boxes one
// 128-byte row wide (64 16-bit elements, or 32 32-bit ones: fp32 operands
// that wgmma reads as tf32), which stores box row r at byte 128 r with its
// 16-byte chunks permuted by chunk ^ (r % 8) - exactly
// tc::swizzled_offset<64> (a K-major stage) and one panel of
// tc::paneled_offset (an M/N-major stage) for 16-bit elements, i.e. the
// layouts the wgmma descriptors of wgmma.cuh describe; the same bytes with
// 4 elements to a chunk for 32-bit ones. `dst` must be 1024-byte aligned.
// Maps of 8-bit matrices (tma_map_2d_bytes: raw int8/uint8 weights for the
// consumers to convert, tile_convert.cuh) are unswizzled: box row r at byte
// box_inner * r; or, for fragments loaded from 64-byte box rows
// (raw_fragment.cuh), with the 64-byte swizzle: 16-byte chunk j of row r at
// chunk j ^ (r / 2 % 4).
//
// Requirements, checked by tma_map_2d on the host (the generated launcher
// falls back to its cp.async kernel when they fail): the base address is
// 16-byte aligned, the row pitch a multiple of 16 bytes and below 2^40, the
// extents below 2^32, and a CUDA driver with cuTensorMapEncodeTiled.
#pragma once

#include <cstdint>

#include <cuda.h>
#include <cuda_runtime.h>

#include "device_trap.cuh"
#include "mbarrier.cuh"

namespace tc {

__device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap &map, uint64_t *bar,
                                            int x, int y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<uint64_t>(&map)), "r"(shared_address(bar)), "r"(x), "r"(y)
      : "memory");
#else
  (void)dst, (void)map, (void)bar, (void)x, (void)y;
  TC_DEVICE_TRAP_();  // TMA needs sm_90
#endif
}

// The same copy into the shared memory of every block of the cluster in
// `mask` (bit r: rank r, cluster.cuh), at `dst`'s offset in each, completing
// the bytes on the mbarrier at `bar`'s offset in each.
__device__ __forceinline__ void tma_load_2d_multicast(void *dst, const CUtensorMap &map,
                                                      uint64_t *bar, int x, int y,
                                                      uint16_t mask) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<uint64_t>(&map)), "r"(shared_address(bar)), "r"(x), "r"(y),
      "h"(mask)
      : "memory");
#else
  (void)dst, (void)map, (void)bar, (void)x, (void)y, (void)mask;
  TC_DEVICE_TRAP_();  // TMA needs sm_90
#endif
}

// The copies of a 3-D map (tma_map_3d): the box at (element x, row y) of
// matrix z, a batch entry.
__device__ __forceinline__ void tma_load_3d(void *dst, const CUtensorMap &map, uint64_t *bar,
                                            int x, int y, int z) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5}], [%2];\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<uint64_t>(&map)), "r"(shared_address(bar)), "r"(x), "r"(y), "r"(z)
      : "memory");
#else
  (void)dst, (void)map, (void)bar, (void)x, (void)y, (void)z;
  TC_DEVICE_TRAP_();  // TMA needs sm_90
#endif
}

__device__ __forceinline__ void tma_load_3d_multicast(void *dst, const CUtensorMap &map,
                                                      uint64_t *bar, int x, int y, int z,
                                                      uint16_t mask) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%3, %4, %5}], [%2], %6;\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<uint64_t>(&map)), "r"(shared_address(bar)), "r"(x), "r"(y), "r"(z),
      "h"(mask)
      : "memory");
#else
  (void)dst, (void)map, (void)bar, (void)x, (void)y, (void)z, (void)mask;
  TC_DEVICE_TRAP_();  // TMA needs sm_90
#endif
}

// One operand tile of a stage as kBoxes boxes of kBoxElements elements,
// box b at dst + b * kBoxElements from coordinates (x + b * dx, y + b * dy):
// the two halves of a K-major tile's rows (dy = rows / 2), or the 64-wide
// panels of an M/N-major tile (dx = 64). With `shared`, a pair of blocks
// (cluster.cuh) has this tile in common: the block of rank r copies boxes
// [r * kBoxes / 2, (r + 1) * kBoxes / 2) into both blocks' stages, so each
// block's barrier still receives the whole tile's bytes.
template <int kBoxes, int kBoxElements, typename T>
__device__ __forceinline__ void tma_load_tile(T *dst, const CUtensorMap &map, uint64_t *bar,
                                              int x, int y, int dx, int dy, bool shared,
                                              int rank) {
  static_assert(kBoxes % 2 == 0, "a pair splits the tile's boxes in halves");
  if (shared) {
#pragma unroll
    for (int h = 0; h < kBoxes / 2; ++h) {
      const int b = rank * (kBoxes / 2) + h;
      tc::tma_load_2d_multicast(dst + b * kBoxElements, map, bar, x + b * dx, y + b * dy, 0x3);
    }
  } else {
#pragma unroll
    for (int b = 0; b < kBoxes; ++b)
      tc::tma_load_2d(dst + b * kBoxElements, map, bar, x + b * dx, y + b * dy);
  }
}

// Fetches the map's descriptor into the constant cache ahead of the first copy.
__device__ __forceinline__ void tma_prefetch_map(const CUtensorMap &map) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(&map)) : "memory");
#endif
}

// cuTensorMapEncodeTiled from the driver the runtime loaded (no -lcuda).
using TensorMapEncoder = CUresult (*)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                      const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                      const cuuint32_t *, CUtensorMapInterleave,
                                      CUtensorMapSwizzle, CUtensorMapL2promotion,
                                      CUtensorMapFloatOOBfill);

__host__ inline TensorMapEncoder tensor_map_encoder() {
  static const TensorMapEncoder encoder = [] {
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();  // handled: no TMA, the callers copy another way
      return static_cast<TensorMapEncoder>(nullptr);
    }
    return reinterpret_cast<TensorMapEncoder>(fn);
  }();
  return encoder;
}

// Whether a map can describe a matrix of `inner` x `outer` elements of
// `bytes` bytes, row pitch `ld` elements, at `base` (the requirements at the
// top).
__host__ inline bool tma_matrix_fits(const void *base, long long inner, long long outer,
                                     long long ld, int bytes) {
  return reinterpret_cast<uintptr_t>(base) % 16 == 0 && inner >= 1 && outer >= 1 &&
         inner < (1ll << 32) && outer < (1ll << 32) && (ld * bytes) % 16 == 0 &&
         ld * bytes < (1ll << 40) && ld >= inner;
}

// TMA only moves the bits: unsigned types of the element's size.
__host__ constexpr CUtensorMapDataType tma_data_type(int bytes) {
  return bytes == 4   ? CU_TENSOR_MAP_DATA_TYPE_UINT32
         : bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                      : CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

// The map of a matrix of kBytes-byte elements: 16- and 32-bit ones with the
// 128-byte swizzle (the stages wgmma reads), 8-bit ones unswizzled or with
// the 64-byte swizzle (swizzle64, boxes of 64-byte rows).
template <int kBytes>
__host__ inline bool tma_map_2d_of(CUtensorMap *map, const void *base, long long inner,
                                   long long outer, long long ld, int box_inner, int box_outer,
                                   bool swizzle64 = false) {
  static_assert(kBytes == 1 || kBytes == 2 || kBytes == 4, "8-, 16- or 32-bit elements");
  const TensorMapEncoder encode = tensor_map_encoder();
  if (!encode || !tma_matrix_fits(base, inner, outer, ld, kBytes) ||
      (swizzle64 && box_inner * kBytes != 64))
    return false;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(inner), static_cast<cuuint64_t>(outer)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld * kBytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_inner),
                             static_cast<cuuint32_t>(box_outer)};
  const cuuint32_t element_strides[2] = {1, 1};
  return encode(map, tma_data_type(kBytes), 2, const_cast<void *>(base), dims, strides, box,
                element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                kBytes >= 2 ? CU_TENSOR_MAP_SWIZZLE_128B
                : swizzle64 ? CU_TENSOR_MAP_SWIZZLE_64B
                            : CU_TENSOR_MAP_SWIZZLE_NONE,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// The map of a matrix of 16-bit elements (see above), or of kBytes = 4:
// fp32; false when TMA cannot describe it, and the caller must copy
// another way.
template <int kBytes = 2>
__host__ inline bool tma_map_2d(CUtensorMap *map, const void *base, long long inner,
                                long long outer, long long ld, int box_inner, int box_outer) {
  static_assert(kBytes == 2 || kBytes == 4, "16- or 32-bit elements, 128-byte swizzle");
  return tma_map_2d_of<kBytes>(map, base, inner, outer, ld, box_inner, box_outer);
}

// The map of `matrices` matrices of 16-bit (kBytes = 4: 32-bit) elements,
// each as tma_map_2d
// describes one, matrix z at `base` + z * `matrix_pitch` elements: a batch
// of operands, its boxes one matrix deep (a copy never crosses from one
// matrix into the next: rows and elements past a matrix's edge arrive as
// zeros). matrix_pitch 0: one matrix, which every batch entry reads.
// False where TMA cannot describe it: besides tma_map_2d's conditions, a
// pitch of matrices that is negative, not a multiple of 16 bytes, or 2^40
// bytes or more, or 2^32 matrices or more.
template <int kBytes = 2>
__host__ inline bool tma_map_3d(CUtensorMap *map, const void *base, long long inner,
                                long long outer, long long ld, long long matrices,
                                long long matrix_pitch, int box_inner, int box_outer) {
  static_assert(kBytes == 2 || kBytes == 4, "16- or 32-bit elements, 128-byte swizzle");
  const TensorMapEncoder encode = tensor_map_encoder();
  if (matrix_pitch == 0)
    matrices = 1;
  // (bytes; one matrix's is never used, but given as if they were stacked)
  const long long pitch = matrices == 1 ? ld * kBytes * outer : matrix_pitch * kBytes;
  if (!encode || !tma_matrix_fits(base, inner, outer, ld, kBytes) || matrices < 1 ||
      matrices >= (1ll << 32) || matrix_pitch < 0 || pitch % 16 != 0 || pitch >= (1ll << 40))
    return false;
  const cuuint64_t dims[3] = {static_cast<cuuint64_t>(inner), static_cast<cuuint64_t>(outer),
                              static_cast<cuuint64_t>(matrices)};
  const cuuint64_t strides[2] = {static_cast<cuuint64_t>(ld * kBytes),
                                 static_cast<cuuint64_t>(pitch)};
  const cuuint32_t box[3] = {static_cast<cuuint32_t>(box_inner),
                             static_cast<cuuint32_t>(box_outer), 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  return encode(map, tma_data_type(kBytes), 3, const_cast<void *>(base), dims, strides,
                box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// The map of a matrix of 8-bit elements (int8/uint8 weights that the
// consumers convert), without a swizzle: box row r at byte box_inner * r
// (copies that land in the second half of a 16-bit stage, converted there
// before wgmma reads it: tile_convert.cuh); or with the 64-byte swizzle for
// rows of 64 bytes whose fragments the consumers load (raw_fragment.cuh).
__host__ inline bool tma_map_2d_bytes(CUtensorMap *map, const void *base, long long inner,
                                      long long outer, long long ld, int box_inner,
                                      int box_outer, bool swizzle64 = false) {
  return tma_map_2d_of<1>(map, base, inner, outer, ld, box_inner, box_outer, swizzle64);
}

}  // namespace tc
