// tc/tile_convert.cuh - operand tiles converted while they are copied.
//
// An operand stored in another type than the mma's (int8/uint8 weights of a
// weight-only quantized layer), or transformed by a prologue that needs the
// element's row or column (a per-channel zero point or scale), is converted
// on its way to shared memory: each thread loads a chunk into registers,
// applies the prologue f(x, outer) in fp32 (x the element, outer its row of
// a k-contiguous operand or its column otherwise, i.e. its m or n) and
// stores the chunk in the mma type with one 16-byte st.shared at the offset
// OperandCopier (tile_copy.cuh) would use. The fragment loaders
// (fragment.cuh) then read the tile as if it had been copied, and shared
// memory holds the transformed operand: each element is converted once per
// block, not once per warp that reads it.
//
// Thread -> element layout: that of OperandCopier. A chunk is kVec = 16 /
// sizeof(Dst) consecutive elements along the contiguous dimension (8 fp16
// values from 8 bytes of int8); chunk i of a thread lies kRowStep * i rows
// below its chunk 0, and k tile t kBlockK further along k.
//
// Elements outside the matrix are stored as exact zeros, not f(0): a zero
// point makes f(0) nonzero, and padded products must add nothing.
//
// The data passes through registers, in two phases: `load` issues the
// global loads of a chunk into the copier's registers and `land` converts
// the chunk and stores it into its stage. The wgmma main loop loads tile
// t + S - 1 in iteration t, like cp.async, and lands it one iteration
// later, after issuing that iteration's wgmma: the loads' latency then
// hides behind a whole iteration instead of stalling the copy (the
// synchronous `issue`, load and land at once, serves the mma.sync loop).
// Either way the stores precede the barrier that publishes the stage (the
// cp.async wait), so no extra barrier is needed.
//
// 8-bit integers become fp32 through the mantissa of 2^23 (bytes_to_float)
// and pairs of 16-bit results are packed by one conversion: the I2F and
// single-element F2F instructions issue at a fraction of the fp32 rate, and
// a converted operand needs one conversion per element and block.
//
// kMode (CopyMode, shared with the other operand's copier): kElementwise
// loads elements one by one (any alignment); otherwise chunk starts are
// aligned to the chunk's source bytes (convert_copy_mode) and a chunk that
// lies wholly inside the matrix is one vector load.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "convert.cuh"
#include "swizzle.cuh"
#include "tile_copy.cuh"

