// Standalone check of the tc runtime headers (runtime_headers/tc).
//
// Build:
//   nvcc -std=c++17 -I runtime_headers \
//        -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_80,code=sm_80 \
//        test/gpu/runtime_headers_test.cu -o runtime_headers_test
//
// Cases:
//   host  swizzle: bijection per tile, chunk-group closure, in-chunk position
//         kept, bank-conflict freedom of the cp.async / ldmatrix patterns.
//   host  isl_ast: floord / ceild / min / max, negative operands included.
//   gpu   mma: one warp fills shared tiles in each layout through cp_async_16
//         + swizzled_offset, loads fragments with every loader, runs
//         mma_m16n8k16 (f16 and bf16) over all 16x8 (or 16x16 with the pair
//         loaders) blocks of the tile and compares with a host reference.
//   gpu   cp.async: valid=false zero-fills, valid=true copies, several groups;
//         copy_element_to_shared stores the element or zero.
//   gpu   repack_rows: unaligned operands copied into padded rows.
//   gpu   bytes_to_float / pack_chunk: 8-bit weights to fp32, exactly, and
//         packed fp16/bf16 rounding.
//   gpu   tile schedules: the blocks of schedule_tiles,
//         schedule_tile_pairs, schedule_stream_tiles and
//         schedule_persistent_tiles (each block's units, unit_work) cover
//         every k tile of every output tile exactly once, paired or not,
//         split or not, and each part of a split tile comes once. (The
//         choices themselves - tiles, schedules, parts - are tested on the
//         host: test/unit/runtime.)
// Prints PASS/FAIL per case; exit status 1 on any failure, 77 when there is
// no usable GPU (host cases still ran), 0 otherwise.
#include <tc/tc.cuh>

#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

static int g_failures = 0;

