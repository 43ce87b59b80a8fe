// tc/mma.cuh - warp-level tensor-core MMA, m16n8k16, fp32 accumulate.
//
// D(16x8, f32) += A(16x16, f16|bf16, row) * B(16x8, f16|bf16, col)
//
// Fragment layouts (PTX ISA, mma.m16n8k16 .f16/.bf16), lane = 4*g + t with
// g = lane / 4 (the "groupID") and t = lane % 4 ("threadID_in_group").  Each
// uint32_t holds two 16-bit elements, lower index in the low half.
//
//   A, 16x16, row-major view A[m][k]:
//     a[0] = A[g    ][2t .. 2t+1]      a[2] = A[g    ][2t+8 .. 2t+9]
//     a[1] = A[g + 8][2t .. 2t+1]      a[3] = A[g + 8][2t+8 .. 2t+9]
//   B, 16x8, B[k][n] ("col": k pairs are packed, so each register is a pair
//   of consecutive k for one n):
//     b[0] = B[2t   .. 2t+1][g]        b[1] = B[2t+8 .. 2t+9][g]
//   C/D, 16x8, fp32:
//     d[0], d[1] = C[g    ][2t], C[g    ][2t+1]
//     d[2], d[3] = C[g + 8][2t], C[g + 8][2t+1]
//
// Why these shapes matter: every register is "row g, two consecutive columns"
// of an 8x8 block, so A is four 8x8 blocks (m-half = q & 1, k-half = q >> 1),
// B is two (k-half = q), and each block is one ldmatrix matrix
// (see fragment.cuh).  The accumulator layout lets a lane store its two
// adjacent columns with one 8-byte (f32x2) or 4-byte (f16x2) store.
#pragma once

#include <cstdint>

#include "device_trap.cuh"

namespace tc {

__device__ __forceinline__ void mma_m16n8k16_f16(float (&d)[4], const uint32_t (&a)[4],
                                                 const uint32_t (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  (void)d, (void)a, (void)b;
  TC_DEVICE_TRAP_();  // m16n8k16 needs sm_80
#endif
}

__device__ __forceinline__ void mma_m16n8k16_bf16(float (&d)[4], const uint32_t (&a)[4],
                                                  const uint32_t (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  (void)d, (void)a, (void)b;
  TC_DEVICE_TRAP_();
#endif
}

// m16n8k8 with tf32 operands (fp32 registers rounded to tf32, see
// to_tf32) and fp32 accumulators. lane = 4g + t:
//   A (16x8, row): a0 = A[g][t], a1 = A[g+8][t], a2 = A[g][t+4], a3 = A[g+8][t+4]
//   B (8x8, col):  b0 = B[t][g], b1 = B[t+4][g]
//   C/D: as for m16n8k16.
__device__ __forceinline__ void mma_m16n8k8_tf32(float (&d)[4], const uint32_t (&a)[4],
                                                 const uint32_t (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  (void)d, (void)a, (void)b;
  TC_DEVICE_TRAP_();
#endif
}

// fp32 bits -> tf32 (round to nearest, ties away), what the tensor cores
// read of an fp32 operand.
__device__ __forceinline__ uint32_t to_tf32(uint32_t f32_bits) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(f32_bits)));
  return r;
#else
  return f32_bits;
#endif
}

}  // namespace tc