namespace tc {

// Loads kBytes (4, 8, 16 or 32) from a kBytes-aligned global address.
template <int kBytes, typename Src>
__device__ __forceinline__ void load_chunk(Src *x, const Src *p) {
  if constexpr (kBytes == 4) {
    const uint32_t v = *reinterpret_cast<const uint32_t *>(p);
    memcpy(x, &v, 4);
  } else if constexpr (kBytes == 8) {
    const uint2 v = *reinterpret_cast<const uint2 *>(p);
    memcpy(x, &v, 8);
  } else if constexpr (kBytes == 16) {
    const uint4 v = *reinterpret_cast<const uint4 *>(p);
    memcpy(x, &v, 16);
  } else {
    static_assert(kBytes == 32, "a chunk is 4 to 32 bytes");
    const uint4 v0 = reinterpret_cast<const uint4 *>(p)[0];
    const uint4 v1 = reinterpret_cast<const uint4 *>(p)[1];
    memcpy(x, &v0, 16);
    memcpy(reinterpret_cast<unsigned char *>(x) + 16, &v1, 16);
  }
}

// Four 8-bit integers (the bytes of w, lowest first) to fp32, exactly:
// each byte is placed in the low mantissa bits of 2^23 (one PRMT) and the
// bias subtracted (one FADD). Signed bytes are first offset by 128.
template <typename Src>
__device__ __forceinline__ void bytes_to_float(uint32_t w, float *f) {
  constexpr bool kSigned = std::is_signed<Src>::value;
  constexpr float kBias = kSigned ? 8388736.0f : 8388608.0f;  // 2^23 (+ 128)
  if (kSigned)
    w ^= 0x80808080u;
#pragma unroll
  for (int e = 0; e < 4; ++e)
    f[e] = __uint_as_float(__byte_perm(w, 0x4B000000u, 0x7440u + e)) - kBias;
}

// A chunk of kVec Src elements to fp32.
template <typename Src, int kVec>
__device__ __forceinline__ void chunk_to_float(const Src (&x)[kVec], float (&f)[kVec]) {
  if constexpr (sizeof(Src) == 1 && std::is_integral<Src>::value && kVec % 4 == 0) {
#pragma unroll
    for (int w = 0; w < kVec / 4; ++w) {
      uint32_t word;
      memcpy(&word, &x[4 * w], 4);
      bytes_to_float<Src>(word, &f[4 * w]);
    }
  } else {
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      f[e] = to_float(x[e]);
  }
}

// kVec fp32 values to a 16-byte chunk of Dst (rounded to nearest even), two
// 16-bit values per conversion instruction.
template <typename Dst, int kVec>
__device__ __forceinline__ uint4 pack_chunk(const float (&v)[kVec]) {
  static_assert(kVec * sizeof(Dst) == 16, "a chunk is 16 bytes");
  uint4 packed;
  if constexpr (std::is_same<Dst, __half>::value) {
    __half2 h[kVec / 2];
#pragma unroll
    for (int e = 0; e < kVec / 2; ++e)
      h[e] = __floats2half2_rn(v[2 * e], v[2 * e + 1]);
    memcpy(&packed, h, 16);
  } else if constexpr (std::is_same<Dst, __nv_bfloat16>::value) {
    __nv_bfloat162 h[kVec / 2];
#pragma unroll
    for (int e = 0; e < kVec / 2; ++e)
      h[e] = __floats2bfloat162_rn(v[2 * e], v[2 * e + 1]);
    memcpy(&packed, h, 16);
  } else {
    Dst y[kVec];
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      y[e] = from_float<Dst>(v[e]);
    memcpy(&packed, y, 16);
  }
  return packed;
}

// (conversion_takes_k: tc/convert.cuh.)

// The `needs` of an operand without a mask: every element inside the
// matrix is loaded.
struct EveryElement {
  __device__ __forceinline__ bool operator()(long long, long long) const { return true; }
};

// Template parameters as for OperandCopier, with Src the stored type and
// Dst the mma type (the shared tile's).
template <int kMode, typename Src, typename Dst, int kChunks, int kCols,
          bool kReductionContiguous, int kBlockK, int kRowStep>
struct ConvertingCopier {
  static_assert(sizeof(Dst) == 2 || sizeof(Dst) == 4, "shared tiles hold 16- or 32-bit elements");
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Dst));
  static constexpr int kSrcBytes = kVec * static_cast<int>(sizeof(Src));
  static constexpr bool kLinearSwizzle =
      kRowStep % swizzle_element_row_period<kCols, Dst>() == 0;
  const Src *base;
  long long ld, k_extent;
  // Elements of the contiguous dimension apart in memory (a strided loop's
  // operand): gathered one by one where not 1.
  long long element_stride = 1;
  // Per-thread state, derived once in setup (as OperandCopier's): few
  // values live next to the accumulators and the chunks in flight.
  const Src *src0;          // chunk 0 in k tile 0
  long long gk0;            // its k coordinate (column or row) in k tile 0
  long long outer0;         // its row (k contiguous) or column: f's outer
  int row0, col0, smem0;    // chunk 0 in the stage tile, its swizzled offset
  chunk_mask_t<kChunks> inside;  // bit i: chunk i is inside along the non-k bound
  int span;                 // elements of a chunk inside the non-k bound (k rows)
  // Between load and land: each chunk's elements.
  Src held[kChunks][kVec];

  __device__ __forceinline__ void setup(int i, int row, int col, long long grow,
                                        long long gcol, long long rows, long long cols) {
    if (i != 0)
      return;  // the other chunks follow from chunk 0 (kRowStep)
    row0 = row;
    col0 = col;
    smem0 = swizzled_element_offset<kCols, Dst>(row, col);
    src0 = base + grow * ld + gcol * element_stride;
    gk0 = kReductionContiguous ? gcol : grow;
    outer0 = kReductionContiguous ? grow : gcol;
    inside = chunks_inside<kChunks, kRowStep, kReductionContiguous>(grow, gcol, rows, cols);
    span = chunk_span<kVec, kReductionContiguous>(gcol, cols);
  }

  // Elements of chunk i of k tile t inside the matrix (0 to kVec). Both
  // phases compute it: holding it from load to land took a register per
  // thread that the two-block register budget does not have (ptxas spilled).
  __device__ __forceinline__ int valid_elements(int i, int t) const {
    const long long k = gk0 + static_cast<long long>(t) * kBlockK +
                        (kReductionContiguous ? 0 : static_cast<long long>(i) * kRowStep);
    return chunk_valid<kVec, kReductionContiguous>((inside >> i) & 1u, span, k, k_extent);
  }

  // Issues the global loads of chunk i of k tile t into held[i]. Only
  // whole-chunk copies (one vector load per chunk) take two phases: in the
  // other modes a chunk may be loaded element by element, and holding it
  // across an iteration next to the partial-chunk bookkeeping makes ptxas
  // spill, so `land` loads it itself, synchronously. `needs(outer, k)`
  // says which elements the loops read (a triangular or guarded product);
  // the others are not loaded.
  template <typename Needs = EveryElement>
  __device__ __forceinline__ void load(int i, int t, Needs needs = {}) {
    if constexpr (kMode == kWholeChunks)
      fetch(i, t, needs);
  }

  // Converts chunk i of k tile t into the stage at `stage_base` (from
  // held[i] after `load`, in whole-chunk mode); f(float element, long long
  // outer) -> float is the prologue (identity for a bare conversion), or
  // f(element, outer, k) where the operand is masked.
  template <typename F, typename Needs = EveryElement>
  __device__ __forceinline__ void land(int i, Dst *stage_base, int t, F f, Needs needs = {}) {
    if constexpr (kMode != kWholeChunks)
      fetch(i, t, needs);
    convert(i, stage_base, t, f);
  }

  // Load and land at once (the loads' latency is exposed).
  template <typename F, typename Needs = EveryElement>
  __device__ __forceinline__ void issue(int i, Dst *stage_base, int t, F f, Needs needs = {}) {
    fetch(i, t, needs);
    convert(i, stage_base, t, f);
  }

 private:
  // Element e of chunk i of k tile t: its outer coordinate (row of a
  // k-contiguous operand, else column) and its k.
  __device__ __forceinline__ long long outer_of(int i, int e) const {
    return kReductionContiguous ? outer0 + static_cast<long long>(i) * kRowStep : outer0 + e;
  }
  __device__ __forceinline__ long long k_of(int i, int t, int e) const {
    return gk0 + static_cast<long long>(t) * kBlockK +
           (kReductionContiguous ? e : static_cast<long long>(i) * kRowStep);
  }

  // The global loads of chunk i of k tile t into held[i]: a whole chunk at
  // once where any of its elements is needed (the others of an aligned
  // 16-byte chunk share its page, so reading them cannot fault), else
  // element by element.
  template <typename Needs>
  __device__ __forceinline__ void fetch(int i, int t, Needs needs) {
    const int valid = valid_elements(i, t);
    const Src *p = kReductionContiguous
                       ? src0 + (static_cast<long long>(i) * kRowStep) * ld +
                             static_cast<long long>(t) * kBlockK * element_stride
                       : src0 + (static_cast<long long>(i) * kRowStep +
                                 static_cast<long long>(t) * kBlockK) * ld;
    Src(&x)[kVec] = held[i];
    constexpr bool kMasked = !std::is_same<Needs, EveryElement>::value;
    if (valid == kVec && kMode != kElementwise && element_stride == 1) {
      bool any = true;
      if constexpr (kMasked) {
        any = false;
#pragma unroll
        for (int e = 0; e < kVec; ++e)
          any |= needs(outer_of(i, e), k_of(i, t, e));
      }
      if (any) {
        load_chunk<kSrcBytes>(x, p);
      } else {
#pragma unroll
        for (int e = 0; e < kVec; ++e)
          x[e] = Src(0);
      }
    } else {
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        x[e] = e < valid && (!kMasked || needs(outer_of(i, e), k_of(i, t, e)))
                   ? p[e * element_stride]
                   : Src(0);
    }
  }

  // f of element e of chunk i of k tile t: f(x, outer), or f(x, outer, k)
  // where the operand is masked by the loops' domain (a triangular or
  // guarded product: zero outside it).
  template <typename F>
  __device__ __forceinline__ float apply(F f, float x, int i, int t, int e,
                                         long long outer) const {
    if constexpr (conversion_takes_k<F>) {
      return f(x, kReductionContiguous ? outer : outer + e, k_of(i, t, e));
    } else {
      return f(x, kReductionContiguous ? outer : outer + e);
    }
  }

  // Converts held[i] (chunk i of k tile t, as fetched) into the stage.
  // Elements outside the matrix become exact zeros, not f(0): a zero point
  // makes f(0) nonzero, and padded products must add nothing.
  template <typename F>
  __device__ __forceinline__ void convert(int i, Dst *stage_base, int t, F f) const {
    const int valid = valid_elements(i, t);
    // The element's row (k contiguous) or column does not depend on the k tile.
    const long long outer = kReductionContiguous ? outer0 + static_cast<long long>(i) * kRowStep
                                                 : outer0;
    float v[kVec];
    if (valid == kVec) {
      // The common case, without a per-element select: the instructions
      // per element, not the loads, bound a converted copy.
      chunk_to_float<Src, kVec>(held[i], v);
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        v[e] = apply(f, v[e], i, t, e, outer);
    } else {
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        v[e] = e < valid ? apply(f, to_float(held[i][e]), i, t, e, outer) : 0.0f;
    }
    const int offset = kLinearSwizzle
                           ? smem0 + i * kRowStep * kCols
                           : swizzled_element_offset<kCols, Dst>(row0 + i * kRowStep, col0);
    *reinterpret_cast<uint4 *>(stage_base + offset) = pack_chunk<Dst, kVec>(v);
  }
};

