//===- ScheduleChoiceTest.cpp - the launch's schedule, parts and splits ---===//
//
// tc/schedule_choice.cuh, cluster_parts_choice.cuh and split_choice.cuh on
// the host, at several SM counts: which tiles run whole, which are split
// and into how many parts, where pairs, stream units, persistent blocks
// and cluster parts are taken. (That a schedule's blocks cover every k
// tile once is the GPU test's: it runs the kernels' side, unit_work.)
#include "tc/cluster_parts_choice.cuh"
#include "tc/schedule_choice.cuh"
#include "tc/split_choice.cuh"
#include "gtest/gtest.h"

namespace {

using tc::ChoiceOptions;
using tc::DeviceFacts;
using tc::TileSchedule;

const DeviceFacts H200{132};
const ChoiceOptions kOn;

TEST(ScheduleChoiceTest, MaxParts) {
  EXPECT_EQ(tc::max_parts(8), 1);   // 2 parts would cost more than they save
  EXPECT_EQ(tc::max_parts(12), 2);
  EXPECT_EQ(tc::max_parts(64), 4);  // about sqrt(64 / 3)
  EXPECT_EQ(tc::max_parts(100), 5);
  EXPECT_EQ(tc::max_parts(100000), 16);
}

TEST(ScheduleChoiceTest, SplitTailOnH200) {
  // 144 tiles: 132 whole, the last 12 in 4 parts (132 / 12 = 11, at most
  // max_parts(64) = 4).
  TileSchedule s = tc::schedule_tiles(12, 12, 64, H200);
  EXPECT_EQ(s.whole_tiles, 132);
  EXPECT_EQ(s.parts, 4);
  EXPECT_EQ(s.part_k_tiles, 16);
  EXPECT_EQ(tc::split_tiles(s), 12);
  EXPECT_EQ(tc::schedule_blocks(s), 132 + 12 * 4);
  // Fewer tiles than SMs: every tile split, about one part per SM.
  s = tc::schedule_tiles(4, 8, 100, H200);
  EXPECT_EQ(s.whole_tiles, 0);
  EXPECT_EQ(s.parts, 4);
  EXPECT_EQ(s.part_k_tiles, 25);
  EXPECT_EQ(tc::schedule_blocks(s), 128);
  // Whole rounds, or too short a reduction: nothing split.
  s = tc::schedule_tiles(12, 11, 64, H200);
  EXPECT_EQ(s.whole_tiles, 132);
  EXPECT_EQ(s.parts, 1);
  s = tc::schedule_tiles(4, 8, 7, H200);
  EXPECT_EQ(s.whole_tiles, 32);
  EXPECT_EQ(s.parts, 1);
}

TEST(ScheduleChoiceTest, SplitTailDependsOnTheSmCount) {
  // The same 144 tiles: a tail of 36 in 3 parts on 108 SMs; on 84 a tail
  // of 60, which one part each covers: nothing split.
  TileSchedule s = tc::schedule_tiles(12, 12, 64, DeviceFacts{108});
  EXPECT_EQ(s.whole_tiles, 108);
  EXPECT_EQ(s.parts, 3);
  EXPECT_EQ(s.part_k_tiles, 22);
  s = tc::schedule_tiles(12, 12, 64, DeviceFacts{84});
  EXPECT_EQ(s.whole_tiles, 144);
  EXPECT_EQ(s.parts, 1);
  // One SM: every tile count is whole rounds.
  s = tc::schedule_tiles(4, 8, 100, DeviceFacts{1});
  EXPECT_EQ(s.whole_tiles, 32);
  EXPECT_EQ(s.parts, 1);
  s = tc::schedule_tiles(1, 1, 1, DeviceFacts{1});
  EXPECT_EQ(tc::schedule_blocks(s), 1);
}

TEST(ScheduleChoiceTest, StreamUnitsTakeAThinLastRound) {
  // More tiles than SMs, a last round of at most an eighth of them, at
  // least 8 k tiles.
  EXPECT_TRUE(tc::stream_units_take_tail(140, 8, H200, kOn));
  EXPECT_TRUE(tc::stream_units_take_tail(148, 8, H200, kOn));   // 16 * 8 <= 132
  EXPECT_FALSE(tc::stream_units_take_tail(149, 8, H200, kOn));  // 17 * 8 > 132
  EXPECT_FALSE(tc::stream_units_take_tail(140, 7, H200, kOn));
  EXPECT_FALSE(tc::stream_units_take_tail(132, 8, H200, kOn));
  EXPECT_FALSE(tc::stream_units_take_tail(100, 8, H200, kOn));
  EXPECT_FALSE(tc::stream_units_take_tail(2, 8, DeviceFacts{1}, kOn));
  EXPECT_TRUE(tc::stream_units_take_tail(118, 8, DeviceFacts{114}, kOn));
  EXPECT_TRUE(tc::stream_units_take_tail(128, 8, DeviceFacts{114}, kOn));   // 14 * 8 <= 114
  EXPECT_FALSE(tc::stream_units_take_tail(129, 8, DeviceFacts{114}, kOn));  // 15 * 8 > 114
  ChoiceOptions Off;
  Off.stream_units = false;
  EXPECT_FALSE(tc::stream_units_take_tail(140, 8, H200, Off));

  // 140 tiles: the last full round and the tail of 8 shared by 132 blocks.
  TileSchedule s = tc::schedule_stream_tiles(14, 10, 32, H200, kOn);
  EXPECT_EQ(s.whole_tiles, 0);
  EXPECT_EQ(s.stream_blocks, 132);
  EXPECT_EQ(s.parts, 2);
  EXPECT_EQ(tc::split_tiles(s), 131);
  EXPECT_EQ(tc::schedule_blocks(s), 132);
  // Otherwise the split tail.
  s = tc::schedule_stream_tiles(14, 10, 32, H200, Off);
  EXPECT_EQ(s.stream_blocks, 0);
  EXPECT_EQ(s.whole_tiles, 132);
  EXPECT_EQ(s.parts, 3);  // 132 / 8 = 16, at most max_parts(32) = 3
}

TEST(ScheduleChoiceTest, PersistentBlocksOnePerSm) {
  EXPECT_EQ(tc::schedule_persistent_tiles(20, 10, 64, H200).persistent_blocks, 132);
  EXPECT_EQ(tc::schedule_persistent_tiles(4, 8, 64, H200).persistent_blocks, 32);
  EXPECT_EQ(tc::schedule_persistent_tiles(20, 10, 64, DeviceFacts{84}).persistent_blocks, 84);
  const TileSchedule s = tc::schedule_persistent_tiles(20, 10, 64, DeviceFacts{1});
  EXPECT_EQ(tc::schedule_blocks(s), 1);
  EXPECT_EQ(tc::split_tiles(s), 0);
}

class PairRules : public testing::TestWithParam<int> {
protected:
  DeviceFacts D{GetParam()};
  long long sms = GetParam();
};

INSTANTIATE_TEST_SUITE_P(SmCounts, PairRules, testing::Values(132, 114, 108, 84),
                         [](const testing::TestParamInfo<int> &I) {
                           return std::to_string(I.param) + "Sms";
                         });

TEST_P(PairRules, OneRoundPairsFromTwelveKTiles) {
  // A wide output of 2 x SMs tiles (the pairs fill every SM): paired by
  // kPairOneRound at 34 and 12 k tiles, not 11 or 8; the other rules take
  // no account of k.
  EXPECT_NE(tc::schedule_tile_pairs(2, sms, 34, tc::kPairOneRound, false, D, kOn).pair, 0);
  EXPECT_NE(tc::schedule_tile_pairs(2, sms, 12, tc::kPairOneRound, false, D, kOn).pair, 0);
  EXPECT_EQ(tc::schedule_tile_pairs(2, sms, 11, tc::kPairOneRound, false, D, kOn).pair, 0);
  EXPECT_EQ(tc::schedule_tile_pairs(2, sms, 8, tc::kPairOneRound, false, D, kOn).pair, 0);
  EXPECT_NE(tc::schedule_tile_pairs(2, sms, 2, tc::kPairTwoBlocksPerSm, false, D, kOn).pair, 0);
  EXPECT_NE(tc::schedule_tile_pairs(2, 2 * sms, 2, tc::kPairWideTiles, true, D, kOn).pair, 0);
  // Tall outputs (fewer tile columns than rows) and rows that do not pair.
  EXPECT_EQ(tc::schedule_tile_pairs(2 * sms, 2, 34, tc::kPairOneRound, false, D, kOn).pair, 0);
  EXPECT_EQ(tc::schedule_tile_pairs(3, sms, 34, tc::kPairTwoBlocksPerSm, false, D, kOn).pair, 0);
  ChoiceOptions Off;
  Off.tile_pairs = false;
  EXPECT_EQ(tc::schedule_tile_pairs(2, sms, 34, tc::kPairTwoBlocksPerSm, false, D, Off).pair, 0);
}

TEST_P(PairRules, WidePairsFromOneAndAHalfRounds) {
  // 2 x SMs tiles pair; SMs tiles (one round) do not, and the kernel with
  // stream units gets its schedule of single tiles.
  EXPECT_NE(tc::schedule_tile_pairs(2, sms, 64, tc::kPairWideTiles, true, D, kOn).pair, 0);
  const TileSchedule s =
      tc::schedule_tile_pairs(2, (sms + 1) / 2, 64, tc::kPairWideTiles, true, D, kOn);
  EXPECT_EQ(s.pair, 0);
}

TEST_P(PairRules, NoStreamUnitsForKernelsWithoutThem) {
  const long long shapes[][3] = {{24, 16, 17}, {22, 13, 17}, {32, 16, 64}, {2, 112, 64},
                                 {27, 5, 20},  {9, 11, 42},  {18, 17, 12}, {4, 8, 100},
                                 {12, 12, 9},  {14, 10, 28}, {2, 32, 58},  {6, 18, 34}};
  for (auto &t : shapes)
    for (tc::PairRule rule : {tc::kPairTwoBlocksPerSm, tc::kPairOneRound})
      EXPECT_EQ(tc::schedule_tile_pairs(t[0], t[1], t[2], rule, false, D, kOn).stream_blocks, 0)
          << t[0] << "x" << t[1] << ", " << t[2] << " k tiles, rule " << rule;
}

TEST(ClusterPartsChoiceTest, MayPay) {
  // Fewer tiles than half the SMs, at least the kernel's floor of k tiles.
  EXPECT_TRUE(tc::cluster_parts_may_pay(2, 2, 64, 12, H200, kOn));
  EXPECT_TRUE(tc::cluster_parts_may_pay(5, 13, 12, 12, H200, kOn));    // 65 tiles
  EXPECT_FALSE(tc::cluster_parts_may_pay(6, 11, 12, 12, H200, kOn));   // 66
  EXPECT_FALSE(tc::cluster_parts_may_pay(2, 2, 11, 12, H200, kOn));
  EXPECT_FALSE(tc::cluster_parts_may_pay(2, 2, 64, 0, H200, kOn));     // no cluster parts
  EXPECT_FALSE(tc::cluster_parts_may_pay(5, 13, 64, 12, DeviceFacts{114}, kOn));
  EXPECT_FALSE(tc::cluster_parts_may_pay(1, 1, 64, 12, DeviceFacts{1}, kOn));
  ChoiceOptions Off;
  Off.cluster_parts = false;
  EXPECT_FALSE(tc::cluster_parts_may_pay(2, 2, 64, 12, H200, Off));
}

TEST(ClusterPartsChoiceTest, MostPartsThatRunAtOnce) {
  tc::ClusterCapacity roomy;
  for (int &c : roomy.clusters)
    c = 1000;
  TileSchedule s{};
  ASSERT_TRUE(tc::schedule_cluster_parts(2, 2, 64, 12, roomy, H200, kOn, s));
  EXPECT_EQ(s.parts, 8);
  EXPECT_EQ(s.part_k_tiles, 8);
  EXPECT_EQ(s.whole_tiles, 0);
  EXPECT_EQ(s.cluster_parts, 1);
  EXPECT_EQ(tc::cluster_blocks(s), 8);
  EXPECT_EQ(tc::schedule_blocks(s), 32);
  // 12 k tiles: 6 parts of 2 (7 or 8 would leave parts empty).
  ASSERT_TRUE(tc::schedule_cluster_parts(2, 2, 12, 12, roomy, H200, kOn, s));
  EXPECT_EQ(s.parts, 6);
  // Room for only 3 clusters of 8: 7 parts.
  tc::ClusterCapacity tight = roomy;
  tight.clusters[8] = 3;
  ASSERT_TRUE(tc::schedule_cluster_parts(2, 2, 64, 12, tight, H200, kOn, s));
  EXPECT_EQ(s.parts, 7);
  // No room at all: the schedule is kept.
  const TileSchedule kept = tc::schedule_tiles(2, 2, 64, H200);
  s = kept;
  EXPECT_FALSE(tc::schedule_cluster_parts(2, 2, 64, 12, tc::ClusterCapacity{}, H200, kOn, s));
  EXPECT_EQ(s.parts, kept.parts);
  EXPECT_EQ(s.cluster_parts, 0);
}

TEST(SplitChoiceTest, TwoWavesOfBlocks) {
  // M = 16, N = 4096: 32 tiles; 9 splits make two waves on 132 SMs, 7 on 108.
  EXPECT_EQ(tc::choose_splits(32, 64, H200), 9);
  EXPECT_EQ(tc::choose_splits(32, 64, DeviceFacts{108}), 7);
  EXPECT_EQ(tc::choose_splits(32, 20, H200), 5);     // at least 4 k tiles a split
  EXPECT_EQ(tc::choose_splits(1, 1000, H200), 16);   // at most 16
  EXPECT_EQ(tc::choose_splits(131, 64, H200), 3);
  EXPECT_EQ(tc::choose_splits(132, 64, H200), 1);    // a round of tiles
  EXPECT_EQ(tc::choose_splits(32, 7, H200), 1);      // too short a reduction
  EXPECT_EQ(tc::choose_splits(0, 64, H200), 1);
  EXPECT_EQ(tc::choose_splits(1, 64, DeviceFacts{1}), 1);
  // fill_divisor 2 (the 64x128 wgmma kernel): only below half the SMs.
  EXPECT_EQ(tc::choose_splits(66, 64, H200, 2), 1);
  EXPECT_EQ(tc::choose_splits(65, 64, H200, 2), 5);
}

} // namespace
