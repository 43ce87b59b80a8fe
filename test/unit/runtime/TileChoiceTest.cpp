//===- TileChoiceTest.cpp - tc/tile_choice.cuh: the tile rules ------------===//
//
// The rules of tile_choice.cuh on the host, at the SM counts of an H200 or
// H100 SXM (132), an H100 PCIe (114), an A100 (108), a smaller part (84)
// and one SM. The shapes are written in terms of the SM count where the
// rule is; the measured shapes of docs/design/tile-choice.md are checked at
// 132 SMs, where they were measured.
#include "tc/tile_choice.cuh"
#include "gtest/gtest.h"

namespace {

using tc::ChoiceOptions;
using tc::DeviceFacts;
using tc::TileSizes;

const TileSizes kWide = {256, 224, 192, 176};
const TileSizes kWideAll = {256, 224, 192, 176, 160, 144};
const TileSizes kDeep = {128, 112, 96};
const TileSizes kTall = {256, 224, 192, 176};
const TileSizes kSquare = {128, 112, 96, 80, 64};
const ChoiceOptions kOn;

class TileRules : public testing::TestWithParam<int> {
protected:
  DeviceFacts D{GetParam()};
  long long sms = GetParam();
};

INSTANTIATE_TEST_SUITE_P(SmCounts, TileRules, testing::Values(132, 114, 108, 84),
                         [](const testing::TestParamInfo<int> &I) {
                           return std::to_string(I.param) + "Sms";
                         });

TEST_P(TileRules, RoundFillCountsWholeRounds) {
  // One tile over a round: two rounds, about half of them output.
  EXPECT_DOUBLE_EQ(tc::round_fill(128, 128 * sms, 128, 128, D), 1.0);
  EXPECT_DOUBLE_EQ(tc::round_fill(128, 128 * (sms + 1), 128, 128, D),
                   double(sms + 1) / double(2 * sms));
  // A partial tile: its padding counts against the fill.
  EXPECT_DOUBLE_EQ(tc::round_fill(64, 128 * sms, 128, 128, D), 0.5);
}

TEST_P(TileRules, PersistentTiles) {
  // k >= 256 with at least as many 128x128 tiles as SMs, k >= 1024 with
  // fewer; never where one round of 64x128 tiles covers the output.
  const long long wide_n = 128 * (sms + 1);
  EXPECT_TRUE(tc::prefer_persistent_tiles(256, wide_n, 256, D, kOn));
  EXPECT_FALSE(tc::prefer_persistent_tiles(256, wide_n, 128, D, kOn));
  EXPECT_TRUE(tc::prefer_persistent_tiles(128, 128 * (sms - 1), 1024, D, kOn));
  EXPECT_FALSE(tc::prefer_persistent_tiles(128, 128 * (sms - 1), 512, D, kOn));
  EXPECT_FALSE(tc::prefer_persistent_tiles(64, 128 * sms, 4096, D, kOn));
  ChoiceOptions Off;
  Off.persistent_tiles = false;
  EXPECT_FALSE(tc::prefer_persistent_tiles(256, wide_n, 256, D, Off));
  // On A's fragments: k >= 768 from one round of 128x128 tiles.
  EXPECT_TRUE(tc::prefer_persistent_fragment_tiles(256, wide_n, 768, D, kOn));
  EXPECT_FALSE(tc::prefer_persistent_fragment_tiles(256, wide_n, 512, D, kOn));
  EXPECT_TRUE(tc::prefer_persistent_fragment_tiles(128, 128 * (sms - 1), 1024, D, kOn));
  EXPECT_FALSE(tc::prefer_persistent_fragment_tiles(128, 128 * (sms - 1), 768, D, kOn));
  EXPECT_FALSE(tc::prefer_persistent_fragment_tiles(64, 128 * sms, 4096, D, kOn));
  EXPECT_FALSE(tc::prefer_persistent_fragment_tiles(256, wide_n, 768, D, Off));
}

TEST_P(TileRules, WideTileWidthFewestRoundsThenFewestColumns) {
  // sms + 1 tiles of 256 columns: two rounds of 256, one of 144 (or the
  // narrowest width the region has). 300 * sms columns: 256 in 2 rounds
  // before 144 in 3; 288 * sms: 144 in 2 rounds before 160 in 2.
  const long long one_over = 256 * (sms + 1);
  EXPECT_EQ(tc::wide_tile_width(128, one_over, kWideAll, D, kOn), 144);
  EXPECT_EQ(tc::wide_tile_width(128, one_over, kWide, D, kOn), 176);
  EXPECT_EQ(tc::wide_tile_width(128, one_over, {256, 192}, D, kOn), 192);
  EXPECT_EQ(tc::wide_tile_width(128, 256 * sms, kWideAll, D, kOn), 256);
  EXPECT_EQ(tc::wide_tile_width(128, 256 * (2 * sms + 1), kWideAll, D, kOn), 256);
  EXPECT_EQ(tc::wide_tile_width(128, 300 * sms, {256, 144}, D, kOn), 256);
  EXPECT_EQ(tc::wide_tile_width(128, 288 * sms, kWideAll, D, kOn), 144);
  EXPECT_TRUE(tc::prefer_wide_tma_width(128, one_over, 1024, 144, kWideAll, D, kOn));
  EXPECT_FALSE(tc::prefer_wide_tma_width(128, one_over, 1024, 176, kWideAll, D, kOn));
  EXPECT_FALSE(tc::prefer_wide_tma_width(128, 256 * 8, 1024, 144, kWideAll, D, kOn));
  ChoiceOptions Off;
  Off.fitted_widths = false;
  EXPECT_EQ(tc::wide_tile_width(128, one_over, kWideAll, D, Off), 256);
}

TEST_P(TileRules, TallTileHeight) {
  // As the wide width over the transposed output, but 256 where a kernel
  // with stream units would share out a last round of at most an eighth
  // of the SMs over at least 24 k tiles, and from more than two rounds.
  const long long one_tile_over = 256 * (sms + 1);
  const long long eighth_over = 256 * (sms + sms / 8), past_eighth = 256 * (sms + sms / 8 + 1);
  EXPECT_EQ(tc::tall_tile_height(one_tile_over, 128, 512, kTall, true, D, kOn), 176);
  EXPECT_EQ(tc::tall_tile_height(one_tile_over, 128, 24 * 64, kTall, true, D, kOn), 256);
  EXPECT_EQ(tc::tall_tile_height(one_tile_over, 128, 23 * 64 + 1, kTall, true, D, kOn), 256);
  EXPECT_EQ(tc::tall_tile_height(one_tile_over, 128, 23 * 64, kTall, true, D, kOn), 176);
  EXPECT_EQ(tc::tall_tile_height(one_tile_over, 128, 4096, kTall, false, D, kOn), 176);
  EXPECT_EQ(tc::tall_tile_height(eighth_over, 128, 4096, kTall, true, D, kOn), 256);
  EXPECT_EQ(tc::tall_tile_height(past_eighth, 128, 4096, kTall, true, D, kOn), 176);
  EXPECT_EQ(tc::tall_tile_height(256 * sms, 128, 512, kTall, true, D, kOn), 256);
  EXPECT_EQ(tc::tall_tile_height(256 * (2 * sms + 1), 128, 512, kTall, true, D, kOn), 256);
  EXPECT_EQ(tc::tall_tile_height(one_tile_over, 128, 512, {256, 224}, true, D, kOn), 224);
  EXPECT_TRUE(tc::prefer_tall_raw_fragment_height(one_tile_over, 128, 512, 176, kTall, true, D,
                                                  kOn));
  EXPECT_FALSE(tc::prefer_tall_raw_fragment_height(one_tile_over, 128, 512, 224, kTall, true, D,
                                                   kOn));
  EXPECT_FALSE(tc::prefer_tall_raw_fragment_height(256, 128 * sms, 512, 176, kTall, true, D, kOn));
  // Without stream units the thin last round does not keep 256.
  ChoiceOptions NoStream;
  NoStream.stream_units = false;
  EXPECT_EQ(tc::tall_tile_height(eighth_over, 128, 4096, kTall, true, D, NoStream), 176);
}

TEST_P(TileRules, FittedTiles) {
  // 192 x 192 * SMs: one whole round of 192x192 tiles, 1.5 rounds of the
  // tall ones; the GEMM's from k >= 1024, the int8 layer's at every k. Not
  // where the tall tiles fill their rounds too, nor where the 192x192 ones
  // leave a round mostly empty too, nor below 512 rows.
  EXPECT_TRUE(tc::prefer_fitted_raw_fragment_tiles(192 * sms, 192, D, kOn));
  EXPECT_FALSE(tc::prefer_fitted_tiles(192, 192 * sms, 1023, D, kOn));
  EXPECT_TRUE(tc::prefer_fitted_tiles(192, 192 * sms, 1024, D, kOn));
  EXPECT_FALSE(tc::prefer_fitted_raw_fragment_tiles(768, 384 * sms, D, kOn));
  EXPECT_FALSE(tc::prefer_fitted_raw_fragment_tiles(256 * (sms + 1), 128, D, kOn));
  EXPECT_FALSE(tc::prefer_fitted_raw_fragment_tiles(384, 192 * sms, D, kOn));
  EXPECT_FALSE(tc::prefer_fitted_tiles(128, 256 * sms, 1024, D, kOn));
  EXPECT_FALSE(tc::prefer_fitted_tiles(192, 192 * (sms + 1), 1024, D, kOn));
  ChoiceOptions Off;
  Off.fitted_tiles = false;
  EXPECT_FALSE(tc::prefer_fitted_tiles(192, 192 * sms, 1024, D, Off));
  EXPECT_FALSE(tc::prefer_fitted_raw_fragment_tiles(192 * sms, 192, D, Off));
}

TEST_P(TileRules, SkinnyTiles) {
  // Few columns, or one round of 64x32 tiles of a short reduction (not the
  // 64x64 tiles of an N-major B beyond 64 columns).
  EXPECT_TRUE(tc::prefer_skinny_tiles(64 * sms * 4, 64, 4096, 32, D));
  EXPECT_TRUE(tc::prefer_skinny_tiles(64, 32 * sms, 1024, 32, D));
  EXPECT_FALSE(tc::prefer_skinny_tiles(64, 32 * sms, 1088, 32, D));
  EXPECT_FALSE(tc::prefer_skinny_tiles(64, 32 * (sms + 1), 1024, 32, D));
  EXPECT_FALSE(tc::prefer_skinny_tiles(64, 64 * sms, 1024, 32, D));
  EXPECT_TRUE(tc::prefer_skinny_tiles(64 * sms, 64, 4096, 64, D));
  EXPECT_FALSE(tc::prefer_skinny_tiles(64, 64 * (sms / 2), 1024, 64, D));
}

TEST_P(TileRules, NarrowTileWidth) {
  // The narrowest width whose tiles still fit one round, for more than 128
  // columns (k = 4096: 64 k tiles).
  EXPECT_EQ(tc::narrow_tile_width(64, 96 * sms, 4096, kDeep, 12, D, kOn), 96);
  EXPECT_EQ(tc::narrow_tile_width(64, 112 * sms, 4096, kDeep, 12, D, kOn), 112);
  EXPECT_EQ(tc::narrow_tile_width(64, 128 * sms, 4096, kDeep, 12, D, kOn), 128);
  EXPECT_EQ(tc::narrow_tile_width(64 * sms, 128, 4096, kDeep, 12, D, kOn), 128);
  EXPECT_TRUE(tc::prefer_deep_narrow_width(64, 96 * sms, 4096, 96, kDeep, 12, D, kOn));
  EXPECT_FALSE(tc::prefer_deep_narrow_width(64, 96 * sms, 4096, 112, kDeep, 12, D, kOn));
  // But 128 where those tiles would run in cluster parts (fewer than half
  // the SMs, at least the floor of k tiles) and 96-column ones whole; not
  // below the floor, nor for a kernel without cluster parts (floor 0), nor
  // with cluster parts off.
  const long long half_round_96 = 96 * ((sms + 1) / 2);
  EXPECT_EQ(tc::narrow_tile_width(64, half_round_96, 4096, kDeep, 12, D, kOn), 128);
  EXPECT_EQ(tc::narrow_tile_width(64, half_round_96, 640, kDeep, 12, D, kOn), 96);
  EXPECT_EQ(tc::narrow_tile_width(64, half_round_96, 4096, kDeep, 0, D, kOn), 96);
  EXPECT_FALSE(tc::prefer_deep_narrow_width(64, half_round_96, 4096, 96, kDeep, 12, D, kOn));
  ChoiceOptions NoParts;
  NoParts.cluster_parts = false;
  EXPECT_EQ(tc::narrow_tile_width(64, half_round_96, 4096, kDeep, 12, D, NoParts), 96);
  ChoiceOptions Off;
  Off.fitted_widths = false;
  EXPECT_EQ(tc::narrow_tile_width(64, 96 * sms, 4096, kDeep, 12, D, Off), 128);
}

TEST_P(TileRules, RawFragmentTileHeight) {
  // The shortest of the fewest rounds (80 rows: one round of sms tiles, 64
  // would take two; 9 k tiles, below the floor of cluster parts), but 128
  // from more than two rounds of 128-row tiles.
  EXPECT_EQ(tc::raw_fragment_tile_height(80 * sms, 128, 576, kSquare, 10, D, kOn), 80);
  EXPECT_TRUE(tc::prefer_short_raw_fragment_height(80 * sms, 128, 576, 80, kSquare, 10, D, kOn));
  EXPECT_FALSE(tc::prefer_short_raw_fragment_height(80 * sms, 128, 576, 64, kSquare, 10, D, kOn));
  EXPECT_EQ(tc::raw_fragment_tile_height(128 * (2 * sms + 1), 128, 576, kSquare, 10, D, kOn), 128);
  EXPECT_EQ(tc::raw_fragment_tile_height(112 * 2 * sms, 128, 576, kSquare, 10, D, kOn), 112);
  // Where 128-row tiles run in cluster parts: 128 if 64-row ones would run
  // whole; with both in parts, 64 only where 8 parts of the 128-row tiles
  // leave SMs idle; the shorter tiles below the floor of k tiles or
  // without cluster parts.
  const long long half_round_64 = 64 * ((sms + 1) / 2), eighth_128 = 128 * ((sms + 7) / 8);
  EXPECT_EQ(tc::raw_fragment_tile_height(half_round_64, 128, 4096, kSquare, 10, D, kOn), 128);
  EXPECT_EQ(tc::raw_fragment_tile_height(half_round_64, 128, 576, kSquare, 10, D, kOn), 64);
  EXPECT_EQ(tc::raw_fragment_tile_height(640, 128, 4096, kSquare, 10, D, kOn), 64);
  EXPECT_EQ(tc::raw_fragment_tile_height(eighth_128, 128, 4096, kSquare, 10, D, kOn), 128);
  EXPECT_EQ(tc::raw_fragment_tile_height(eighth_128, 128, 4096, kSquare, 0, D, kOn), 64);
  ChoiceOptions Off;
  Off.square_heights = false;
  EXPECT_EQ(tc::raw_fragment_tile_height(80 * sms, 128, 576, kSquare, 10, D, Off), 128);
}

TEST_P(TileRules, NarrowAndDeepNarrowCountBatches) {
  // Fewer 128x128 tiles than SMs over all batches: 64x128 tiles; 8 stages
  // where one round of 64x128 tiles covers them all.
  EXPECT_TRUE(tc::prefer_narrow_tiles(128, 128 * (sms - 1), 1, D));
  EXPECT_FALSE(tc::prefer_narrow_tiles(128, 128 * sms, 1, D));
  EXPECT_FALSE(tc::prefer_narrow_tiles(128, 128 * (sms - 1), 2, D));
  EXPECT_TRUE(tc::prefer_deep_narrow_tiles(64, 128 * sms, 1, D));
  EXPECT_FALSE(tc::prefer_deep_narrow_tiles(64, 128 * (sms + 1), 1, D));
  EXPECT_FALSE(tc::prefer_deep_narrow_tiles(64, 128 * sms, 2, D));
}

TEST_P(TileRules, NarrowConvertedTiles) {
  // Fewer 128x128 tiles than SMs and at least half as many 64x128 ones,
  // neither side of 64 or less. 128 rows: two 64x128 tiles a column.
  const long long quarter = (sms + 3) / 4;
  EXPECT_TRUE(tc::prefer_narrow_converted_tiles(128, 128 * quarter, 1, D));
  EXPECT_FALSE(tc::prefer_narrow_converted_tiles(128, 128 * (quarter - 1), 1, D));
  EXPECT_FALSE(tc::prefer_narrow_converted_tiles(128, 128 * sms, 1, D));
  EXPECT_FALSE(tc::prefer_narrow_converted_tiles(64, 128 * quarter, 1, D));
  EXPECT_FALSE(tc::prefer_narrow_converted_tiles(128 * quarter, 64, 1, D));
  // Beside the 128x128 kernel converting into fragments: k <= 512 only.
  EXPECT_TRUE(tc::prefer_narrow_raw_fragment_tiles(128, 128 * quarter, 512, D));
  EXPECT_FALSE(tc::prefer_narrow_raw_fragment_tiles(128, 128 * quarter, 576, D));
}

TEST_P(TileRules, TallRawFragmentTiles) {
  // At least 512 rows and half a round of 256x128 tiles (512 rows: two a
  // column).
  const long long quarter = (sms + 3) / 4;
  EXPECT_TRUE(tc::prefer_tall_raw_fragment_tiles(512, 128 * quarter, D));
  EXPECT_FALSE(tc::prefer_tall_raw_fragment_tiles(512, 128 * (quarter - 1), D));
  EXPECT_FALSE(tc::prefer_tall_raw_fragment_tiles(511, 128 * sms, D));
}

TEST_P(TileRules, WideTiles) {
  // cp.async: m >= 1024, k >= 512 and 1.8 rounds of 128x256 tiles.
  const long long cols = 256 * ((9 * sms + 39) / 40);  // 8 rows of tiles: 5 * tiles >= 9 * sms
  EXPECT_TRUE(tc::prefer_wide_tiles(1024, cols, 512, D));
  EXPECT_FALSE(tc::prefer_wide_tiles(1024, cols - 256, 512, D));
  EXPECT_FALSE(tc::prefer_wide_tiles(1024, cols, 511, D));
  // TMA: from half as many wide tiles as SMs; short reductions only up to
  // as many tiles as SMs.
  EXPECT_TRUE(tc::prefer_wide_tma_tiles(128, 256 * ((sms + 1) / 2), 512, D));
  EXPECT_FALSE(tc::prefer_wide_tma_tiles(128, 256 * ((sms + 1) / 2 - 1), 4096, D));
  EXPECT_FALSE(tc::prefer_wide_tma_tiles(128, 256 * (sms + 1), 1023, D));
  EXPECT_TRUE(tc::prefer_wide_tma_tiles(128, 256 * (sms + 1), 1024, D));
}

// The shapes docs/design/tile-choice.md names, on the 132 SMs of an H200.
TEST(TileRulesOnH200, MeasuredShapes) {
  const DeviceFacts H200{132};
  // 3456 x 1280: 126 192x192 tiles in one round, 135 128x256 ones in two.
  EXPECT_TRUE(tc::prefer_fitted_tiles(3456, 1280, 1280, H200, kOn));
  // 4096^3: both fill their rounds; 1664 x 2816: 135 192x192 tiles.
  EXPECT_FALSE(tc::prefer_fitted_tiles(4096, 4096, 4096, H200, kOn));
  EXPECT_FALSE(tc::prefer_fitted_tiles(1664, 2816, 1792, H200, kOn));
  // 768 x 3072: 72 tiles of 256 columns, 108 of 176, one round either way.
  EXPECT_EQ(tc::wide_tile_width(768, 3072, kWide, H200, kOn), 176);
  // 384 x 2304: 112 columns (126 tiles; 96 would take 144).
  EXPECT_EQ(tc::narrow_tile_width(384, 2304, 2176, kDeep, 12, H200, kOn), 112);
  // 384 x 1280 x 3840: 60 tiles of 128 columns in parts, not 84 of 96.
  EXPECT_EQ(tc::narrow_tile_width(384, 1280, 3840, kDeep, 12, H200, kOn), 128);
  // 3584 x 128: 128 columns (narrower ones would read A twice).
  EXPECT_EQ(tc::narrow_tile_width(3584, 128, 2304, kDeep, 12, H200, kOn), 128);
  // 2304 x 2176 x 768: 153 tall tiles, a second round of 21 (more than an
  // eighth: no stream units), 176 rows; 2304 x 2048 x 2560: 144 tall
  // tiles, a thin last round shared out over 40 k tiles, 256.
  EXPECT_EQ(tc::tall_tile_height(2304, 2176, 768, kTall, true, H200, kOn), 176);
  EXPECT_EQ(tc::tall_tile_height(2304, 2048, 2560, kTall, true, H200, kOn), 256);
  // 16 x 28672 x 4096 (decode): 64 rows of X.
  EXPECT_EQ(tc::raw_fragment_tile_height(16, 28672, 4096, kSquare, 10, H200, kOn), 64);
  // 384 x 1280 x 3840: 30 tiles in parts; the shorter ones would convert
  // each W tile for twice the blocks.
  EXPECT_EQ(tc::raw_fragment_tile_height(384, 1280, 3840, kSquare, 10, H200, kOn), 128);
  // 72 x 6144: the shortest height of as many tiles, 80.
  EXPECT_EQ(tc::raw_fragment_tile_height(72, 6144, 4096, kSquare, 10, H200, kOn), 80);
  // 7680 x 16: skinny; 128 x 2048 x 768: one round of 64x32 tiles; 128 x
  // 1792 x 2304: 36 k tiles, not.
  EXPECT_TRUE(tc::prefer_skinny_tiles(7680, 16, 2560, 32, H200));
  EXPECT_TRUE(tc::prefer_skinny_tiles(128, 2048, 768, 32, H200));
  EXPECT_FALSE(tc::prefer_skinny_tiles(128, 1792, 2304, 32, H200));
}

// One SM: every output is at least one round; nothing is "few tiles".
TEST(TileRulesOnOneSm, EdgeShapes) {
  const DeviceFacts One{1};
  EXPECT_DOUBLE_EQ(tc::round_fill(1, 1, 128, 128, One), 1.0 / (128 * 128));
  EXPECT_FALSE(tc::prefer_narrow_tiles(1, 1, 1, One));
  EXPECT_TRUE(tc::prefer_deep_narrow_tiles(1, 1, 1, One));
  EXPECT_FALSE(tc::prefer_deep_narrow_tiles(65, 1, 1, One));
  EXPECT_TRUE(tc::prefer_skinny_tiles(1, 1, 1, 32, One));
  EXPECT_TRUE(tc::prefer_wide_tma_tiles(1, 1, 1, One));
  EXPECT_EQ(tc::wide_tile_width(1, 1, kWide, One, kOn), 176);  // one tile of any width
  EXPECT_EQ(tc::wide_tile_width(128, 1024, kWide, One, kOn), 256);  // > 2 rounds
  EXPECT_EQ(tc::narrow_tile_width(1, 1, 1, kDeep, 12, One, kOn), 128);  // n <= 128
  EXPECT_FALSE(tc::prefer_persistent_tiles(1, 1, 1, One, kOn));
  EXPECT_TRUE(tc::prefer_persistent_tiles(128, 256, 256, One, kOn));
}

// Outputs past 32-bit tile counts: no overflow in the counts of tiles.
TEST(TileRulesOnH200, HugeShapes) {
  const DeviceFacts H200{132};
  const long long big = 1ll << 22;  // 4M x 4M: 2^33 64x32 tiles
  EXPECT_EQ(tc::output_tiles(big, big, 64, 32), (big / 64) * (big / 32));
  EXPECT_FALSE(tc::prefer_narrow_tiles(big, big, 1, H200));
  EXPECT_TRUE(tc::prefer_wide_tma_tiles(big, big, 4096, H200));
  EXPECT_FALSE(tc::prefer_wide_tma_tiles(big, big, 1, H200));  // many tiles, short k
  EXPECT_EQ(tc::wide_tile_width(big, big, kWide, H200, kOn), 256);
  EXPECT_FALSE(tc::prefer_fitted_tiles(big, big, 4096, H200, kOn));
  EXPECT_GT(tc::round_fill(big, big, 192, 192, H200), 0.99);
}

} // namespace