// Raw stages converted by the consumers (TMA kernels).
//
// A K-major 8-bit operand fed by TMA lands raw in the second half of its
// own stage (kRows rows of 64 bytes, unswizzled: tma_map_2d_bytes), and the
// consumer threads convert it in place into the whole stage, which wgmma
// then reads (Dst, a K-major stage with the 128-byte swizzle): the stages
// take no more shared memory than the plain GEMM's. Every thread loads all
// of its raw chunks, the consumers meet (`sync`: converted rows overwrite
// raw ones), then each converts and stores its chunks; a barrier of theirs
// then publishes the stage before their wgmma, while their previous tile's
// wgmma still run.
//
// Thread -> element layout (RawStageLayout): a chunk is 8 consecutive k
// elements of one row (8 raw bytes, 16 converted ones); thread `thread` of
// kThreads converts chunks thread + i * kThreads, i.e. chunk thread % 8 of
// rows thread / 8 + i * kThreads / 8. A warp reads 4 whole rows (256
// consecutive bytes) and writes 4 whole 128-byte rows: both conflict-free.
// A thread's rows do not change from k tile to k tile, so the prologue's
// per-row values (a scale, a zero point) are loaded once, before the main
// loop: f[i](float element) -> float is the prologue of the thread's row i.
//
// Elements at k >= k_valid (past the reduction's extent) become exact
// zeros: TMA fills them with zeros, but a zero point makes f(0) nonzero and
// padded products must add nothing. Rows past the matrix (zero-filled) give
// whatever f of them is: their output columns are never stored.
template <int kRows, int kThreads>
struct RawStageLayout {
  static constexpr int kChunksPerRow = 8;  // 64 k elements
  static_assert(kRows * kChunksPerRow % kThreads == 0, "every thread takes as many chunks");
  static constexpr int kPerThread = kRows * kChunksPerRow / kThreads;
  static constexpr int kRowStep = kThreads / kChunksPerRow;
  // Bytes from the stage's start to its raw tile: the second half.
  static constexpr int kRawOffset = kRows * 64;
  __device__ __forceinline__ static int row(int thread, int i) {
    return thread / kChunksPerRow + i * kRowStep;
  }
};

