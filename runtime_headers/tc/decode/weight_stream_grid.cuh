// tc/decode/weight_stream_grid.cuh - how the decode component
// (weight_stream.cuh) spreads a layer over the SMs, and which layers it
// takes: pure functions of the shape and the SM count, tested on the host
// (test/unit/runtime/WeightStreamGridTest.cpp).
#pragma once

#include "../cluster_parts_choice.cuh"
#include "../host_device.cuh"

namespace tc {
namespace decode {

constexpr int kWarps = 4, kThreads = 32 * kWarps;
constexpr int kColumns = 128;  // a block's output columns
constexpr int kChunk = 128;    // k of one stage of X and one load of W
constexpr int kStages = 3;     // of X
constexpr int kGroups = 4;     // mma groups of 8 columns per warp
constexpr int kMaxRows = 64;   // M of this kernel
constexpr int kMaxSplit = 8;   // blocks of a cluster (portable)
// The rows up to which generated launchers take this kernel: beyond 16 (two
// and four row tiles) it was slower than the region's other kernels on an
// H200 (docs/results/decode-weight-stream-h200.md).
constexpr int kDecodeRows = 16;
// The weights (N K) from which they take it: the smallest layer measured
// faster than the region's other kernels is 4096 x 4096; on small,
// unaligned layers (16 x 129 x 4097, 13 x 1000 x 777) it was 3x slower.
constexpr long long kDecodeMinWeights = 4096ll * 4096;
// The TMA stages of W and X (weight_stream_tma.cuh) that generated launchers
// take: three (three blocks an SM, as the grid rule below was fitted for)
// were within 10% of the best of three, four and five stages at every split
// on Llama-3 layers, and faster than four or five at the rule's own splits
// (docs/results/decode-weight-stream-h200.md).
constexpr int kTmaDepth = 3;

// How a launch spreads the layer: `split` shares of K per column block
// (the blocks of a cluster), `column_blocks` of 128 columns, `m_tiles`
// tiles of 16 rows.
struct WeightStreamGrid {
  int m_tiles = 1, split = 1;
  long long column_blocks = 0;
};

// The grid for an M x N x K layer on `sms` SMs, where `blocks_per_sm` of
// the kernel fit an SM and `capacity.clusters[s]` clusters of s blocks can
// run at once (all 0: no clusters, e.g. sm_80; a size of 0 is not taken).
// A block streams 128 rows of W over its share of K, in chunks of chunk_k
// (128: 8-bit weights; 256: 4-bit, the same 128 bytes of a row). Measured on an H200
// over Llama-3 layers (docs/results/decode-weight-stream-h200.md), the
// best split s (1, 2, 4, 8):
//   - column blocks fewer than the SMs' slots: cb * s blocks nearest two
//     an SM (8 for 32 column blocks, 4 for 48 to 80, 1 for 224);
//   - more: the fewest rounds of slots per share of K,
//     ceil(cb * s / slots) / s (4 for 448 column blocks: 1.25 rounds).
// Shares keep at least two chunks; a tie keeps the smaller split
// (fewer partial tiles to add). Before those: a split that gives one block
// to 90% to 100% of the SMs with shares of at least 32 chunks is taken
// (the TMA kernel's 8192 x 8192 and 8192 x 28672 layers: 5% faster than
// two blocks an SM with half the shares).
TC_HOST_DEVICE_ inline WeightStreamGrid weight_stream_grid(long long m, long long n, long long k,
                                                           int sms, int blocks_per_sm,
                                                           const ClusterCapacity &capacity,
                                                           int chunk_k = kChunk) {
  WeightStreamGrid g;
  g.m_tiles = m <= 16 ? 1 : m <= 32 ? 2 : 4;
  g.column_blocks = (n + kColumns - 1) / kColumns;
  const long long chunks = (k + chunk_k - 1) / chunk_k;
  const long long slots = static_cast<long long>(sms) * (blocks_per_sm > 0 ? blocks_per_sm : 1);
  const auto allowed = [&](int s) {
    return s == 1 || (capacity.clusters[s] >= 1 && chunks >= 2ll * s);
  };
  for (int s = 1; s <= kMaxSplit; s *= 2) {
    const long long blocks = g.column_blocks * s;
    if (allowed(s) && 10 * blocks >= 9ll * sms && blocks <= sms && chunks >= 32ll * s) {
      g.split = s;
      return g;
    }
  }
  const bool many = g.column_blocks >= slots;
  double best = 0;
  for (int s = 1; s <= kMaxSplit; s *= 2) {
    if (!allowed(s))
      continue;
    const long long blocks = g.column_blocks * s;
    const double cost =
        many ? static_cast<double>((blocks + slots - 1) / slots) / s
             : static_cast<double>(blocks > 2ll * sms ? blocks - 2ll * sms : 2ll * sms - blocks);
    if (s == 1 || cost < best) {
      best = cost;
      g.split = s;
    }
  }
  return g;
}

// The decode kernel a generated launcher gives an M x N x K layer:
//   - kMmaRows: the mma.sync kernels (X's rows as 16-row m tiles; W
//     through TMA stages where built for sm_90, else registers), up to
//     kDecodeRows rows, where they were the fastest decode kernel;
//   - kWgmma: the wgmma kernel (weight_stream_wgmma.cuh, 32 rows of X as
//     wgmma's N), from there up to kWgmmaDecodeRows, where `wgmma` (the
//     launcher's code is built for sm_90a) and the layer has at least
//     kWgmmaMinWeights: faster than the mma.sync kernel at 32 rows on every
//     Llama-3 layer, and than the region's GEMM kernels from 6144 x 4096
//     up, but not at 4096 x 4096 (docs/results/decode-wgmma-h200.md);
//   - kNone elsewhere: more rows, few weights (above), or an operand whose
//     rows are not 16-byte aligned (`aligned`: the kernels' byte-wise and
//     element-wise paths are for correctness, not speed).
enum class DecodeKernel { kNone, kMmaRows, kWgmma };
constexpr int kWgmmaDecodeRows = 32;
constexpr long long kWgmmaMinWeights = 6144ll * 4096;

TC_HOST_DEVICE_ inline DecodeKernel decode_kernel(long long m, long long n, long long k,
                                                  bool aligned, bool wgmma) {
  if (!aligned || m < 1 || n * k < kDecodeMinWeights)
    return DecodeKernel::kNone;
  if (m <= kDecodeRows)
    return DecodeKernel::kMmaRows;
  return wgmma && m <= kWgmmaDecodeRows && n * k >= kWgmmaMinWeights ? DecodeKernel::kWgmma
                                                                    : DecodeKernel::kNone;
}

// The 4-bit decode kernel a generated launcher gives an M x N x K layer of
// packed 4-bit weights (zero points and scales in groups of `group_size`
// k; 0: one group, the row's) instead of its dequantised copy and the GEMM
// kernels, where X's and W's rows are 16-byte aligned (TMA) and the groups
// are whole 32-weight units of the kernels' lanes; at any N x K (the copy
// alone writes four times the packed bytes):
//   - kMmaRows: the mma.sync kernel (weight_stream_int4.cuh), up to
//     kNibbleDecodeRows rows: faster than the wgmma kernel on seven of eight
//     Llama-3 layers at 1 and 16 rows
//     (docs/results/int4-wgmma-h100-2026-12-08.md);
//   - kWgmma: the wgmma kernel (weight_stream_int4_wgmma.cuh, X's rows as
//     wgmma's N), from there up to kNibbleWgmmaRows, where `wgmma` (the
//     launcher's code is built for sm_90a) and the groups are whole
//     128-deep sub-chunks (or one group of all of K): 1.25x to 2.3x the
//     mma.sync kernel's speed at 64 rows, and 2.3x the copy and GEMM's
//     (geomean of eight layers);
//   - kNone elsewhere.
enum class NibbleKernel { kNone, kMmaRows, kWgmma };
constexpr int kNibbleDecodeRows = 16;
constexpr int kNibbleWgmmaRows = 64;

// Whether groups of group_size k (0: one group of all of K) leave each
// 128-deep sub-chunk of the wgmma 4-bit kernel in one group: a multiple of
// 128, or one group of all of K.
TC_HOST_DEVICE_ inline bool nibble_groups_whole_sub_chunks(long long k, long long group_size) {
  return group_size == 0 || group_size >= k || group_size % kChunk == 0;
}

TC_HOST_DEVICE_ inline NibbleKernel nibble_decode_kernel(long long m, long long n, long long k,
                                                         long long group_size, bool aligned,
                                                         bool wgmma) {
  if (!aligned || m < 1 || n < 1 || k < 1 || group_size < 0 || group_size % 32 != 0)
    return NibbleKernel::kNone;
  if (m <= kNibbleDecodeRows)
    return NibbleKernel::kMmaRows;
  return wgmma && m <= kNibbleWgmmaRows && nibble_groups_whole_sub_chunks(k, group_size)
             ? NibbleKernel::kWgmma
             : NibbleKernel::kNone;
}

// Whether a layer of M rows takes this kernel: M <= 64, the rows of mma's
// tiles it pads to.
TC_HOST_DEVICE_ inline bool weight_stream_fits(long long m, long long n, long long k) {
  return m >= 1 && m <= kMaxRows && n >= 1 && k >= 1 && (n + kColumns - 1) / kColumns <= 65535;
}

}  // namespace decode
}  // namespace tc
