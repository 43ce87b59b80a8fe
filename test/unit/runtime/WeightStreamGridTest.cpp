//===- WeightStreamGridTest.cpp - tc/decode/weight_stream_grid.cuh --------===//
//
// The decode component's grid on the host: the split of K measured best
// for each layer (figures of the kind cudaOccupancyMaxActiveClusters gives
// for an H200 at three blocks an SM), shares of at least two 128-deep
// chunks, and no split without clusters (sm_80).
#include "tc/decode/weight_stream_grid.cuh"
#include "gtest/gtest.h"

namespace {

using tc::ClusterCapacity;
using tc::decode::weight_stream_fits;
using tc::decode::weight_stream_grid;
using tc::decode::decode_kernel;
using tc::decode::DecodeKernel;
using tc::decode::WeightStreamGrid;

ClusterCapacity h200() {
  ClusterCapacity C;
  C.clusters[2] = 198;
  C.clusters[4] = 96;
  C.clusters[8] = 40;
  return C;
}

// The splits measured best on an H200 (132 SMs, 3 blocks an SM) for the
// Llama-3 layers of docs/results/decode-weight-stream-h200.md, with W
// through three TMA stages (decode-weight-stream-h200-tma.csv, tma3_split
// columns; 4096 x 4096: 8 within 1% of 4).
TEST(WeightStreamGridTest, LlamaLayersTakeTheMeasuredSplit) {
  struct Layer {
    long long n, k;
    int split;
  } Layers[] = {{6144, 4096, 4},  {4096, 4096, 8},  {28672, 4096, 1},  {4096, 14336, 8},
                {10240, 8192, 4}, {8192, 8192, 2},  {57344, 8192, 4},  {8192, 28672, 2}};
  for (const Layer &L : Layers) {
    const WeightStreamGrid G = weight_stream_grid(1, L.n, L.k, 132, 3, h200());
    EXPECT_EQ(G.split, L.split) << L.n << " x " << L.k;
    EXPECT_EQ(G.column_blocks, (L.n + 127) / 128);
    EXPECT_EQ(G.m_tiles, 1);
  }
}

// One block an SM where that still leaves shares of 32 chunks; not where
// the shares would be shorter, or too few SMs would get a block.
TEST(WeightStreamGridTest, OneBlockAnSmForLongShares) {
  EXPECT_EQ(weight_stream_grid(1, 8192, 8192, 132, 3, h200()).split, 2);   // 128 blocks, 32 chunks
  EXPECT_EQ(weight_stream_grid(1, 8192, 8064, 132, 3, h200()).split, 4);   // 63 chunks: 31 a share
  EXPECT_EQ(weight_stream_grid(1, 4096, 16384, 132, 3, h200()).split, 4);  // 128 blocks, 32 chunks
  EXPECT_EQ(weight_stream_grid(1, 10240, 8192, 132, 3, h200()).split, 4);  // 80 or 160 blocks
  // Without clusters of two, the rule below decides.
  ClusterCapacity NoPairs = h200();
  NoPairs.clusters[2] = 0;
  EXPECT_NE(weight_stream_grid(1, 8192, 8192, 132, 3, NoPairs).split, 2);
}

TEST(WeightStreamGridTest, SharesKeepTwoChunks) {
  // K = 512: 4 chunks, at most 2 shares of 2.
  EXPECT_EQ(weight_stream_grid(1, 128, 512, 132, 3, h200()).split, 2);
  // K = 300: 3 chunks, no split.
  EXPECT_EQ(weight_stream_grid(1, 128, 300, 132, 3, h200()).split, 1);
  EXPECT_EQ(weight_stream_grid(1, 128, 1, 132, 3, h200()).split, 1);
}

// The 4-bit kernel's chunks of 256 k hold the 128 bytes of a row that the
// 8-bit kernel's chunks of 128 k do: the same grid at twice the K.
TEST(WeightStreamGridTest, ChunksCountBytesOfARow) {
  const long long Layers[][2] = {{6144, 4096},  {4096, 4096},  {28672, 4096}, {4096, 14336},
                                 {10240, 8192}, {8192, 8192},  {57344, 8192}, {8192, 28672},
                                 {128, 300},    {4096, 16384}, {8192, 8064}};
  for (const auto &L : Layers) {
    const WeightStreamGrid Bytes = weight_stream_grid(1, L[0], L[1], 132, 3, h200());
    const WeightStreamGrid Nibbles = weight_stream_grid(1, L[0], 2 * L[1], 132, 3, h200(), 256);
    EXPECT_EQ(Nibbles.split, Bytes.split) << L[0] << " x " << L[1];
    EXPECT_EQ(Nibbles.column_blocks, Bytes.column_blocks);
  }
  // K = 600: three chunks of 256, no split (shares keep two).
  EXPECT_EQ(weight_stream_grid(1, 128, 600, 132, 3, h200(), 256).split, 1);
  EXPECT_EQ(weight_stream_grid(1, 128, 1024, 132, 3, h200(), 256).split, 2);
}

TEST(WeightStreamGridTest, NoSplitWithoutClusters) {
  EXPECT_EQ(weight_stream_grid(1, 4096, 4096, 108, 3, ClusterCapacity{}).split, 1);
  // A size that cannot run at all is not taken.
  ClusterCapacity NoEights = h200();
  NoEights.clusters[8] = 0;
  EXPECT_EQ(weight_stream_grid(1, 4096, 4096, 132, 3, NoEights).split, 4);
}

TEST(WeightStreamGridTest, RowTilesPadM) {
  EXPECT_EQ(weight_stream_grid(16, 128, 128, 132, 3, h200()).m_tiles, 1);
  EXPECT_EQ(weight_stream_grid(17, 128, 128, 132, 3, h200()).m_tiles, 2);
  EXPECT_EQ(weight_stream_grid(33, 128, 128, 132, 3, h200()).m_tiles, 4);
  EXPECT_TRUE(weight_stream_fits(64, 1, 1));
  EXPECT_FALSE(weight_stream_fits(65, 4096, 4096));
  EXPECT_FALSE(weight_stream_fits(0, 4096, 4096));
  // The grid's y: at most 65535 column blocks.
  EXPECT_TRUE(weight_stream_fits(1, 65535LL * 128, 16));
  EXPECT_FALSE(weight_stream_fits(1, 65535LL * 128 + 1, 16));
}

// Generated launchers give the kernel few rows of large, aligned layers
// only: where it was measured faster than their other kernels.
TEST(WeightStreamGridTest, LaunchersTakeItWhereItPays) {
  constexpr auto kNone = DecodeKernel::kNone, kMmaRows = DecodeKernel::kMmaRows,
                 kWgmma = DecodeKernel::kWgmma;
  for (bool wgmma : {false, true}) {
    EXPECT_EQ(decode_kernel(1, 4096, 4096, true, wgmma), kMmaRows);
    EXPECT_EQ(decode_kernel(16, 57344, 8192, true, wgmma), kMmaRows);
    EXPECT_EQ(decode_kernel(0, 4096, 4096, true, wgmma), kNone);
    EXPECT_EQ(decode_kernel(16, 4096, 4095, true, wgmma), kNone);
    EXPECT_EQ(decode_kernel(16, 129, 4096, true, wgmma), kNone);
    EXPECT_EQ(decode_kernel(1, 4096, 4096, false, wgmma), kNone);
    EXPECT_EQ(decode_kernel(33, 4096, 4096, true, wgmma), kNone);
  }
  // 17 to 32 rows: the wgmma kernel where the launcher has it (sm_90a),
  // from 6144 x 4096 weights.
  EXPECT_EQ(decode_kernel(17, 6144, 4096, true, true), kWgmma);
  EXPECT_EQ(decode_kernel(32, 8192, 28672, true, true), kWgmma);
  EXPECT_EQ(decode_kernel(32, 4096, 14336, true, true), kWgmma);
  EXPECT_EQ(decode_kernel(32, 4096, 4096, true, true), kNone);
  EXPECT_EQ(decode_kernel(17, 6144, 4096, true, false), kNone);
  EXPECT_EQ(decode_kernel(32, 6144, 4096, false, true), kNone);
  EXPECT_EQ(decode_kernel(32, 6144, 4095, true, true), kNone);
}

} // namespace