// Converts raw chunk `w` of the thread's i-th row into the stage; `valid`:
// its elements inside the reduction's extent (8 but in the last k tile).
template <typename Src, typename Dst, int kRows, int kThreads, typename F>
__device__ __forceinline__ void convert_raw_chunk(Dst *stage, int thread, int i, uint2 w,
                                                  const F &f, int valid) {
  using Layout = RawStageLayout<kRows, kThreads>;
  Src x[8];
  memcpy(x, &w, 8);
  float v[8];
  chunk_to_float<Src, 8>(x, v);
#pragma unroll
  for (int e = 0; e < 8; ++e)
    v[e] = f(v[e]);
  if (valid < 8) {
#pragma unroll
    for (int e = 0; e < 8; ++e)
      v[e] = e < valid ? v[e] : 0.0f;
  }
  const int col = thread % Layout::kChunksPerRow * 8;
  *reinterpret_cast<uint4 *>(stage + swizzled_element_offset<64, Dst>(Layout::row(thread, i),
                                                                      col)) =
      pack_chunk<Dst, 8>(v);
}

// Reads the thread's raw chunks of `stage` into w and returns how many of
// their elements lie inside the reduction's extent (k_valid: K - the k
// tile's first k; 8 but in the last k tile); then `sync`, the consumers'
// barrier: every raw chunk is read before any row is overwritten.
template <int kRows, int kThreads, typename Dst, typename Sync>
__device__ __forceinline__ int load_raw_chunks(
    const Dst *stage, int thread, uint2 (&w)[RawStageLayout<kRows, kThreads>::kPerThread],
    long long k_valid, Sync sync) {
  using Layout = RawStageLayout<kRows, kThreads>;
  // All of a thread's chunks share their k columns.
  int valid = 8;
  if (k_valid < 64)  // the last k tile
    valid = min(max(static_cast<int>(k_valid) - thread % Layout::kChunksPerRow * 8, 0), 8);
  const uint2 *chunks =
      reinterpret_cast<const uint2 *>(reinterpret_cast<const unsigned char *>(stage) +
                                      Layout::kRawOffset) +
      thread;
#pragma unroll
  for (int i = 0; i < Layout::kPerThread; ++i)
    w[i] = chunks[i * kThreads];
  sync();
  return valid;
}