static void report(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(bool ok, const char *fmt, ...) {
  std::printf("%s ", ok ? "PASS" : "FAIL");
  va_list ap;
  va_start(ap, fmt);
  std::vprintf(fmt, ap);
  va_end(ap);
  std::printf("\n");
  if (!ok) ++g_failures;
}

#define CUDA_CHECK(expr)                                                                     \
  do {                                                                                       \
    cudaError_t err_ = (expr);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::printf("FAIL cuda error %s at %s:%d: %s\n", cudaGetErrorString(err_), __FILE__, \
                  __LINE__, #expr);                                                          \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

// ---------------------------------------------------------------------------
// Compile-time checks: the swizzle and isl helpers are constexpr on the host.
static_assert(tc::swizzled_offset<64>(0, 0) == 0, "");
static_assert(tc::swizzled_offset<64>(1, 0) == 8 * 9, "row 1 chunk 0 -> slot 1 of line 1");
static_assert(tc::swizzled_offset<16>(0, 13) == 13, "first line is unswizzled");
static_assert(tc::floord(-1, 2) == -1 && tc::ceild(-1, 2) == 0, "");
static_assert(tc::min(3LL, 2) == 2 && tc::max(-3, 2LL) == 2LL, "");
static_assert(std::is_same<decltype(tc::min(3LL, 2)), long long>::value, "");
static_assert(TC_RUNTIME_VERSION == 10, "");

// ---------------------------------------------------------------------------
// (a) swizzle, host side.
template <int kCols>
static void check_swizzle(int rows) {
  const int cpr = kCols / 8;  // chunks per row
  const int elems = rows * kCols;
  std::vector<int> seen(elems, 0);
  bool in_range = true, pos_kept = true, group_closed = true;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < kCols; ++c) {
      const int off = tc::swizzled_offset<kCols>(r, c);
      if (off < 0 || off >= elems) {
        in_range = false;
        continue;
      }
      ++seen[off];
      if ((off & 7) != (c & 7)) pos_kept = false;
      const int linear = r * cpr + c / 8;
      if ((tc::swizzle_chunk(linear) >> 3) != (linear >> 3)) group_closed = false;
    }
  }
  bool bijective = in_range;
  for (int i = 0; i < elems; ++i) bijective = bijective && seen[i] == 1;

  // cp.async pattern: 8 threads store 8 consecutive chunks of an aligned group.
  bool store_ok = true;
  for (int g = 0; g < rows * cpr; g += 8) {
    int mask = 0;
    for (int i = 0; i < 8; ++i) mask |= 1 << (tc::swizzle_chunk(g + i) & 7);
    store_ok = store_ok && mask == 0xff;
  }
  // ldmatrix pattern: 8 consecutive rows (aligned to 8) at one logical chunk.
  // The slot of a chunk inside its 128-byte line names its 4 banks.
  bool ldm_ok = true;
  for (int r0 = 0; r0 + 8 <= rows; r0 += 8) {
    for (int c = 0; c < cpr; ++c) {
      int mask = 0;
      for (int i = 0; i < 8; ++i) mask |= 1 << (tc::swizzle_chunk((r0 + i) * cpr + c) & 7);
      ldm_ok = ldm_ok && mask == 0xff;
    }
  }
  report(bijective && pos_kept && group_closed, "swizzle kCols=%d rows=%d bijection", kCols, rows);
  report(store_ok, "swizzle kCols=%d cp.async 8-chunk stores conflict-free", kCols);
  report(ldm_ok, "swizzle kCols=%d ldmatrix 8-row reads conflict-free", kCols);
}

static void check_isl_ast() {
  bool ok = true;
  for (int a = -50; a <= 50; ++a) {
    for (int b = 1; b <= 9; ++b) {
      int fl = a / b;
      if (fl * b > a) --fl;
      int cl = a / b;
      if (cl * b < a) ++cl;
      ok = ok && tc::floord(a, b) == fl && tc::ceild(a, b) == cl;
      ok = ok && tc::floord((long long)a, b) == fl && tc::ceild(a, (long long)b) == cl;
    }
  }
  ok = ok && tc::floord(INT_MIN, 3) == -715827883 && tc::ceild(INT_MIN, 3) == -715827882;
  ok = ok && tc::floord(INT_MAX, 2) == INT_MAX / 2 && tc::ceild(INT_MAX, 2) == INT_MAX / 2 + 1;
  ok = ok && tc::min(-5, 3) == -5 && tc::max(-5, 3) == 3 && tc::min(7LL, 7) == 7;
  ok = ok && tc::max(1LL << 40, 3) == (1LL << 40);
  report(ok, "isl_ast floord/ceild/min/max");
}

// ---------------------------------------------------------------------------
// (b) fragments + mma on one warp.
template <typename T>
__device__ __forceinline__ void mma_t(float (&d)[4], const uint32_t (&a)[4],
                                      const uint32_t (&b)[2]) {
  if constexpr (std::is_same<T, __half>::value)
    tc::mma_m16n8k16_f16(d, a, b);
  else
    tc::mma_m16n8k16_bf16(d, a, b);
}

// Copy a rows x kCols global array (row-major, the tile's storage order) into a
// swizzled shared tile, one 16-byte chunk per thread per step.
template <int kCols, typename T>
__device__ void fill_tile(uint16_t *tile, const T *g, int rows) {
  constexpr int cpr = kCols / 8;
  for (int c = static_cast<int>(threadIdx.x); c < rows * cpr; c += 32) {
    const int row = c / cpr, col = (c % cpr) * 8;
    tc::cp_async_16(tile + tc::swizzled_offset<kCols>(row, col), g + row * kCols + col, true);
  }
}

// gA is A in tile storage order: [MT][KT] if a_k_contig else [KT][MT].
// gB is B in tile storage order: [NT][KT] if b_k_contig else [KT][NT].
// C is [MT][NT] fp32.
template <typename T, int MT, int NT, int KT>
__global__ void mma_kernel(const T *gA, const T *gB, float *C, bool a_k_contig, bool b_k_contig,
                           bool pair) {
  extern __shared__ __align__(128) uint16_t smem[];
  uint16_t *sA = smem;
  uint16_t *sB = smem + MT * KT;
  if (a_k_contig)
    fill_tile<KT>(sA, gA, MT);
  else
    fill_tile<MT>(sA, gA, KT);
  if (b_k_contig)
    fill_tile<KT>(sB, gB, NT);
  else
    fill_tile<NT>(sB, gB, KT);
  tc::cp_async_commit();
  tc::cp_async_wait<0>();
  __syncthreads();

  const int lane = threadIdx.x & 31, g = lane / 4, t = lane % 4;
  const int n_step = pair ? 16 : 8;
  for (int m0 = 0; m0 < MT; m0 += 16) {
    for (int n0 = 0; n0 < NT; n0 += n_step) {
      float d0[4] = {0.f, 0.f, 0.f, 0.f}, d1[4] = {0.f, 0.f, 0.f, 0.f};
      for (int k0 = 0; k0 < KT; k0 += 16) {
        uint32_t a[4];
        if (a_k_contig)
          tc::load_a_fragment_k_contiguous<KT>(a, sA, m0, k0);
        else
          tc::load_a_fragment_m_contiguous<MT>(a, sA, m0, k0);
        if (pair) {
          uint32_t b0[2], b1[2];
          if (b_k_contig)
            tc::load_b_fragment_pair_k_contiguous<KT>(b0, b1, sB, n0, k0);
          else
            tc::load_b_fragment_pair_n_contiguous<NT>(b0, b1, sB, n0, k0);
          mma_t<T>(d0, a, b0);
          mma_t<T>(d1, a, b1);
        } else {
          uint32_t b[2];
          if (b_k_contig)
            tc::load_b_fragment_k_contiguous<KT>(b, sB, n0, k0);
          else
            tc::load_b_fragment_n_contiguous<NT>(b, sB, n0, k0);
          mma_t<T>(d0, a, b);
        }
      }
      // C/D layout: d[0..1] = C[g][2t..2t+1], d[2..3] = C[g+8][2t..2t+1].
      float *c0 = C + (m0 + g) * NT + n0 + 2 * t;
      float *c8 = C + (m0 + g + 8) * NT + n0 + 2 * t;
      c0[0] = d0[0];
      c0[1] = d0[1];
      c8[0] = d0[2];
      c8[1] = d0[3];
      if (pair) {
        c0[8] = d1[0];
        c0[9] = d1[1];
        c8[8] = d1[2];
        c8[9] = d1[3];
      }
    }
  }
}

static uint32_t g_rng = 12345u;
static int rand_small() {  // integers in [-3, 3]: products and sums stay exact
  g_rng = g_rng * 1664525u + 1013904223u;
  return static_cast<int>((g_rng >> 16) % 7u) - 3;
}

template <typename T>
static const char *type_name() {
  return std::is_same<T, __half>::value ? "f16" : "bf16";
}

template <typename T, int MT, int NT, int KT>
static void run_mma_shape() {
  // Logical A[m][k], B[k][n] as floats (exactly representable in T).
  std::vector<float> A(MT * KT), B(KT * NT);
  for (auto &x : A) x = static_cast<float>(rand_small());
  for (auto &x : B) x = static_cast<float>(rand_small());
  std::vector<double> ref(MT * NT, 0.0);
  for (int m = 0; m < MT; ++m)
    for (int n = 0; n < NT; ++n) {
      double s = 0.0;
      for (int k = 0; k < KT; ++k) s += double(A[m * KT + k]) * double(B[k * NT + n]);
      ref[m * NT + n] = s;
    }

  T *dA, *dB;
  float *dC;
  CUDA_CHECK(cudaMalloc(&dA, sizeof(T) * MT * KT));
  CUDA_CHECK(cudaMalloc(&dB, sizeof(T) * KT * NT));
  CUDA_CHECK(cudaMalloc(&dC, sizeof(float) * MT * NT));
  const size_t smem_bytes = sizeof(uint16_t) * (MT * KT + NT * KT);

  for (int layout = 0; layout < 4; ++layout) {
    const bool a_k = (layout & 1) != 0, b_k = (layout & 2) != 0;
    std::vector<T> hA(MT * KT), hB(KT * NT);
    for (int m = 0; m < MT; ++m)
      for (int k = 0; k < KT; ++k)
        hA[a_k ? m * KT + k : k * MT + m] = tc::from_float<T>(A[m * KT + k]);
    for (int k = 0; k < KT; ++k)
      for (int n = 0; n < NT; ++n)
        hB[b_k ? n * KT + k : k * NT + n] = tc::from_float<T>(B[k * NT + n]);
    CUDA_CHECK(cudaMemcpy(dA, hA.data(), sizeof(T) * MT * KT, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, hB.data(), sizeof(T) * KT * NT, cudaMemcpyHostToDevice));
    for (int pair = 0; pair < 2; ++pair) {
      CUDA_CHECK(cudaMemset(dC, 0xff, sizeof(float) * MT * NT));  // NaN poison
      mma_kernel<T, MT, NT, KT><<<1, 32, smem_bytes>>>(dA, dB, dC, a_k, b_k, pair != 0);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<float> hC(MT * NT);
      CUDA_CHECK(cudaMemcpy(hC.data(), dC, sizeof(float) * MT * NT, cudaMemcpyDeviceToHost));
      int bad = 0, first = -1;
      for (int i = 0; i < MT * NT; ++i)
        if (!(double(hC[i]) == ref[i])) {
          if (first < 0) first = i;
          ++bad;
        }
      report(bad == 0, "mma %s A=%s B=%s %s MT=%d NT=%d KT=%d%s", type_name<T>(),
             a_k ? "[m][k]" : "[k][m]", b_k ? "[n][k]" : "[k][n]",
             pair ? "pair(16x16)" : "single(16x8)", MT, NT, KT, bad ? " (mismatches below)" : "");
      if (bad)
        std::printf("     %d mismatches; first C[%d][%d] = %g, expected %g\n", bad, first / NT,
                    first % NT, hC[first], ref[first]);
    }
  }
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
}

template <typename T>
static void run_mma_all() {
  // Shapes chosen so every tile row length kCols in {16,32,64,128,256}
  // occurs for both the k-contiguous (kCols = KT) and the m/n-contiguous
  // (kCols = MT / NT) loaders.  Each fits in 16 KiB of shared memory.
  run_mma_shape<T, 16, 16, 16>();
  run_mma_shape<T, 32, 32, 32>();
  run_mma_shape<T, 64, 64, 64>();
  run_mma_shape<T, 128, 128, 32>();
  run_mma_shape<T, 32, 32, 128>();
  run_mma_shape<T, 256, 256, 16>();
  run_mma_shape<T, 16, 16, 256>();
}

// ---------------------------------------------------------------------------
// (c) cp.async zero fill and the synchronous fallback.
__global__ void cp_async_kernel(const uint16_t *src, uint16_t *out, const __half *hsrc,
                                __half *hout) {
  __shared__ __align__(128) uint16_t buf[32 * 16];
  __shared__ __half hbuf[32];
  const int lane = threadIdx.x;
  for (int j = 0; j < 16; ++j) buf[lane * 16 + j] = 0xBEEF;  // poison
  hbuf[lane] = __ushort_as_half(0xBEEF);
  __syncthreads();
  // Two groups per thread; invalid copies get a clamped (base) source pointer.
  const bool v0 = lane % 3 != 0, v1 = lane % 2 == 0;
  tc::cp_async_16(buf + lane * 16, v0 ? src + lane * 16 : src, v0);
  tc::cp_async_commit();
  tc::cp_async_16(buf + lane * 16 + 8, v1 ? src + lane * 16 + 8 : src, v1);
  tc::cp_async_commit();
  tc::cp_async_wait<1>();
  tc::cp_async_wait<0>();
  tc::copy_element_to_shared(hbuf + lane, hsrc + (lane % 5 != 0 ? lane : 0), lane % 5 != 0);
  __syncthreads();
  for (int j = 0; j < 16; ++j) out[lane * 16 + j] = buf[lane * 16 + j];
  hout[lane] = hbuf[lane];
}

static void run_cp_async() {
  std::vector<uint16_t> src(32 * 16);
  for (int i = 0; i < 32 * 16; ++i) src[i] = static_cast<uint16_t>(0x1000 + i);
  std::vector<__half> hsrc(32);
  for (int i = 0; i < 32; ++i) hsrc[i] = tc::from_float<__half>(float(i + 1));
  uint16_t *dsrc, *dout;
  __half *dhsrc, *dhout;
  CUDA_CHECK(cudaMalloc(&dsrc, 2 * 32 * 16));
  CUDA_CHECK(cudaMalloc(&dout, 2 * 32 * 16));
  CUDA_CHECK(cudaMalloc(&dhsrc, 2 * 32));
  CUDA_CHECK(cudaMalloc(&dhout, 2 * 32));
  CUDA_CHECK(cudaMemcpy(dsrc, src.data(), 2 * 32 * 16, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dhsrc, hsrc.data(), 2 * 32, cudaMemcpyHostToDevice));
  cp_async_kernel<<<1, 32>>>(dsrc, dout, dhsrc, dhout);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<uint16_t> out(32 * 16);
  std::vector<__half> hout(32);
  CUDA_CHECK(cudaMemcpy(out.data(), dout, 2 * 32 * 16, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hout.data(), dhout, 2 * 32, cudaMemcpyDeviceToHost));
  bool zfill_ok = true, copy_ok = true;
  for (int lane = 0; lane < 32; ++lane) {
    const bool v[2] = {lane % 3 != 0, lane % 2 == 0};
    for (int h = 0; h < 2; ++h)
      for (int j = 0; j < 8; ++j) {
        const int i = lane * 16 + h * 8 + j;
        if (v[h])
          copy_ok = copy_ok && out[i] == src[i];
        else
          zfill_ok = zfill_ok && out[i] == 0;
      }
  }
  report(zfill_ok, "cp_async_16 valid=false zero-fills 16 bytes");
  report(copy_ok, "cp_async_16 valid=true copies 16 bytes (2 groups, wait<1>, wait<0>)");
  bool elem_ok = true;
  for (int lane = 0; lane < 32; ++lane) {
    const float want = lane % 5 != 0 ? float(lane + 1) : 0.f;
    uint16_t bits;
    std::memcpy(&bits, &hout[lane], 2);
    elem_ok = elem_ok && tc::to_float(hout[lane]) == want && (lane % 5 != 0 || bits == 0);
  }
  report(elem_ok, "copy_element_to_shared stores element / zero");
  CUDA_CHECK(cudaFree(dsrc));
  CUDA_CHECK(cudaFree(dout));
  CUDA_CHECK(cudaFree(dhsrc));
  CUDA_CHECK(cudaFree(dhout));
}

// ---------------------------------------------------------------------------
// (d) an unaligned operand's aligned copy (operand_repack.cuh): odd pitches
// and an odd base, each row copied and padded with zeros.
static void run_repack() {
  struct Case { long long inner, outer, ld, offset; };
  const Case cases[] = {{35, 7, 37, 1}, {8457, 3, 8457, 0}, {16, 5, 17, 3}, {1, 9, 1, 1}};
  // 16-bit elements in 8-element chunks, 32-bit ones (tf32 operands) in 4.
  auto run = [&](auto bits) {
    using Bits = decltype(bits);
    bool ok = true;
    for (const Case &c : cases) {
      const long long n = c.offset + c.ld * c.outer;
      std::vector<Bits> src(n);
      for (long long i = 0; i < n; ++i) src[i] = static_cast<Bits>(i * 2654435761u >> 7);
      Bits *dsrc;
      CUDA_CHECK(cudaMalloc(&dsrc, sizeof(Bits) * n));
      CUDA_CHECK(cudaMemcpy(dsrc, src.data(), sizeof(Bits) * n, cudaMemcpyHostToDevice));
      const long long padded = tc::repacked_pitch(c.inner, sizeof(Bits));
      ok = ok && padded % (16 / sizeof(Bits)) == 0 && padded >= c.inner;
      std::vector<Bits> out(padded * c.outer, static_cast<Bits>(0xBEEF));
      Bits *dout;
      CUDA_CHECK(cudaMalloc(&dout, sizeof(Bits) * out.size()));
      tc::repack_rows<Bits><<<3, 256>>>(dsrc + c.offset, c.ld, c.inner, c.outer, padded,
                                        reinterpret_cast<uint4 *>(dout), c.outer, 0);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(out.data(), dout, sizeof(Bits) * out.size(), cudaMemcpyDeviceToHost));
      for (long long r = 0; r < c.outer; ++r)
        for (long long e = 0; e < padded; ++e)
          ok = ok && out[r * padded + e] == (e < c.inner ? src[c.offset + r * c.ld + e] : Bits(0));
      CUDA_CHECK(cudaFree(dsrc));
      CUDA_CHECK(cudaFree(dout));
    }
    return ok;
  };
  const bool ok16 = run(uint16_t{}), ok32 = run(uint32_t{});
  report(ok32, "repack_rows copies 32-bit elements into zero-padded 4-element chunks");
  const bool ok = ok16;
  report(ok, "repack_rows copies odd pitches and bases into zero-padded 8-element rows");
}

