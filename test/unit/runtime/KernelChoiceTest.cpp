//===- KernelChoiceTest.cpp - tc/kernel_choice.cuh: a region's kernel -----===//
//
// The whole launch-time choice of a region's kernel, on the host: the
// candidates a launcher lists (alternativeKernels, whose order
// KernelConfigTest checks) and the kernel choose_kernel takes for a shape,
// at several SM counts. The expectations are the kernels
// docs/design/tile-choice.md names for the measured shapes (132 SMs), and
// what the rules give on other GPUs.
#include "tc/kernel_choice.cuh"
#include "gtest/gtest.h"

namespace {

using tc::ChoiceOptions;
using tc::DeviceFacts;
using tc::KernelCandidate;
using tc::KernelRule;

// A plain GEMM with a K-major B on sm_90a, TMA stages.
const KernelCandidate kGemm[] = {
    {KernelRule::SkinnyTiles, 32},
    {KernelRule::FittedTiles},
    {KernelRule::WideTmaWidth, 224, {256, 224, 192, 176}},
    {KernelRule::WideTmaWidth, 192, {256, 224, 192, 176}},
    {KernelRule::WideTmaWidth, 176, {256, 224, 192, 176}},
    {KernelRule::WideTmaTiles},
    {KernelRule::DeepNarrowWidth, 112, {128, 112, 96}, 12},
    {KernelRule::DeepNarrowWidth, 96, {128, 112, 96}, 12},
    {KernelRule::DeepNarrowTiles},
    {KernelRule::PersistentTiles},
    {KernelRule::NarrowTiles},
};
enum Gemm {
  Default = -1,
  Skinny,
  Fitted,
  Wide224,
  Wide192,
  Wide176,
  Wide,
  Deep112,
  Deep96,
  Deep,
  Persistent,
  Narrow
};

// The int8-weight layer whose 128x128 kernel converts B into its wgmma
// fragments (RawFragmentsB), its 256-row kernel running stream units.
const KernelCandidate kInt8[] = {
    {KernelRule::NarrowRawFragmentTiles},
    {KernelRule::FittedRawFragmentTiles},
    {KernelRule::TallRawFragmentHeight, 224, {256, 224, 192, 176}, 1},
    {KernelRule::TallRawFragmentHeight, 192, {256, 224, 192, 176}, 1},
    {KernelRule::TallRawFragmentHeight, 176, {256, 224, 192, 176}, 1},
    {KernelRule::TallRawFragmentTiles},
    {KernelRule::ShortRawFragmentHeight, 112, {128, 112, 96, 80, 64}, 10},
    {KernelRule::ShortRawFragmentHeight, 96, {128, 112, 96, 80, 64}, 10},
    {KernelRule::ShortRawFragmentHeight, 80, {128, 112, 96, 80, 64}, 10},
    {KernelRule::ShortRawFragmentHeight, 64, {128, 112, 96, 80, 64}, 10},
};
enum Int8 {
  Square = -1,
  NarrowInt8,
  FittedInt8,
  Tall224,
  Tall192,
  Tall176,
  Tall,
  Short112,
  Short96,
  Short80,
  Short64
};

const ChoiceOptions kOn;

int gemm(long long m, long long n, long long k, int sms, const ChoiceOptions &o = kOn,
         long long batches = 1) {
  return tc::choose_kernel(m, n, k, batches, kGemm, DeviceFacts{sms}, o);
}

int int8(long long m, long long n, long long k, int sms) {
  return tc::choose_kernel(m, n, k, 1, kInt8, DeviceFacts{sms}, kOn);
}

TEST(KernelChoiceTest, GemmMeasuredShapesOnH200) {
  EXPECT_EQ(gemm(3456, 1280, 1280, 132), Fitted);  // 126 192x192 tiles, one round
  EXPECT_EQ(gemm(4096, 4096, 4096, 132), Wide);    // 512 wide tiles fill 4 rounds
  EXPECT_EQ(gemm(768, 3072, 2176, 132), Wide176);  // 108 tiles of 176 columns
  EXPECT_EQ(gemm(384, 2304, 2176, 132), Deep112);  // 126 tiles of 112 columns
  EXPECT_EQ(gemm(384, 1280, 3840, 132), Deep);     // 128 columns in cluster parts
  EXPECT_EQ(gemm(3584, 128, 2304, 132), Deep);     // 128 columns: A read once
  EXPECT_EQ(gemm(7680, 16, 2560, 132), Skinny);    // DeepBench's few columns
  EXPECT_EQ(gemm(128, 2048, 768, 132), Skinny);    // one round of 64x32 tiles
  EXPECT_EQ(gemm(2304, 2176, 768, 132), Persistent);
  EXPECT_EQ(gemm(512, 4096, 14336, 132), Persistent);  // fewer tiles, long reduction
  EXPECT_EQ(gemm(1024, 1536, 512, 132), Narrow);   // 96 128x128 tiles, 192 64x128
  EXPECT_EQ(gemm(4096, 4096, 128, 132), Default);  // two k tiles: nothing to overlap
}

TEST(KernelChoiceTest, GemmDependsOnTheSmCount) {
  // 3456 x 1280 x 1280: 126 192x192 tiles fill one round of 132 SMs; on
  // fewer SMs they take two, and the wide kernel's width fits instead -
  // 176 columns (216 tiles) in the two rounds of 114 or 108 SMs, 224 (162)
  // in those of 84; on one SM all widths take many rounds: 256.
  EXPECT_EQ(gemm(3456, 1280, 1280, 132), Fitted);
  EXPECT_EQ(gemm(3456, 1280, 1280, 114), Wide176);
  EXPECT_EQ(gemm(3456, 1280, 1280, 108), Wide176);
  EXPECT_EQ(gemm(3456, 1280, 1280, 84), Wide224);
  EXPECT_EQ(gemm(3456, 1280, 1280, 1), Wide);
  // 1024 x 1536 x 512: 96 128x128 tiles, fewer than 132 or 108 SMs
  // (narrow tiles); on 84 its 48 128x256 tiles are more than half a round
  // of them: the wide kernel, 176 columns (72 tiles, still one round).
  EXPECT_EQ(gemm(1024, 1536, 512, 108), Narrow);
  EXPECT_EQ(gemm(1024, 1536, 512, 84), Wide176);
}

TEST(KernelChoiceTest, GemmEdgeShapes) {
  for (int sms : {132, 114, 108, 84, 1}) {
    SCOPED_TRACE(sms);
    EXPECT_EQ(gemm(1, 1, 1, sms), Skinny);  // at most 64 columns
    EXPECT_EQ(gemm(65536, 65536, 65536, sms), Wide);
  }
  EXPECT_EQ(gemm(1024, 1024, 1024, 1), Wide);  // one SM: every tile count is rounds
  EXPECT_EQ(gemm(1, 65, 1, 132), Skinny);      // one round of 64x32 tiles
  EXPECT_EQ(gemm(1, 65, 1025, 132), Deep);     // not for longer reductions
}

TEST(KernelChoiceTest, GemmCountsBatches) {
  // The TMA kernels' rules see a batch's entries stacked, each rounded up
  // to 64 rows (tc::stacked_rows), as launch_batched_gemm's schedulers
  // stack their tiles: two entries of 1024 x 1536 are one output of 2048
  // rows, whose 128 tiles of 192 columns fill one round.
  EXPECT_EQ(gemm(1024, 1536, 512, 132, kOn, 1), Narrow);
  EXPECT_EQ(gemm(1024, 1536, 512, 132, kOn, 2), gemm(2048, 1536, 512, 132));
  EXPECT_EQ(gemm(1024, 1536, 512, 132, kOn, 2), Wide192);
  EXPECT_EQ(gemm(1000, 1536, 512, 132, kOn, 2), Wide192);  // (1024 rows each)
  EXPECT_EQ(gemm(100, 4096, 4096, 132, kOn, 30), gemm(128 * 30, 4096, 4096, 132));
  EXPECT_EQ(tc::stacked_rows(100, 1), 100);
  EXPECT_EQ(tc::stacked_rows(100, 3), 384);
  EXPECT_EQ(tc::stacked_rows(1ll << 40, 1ll << 40), 1ll << 52);  // (saturated)
}

TEST(KernelChoiceTest, GemmOptionsTurnKernelsOff) {
  ChoiceOptions NoFitted;
  NoFitted.fitted_tiles = false;
  EXPECT_EQ(gemm(3456, 1280, 1280, 132, NoFitted), Wide176);
  NoFitted.fitted_widths = false;
  EXPECT_EQ(gemm(3456, 1280, 1280, 132, NoFitted), Wide);
  ChoiceOptions NoPersistent;
  NoPersistent.persistent_tiles = false;
  EXPECT_EQ(gemm(2304, 2176, 768, 132, NoPersistent), Default);
  EXPECT_EQ(gemm(512, 4096, 14336, 132, NoPersistent), Narrow);
}

TEST(KernelChoiceTest, Int8Layer) {
  EXPECT_EQ(int8(3456, 1280, 1280, 132), FittedInt8);  // 126 tiles against 140 tall ones
  EXPECT_EQ(int8(2304, 2176, 768, 132), Tall176);      // 153 tall tiles: two rounds
  EXPECT_EQ(int8(2304, 2048, 2560, 132), FittedInt8);  // 132 tiles against 144 tall ones
  // 136 tall tiles (192x192 ones: 138, two rounds): 256 rows where the
  // stream units share out the last round of a long reduction (40 k
  // tiles), else 176 rows (200 tiles) in the same two rounds.
  EXPECT_EQ(int8(4352, 1024, 2560, 132), Tall);
  EXPECT_EQ(int8(4352, 1024, 1024, 132), Tall176);
  EXPECT_EQ(int8(128, 128 * 33, 512, 132), NarrowInt8);
  EXPECT_EQ(int8(128, 128 * 33, 576, 132), Short64);   // k > 512: the square kernel, shorter
  EXPECT_EQ(int8(16, 28672, 4096, 132), Short64);      // decode: rows of X that are padding
  EXPECT_EQ(int8(72, 6144, 4096, 132), Short80);       // as many tiles as 128 rows
  EXPECT_EQ(int8(384, 1280, 3840, 132), Square);       // 30 tiles in cluster parts
  // forms_correctness's shapes of the 192x192 kernel: one whole round
  // (2300 x 2100: 132 tiles, partial in m, n and k), and 330 tiles whose
  // last round is half full (2104 x 5686: the tall tiles' 405 fill less).
  EXPECT_EQ(int8(2300, 2100, 1040, 132), FittedInt8);
  EXPECT_EQ(int8(2104, 5686, 1040, 132), FittedInt8);
}

TEST(KernelChoiceTest, ShapeBuckets) {
  using tc::shape_bucket;
  EXPECT_EQ(shape_bucket(0), -1);
  EXPECT_EQ(shape_bucket(1), 0);
  EXPECT_EQ(shape_bucket(2), 2);
  EXPECT_EQ(shape_bucket(3), 3);
  EXPECT_EQ(shape_bucket(4095), 23);
  EXPECT_EQ(shape_bucket(4096), 24);
  EXPECT_EQ(shape_bucket(6143), 24);
  EXPECT_EQ(shape_bucket(6144), 25);
  EXPECT_EQ(shape_bucket(8191), 25);
  EXPECT_EQ(shape_bucket(8192), 26);
  EXPECT_EQ(shape_bucket(1LL << 62), 124);
}

// A table from a tuning database: 4096^3 and a 512-row decode on an H200.
const tc::TunedKernel kTuned[] = {
    {"NVIDIA H200", 24, 24, 24, Wide192},
    {"NVIDIA H200", 18, 26, 24, Default},
};

TEST(KernelChoiceTest, TunedTableFirst) {
  DeviceFacts H200{132, 0, "NVIDIA H200"}, H100{132, 0, "NVIDIA H100 80GB HBM3"};
  auto choose = [&](long long m, long long n, long long k, const DeviceFacts &d,
                    long long batches = 1, ChoiceOptions o = kOn) {
    return tc::choose_kernel(m, n, k, batches, kGemm, kTuned, d, o);
  };
  // The table's bucket on its GPU, for every shape of the bucket.
  EXPECT_EQ(choose(4096, 4096, 4096, H200), Wide192);
  EXPECT_EQ(choose(5000, 6000, 4097, H200), Wide192);
  EXPECT_EQ(choose(512, 8192, 4096, H200), Default);
  // Elsewhere the rules, as without a table.
  EXPECT_EQ(choose(4096, 4096, 4096, H100), gemm(4096, 4096, 4096, 132));
  EXPECT_EQ(choose(6144, 4096, 4096, H200), gemm(6144, 4096, 4096, 132));
  EXPECT_EQ(choose(3456, 1280, 1280, H200), Fitted);
  // Batched outputs were not measured.
  EXPECT_EQ(choose(4096, 4096, 4096, H200, 2), gemm(4096, 4096, 4096, 132, kOn, 2));
}

TEST(KernelChoiceTest, TunedEntryPastTheCandidates) {
  // An entry of a database written for other candidates is not taken.
  const tc::TunedKernel Stale[] = {{"NVIDIA H200", 24, 24, 24, 11}};
  DeviceFacts H200{132, 0, "NVIDIA H200"};
  EXPECT_EQ(tc::choose_kernel(4096, 4096, 4096, 1, kGemm, Stale, H200, kOn),
            gemm(4096, 4096, 4096, 132));
}

TEST(KernelChoiceTest, HarnessForcesKernel) {
  DeviceFacts H200{132, 0, "NVIDIA H200"};
  ChoiceOptions Forced;
  Forced.kernel = Narrow;
  EXPECT_EQ(tc::choose_kernel(4096, 4096, 4096, 1, kGemm, kTuned, H200, Forced), Narrow);
  Forced.kernel = Default;
  EXPECT_EQ(tc::choose_kernel(1, 1, 1, 1, kGemm, H200, Forced), Default);
  Forced.kernel = 11; // not a candidate: chosen as usual
  EXPECT_EQ(tc::choose_kernel(4096, 4096, 4096, 1, kGemm, kTuned, H200, Forced), Wide192);
}

TEST(KernelChoiceTest, NoCandidates) {
  EXPECT_EQ(tc::choose_kernel(1, 1, 1, 1, kGemm, 0, DeviceFacts{132}, kOn), -1);
}

// fp32 operands stored M- or N-major: the wgmma kernels' transposed copy
// where the product reads it at least twice (the measured H100 shapes:
// slower at M = 16 to 128 with B copied, faster from 192).
TEST(KernelChoiceTest, TransposedCopiesWhereReadTwice) {
  EXPECT_FALSE(tc::prefer_transposed_copies(16, 4096, false, true));
  EXPECT_FALSE(tc::prefer_transposed_copies(128, 14336, false, true));
  EXPECT_TRUE(tc::prefer_transposed_copies(129, 64, false, true));
  EXPECT_TRUE(tc::prefer_transposed_copies(192, 3456, false, true));
  EXPECT_TRUE(tc::prefer_transposed_copies(8192, 8192, true, true));
  // A copied: the output's columns read it.
  EXPECT_FALSE(tc::prefer_transposed_copies(8192, 128, true, false));
  EXPECT_TRUE(tc::prefer_transposed_copies(16, 129, true, false));
  EXPECT_FALSE(tc::prefer_transposed_copies(4096, 64, true, true));
  EXPECT_FALSE(tc::prefer_transposed_copies(64, 4096, true, true));
  // No output (the launcher returns before): either is harmless.
  EXPECT_FALSE(tc::prefer_transposed_copies(0, 0, false, true));
}

} // namespace