// Converts the raw tile of `stage` in place; f[i] is the prologue of the
// thread's i-th row, k_valid the elements of this k tile inside the
// reduction's extent (K - its first k), `sync` the consumers' barrier.
template <typename Src, typename Dst, int kRows, int kThreads, typename F, typename Sync>
__device__ __forceinline__ void convert_raw_stage(
    Dst *stage, int thread, const F (&f)[RawStageLayout<kRows, kThreads>::kPerThread],
    long long k_valid, Sync sync) {
  static_assert(sizeof(Src) == 1 && sizeof(Dst) == 2, "8-bit elements into a 16-bit stage");
  uint2 w[RawStageLayout<kRows, kThreads>::kPerThread];
  const int valid = load_raw_chunks<kRows, kThreads>(stage, thread, w, k_valid, sync);
#pragma unroll
  for (int i = 0; i < RawStageLayout<kRows, kThreads>::kPerThread; ++i)
    convert_raw_chunk<Src, Dst, kRows, kThreads>(stage, thread, i, w[i], f[i], valid);
}

// Offset rows: 8-bit weights minus a zero point, in fp16 pairs.
//
// Where the prologue is q - z (z the row's zero point, a scalar, a literal,
// or none: a scale factors out into the epilogue) and the stage holds fp16,
// a row converts in fp16 pairs instead of through fp32. Each pair of bytes
// becomes the half2 (1024 + b0, 1024 + b1) by one PRMT (fp16's spacing is 1
// from 1024 to 2048; signed bytes are first offset by 128, one LOP3 per 4),
// one HSUB2 takes away 1024 (+ 128) + zi exactly, and a second one the
// fraction zf, where z = zi + zf, zi = rint(z): 12 to 14 instructions per 8
// weights instead of about 30.
//
// A row is `exact` where |zi| <= 512 and zf is an fp16 value (integer zero
// points, no zero point, multiples of 2^-k down to fp16's resolution): then
// bias and q - zi are exact, and the second HSUB2 rounds q - z once, to the
// value the fp32 path stores (q - z rounded to fp32, then to fp16, is the
// same number: it could differ only where q - z lies a hair off an fp16
// midpoint, which needs more significant bits in zf than fp16 has).
// Other rows (fractions fp16 cannot hold, out-of-range or non-finite zero
// points) take the fp32 path, f.
template <typename F>
struct OffsetRow {
  F f;                // the prologue, for the fp32 path
  uint32_t bias;      // half2 (1024 (+ 128 for signed bytes) + zi) twice
  uint32_t fraction;  // half2 (zf, zf)
  bool exact;
};