// ---------------------------------------------------------------------------
// (e) 8-bit weights to fp32 and packed fp16/bf16 (tile_convert.cuh): every
// byte value through bytes_to_float, signed and unsigned, and pack_chunk's
// rounding against the one-element conversions.
__global__ void convert_kernel(float *signed_out, float *unsigned_out, uint32_t *packed_h,
                               uint32_t *packed_b) {
  const int t = threadIdx.x;  // 64 threads, 4 bytes each
  const uint32_t w = (4u * t) | (4u * t + 1) << 8 | (4u * t + 2) << 16 | (4u * t + 3) << 24;
  tc::bytes_to_float<int8_t>(w, signed_out + 4 * t);
  tc::bytes_to_float<uint8_t>(w, unsigned_out + 4 * t);
  // Values that round differently in fp16 and bf16 (ties, subnormals).
  float v[8];
  for (int e = 0; e < 8; ++e)
    v[e] = (signed_out[4 * t + e % 4] + 0.5f) * (e < 4 ? 1.0009765625f : 3.0e-6f);
  const uint4 h = tc::pack_chunk<__half, 8>(v);
  const uint4 b = tc::pack_chunk<__nv_bfloat16, 8>(v);
  const uint32_t hw[4] = {h.x, h.y, h.z, h.w}, bw[4] = {b.x, b.y, b.z, b.w};
  for (int i = 0; i < 4; ++i) {
    const __half lo = __float2half_rn(v[2 * i]), hi = __float2half_rn(v[2 * i + 1]);
    const __nv_bfloat16 blo = __float2bfloat16_rn(v[2 * i]), bhi = __float2bfloat16_rn(v[2 * i + 1]);
    packed_h[4 * t + i] = hw[i] == (uint32_t(__half_as_ushort(lo)) | uint32_t(__half_as_ushort(hi)) << 16);
    packed_b[4 * t + i] = bw[i] == (uint32_t(__bfloat16_as_ushort(blo)) |
                                    uint32_t(__bfloat16_as_ushort(bhi)) << 16);
  }
}