// The 4-bit decode kernels: mma.sync up to 16 rows; wgmma (code built for
// sm_90a) up to 64 where groups are whole 128-deep sub-chunks; aligned
// rows and groups of whole 32-weight units (0: the row's one group) for
// either, at any N x K.
TEST(WeightStreamGridTest, NibbleLayersTakeADecodeKernelAtFewRows) {
  using tc::decode::nibble_decode_kernel;
  using K = tc::decode::NibbleKernel;
  for (bool wgmma : {false, true}) {
    EXPECT_EQ(nibble_decode_kernel(1, 4096, 4096, 128, true, wgmma), K::kMmaRows);
    EXPECT_EQ(nibble_decode_kernel(16, 1, 2, 0, true, wgmma), K::kMmaRows);
    EXPECT_EQ(nibble_decode_kernel(16, 57344, 8192, 32, true, wgmma), K::kMmaRows);
    EXPECT_EQ(nibble_decode_kernel(0, 4096, 4096, 128, true, wgmma), K::kNone);
    EXPECT_EQ(nibble_decode_kernel(1, 4096, 4096, 128, false, wgmma), K::kNone);
    EXPECT_EQ(nibble_decode_kernel(1, 4096, 4096, 48, true, wgmma), K::kNone);
    EXPECT_EQ(nibble_decode_kernel(1, 4096, 4096, -32, true, wgmma), K::kNone);
    EXPECT_EQ(nibble_decode_kernel(65, 4096, 4096, 128, true, wgmma), K::kNone);
  }
  EXPECT_EQ(nibble_decode_kernel(17, 4096, 4096, 128, true, false), K::kNone);
  EXPECT_EQ(nibble_decode_kernel(17, 4096, 4096, 128, true, true), K::kWgmma);
  EXPECT_EQ(nibble_decode_kernel(64, 57344, 8192, 256, true, true), K::kWgmma);
  EXPECT_EQ(nibble_decode_kernel(64, 1, 1000, 0, true, true), K::kWgmma);
  // A group of all of K and more, though not of 128.
  EXPECT_EQ(nibble_decode_kernel(32, 300, 1000, 1024 + 32, true, true), K::kWgmma);
  // Groups of 32 and 64 split the wgmma kernel's sub-chunks.
  EXPECT_EQ(nibble_decode_kernel(32, 4096, 4096, 64, true, true), K::kNone);
  EXPECT_EQ(nibble_decode_kernel(32, 4096, 4096, 32, true, true), K::kNone);
  EXPECT_EQ(nibble_decode_kernel(32, 4096, 4096, 128, false, true), K::kNone);
}