template <typename Src, typename F, typename T>
__device__ __forceinline__ OffsetRow<F> offset_row(F f, T z) {
  static_assert(sizeof(Src) == 1 && std::is_integral<Src>::value, "8-bit weights");
  // Every offset type's value, exactly (fp32, fp64, integers up to 2^53).
  const double zd = static_cast<double>(z);
  const double zi = rint(zd), zf = zd - zi;
  const __half hf = __double2half(zf);
  OffsetRow<F> r{f, 0u, 0u, fabs(zi) <= 512.0 && static_cast<double>(__half2float(hf)) == zf};
  const double bias = (std::is_signed<Src>::value ? 1152.0 : 1024.0) + (r.exact ? zi : 0.0);
  const uint32_t b = __half_as_ushort(__double2half(bias)), fr = __half_as_ushort(hf);
  r.bias = b | b << 16;
  r.fraction = fr | fr << 16;
  return r;
}

// Whether every row of the warp's threads is exact: the warp then converts
// in fp16 pairs, as one (all 32 lanes must call it).
template <typename F, int kRowsPerThread>
__device__ __forceinline__ bool packed_rows(const OffsetRow<F> (&rows)[kRowsPerThread]) {
  bool exact = true;
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i)
    exact = exact && rows[i].exact;
  return __all_sync(0xffffffffu, exact);
}

// How a warp converts its offset rows into fp16 fragments (offset_pairs):
// through fp32 with each row's f; in fp16 pairs, one HSUB2 for the integer
// part of the offset and one for its fraction; or, where every offset is
// an integer (the fraction +-0, which takes nothing from q - zi: that is
// never -0), in fp16 pairs with the one HSUB2.
enum class OffsetPairs : int { kThroughFloat, kWithFraction, kIntegral };

// Whether all of a thread's rows are exact, and all of them integers.
template <typename F, int kRowsPerThread>
__device__ __forceinline__ void offset_classes(const OffsetRow<F> (&rows)[kRowsPerThread],
                                               bool &exact, bool &integral) {
  exact = integral = true;
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    exact = exact && rows[i].exact;
    integral = integral && (rows[i].fraction & 0x7fff7fffu) == 0;
  }
}

// The conversion of the warp's rows, chosen once before the main loop (all
// 32 lanes must call it, as packed_rows).
template <typename F, int kRowsPerThread>
__device__ __forceinline__ OffsetPairs offset_pairs(const OffsetRow<F> (&rows)[kRowsPerThread]) {
  bool exact, integral;
  offset_classes(rows, exact, integral);
  if (!__all_sync(0xffffffffu, exact))
    return OffsetPairs::kThroughFloat;
  return __all_sync(0xffffffffu, integral) ? OffsetPairs::kIntegral : OffsetPairs::kWithFraction;
}