static void run_convert() {
  float *ds, *du;
  uint32_t *dh, *db;
  CUDA_CHECK(cudaMalloc(&ds, 256 * 4));
  CUDA_CHECK(cudaMalloc(&du, 256 * 4));
  CUDA_CHECK(cudaMalloc(&dh, 256 * 4));
  CUDA_CHECK(cudaMalloc(&db, 256 * 4));
  convert_kernel<<<1, 64>>>(ds, du, dh, db);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> s(256), u(256);
  std::vector<uint32_t> h(256), b(256);
  CUDA_CHECK(cudaMemcpy(s.data(), ds, 256 * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(u.data(), du, 256 * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h.data(), dh, 256 * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(b.data(), db, 256 * 4, cudaMemcpyDeviceToHost));
  bool bytes_ok = true, packs_ok = true;
  for (int x = 0; x < 256; ++x) {
    bytes_ok = bytes_ok && s[x] == static_cast<float>(static_cast<int8_t>(x)) &&
               u[x] == static_cast<float>(x);
    packs_ok = packs_ok && h[x] == 1 && b[x] == 1;
  }
  report(bytes_ok, "bytes_to_float is exact for all 256 int8 and uint8 values");
  report(packs_ok, "pack_chunk rounds fp16 and bf16 pairs like the one-element conversions");
  CUDA_CHECK(cudaFree(ds));
  CUDA_CHECK(cudaFree(du));
  CUDA_CHECK(cudaFree(dh));
  CUDA_CHECK(cudaFree(db));
}

// ---------------------------------------------------------------------------
// (f) Offset rows (tile_convert.cuh): a raw 128x64 stage converted in place
// in fp16 pairs (tc::OffsetRow, q - zero[row]) and through fp32 (the same
// prologue as a plain function) must give the same bits wherever a warp's
// rows are all exact, and warps with an inexact row must fall back.
// RawStageLayout<128, 128>: warp w converts the rows r with r % 16 / 4 == w.
// Row offsets by warp: 0 integers in [-200, 300]; 1 fractions fp16 holds
// (multiples of 1/8, halves that rint rounds to even, 2^-20, -0); 2 exact
// but for one 0.1; 3 exact but for one 600.5 (|rint| > 512).
constexpr int kOffsetRows = 128;

// The offset of row n of a warp's rows, by warp (see above; n == 5 and
// n == 13 are the inexact rows of warps 2 and 3).
static float warp_row_offset(int warp, int n) {
  switch (warp) {
  case 0:
    return static_cast<float>((n * 97) % 501 - 200);
  case 1: {
    const float fractions[8] = {0.5f, 1.5f, -2.5f, 0.125f, -7.875f, 9.5367431640625e-07f, -0.0f,
                                3.0f};
    return fractions[n % 8] + static_cast<float>(n / 8);
  }
  case 2:
    return n == 5 ? 0.1f : static_cast<float>(n) - 0.25f;
  default:
    return n == 13 ? 600.5f : static_cast<float>(-n);
  }
}

static float row_offset(int row) {
  return warp_row_offset(row % 16 / 4, row / 16 * 4 + row % 4);  // n: 0 .. 31
}

template <typename Src>
__global__ void offset_rows_kernel(const uint8_t *raw, const float *zero, long long k_valid,
                                   uint16_t *packed_out, uint16_t *fp32_out, int *packed_flags) {
  using Layout = tc::RawStageLayout<kOffsetRows, 128>;
  __shared__ __align__(1024) __half stage[2][kOffsetRows * 64];
  const int t = threadIdx.x;
  for (int b = t; b < kOffsetRows * 64; b += 128)
    for (int s = 0; s < 2; ++s)
      reinterpret_cast<uint8_t *>(stage[s])[Layout::kRawOffset + b] = raw[b];
  __syncthreads();
  const auto f = [&](int i) {
    const float z = zero[Layout::row(t, i)];
    return [=](float x) -> float { return x - z; };
  };
  const auto o = [&](int i) { return tc::offset_row<Src>(f(i), zero[Layout::row(t, i)]); };
  const decltype(f(0)) plain[8] = {f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7)};
  const decltype(o(0)) rows[8] = {o(0), o(1), o(2), o(3), o(4), o(5), o(6), o(7)};
  const bool packed = tc::packed_rows(rows);
  const auto sync = [] { __syncthreads(); };
  tc::convert_raw_stage<Src, __half, kOffsetRows, 128>(stage[0], t, rows, packed, k_valid, sync);
  tc::convert_raw_stage<Src, __half, kOffsetRows, 128>(stage[1], t, plain, k_valid, sync);
  __syncthreads();
  for (int e = t; e < kOffsetRows * 64; e += 128) {
    packed_out[e] = __half_as_ushort(stage[0][e]);
    fp32_out[e] = __half_as_ushort(stage[1][e]);
  }
  packed_flags[t] = packed;
}

// Every byte value, four times over (n = 64 rows of 64 bytes per round).
static std::vector<uint8_t> test_bytes(int n) {
  std::vector<uint8_t> raw(n);
  for (int b = 0; b < n; ++b)
    raw[b] = static_cast<uint8_t>(b * 73 + 11);
  return raw;
}

// What a conversion kernel wrote: its fp16 pairs' and fp32 path's results
// (raw.size() halves each) and each of its 128 threads' packed flag.
struct ConversionResult {
  std::vector<uint16_t> packed, fp32;
  std::vector<int> flags;
};

// Runs launch(raw, zero, packed, fp32, flags) (one block of 128 threads) on
// device copies of raw and zero.
template <typename Launch>
static ConversionResult run_conversion(const std::vector<uint8_t> &raw,
                                       const std::vector<float> &zero, Launch launch) {
  const size_t n = raw.size();
  uint8_t *draw;
  float *dzero;
  uint16_t *dpacked, *dfp32;
  int *dflags;
  CUDA_CHECK(cudaMalloc(&draw, n));
  CUDA_CHECK(cudaMalloc(&dzero, 4 * zero.size()));
  CUDA_CHECK(cudaMalloc(&dpacked, 2 * n));
  CUDA_CHECK(cudaMalloc(&dfp32, 2 * n));
  CUDA_CHECK(cudaMalloc(&dflags, 4 * 128));
  CUDA_CHECK(cudaMemcpy(draw, raw.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dzero, zero.data(), 4 * zero.size(), cudaMemcpyHostToDevice));
  launch(draw, dzero, dpacked, dfp32, dflags);
  CUDA_CHECK(cudaGetLastError());
  ConversionResult r{std::vector<uint16_t>(n), std::vector<uint16_t>(n), std::vector<int>(128)};
  CUDA_CHECK(cudaMemcpy(r.packed.data(), dpacked, 2 * n, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(r.fp32.data(), dfp32, 2 * n, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(r.flags.data(), dflags, 4 * 128, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(draw));
  CUDA_CHECK(cudaFree(dzero));
  CUDA_CHECK(cudaFree(dpacked));
  CUDA_CHECK(cudaFree(dfp32));
  CUDA_CHECK(cudaFree(dflags));
  return r;
}

template <typename Src>
static void run_offset_rows(long long k_valid) {
  const std::vector<uint8_t> raw = test_bytes(kOffsetRows * 64);
  std::vector<float> zero(kOffsetRows);
  for (int r = 0; r < kOffsetRows; ++r)
    zero[r] = row_offset(r);
  const ConversionResult c =
      run_conversion(raw, zero, [&](const uint8_t *draw, const float *dzero, uint16_t *dpacked,
                                    uint16_t *dfp32, int *dflags) {
        offset_rows_kernel<Src><<<1, 128>>>(draw, dzero, k_valid, dpacked, dfp32, dflags);
      });
  bool same = c.packed == c.fp32, flags_ok = true, zeros_ok = true;
  for (int t = 0; t < 128; ++t)
    flags_ok = flags_ok && c.flags[t] == (t / 32 < 2);
  // Elements past k_valid are +0 in the swizzled stage.
  for (int r = 0; r < kOffsetRows; ++r)
    for (int k = k_valid; k < 64; ++k)
      zeros_ok = zeros_ok && c.packed[tc::swizzled_element_offset<64, __half>(r, k)] == 0;
  report(same && flags_ok && zeros_ok,
         "offset rows (%s, k_valid %lld): fp16 pairs give the fp32 path's bits; "
         "warps with inexact offsets fall back",
         std::is_signed<Src>::value ? "int8" : "uint8", k_valid);
}

// ---------------------------------------------------------------------------
// (g) Raw fragments (raw_fragment.cuh): a raw 64x64 tile in the 64-byte
// swizzle, loaded as wgmma A fragments by one warpgroup, in fp16 pairs
// (offset rows) and through fp32, must hold half(q - zero[row]) at each
// element's place in the fragment layout (RawFragmentLayout), +0 past
// k_valid, and the same bits either way. Warp w holds rows 16 w .. + 15;
// row offsets by warp as in (f): warp 0's are integers (offset_pairs:
// kIntegral), warp 1's exact fractions (kWithFraction), and warps 2 and 3
// have one inexact row each and fall back (kThroughFloat).
constexpr int kFragmentRows = 64;

static float fragment_row_offset(int row) { return warp_row_offset(row / 16, row % 16); }

template <typename Src>
__global__ void raw_fragments_kernel(const uint8_t *raw, const float *zero, long long k_valid,
                                     uint16_t *packed_out, uint16_t *fp32_out,
                                     int *packed_flags) {
  using Layout = tc::RawFragmentLayout;
  __shared__ __align__(1024) unsigned char tile[kFragmentRows * 64];
  const int t = threadIdx.x;
  for (int b = t; b < kFragmentRows * 64; b += 128)
    tile[Layout::offset(b / 64, b % 64)] = raw[b];
  __syncthreads();
  const auto f = [&](int i) {
    const float z = zero[Layout::row(t, i)];
    return [=](float x) -> float { return x - z; };
  };
  const auto o = [&](int i) { return tc::offset_row<Src>(f(i), zero[Layout::row(t, i)]); };
  const decltype(f(0)) plain[2] = {f(0), f(1)};
  const decltype(o(0)) rows[2] = {o(0), o(1)};
  const tc::OffsetPairs pairs = tc::offset_pairs(rows);
  uint32_t a[4][4], b[4][4];
  tc::load_raw_fragments<Src, __half>(a, tile, t, rows, pairs, k_valid);
  tc::load_raw_fragments<Src, __half>(b, tile, t, plain, k_valid);
  for (int kk = 0; kk < 4; ++kk)
    for (int r = 0; r < 4; ++r)
      for (int e = 0; e < 2; ++e) {
        const int row = Layout::row(t, r % 2), k = 16 * kk + 2 * (t % 4) + 8 * (r / 2) + e;
        packed_out[row * 64 + k] = static_cast<uint16_t>(a[kk][r] >> (16 * e));
        fp32_out[row * 64 + k] = static_cast<uint16_t>(b[kk][r] >> (16 * e));
      }
  packed_flags[t] = static_cast<int>(pairs);
}

template <typename Src>
static void run_raw_fragments(long long k_valid) {
  const std::vector<uint8_t> raw = test_bytes(kFragmentRows * 64);
  std::vector<float> zero(kFragmentRows);
  for (int r = 0; r < kFragmentRows; ++r)
    zero[r] = fragment_row_offset(r);
  const ConversionResult c =
      run_conversion(raw, zero, [&](const uint8_t *draw, const float *dzero, uint16_t *dpacked,
                                    uint16_t *dfp32, int *dflags) {
        raw_fragments_kernel<Src><<<1, 128>>>(draw, dzero, k_valid, dpacked, dfp32, dflags);
      });
  bool same = c.packed == c.fp32, flags_ok = true, values_ok = true;
  // Warp 0's offsets are integers (one HSUB2 a pair), warp 1's have
  // fractions (two), warps 2 and 3 each have an inexact row (fp32).
  const tc::OffsetPairs want_pairs[4] = {tc::OffsetPairs::kIntegral,
                                         tc::OffsetPairs::kWithFraction,
                                         tc::OffsetPairs::kThroughFloat,
                                         tc::OffsetPairs::kThroughFloat};
  for (int t = 0; t < 128; ++t)
    flags_ok = flags_ok && c.flags[t] == static_cast<int>(want_pairs[t / 32]);
  for (int r = 0; r < kFragmentRows; ++r)
    for (int k = 0; k < 64; ++k) {
      const float q = static_cast<float>(static_cast<Src>(raw[r * 64 + k]));
      const uint16_t want = k < k_valid ? __half_as_ushort(__float2half_rn(q - zero[r])) : 0;
      values_ok = values_ok && c.fp32[r * 64 + k] == want;
    }
  report(same && flags_ok && values_ok,
         "raw fragments (%s, k_valid %lld): the fragment layout holds q - zero[row], the same "
         "bits in fp16 pairs (integer offsets: one subtraction) and through fp32; inexact "
         "warps fall back",
         std::is_signed<Src>::value ? "int8" : "uint8", k_valid);
}

// (h) setmaxnreg (registers.cuh): a block of 384 threads whose last
// warpgroup releases its registers to 40 and whose other two claim 232, as
// the int8 layer's 256x128 kernel does (KernelConfig::consumerRegisters).
// A claim waits until the SM has the registers free, so counts the SM
// cannot grant would hang the block. Each consumer thread then keeps 128
// values live (as many as that kernel's m64n256k16 accumulators) through a
// loop; both roles' results are checked (small integers and halvings:
// exact in fp32).
constexpr int kRegisterThreads = 384, kRegisterValues = 128;

__global__ void __launch_bounds__(kRegisterThreads, 1)
    registers_kernel(const float *in, float *out) {
  const int t = threadIdx.x;
  if (t >= 256) {
    tc::release_registers<40>();
    out[t] = 2.0f * in[t];
    return;
  }
  tc::claim_registers<232>();
  float v[kRegisterValues];
#pragma unroll
  for (int i = 0; i < kRegisterValues; ++i)
    v[i] = in[(t + i) % kRegisterThreads];
#pragma unroll 1
  for (int r = 0; r < 8; ++r)
#pragma unroll
    for (int i = 0; i < kRegisterValues; ++i)
      v[i] = 0.5f * v[i] + 1.0f;
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < kRegisterValues; ++i)
    sum += v[i];
  out[t] = sum;
}

static void run_registers() {
  std::vector<float> in(kRegisterThreads), out(kRegisterThreads), want(kRegisterThreads);
  for (int t = 0; t < kRegisterThreads; ++t)
    in[t] = static_cast<float>(t % 17 - 8);
  for (int t = 0; t < kRegisterThreads; ++t) {
    if (t >= 256) {
      want[t] = 2.0f * in[t];
      continue;
    }
    float sum = 0.0f;
    for (int i = 0; i < kRegisterValues; ++i) {
      float v = in[(t + i) % kRegisterThreads];
      for (int r = 0; r < 8; ++r)
        v = 0.5f * v + 1.0f;
      sum += v;
    }
    want[t] = sum;
  }
  float *din = nullptr, *dout = nullptr;
  CUDA_CHECK(cudaMalloc(&din, sizeof(float) * kRegisterThreads));
  CUDA_CHECK(cudaMalloc(&dout, sizeof(float) * kRegisterThreads));
  CUDA_CHECK(cudaMemcpy(din, in.data(), sizeof(float) * kRegisterThreads, cudaMemcpyHostToDevice));
  registers_kernel<<<2 * 132, kRegisterThreads>>>(din, dout);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(out.data(), dout, sizeof(float) * kRegisterThreads, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  report(out == want,
         "setmaxnreg: a producer warpgroup at 40 registers, two consumer warpgroups at 232 "
         "keeping 128 values live each");
}

// ---------------------------------------------------------------------------
// Tile schedules (tile_schedule.cuh): each block adds 1 to every (tile, k
// tile) it computes; a block outside the output counts as bad.
// Every unit of a block (unit_work) counts; a split piece also counts its
// part in `parts_seen` (split tile x part), which must end at exactly one
// per part of each split tile the schedule announces (split_tiles).
__global__ void schedule_cover_kernel(tc::TileSchedule s, int *cover, int *bad, int *parts_seen) {
  if (threadIdx.x != 0)
    return;  // one count per block
  int tile_m, tile_n, split_tile, part, rank;
  long long k_begin, k_end;
  for (int unit = 0;
       tc::unit_work<8>(s, unit, tile_m, tile_n, k_begin, k_end, split_tile, part, rank);
       ++unit) {
    const int tiles_m = s.tiles_m * tc::unit_blocks(s);
    if (tile_m < 0 || tile_m >= tiles_m || tile_n < 0 || tile_n >= s.tiles_n || k_begin < 0 ||
        k_end > s.k_tiles || k_begin >= k_end || (s.pair && rank != tile_m % 2) || part < 0 ||
        part >= s.parts || (split_tile < 0 && (k_begin != 0 || k_end != s.k_tiles))) {
      atomicAdd(bad, 1);
      return;
    }
    if (split_tile >= 0)
      atomicAdd(&parts_seen[split_tile * s.parts + part], 1);
    for (long long k = k_begin; k < k_end; ++k)
      atomicAdd(&cover[(static_cast<long long>(tile_m) * s.tiles_n + tile_n) * s.k_tiles + k], 1);
  }
}

// The same through launch_schedule (a cluster of two per pair), whose
// kernels take the schedule, workspace and counters last; the rank of a
// block in its pair must be its rank in the cluster.
__global__ void schedule_cover_cluster_kernel(int *cover, int *bad, tc::TileSchedule s, float *,
                                              int *) {
  if (threadIdx.x != 0)
    return;
  int tile_m, tile_n, split_tile, part, rank;
  long long k_begin, k_end;
  tc::pair_work<8>(s, tile_m, tile_n, k_begin, k_end, split_tile, part, rank);
  if (rank != tc::cluster_rank() || tc::cluster_blocks() != tc::unit_blocks(s)) {
    atomicAdd(bad, 1);
    return;
  }
  for (long long k = k_begin; k < k_end; ++k)
    atomicAdd(&cover[(static_cast<long long>(tile_m) * s.tiles_n + tile_n) * s.k_tiles + k], 1);
}

// A kernel whose clusters are fixed at one block: the device refuses pairs
// for it, and launch_schedule falls back to whole tiles, unpaired. (Cluster
// dimensions exist from sm_90 on; the sm_80 build omits them and does not
// run this case.)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define TC_TEST_ONE_BLOCK_CLUSTERS
#else
#define TC_TEST_ONE_BLOCK_CLUSTERS __cluster_dims__(1, 1, 1)
#endif
__global__ void TC_TEST_ONE_BLOCK_CLUSTERS
    schedule_cover_single_kernel(int *cover, int *bad, tc::TileSchedule s, float *w, int *c) {
  if (threadIdx.x != 0)
    return;
  if (s.pair || s.parts != 1 || w || c)
    atomicAdd(bad, 1);
  int tile_m, tile_n, split_tile, part, rank;
  long long k_begin, k_end;
  tc::pair_work<8>(s, tile_m, tile_n, k_begin, k_end, split_tile, part, rank);
  for (long long k = k_begin; k < k_end; ++k)
    atomicAdd(&cover[(static_cast<long long>(tile_m) * s.tiles_n + tile_n) * s.k_tiles + k], 1);
}

static void check_launch_schedule(const tc::TileSchedule &s, bool fixed_single) {
  const long long tiles_m = static_cast<long long>(s.tiles_m) * tc::unit_blocks(s);
  const long long cells = tiles_m * s.tiles_n * s.k_tiles;
  int *cover = nullptr, *bad = nullptr;
  CUDA_CHECK(cudaMalloc(&cover, sizeof(int) * cells));
  CUDA_CHECK(cudaMalloc(&bad, sizeof(int)));
  CUDA_CHECK(cudaMemset(cover, 0, sizeof(int) * cells));
  CUDA_CHECK(cudaMemset(bad, 0, sizeof(int)));
  const cudaError_t launched =
      fixed_single ? tc::launch_schedule(schedule_cover_single_kernel, s, nullptr, nullptr, 32, 0,
                                         0, cover, bad)
                   : tc::launch_schedule(schedule_cover_cluster_kernel, s, nullptr, nullptr, 32,
                                         0, 0, cover, bad);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> host(cells);
  int host_bad = 0;
  CUDA_CHECK(cudaMemcpy(host.data(), cover, sizeof(int) * cells, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&host_bad, bad, sizeof(int), cudaMemcpyDeviceToHost));
  long long wrong = 0;
  for (int c : host)
    wrong += c != 1;
  report(launched == cudaSuccess && cudaGetLastError() == cudaSuccess && host_bad == 0 &&
             wrong == 0,
         "launch_schedule %s, pair %d: %s (%d bad blocks, %lld cells not covered once)",
         fixed_single ? "of a kernel fixed to one-block clusters" : "in clusters", s.pair,
         cudaGetErrorString(launched), host_bad, wrong);
  CUDA_CHECK(cudaFree(cover));
  CUDA_CHECK(cudaFree(bad));
}

static void check_schedule(const tc::TileSchedule &s, const char *what, long long tiles_m,
                           long long tiles_n) {
  const long long cells = tiles_m * tiles_n * s.k_tiles;
  const long long part_cells = tc::split_tiles(s) * s.parts + 1;
  int *cover = nullptr, *bad = nullptr, *parts_seen = nullptr;
  CUDA_CHECK(cudaMalloc(&cover, sizeof(int) * cells));
  CUDA_CHECK(cudaMalloc(&bad, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&parts_seen, sizeof(int) * part_cells));
  CUDA_CHECK(cudaMemset(cover, 0, sizeof(int) * cells));
  CUDA_CHECK(cudaMemset(bad, 0, sizeof(int)));
  CUDA_CHECK(cudaMemset(parts_seen, 0, sizeof(int) * part_cells));
  schedule_cover_kernel<<<(unsigned)tc::schedule_blocks(s), 32>>>(s, cover, bad, parts_seen);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> host(cells), seen(part_cells);
  int host_bad = 0;
  CUDA_CHECK(cudaMemcpy(host.data(), cover, sizeof(int) * cells, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(seen.data(), parts_seen, sizeof(int) * part_cells,
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&host_bad, bad, sizeof(int), cudaMemcpyDeviceToHost));
  long long wrong = 0, wrong_parts = 0;
  for (int c : host)
    wrong += c != 1;
  // Each split tile's parts each once (the spare last cell never); with
  // stream blocks, a boundary between two blocks at a tile's edge splits no
  // tile, whose parts are then all unseen.
  for (long long t = 0; t + 1 < part_cells; t += s.parts) {
    const int first = seen[t];
    for (int p = 0; p < s.parts; ++p)
      wrong_parts += seen[t + p] != first || first > 1 || (first == 0 && s.stream_blocks == 0);
  }
  wrong_parts += seen[part_cells - 1] != 0;
  report(host_bad == 0 && wrong == 0 && wrong_parts == 0 && s.tiles_n == tiles_n,
         "schedule %s %lldx%lld tiles, %lld k tiles: pair %d, %d whole units, %d parts, "
         "%d stream blocks, %lld blocks (%d outside, %lld cells not covered once, %lld split "
         "parts not seen once)",
         what, tiles_m, tiles_n, s.k_tiles, s.pair, s.whole_tiles, s.parts, s.stream_blocks,
         tc::schedule_blocks(s), host_bad, wrong, wrong_parts);
  CUDA_CHECK(cudaFree(cover));
  CUDA_CHECK(cudaFree(bad));
  CUDA_CHECK(cudaFree(parts_seen));
}

static void run_schedules() {
  // The schedules of this device's SM count. (Which schedule a shape gets
  // is tested on the host, test/unit/runtime/ScheduleChoiceTest.cpp; here,
  // that the kernels' side covers every k tile of each once.)
  const tc::LaunchFacts f = tc::launch_facts();
  // The last two: few tiles of a wide output (pairs by kPairOneRound, split
  // and unsplit).
  const long long shapes[][3] = {{24, 16, 17}, {22, 13, 17}, {32, 16, 64}, {2, 112, 64},
                                 {27, 5, 20},  {9, 11, 42},  {18, 17, 12}, {4, 8, 100},
                                 {12, 12, 9},  {14, 10, 28}, {2, 32, 58},  {6, 18, 34}};
  bool paired_by[3] = {}, streamed = false;
  for (auto &t : shapes) {
    check_schedule(tc::schedule_tiles(t[0], t[1], t[2], f.device), "single", t[0], t[1]);
    const tc::TileSchedule st = tc::schedule_stream_tiles(t[0], t[1], t[2], f.device, f.options);
    streamed |= st.stream_blocks > 0;
    check_schedule(st, "stream", t[0], t[1]);
    check_schedule(tc::schedule_persistent_tiles(t[0], t[1], t[2], f.device), "persistent", t[0],
                   t[1]);
    for (tc::PairRule rule : {tc::kPairWideTiles, tc::kPairTwoBlocksPerSm, tc::kPairOneRound}) {
      // The 128x256 kernel loops over stream units, the 64x128 ones do not.
      const bool stream_units = rule == tc::kPairWideTiles;
      tc::TileSchedule p =
          tc::schedule_tile_pairs(t[0], t[1], t[2], rule, stream_units, f.device, f.options);
      paired_by[rule] |= p.pair != 0;
      check_schedule(p, "pairs", t[0], t[1]);
      check_schedule(tc::without_split_tiles(p), "pairs unsplit", t[0], t[1]);
    }
  }
  // The shapes cover pairs of each rule and stream units (on an H100 or
  // H200; other SM counts may give other schedules).
  for (int rule = 0; rule < 3; ++rule)
    report(paired_by[rule], "schedule_tile_pairs (rule %d) took pairs for some of the shapes",
           rule);
  report(streamed, "schedule_stream_tiles took stream units for some of the shapes");
  // Clusters need sm_90; a split schedule is launched too (its parts only
  // read the schedule here).
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major >= 9) {
    const tc::TileSchedule p =
        tc::schedule_tile_pairs(22, 13, 17, tc::kPairWideTiles, true, f.device, f.options);
    check_launch_schedule(p, false);
    check_launch_schedule(tc::schedule_tiles(27, 5, 20, f.device), false);
    check_launch_schedule(tc::without_split_tiles(p), true);
  }
}

// Stream buffers (tc/stream_buffer.cuh): one per stream and use, reused
// by later launches on the stream; the per-thread default stream's, one
// per host thread (two threads' per-thread streams run at once: sharing a
// buffer, one's copy would overwrite what the other's kernel reads).
static void run_stream_buffers() {
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreate(&s1));
  CUDA_CHECK(cudaStreamCreate(&s2));
  void *a = tc::stream_buffer(s1, tc::kSplitSlots, 1024, false);
  void *a2 = tc::stream_buffer(s1, tc::kSplitSlots, 512, false);
  void *b = tc::stream_buffer(s2, tc::kSplitSlots, 1024, false);
  report(a && a == a2, "stream buffers: a stream's buffer is reused");
  report(b && a != b, "stream buffers: two streams, two buffers");
  report(!tc::is_per_thread_stream(s1) && tc::is_per_thread_stream(cudaStreamPerThread),
         "stream buffers: cudaStreamPerThread is the per-thread stream, a created one not");
  // (This test is built without --default-stream per-thread: 0 is legacy.)
  report(!tc::is_per_thread_stream(nullptr), "stream buffers: stream 0 is the legacy stream");
  void *mine = tc::stream_buffer(cudaStreamPerThread, tc::kSplitSlots, 1024, false);
  void *mine2 = tc::stream_buffer(cudaStreamPerThread, tc::kSplitSlots, 1024, false);
  void *theirs = nullptr, *legacy_mine = tc::stream_buffer(nullptr, tc::kSplitSlots, 1024, false),
       *legacy_theirs = nullptr;
  std::thread other([&] {
    CUDA_CHECK(cudaSetDevice(0));
    theirs = tc::stream_buffer(cudaStreamPerThread, tc::kSplitSlots, 1024, false);
    legacy_theirs = tc::stream_buffer(nullptr, tc::kSplitSlots, 1024, false);
  });
  other.join();
  report(mine && mine == mine2, "stream buffers: a thread's per-thread stream keeps its buffer");
  report(theirs && mine != theirs,
         "stream buffers: two threads' per-thread streams have two buffers");
  report(legacy_mine && legacy_mine == legacy_theirs,
         "stream buffers: the legacy stream's buffer is one (its work is serialised)");
  CUDA_CHECK(cudaStreamDestroy(s1));
  CUDA_CHECK(cudaStreamDestroy(s2));
}

int main() {
  check_swizzle<16>(64);
  check_swizzle<32>(64);
  check_swizzle<64>(64);
  check_swizzle<128>(64);
  check_swizzle<256>(64);
  check_isl_ast();

  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("SKIP gpu cases: no CUDA device\n");
    return g_failures ? 1 : 77;
  }
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major < 8) {
    std::printf("SKIP gpu cases: %s is sm_%d%d, need sm_80+\n", prop.name, prop.major,
                prop.minor);
    return g_failures ? 1 : 77;
  }
  std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);

  run_mma_all<__half>();
  run_mma_all<__nv_bfloat16>();
  run_cp_async();
  run_repack();
  run_convert();
  run_offset_rows<int8_t>(64);
  run_offset_rows<int8_t>(37);
  run_offset_rows<uint8_t>(64);
  run_offset_rows<uint8_t>(29);
  run_raw_fragments<int8_t>(64);
  run_raw_fragments<int8_t>(37);
  run_raw_fragments<uint8_t>(64);
  run_raw_fragments<uint8_t>(29);
  run_registers();
  run_schedules();
  run_stream_buffers();

  std::printf("%s: %d failure(s)\n", g_failures ? "FAILED" : "ALL PASSED", g_failures);
  return g_failures ? 1 : 0;
}