// The 8 bytes of w minus an exact row's offset, as 4 half2 (lowest first);
// without kFraction, an integer offset's (the bias's HSUB2 only).
template <typename Src, bool kFraction = true>
__device__ __forceinline__ uint4 bytes_minus_offset(uint2 w, uint32_t bias, uint32_t fraction) {
  if (std::is_signed<Src>::value) {
    w.x ^= 0x80808080u;
    w.y ^= 0x80808080u;
  }
  // Byte e, then 0x64, the high byte of 1024 = 0x6400 (PRMT selectors).
  uint32_t h[4] = {__byte_perm(w.x, 0x64646464u, 0x4140u), __byte_perm(w.x, 0x64646464u, 0x4342u),
                   __byte_perm(w.y, 0x64646464u, 0x4140u), __byte_perm(w.y, 0x64646464u, 0x4342u)};
  __half2 b, f;
  memcpy(&b, &bias, 4);
  memcpy(&f, &fraction, 4);
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    __half2 v;
    memcpy(&v, &h[e], 4);
    v = __hsub2(v, b);
    if (kFraction)
      v = __hsub2(v, f);
    memcpy(&h[e], &v, 4);
  }
  return make_uint4(h[0], h[1], h[2], h[3]);
}

// convert_raw_stage for offset rows (fp16 stages): in fp16 pairs where
// `packed` (packed_rows, computed once before the main loop), else through
// fp32 with each row's f.
template <typename Src, typename Dst, int kRows, int kThreads, typename F, typename Sync>
__device__ __forceinline__ void convert_raw_stage(
    Dst *stage, int thread,
    const OffsetRow<F> (&rows)[RawStageLayout<kRows, kThreads>::kPerThread], bool packed,
    long long k_valid, Sync sync) {
  using Layout = RawStageLayout<kRows, kThreads>;
  static_assert(sizeof(Src) == 1 && std::is_same<Dst, __half>::value,
                "offset rows convert 8-bit elements into an fp16 stage");
  uint2 w[Layout::kPerThread];
  const int valid = load_raw_chunks<kRows, kThreads>(stage, thread, w, k_valid, sync);
  if (!packed) {
#pragma unroll
    for (int i = 0; i < Layout::kPerThread; ++i)
      convert_raw_chunk<Src, Dst, kRows, kThreads>(stage, thread, i, w[i], rows[i].f, valid);
    return;
  }
  // Elements past K become exact zeros (see RawStageLayout).
  uint4 keep = make_uint4(~0u, ~0u, ~0u, ~0u);
  if (valid < 8) {
    uint32_t m[4];
#pragma unroll
    for (int e = 0; e < 4; ++e)
      m[e] = (2 * e < valid ? 0xffffu : 0u) | (2 * e + 1 < valid ? 0xffff0000u : 0u);
    keep = make_uint4(m[0], m[1], m[2], m[3]);
  }
  const int col = thread % Layout::kChunksPerRow * 8;
#pragma unroll
  for (int i = 0; i < Layout::kPerThread; ++i) {
    uint4 v = bytes_minus_offset<Src>(w[i], rows[i].bias, rows[i].fraction);
    v = make_uint4(v.x & keep.x, v.y & keep.y, v.z & keep.z, v.w & keep.w);
    *reinterpret_cast<uint4 *>(stage + swizzled_element_offset<64, Dst>(Layout::row(thread, i),
                                                                        col)) = v;
  }
}

// Host side: the copy mode a converted operand allows (the chunk's source
// bytes aligned for one vector load; see CopyMode).
template <typename Dst, typename Src>
__host__ __forceinline__ int convert_copy_mode(const Src *base, long long ld,
                                               long long contiguous_extent) {
  const long long vec = 16 / static_cast<long long>(sizeof(Dst));
  if (reinterpret_cast<uintptr_t>(base) % (vec * sizeof(Src)) != 0 || ld % vec != 0)
    return kElementwise;
  return contiguous_extent % vec == 0 ? kWholeChunks : kPartialChunks;
}

}  // namespace tc
