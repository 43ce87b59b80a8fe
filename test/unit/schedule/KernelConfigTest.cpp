//===- KernelConfigTest.cpp - defaults, clauses, rejections ----------------===//
#include "../RegionTestUtil.h"
#include "KernelConfig.h"
#include "gtest/gtest.h"

#include <fstream>
#include <iterator>
#include <regex>
#include <tuple>

using namespace tc;
using namespace tc::test;

namespace {

/// A stand-in location of the pragma: rejections must point at it.
const clang::SourceLocation PragmaLoc =
    clang::SourceLocation::getFromRawEncoding(4242);

struct Chosen {
  std::optional<KernelConfig> Config;
  std::optional<ErrorInfo> Error;
};

Chosen choose(const RegionClauses &Cl, GpuArch Arch = GpuArch::SM90a) {
  RegionModel M;
  M.Clauses = Cl;
  MatmulIdiom Idiom;
  auto C = chooseKernelConfig(M, Idiom, PragmaLoc, Arch);
  Chosen R;
  if (C)
    R.Config = *C;
  else
    R.Error = takeError(C.takeError());
  return R;
}

void expectRejected(const RegionClauses &Cl, const std::string &MessagePart) {
  Chosen R = choose(Cl);
  ASSERT_FALSE(R.Config.has_value()) << "accepted: " << R.Config->describe();
  ASSERT_TRUE(R.Error->IsRegionError) << R.Error->Message;
  EXPECT_NE(R.Error->Message.find(MessagePart), std::string::npos)
      << "message: " << R.Error->Message;
  EXPECT_EQ(R.Error->Loc, PragmaLoc);
}

RegionClauses tile(int BM, int BN, int BK) {
  RegionClauses Cl;
  Cl.Tile = std::vector<int>{BM, BN, BK};
  return Cl;
}

TEST(KernelConfigTest, StructDefaults) {
  KernelConfig C;
  EXPECT_EQ(C.BlockM, 128);
  EXPECT_EQ(C.BlockN, 128);
  EXPECT_EQ(C.BlockK, 64);
  EXPECT_EQ(C.WarpM, 64);
  EXPECT_EQ(C.WarpN, 64);
  EXPECT_EQ(C.Stages, 3);
  EXPECT_EQ(C.warpsM(), 2);
  EXPECT_EQ(C.warpsN(), 2);
  EXPECT_EQ(C.threads(), 128);
  EXPECT_EQ(C.fragmentsM(), 4);
  EXPECT_EQ(C.fragmentsN(), 8);
  EXPECT_EQ(C.sharedBytes(), 98304);
  EXPECT_EQ(KernelConfig::MmaM, 16);
  EXPECT_EQ(KernelConfig::MmaN, 8);
  EXPECT_EQ(KernelConfig().MmaK, 16);
}

/// A TMA wgmma kernel of BlockM x BlockN tiles beside a producer
/// warpgroup (setmaxnreg).
static KernelConfig producerWarpgroupTiles(int BlockM, int BlockN) {
  KernelConfig C;
  C.Path = MmaPath::Wgmma;
  C.Tma = true;
  C.BlockM = BlockM;
  C.BlockN = C.WarpN = BlockN;
  C.WarpM = 16;
  C.ProducerWarpgroup = true;
  return C;
}

TEST(KernelConfigTest, ConsumerRegistersStayWithinSetmaxnreg) {
  // One consumer warpgroup beside a producer warpgroup and an epilogue
  // warpgroup: the block's registers left would be 400 a consumer thread,
  // more than setmaxnreg (and a thread) can hold.
  KernelConfig C = producerWarpgroupTiles(64, 256);
  C.PersistentTiles = true;
  EXPECT_EQ(C.threads(), 128);
  EXPECT_EQ(C.storerThreads(), 128);
  EXPECT_EQ(C.consumerRegisters(), 256);
  // Two consumer warpgroups: (512 * 128 - 128 * 56 - 128 * 48) / 256 = 204, to 200.
  C.BlockM = 128;
  EXPECT_EQ(C.threads(), 256);
  EXPECT_EQ(C.consumerRegisters(), 200);
}

TEST(KernelConfigTest, RolesRegistersFitTheBlockAtLaunch) {
  // setmaxnreg.inc waits for registers the block's warpgroups released:
  // the roles' counts add up to at most what ptxas gives the block at
  // launch (168 a thread at 384 threads), else the consumers never start
  // (64 + 224 at 384 threads hung on an H100).
  for (int BlockM : {64, 128, 192})
    for (bool Persistent : {false, true})
      for (bool Tf32 : {false, true})
        for (bool Converts : {false, true}) {
          KernelConfig C = producerWarpgroupTiles(BlockM, 128);
          C.PersistentTiles = Persistent;
          C.Tf32 = Tf32;
          C.ConvertsLandedOperands = Converts;
          SCOPED_TRACE(std::to_string(BlockM) + (Persistent ? " persistent" : "") +
                       (Tf32 ? " tf32" : "") + (Converts ? " converts" : ""));
          EXPECT_EQ(C.launchRegisters() % 8, 0);
          EXPECT_LE(C.producerThreads() * C.producerRegisters() +
                        C.threads() * C.consumerRegisters() +
                        C.storerThreads() * C.storerRegisters(),
                    C.blockThreads() * C.launchRegisters());
        }
  KernelConfig C = producerWarpgroupTiles(128, 128);
  EXPECT_EQ(C.blockThreads(), 384);
  EXPECT_EQ(C.launchRegisters(), 168);
  EXPECT_EQ(C.consumerRegisters(), 232); // beside 40: 40 * 128 + 232 * 256 = 384 * 168
  C.ConvertsLandedOperands = true;
  EXPECT_EQ(C.consumerRegisters(), 216); // beside the copying producer's 64
}

TEST(KernelConfigTest, DefaultsWithoutClauses) {
  Chosen R = choose({}, GpuArch::SM80);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  const KernelConfig &C = *R.Config;
  EXPECT_EQ(C.BlockM, 128);
  EXPECT_EQ(C.BlockN, 128);
  EXPECT_EQ(C.BlockK, 64);
  EXPECT_EQ(C.WarpM, 64);
  EXPECT_EQ(C.WarpN, 64);
  EXPECT_EQ(C.Stages, 3);
  EXPECT_EQ(C.threads(), 128);
  EXPECT_EQ(C.sharedBytes(), 98304);
  EXPECT_EQ(C.Arch, GpuArch::SM80);
  EXPECT_EQ(C.describe(),
            "block tile 128x128x64, warp tile 64x64 (4 warps), 3 cp.async "
            "stages, mma.sync.m16n8k16 (fp32 accumulation), 98304 bytes of "
            "shared memory, sm_80");
}

TEST(KernelConfigTest, TileClauseWithoutWarpClause) {
  // Warp tiles follow the block tile, at most 64 x 64.
  Chosen R = choose(tile(64, 256, 64));
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_EQ(R.Config->BlockM, 64);
  EXPECT_EQ(R.Config->BlockN, 256);
  EXPECT_EQ(R.Config->BlockK, 64);
  EXPECT_EQ(R.Config->WarpM, 64);
  EXPECT_EQ(R.Config->WarpN, 64);
  EXPECT_EQ(R.Config->threads(), 32 * 1 * 4);
  EXPECT_EQ(R.Config->sharedBytes(), 3 * (64 + 256) * 64 * 2);

  Chosen S = choose(tile(32, 32, 16));
  ASSERT_TRUE(S.Config.has_value()) << S.Error->Message;
  EXPECT_EQ(S.Config->WarpM, 32);
  EXPECT_EQ(S.Config->WarpN, 32);
  EXPECT_EQ(S.Config->threads(), 32);
}

TEST(KernelConfigTest, WarpAndStagesClauses) {
  RegionClauses Cl = tile(256, 128, 32);
  Cl.Warp = std::vector<int>{64, 32};
  Cl.Stages = 3;
  Chosen R = choose(Cl);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_EQ(R.Config->WarpM, 64);
  EXPECT_EQ(R.Config->WarpN, 32);
  EXPECT_EQ(R.Config->warpsM(), 4);
  EXPECT_EQ(R.Config->warpsN(), 4);
  EXPECT_EQ(R.Config->threads(), 512);
  EXPECT_EQ(R.Config->Stages, 3);
  EXPECT_EQ(R.Config->sharedBytes(), 3 * (256 + 128) * 32 * 2);
}

TEST(KernelConfigTest, AcceptedNoOpClauses) {
  RegionClauses Cl;
  Cl.SplitK = 1;
  Cl.Mma = std::string("m16n8k16");
  Chosen R = choose(Cl);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_EQ(R.Config->BlockM, 128);
}

TEST(KernelConfigTest, RejectsTileNotMultipleOfWarp) {
  RegionClauses Cl = tile(128, 128, 32);
  Cl.Warp = std::vector<int>{48, 64};
  expectRejected(Cl, "multiple of the warp tile");
}

TEST(KernelConfigTest, RejectsWarpNotMultipleOf16) {
  RegionClauses Cl = tile(128, 128, 32);
  Cl.Warp = std::vector<int>{64, 8};
  expectRejected(Cl, "multiples of 16");
}

TEST(KernelConfigTest, RejectsBlockK24) {
  expectRejected(tile(128, 128, 24), "K size must be 16, 32, 64 or 128");
}

TEST(KernelConfigTest, RejectsBlockK256) {
  expectRejected(tile(128, 128, 256), "K size must be 16, 32, 64 or 128");
}

TEST(KernelConfigTest, RejectsNonPowerOfTwoBlock) {
  RegionClauses Cl = tile(96, 128, 32);
  Cl.Warp = std::vector<int>{32, 64};
  expectRejected(Cl, "powers of two");
}

TEST(KernelConfigTest, RejectsStages9OnMmaSync) {
  RegionClauses Cl;
  Cl.Stages = 9;
  expectRejected(Cl, "stages must be between 2 and 6");
}

TEST(KernelConfigTest, RejectsStages1) {
  RegionClauses Cl;
  Cl.Stages = 1;
  expectRejected(Cl, "stages must be between 2 and 6");
}

TEST(KernelConfigTest, SplitKRange) {
  RegionClauses Cl;
  Cl.SplitK = 4;
  EXPECT_TRUE(choose(Cl).Config.has_value());
  Cl.SplitK = 65;
  expectRejected(Cl, "split_k(65) is out of range");
}

TEST(KernelConfigTest, RejectsOtherMma) {
  RegionClauses Cl;
  Cl.Mma = std::string("m16n8k8");
  expectRejected(Cl, "unsupported mma 'm16n8k8'");
}

TEST(KernelConfigTest, RejectsTooManyAccumulatorRegisters) {
  RegionClauses Cl = tile(128, 128, 32);
  Cl.Warp = std::vector<int>{128, 128};
  expectRejected(Cl, "accumulator registers");
}

TEST(KernelConfigTest, RejectsTooManyWarps) {
  RegionClauses Cl = tile(256, 256, 32);
  Cl.Warp = std::vector<int>{16, 16};
  expectRejected(Cl, "warps; between 1 and 32 are possible");
}

TEST(KernelConfigTest, RejectsTooMuchSharedMemory) {
  RegionClauses Cl = tile(256, 256, 128);
  Cl.Stages = 6;
  expectRejected(Cl, "bytes of shared memory, more than a block can have");
}

TEST(KernelConfigTest, WarpSplitKMultipliesThreadsAndSplitsKSteps) {
  RegionClauses Cl;
  Cl.WarpSplitK = 2;
  Chosen R = choose(Cl);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  const KernelConfig &C = *R.Config;
  EXPECT_EQ(C.WarpSplitK, 2);
  EXPECT_EQ(C.groupWarps(), 4);
  EXPECT_EQ(C.threads(), 256);
  EXPECT_EQ(C.kSteps(), 4);
  EXPECT_EQ(C.groupKSteps(), 2);
  EXPECT_TRUE(C.doubleBufferedFragments());
  // Group 1's 128 x 128 fp32 sums fit in the 96 KiB of stages.
  EXPECT_EQ(C.partialSumBytes(), 65536);
  EXPECT_EQ(C.sharedBytes(), 98304);
  EXPECT_NE(C.describe().find("(8 warps), intra-block split-K p=2, "), std::string::npos)
      << C.describe();
}

TEST(KernelConfigTest, WarpSplitKDefaultsToOne) {
  Chosen R = choose({});
  ASSERT_TRUE(R.Config.has_value());
  EXPECT_EQ(R.Config->WarpSplitK, 1);
  EXPECT_EQ(R.Config->describe().find("split-K"), std::string::npos);
}

TEST(KernelConfigTest, WarpSplitKWithOneStepPerGroupHasOneFragmentBuffer) {
  RegionClauses Cl = tile(64, 64, 64);
  Cl.Warp = std::vector<int>{32, 32};
  Cl.WarpSplitK = 4;
  Chosen R = choose(Cl);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_EQ(R.Config->threads(), 512);
  EXPECT_EQ(R.Config->groupKSteps(), 1);
  EXPECT_FALSE(R.Config->doubleBufferedFragments());
  EXPECT_EQ(R.Config->fragmentBuffers(), 1);
  // 3 x 64 x 64 fp32 sums: as large as the stages.
  EXPECT_EQ(R.Config->partialSumBytes(), 49152);
  EXPECT_EQ(R.Config->sharedBytes(), 49152);
}

TEST(KernelConfigTest, WarpSplitKPartialSumsCanOutgrowTheStages) {
  // 64 KiB of sums, 48 KiB of stages: the block gets the larger of the two.
  RegionClauses Cl = tile(128, 128, 32);
  Cl.WarpSplitK = 2;
  Chosen R = choose(Cl);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_EQ(R.Config->stageBytes(), 49152);
  EXPECT_EQ(R.Config->sharedBytes(), 65536);
}

TEST(KernelConfigTest, WarpSplitKRejections) {
  RegionClauses Cl;
  Cl.WarpSplitK = 3;
  expectRejected(Cl, "warp_split_k(3) is not supported");
  Cl = tile(128, 128, 16);
  Cl.WarpSplitK = 2;
  expectRejected(Cl, "does not divide the 1 mma k steps");
  Cl = tile(128, 256, 64);
  Cl.Warp = std::vector<int>{32, 64};
  Cl.WarpSplitK = 4;
  expectRejected(Cl, "the tile needs 64 warps");
  Cl = tile(64, 128, 128);
  Cl.Warp = std::vector<int>{32, 64};
  Cl.Stages = 2;
  Cl.WarpSplitK = 4;
  expectRejected(Cl, "too few for 64 accumulators");
  Cl = tile(256, 256, 32);
  Cl.Warp = std::vector<int>{64, 128};
  Cl.WarpSplitK = 2;
  expectRejected(Cl, "the intra-block split-K reduction needs 262144 bytes");
}

TEST(KernelConfigTest, ParseAndNameArchitectures) {
  EXPECT_EQ(parseArch("sm_80"), std::optional<GpuArch>(GpuArch::SM80));
  EXPECT_EQ(parseArch("sm_86"), std::optional<GpuArch>(GpuArch::SM86));
  EXPECT_EQ(parseArch("sm_89"), std::optional<GpuArch>(GpuArch::SM89));
  EXPECT_EQ(parseArch("sm_90"), std::optional<GpuArch>(GpuArch::SM90a));
  EXPECT_EQ(parseArch("sm_90a"), std::optional<GpuArch>(GpuArch::SM90a));
  EXPECT_EQ(parseArch("sm_70"), std::nullopt);
  EXPECT_EQ(parseArch(""), std::nullopt);
  EXPECT_STREQ(archName(GpuArch::SM80), "sm_80");
  EXPECT_STREQ(archName(GpuArch::SM90a), "sm_90a");
  for (GpuArch A : {GpuArch::SM80, GpuArch::SM86, GpuArch::SM89, GpuArch::SM90a})
    EXPECT_EQ(parseArch(archName(A)), std::optional<GpuArch>(A));
}

TEST(KernelConfigTest, ClausesFromARealRegion) {
  // The clauses travel through extraction into the model the rule reads.
  RegionClauses Cl = tile(64, 64, 32);
  Cl.Stages = 2;
  Extracted E = extract(CanonicalGemm, "gemm", Cl);
  ASSERT_TRUE(E.ok());
  OwnedIslCtx Isl;
  IslModel I = IslModel::build(Isl.Ctx, *E.Model);
  auto Idiom = recognizeMatmul(*E.Model, I);
  ASSERT_TRUE(bool(Idiom)) << takeError(Idiom.takeError()).Message;
  auto C = chooseKernelConfig(*E.Model, *Idiom, E.Region->getBeginLoc(),
                              GpuArch::SM90a);
  ASSERT_TRUE(bool(C)) << takeError(C.takeError()).Message;
  EXPECT_EQ(C->BlockM, 64);
  EXPECT_EQ(C->Stages, 2);
  EXPECT_EQ(C->threads(), 32);
}

// ----- the main loop's instruction family ----------------------------------

Chosen chooseFor(const MatmulIdiom &Idiom, const RegionClauses &Cl, GpuArch Arch,
                 MmaPreference Pref) {
  RegionModel M;
  M.Clauses = Cl;
  auto C = chooseKernelConfig(M, Idiom, PragmaLoc, Arch, Pref);
  Chosen R;
  if (C)
    R.Config = *C;
  else
    R.Error = takeError(C.takeError());
  return R;
}

MatmulIdiom plainIdiom(bool AKMajor, bool BKMajor, ElementType T = ElementType::F16) {
  MatmulIdiom Idiom;
  Idiom.InputType = T;
  Idiom.A.ReductionIsContiguous = AKMajor;
  Idiom.B.ReductionIsContiguous = BKMajor;
  return Idiom;
}

// Small wgmma tiles may keep a whole short reduction in flight: up to 16
// stages, within the shared memory (64x64x64 f16: 16 KiB a stage).
TEST(KernelConfigTest, WgmmaStagesUpTo16) {
  RegionClauses Cl = tile(64, 64, 64);
  Cl.Stages = 12;
  Chosen R = chooseFor(plainIdiom(true, true), Cl, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  EXPECT_EQ(R.Config->Stages, 12);
  Cl.Stages = 17;
  R = chooseFor(plainIdiom(true, true), Cl, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_FALSE(R.Config.has_value());
  EXPECT_NE(R.Error->Message.find("stages must be between 2 and 16"), std::string::npos)
      << R.Error->Message;
  Cl = tile(128, 128, 64);
  Cl.Stages = 12;  // 32 KiB a stage
  R = chooseFor(plainIdiom(true, true), Cl, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_FALSE(R.Config.has_value());
  EXPECT_NE(R.Error->Message.find("bytes of shared memory"), std::string::npos)
      << R.Error->Message;
}

TEST(KernelConfigTest, AutoTakesWgmmaOnSm90aForEveryLayout) {
  for (bool AK : {true, false})
    for (bool BK : {true, false}) {
      Chosen R = chooseFor(plainIdiom(AK, BK), {}, GpuArch::SM90a, MmaPreference::Auto);
      ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
      const KernelConfig &C = *R.Config;
      EXPECT_TRUE(C.wgmma()) << C.pathReason();
      EXPECT_EQ(C.BlockM, 128);
      EXPECT_EQ(C.BlockN, 128);
      EXPECT_EQ(C.BlockK, 64);
      // Two warpgroups; each warp's accumulators are a 16 x 128 tile.
      EXPECT_EQ(C.warpgroups(), 2);
      EXPECT_EQ(C.threads(), 256);
      EXPECT_EQ(C.WarpM, 16);
      EXPECT_EQ(C.WarpN, 128);
      EXPECT_EQ(C.fragmentsM() * C.fragmentsN() * 4, 64);
      EXPECT_EQ(C.instrM(), 64);
      EXPECT_EQ(C.instrN(), 128);
      // TMA stages filled by a producer warp: three, so that two blocks
      // share an SM; one group in flight; a full and an empty barrier per
      // stage after the operands.
      EXPECT_TRUE(C.Tma) << C.pathReason();
      EXPECT_EQ(C.Stages, 3);
      EXPECT_EQ(C.blockThreads(), 256 + 32);
      EXPECT_EQ(C.operandBytes(), 3 * 2 * 128 * 64 * 2);
      EXPECT_EQ(C.sharedBytes(), 3 * 2 * 128 * 64 * 2 + 3 * 16 + 16);
      EXPECT_LE(2 * C.sharedBytes(), sharedMemoryLimit(GpuArch::SM90a));
      EXPECT_EQ(C.WgmmaPending, 1);
      EXPECT_NE(C.describe().find("wgmma.mma_async.m64n128k16"), std::string::npos);
      EXPECT_NE(C.describe().find("TMA stages"), std::string::npos);
      // Its cp.async twin (operands not 16-byte aligned): three stages, no
      // group left in flight, no barriers.
      KernelConfig Twin = C.cpAsyncTwin();
      EXPECT_FALSE(Twin.Tma);
      EXPECT_EQ(Twin.blockThreads(), 256);
      EXPECT_EQ(Twin.sharedBytes(), 3 * 2 * 128 * 64 * 2);
      EXPECT_EQ(Twin.WgmmaPending, 0);
      EXPECT_EQ(Twin.copyDistance(), 2);
    }
}

// The 8-stage kernel's narrower widths yield to 128 columns in cluster
// parts (tc::narrow_tile_width): the predicate gets the kernel's floor of k
// tiles, or 0 under a split_k clause, whose launcher splits every tile its
// own way and never into cluster parts.
TEST(KernelConfigTest, NarrowerDeepWidthsKnowTheClusterPartsFloor) {
  MatmulIdiom Idiom = plainIdiom(true, true);
  for (bool SplitClause : {false, true}) {
    SCOPED_TRACE(SplitClause ? "split_k(2)" : "no clause");
    RegionClauses Cl;
    if (SplitClause)
      Cl.SplitK = 2;
    Chosen R = chooseFor(Idiom, Cl, GpuArch::SM90a, MmaPreference::Auto);
    ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
    RegionModel M;
    M.Clauses = Cl;
    int Seen = 0;
    for (const AlternativeKernel &A : alternativeKernels(*R.Config, M, Idiom))
      if (A.Predicate == "prefer_deep_narrow_width") {
        ++Seen;
        EXPECT_EQ(A.Arg, SplitClause ? 0 : 12);
      }
    EXPECT_EQ(Seen, 2);
  }
}

TEST(KernelConfigTest, TmaOnlyWhereTheStagesAreCopiedUnchanged) {
  // A sum of matmuls whose products share the first product's layouts:
  // TMA stages (each product copied from its own maps), and the launch-time
  // tile choice, skinny tiles first.
  MatmulIdiom Sum = plainIdiom(true, true);
  ProductTerm Same;
  Same.A = Sum.A;
  Same.B = Sum.B;
  Sum.MoreProducts.push_back(Same);
  Chosen R = chooseFor(Sum, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  EXPECT_TRUE(R.Config->Tma) << R.Config->pathReason();
  std::vector<AlternativeKernel> Alts = alternativeKernels(*R.Config, RegionModel(), Sum);
  ASSERT_EQ(Alts.size(), 11u);
  EXPECT_EQ(Alts[0].Predicate, "prefer_skinny_tiles");
  EXPECT_EQ(Alts[0].Config.BlockM, 64);
  EXPECT_EQ(Alts[0].Config.BlockN, 32);
  // (m, n, k, the tiles' width): also one round of them for short reductions.
  EXPECT_EQ(Alts[0].Size, 32);
  EXPECT_EQ(kernelRule(Alts[0].Predicate), "SkinnyTiles");
  // 192x192 tiles fitted to whole rounds: three warpgroups, 4 stages.
  EXPECT_EQ(Alts[1].Predicate, "prefer_fitted_tiles");
  EXPECT_EQ(Alts[1].Config.BlockM, 192);
  EXPECT_EQ(Alts[1].Config.BlockN, 192);
  EXPECT_EQ(Alts[1].Config.warpgroups(), 3);
  EXPECT_EQ(Alts[1].Config.Stages, 4);
  // The wide kernel's tiles narrower than 256 columns, each checked
  // before it (tc::wide_tile_width picks one of the listed widths): 4
  // stages, built for pairs like it.
  const int Widths[] = {224, 192, 176};
  for (int I = 0; I < 3; ++I) {
    const AlternativeKernel &W = Alts[2 + I];
    EXPECT_EQ(W.Suffix, "_wide" + std::to_string(Widths[I]));
    EXPECT_EQ(W.Predicate, "prefer_wide_tma_width");
    EXPECT_EQ(W.Size, Widths[I]);
    EXPECT_EQ(W.Sizes, std::vector<int>({256, 224, 192, 176}));
    EXPECT_EQ(kernelRule(W.Predicate), "WideTmaWidth");
    EXPECT_EQ(W.Config.BlockM, 128);
    EXPECT_EQ(W.Config.BlockN, Widths[I]);
    EXPECT_EQ(W.Config.Stages, 4);
    EXPECT_EQ(W.Config.warpgroups(), 2);
    EXPECT_TRUE(W.Config.PairedTiles);
    EXPECT_FALSE(W.Config.twoBlocksFit());
  }
  EXPECT_EQ(Alts[5].Predicate, "prefer_wide_tma_tiles");
  EXPECT_EQ(Alts[5].Config.BlockN, 256);
  // The 8-stage 64-row kernel's narrower tiles, before it: 112 and 96
  // columns, built for pairs like it.
  const int DeepWidths[] = {112, 96};
  for (int I = 0; I < 2; ++I) {
    const AlternativeKernel &W = Alts[6 + I];
    EXPECT_EQ(W.Suffix, "_narrow_deep" + std::to_string(DeepWidths[I]));
    EXPECT_EQ(W.Predicate, "prefer_deep_narrow_width");
    // (m, n, k, ...): 128 columns where those would run in cluster parts
    // of at least 12 k tiles and the narrower ones whole.
    EXPECT_EQ(W.Size, DeepWidths[I]);
    EXPECT_EQ(W.Sizes, std::vector<int>({128, 112, 96}));
    EXPECT_EQ(W.Arg, 12);
    EXPECT_TRUE(W.Config.clusterParts());
    EXPECT_EQ(W.Config.BlockM, 64);
    EXPECT_EQ(W.Config.BlockN, DeepWidths[I]);
    EXPECT_EQ(W.Config.Stages, 8);
    EXPECT_TRUE(W.Config.PairedTiles);
  }
  // The 64x128 tiles twice: 8 stages (one block per SM) for one round of
  // them, else 4 (two blocks per SM).
  EXPECT_EQ(Alts[8].Predicate, "prefer_deep_narrow_tiles");
  EXPECT_EQ(Alts[8].Config.BlockM, 64);
  EXPECT_EQ(Alts[8].Config.BlockN, 128);
  EXPECT_EQ(Alts[8].Config.Stages, 8);
  // Before the 64x128 tiles of two blocks per SM, the default's 128x128
  // tiles as persistent blocks: 4 stages beside an fp32 output buffer of
  // their own, one block per SM.
  EXPECT_EQ(Alts[9].Predicate, "prefer_persistent_tiles");
  EXPECT_TRUE(Alts[9].Config.PersistentTiles);
  EXPECT_EQ(Alts[9].Config.BlockM, 128);
  EXPECT_EQ(Alts[9].Config.BlockN, 128);
  EXPECT_EQ(Alts[9].Config.Stages, 4);
  EXPECT_EQ(Alts[9].Config.epilogueBufferBytes(), 128 * 136 * 4);
  EXPECT_EQ(Alts[9].Config.barrierOffset(), 4 * 32768 + 128 * 136 * 4);
  EXPECT_FALSE(Alts[9].Config.twoBlocksFit());
  // Two consumer warpgroups, the producer warp and two epilogue warpgroups.
  EXPECT_EQ(Alts[9].Config.blockThreads(), 256 + 32 + 256);
  EXPECT_FALSE(Alts[9].Config.cpAsyncTwin().PersistentTiles);
  EXPECT_EQ(Alts[10].Predicate, "prefer_narrow_tiles");
  EXPECT_EQ(Alts[10].Config.Stages, 4);
  // A product in another layout: one set of boxes cannot serve both, so the
  // stages stay cp.async (the copiers are rebased per product).
  MatmulIdiom Mixed = plainIdiom(true, true);
  ProductTerm Other = Same;
  Other.B.ReductionIsContiguous = false;
  Mixed.MoreProducts.push_back(Other);
  R = chooseFor(Mixed, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  EXPECT_FALSE(R.Config->Tma);
  EXPECT_NE(R.Config->pathReason().find("different layouts"), std::string::npos)
      << R.Config->pathReason();
}

// Pairs of blocks sharing B's tile: the 128x256 and 64x128 TMA kernels, in
// either layout of B (two halves of its K-major rows, or half of its 64-wide
// panels per block); not their cp.async twins, nor the 128x128 kernel (two
// blocks per SM) or the skinny 64x32 tiles.
TEST(KernelConfigTest, TheWideAndNarrowTmaKernelsPairBlocks) {
  for (bool BKMajor : {true, false}) {
    MatmulIdiom Idiom = plainIdiom(true, BKMajor);
    Chosen R = chooseFor(Idiom, {}, GpuArch::SM90a, MmaPreference::Auto);
    ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
    ASSERT_TRUE(R.Config->Tma);
    EXPECT_FALSE(R.Config->PairedTiles);
    std::vector<AlternativeKernel> Alts = alternativeKernels(*R.Config, RegionModel(), Idiom);
    // An N-major B (64-column panels): of the narrower wide tiles only 192.
    ASSERT_EQ(Alts.size(), BKMajor ? 11u : 7u);
    std::string Suffixes;
    for (auto &Alt : Alts)
      Suffixes += Alt.Suffix + " ";
    EXPECT_EQ(Suffixes, BKMajor ? "_skinny _fitted _wide224 _wide192 _wide176 _wide "
                                  "_narrow_deep112 _narrow_deep96 _narrow_deep _persistent _narrow "
                                : "_skinny _fitted _wide192 _wide _narrow_deep _persistent "
                                  "_narrow ");
    for (auto &Alt : Alts) {
      // 128x256 and 64x128 tiles and their narrower widths (a K-major B's
      // halves of 112 to 48 rows; an N-major B's 192 columns are three
      // 64-column panels, which do not halve); not 192x192 (B's tile is not
      // the 256-row one), nor the 64-row skinny tiles.
      const bool Narrower = Alt.Suffix.rfind("_wide", 0) == 0 && Alt.Suffix != "_wide";
      EXPECT_EQ(Alt.Config.PairedTiles, Alt.Suffix == "_wide" || (Narrower && BKMajor) ||
                                            Alt.Suffix == "_narrow" ||
                                            Alt.Suffix.rfind("_narrow_deep", 0) == 0)
          << Alt.Suffix;
      EXPECT_FALSE(Alt.Config.cpAsyncTwin().PairedTiles) << Alt.Suffix;
    }
    EXPECT_NE(Alts[BKMajor ? 5 : 3].Config.describe().find("pairs of blocks sharing B's tile"),
              std::string::npos);
  }
  // On sm_80 (mma.sync, cp.async stages) nothing pairs.
  Chosen R = chooseFor(plainIdiom(true, true), {}, GpuArch::SM80, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->PairedTiles);
}

// Stream units (a block looping over pieces of tiles): only the 128-row TMA
// kernels of one block per SM and two warpgroups (256 columns, or 224, 192
// and 176); not their cp.async twin, the
// 192x192 kernel (three warpgroups), the kernels of two blocks per SM or
// one warpgroup, nor any kernel under the split_k clause.
TEST(KernelConfigTest, OnlyTheWideTmaKernelRunsStreamUnits) {
  MatmulIdiom Idiom = plainIdiom(true, true);
  Chosen R = chooseFor(Idiom, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->StreamUnits);
  std::vector<AlternativeKernel> Alts = alternativeKernels(*R.Config, RegionModel(), Idiom);
  ASSERT_EQ(Alts.size(), 11u);
  for (auto &Alt : Alts) {
    // (The persistent kernel loops over whole tiles instead.)
    const bool Wide = Alt.Suffix.rfind("_wide", 0) == 0;
    EXPECT_EQ(Alt.Config.StreamUnits, Wide) << Alt.Suffix;
    EXPECT_EQ(Alt.Config.unitLoop(), Wide || Alt.Suffix == "_persistent") << Alt.Suffix;
    EXPECT_FALSE(Alt.Config.cpAsyncTwin().StreamUnits) << Alt.Suffix;
  }
  EXPECT_NE(Alts[5].Config.describe().find("stream units"), std::string::npos);
  RegionModel Split;
  Split.Clauses.SplitK = 2;
  for (auto &Alt : alternativeKernels(*R.Config, Split, Idiom))
    EXPECT_FALSE(Alt.Config.StreamUnits) << Alt.Suffix;
}

// Clusters of a split tile's parts (tc/cluster_parts.cuh): the TMA kernels
// the launcher takes for few-tile outputs, those of one consumer warpgroup
// (64-row tiles, the paired ones included); not the kernels of two or three
// warpgroups, the persistent one, nor any cp.async twin.
TEST(KernelConfigTest, TheOneWarpgroupTmaKernelsTakeClusterParts) {
  MatmulIdiom Idiom = plainIdiom(true, true);
  Chosen R = chooseFor(Idiom, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->clusterParts());  // 128x128, two warpgroups
  std::vector<AlternativeKernel> Alts = alternativeKernels(*R.Config, RegionModel(), Idiom);
  ASSERT_EQ(Alts.size(), 11u);
  std::string Taking;
  for (auto &Alt : Alts) {
    if (Alt.Config.clusterParts())
      Taking += Alt.Suffix + " ";
    EXPECT_FALSE(Alt.Config.cpAsyncTwin().clusterParts()) << Alt.Suffix;
  }
  // (The 4-stage _narrow kernel is taken only for more tiles than SMs by
  // the default choice; a tile clause reaches its cluster parts.)
  EXPECT_EQ(Taking, "_skinny _narrow_deep112 _narrow_deep96 _narrow_deep _narrow ");
  // Their reductions of at least 12 k tiles (the int8 layer's raw-fragment
  // kernels: 10).
  EXPECT_EQ(Alts[0].Config.clusterPartsMinKTiles(), 12);
  EXPECT_NE(Alts[0].Config.describe().find("few tiles split into parts launched as one cluster"),
            std::string::npos);
  // On sm_80 (mma.sync, cp.async stages): none.
  Chosen Sync = chooseFor(Idiom, {}, GpuArch::SM80, MmaPreference::Auto);
  ASSERT_TRUE(Sync.Config.has_value()) << Sync.Error->Message;
  EXPECT_FALSE(Sync.Config->clusterParts());
  for (auto &Alt : alternativeKernels(*Sync.Config, RegionModel(), Idiom))
    EXPECT_FALSE(Alt.Config.clusterParts()) << Alt.Suffix;
}

// A 16-bit K-major A converted while copying (a prologue by the element's
// row, say): TMA stages, whose A the consumers of the sm_90 components
// convert in its register fragments by each element's row (the cp.async
// twin converts while copying); of the alternatives only the 64x128
// tiles, under their own rule (unsplit where enough of them fill the GPU).
// A converted B, or a masked A, whose elements outside the loops' domain
// need not exist, keeps cp.async stages.
// A converted 16-bit K-major B lands raw as the transposed tile's A
// (ConvertsLandedB): square tiles, no pairs, 64x128 narrow tiles of 128
// rows of B (two warpgroups) by 64 of A; an M-major one, or one beside an
// M-major A, keeps cp.async stages.
TEST(KernelConfigTest, ConvertedBTakesTheTransposedTile) {
  MatmulIdiom Idiom = plainIdiom(true, true);
  Idiom.B.ConvertWhileCopying = true;
  Chosen R = chooseFor(Idiom, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->Tma && R.Config->ConvertsLandedB && R.Config->ConvertsLandedOperands);
  EXPECT_TRUE(R.Config->transposedTile());
  EXPECT_FALSE(R.Config->PairedTiles || R.Config->RawFragmentsB);
  EXPECT_EQ(R.Config->BlockM, 128);
  EXPECT_EQ(R.Config->BlockN, 128);
  EXPECT_EQ(R.Config->Stages, 4);
  EXPECT_NE(R.Config->pathReason().find("computed transposed"), std::string::npos);
  const KernelConfig Twin = R.Config->cpAsyncTwin();
  EXPECT_FALSE(Twin.Tma || Twin.ConvertsLandedB || Twin.transposedTile());
  std::vector<AlternativeKernel> Alts = alternativeKernels(*R.Config, RegionModel(), Idiom);
  ASSERT_EQ(Alts.size(), 1u);
  const KernelConfig &Narrow = Alts[0].Config;
  EXPECT_EQ(Alts[0].Predicate, "prefer_narrow_converted_tiles");
  EXPECT_EQ(Narrow.BlockM, 64);
  EXPECT_EQ(Narrow.BlockN, 128);
  EXPECT_TRUE(Narrow.ConvertsLandedB);
  EXPECT_EQ(Narrow.accumulatorRows(), 128);
  EXPECT_EQ(Narrow.accumulatorCols(), 64);
  EXPECT_EQ(Narrow.warpgroups(), 2);
  EXPECT_EQ(Narrow.threads(), 256);
  // (Its cp.async twin, should it be needed, is untransposed.)
  EXPECT_EQ(Narrow.cpAsyncTwin().WarpN, 128);
  EXPECT_EQ(Narrow.cpAsyncTwin().threads(), 128);
  // A tile clause of the narrow tiles' shape gets them too; one of three
  // warpgroups of B's rows does not.
  R = chooseFor(Idiom, tile(64, 128, 64), GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->Tma && R.Config->ConvertsLandedB);
  EXPECT_EQ(R.Config->WarpN, 64);
  EXPECT_EQ(R.Config->warpgroups(), 2);
  R = chooseFor(Idiom, tile(128, 192, 64), GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->Tma || R.Config->ConvertsLandedB);
  for (auto [AKMajor, BKMajor] : {std::pair{true, false}, std::pair{false, true}}) {
    MatmulIdiom Other = plainIdiom(AKMajor, BKMajor);
    Other.B.ConvertWhileCopying = true;
    Chosen RO = chooseFor(Other, {}, GpuArch::SM90a, MmaPreference::Auto);
    ASSERT_TRUE(RO.Config.has_value()) << RO.Error->Message;
    EXPECT_FALSE(RO.Config->Tma || RO.Config->ConvertsLandedB);
  }
}

TEST(KernelConfigTest, ConvertedOperandGetsOnlyNarrowTiles) {
  MatmulIdiom Idiom = plainIdiom(true, true);
  Idiom.A.ConvertWhileCopying = true;
  Chosen R = chooseFor(Idiom, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  EXPECT_TRUE(R.Config->Tma);
  EXPECT_TRUE(R.Config->ConvertsLandedOperands);
  EXPECT_FALSE(R.Config->RawStagesB);
  EXPECT_NE(R.Config->pathReason().find("register fragments by each element's row"),
            std::string::npos);
  EXPECT_FALSE(R.Config->ConvertsLandedB || R.Config->transposedTile());
  EXPECT_FALSE(R.Config->cpAsyncTwin().ConvertsLandedOperands);
  // One block of two warpgroups an SM: beside a producer warpgroup, whose
  // registers the conversion needs (it spilled at a producer warp's 168);
  // the producer keeps enough to copy what TMA cannot map.
  EXPECT_TRUE(R.Config->ProducerWarpgroup);
  EXPECT_EQ(R.Config->producerRegisters(), KernelConfig::CopyingProducerRegisters);
  EXPECT_EQ(R.Config->consumerRegisters(), 216);
  EXPECT_FALSE(R.Config->cpAsyncTwin().ProducerWarpgroup);
  std::vector<AlternativeKernel> Alts = alternativeKernels(*R.Config, RegionModel(), Idiom);
  ASSERT_EQ(Alts.size(), 1u);
  EXPECT_EQ(Alts[0].Predicate, "prefer_narrow_converted_tiles");
  EXPECT_FALSE(Alts[0].Config.ProducerWarpgroup);  // one warpgroup
  EXPECT_EQ(Alts[0].Config.BlockM, 64);
  EXPECT_EQ(Alts[0].Config.BlockN, 128);
  EXPECT_TRUE(Alts[0].Config.Tma && Alts[0].Config.ConvertsLandedOperands);
  EXPECT_EQ(Alts[0].Config.SplitFillDivisor, 2);
  MatmulIdiom Masked = Idiom;
  Masked.A.Mask.resize(1);
  R = chooseFor(Masked, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  EXPECT_FALSE(R.Config->Tma || R.Config->ConvertsLandedOperands);
}

// Two blocks share an SM where their shared memory fits and each consumer
// thread keeps registers for its accumulators and 32 more: not 256x64
// tiles of two stages (544 threads: 56 registers, which ptxas could not
// fit), though their shared memory would; nor the cp.async kernel of
// 128x256 tiles and two stages.
TEST(KernelConfigTest, TwoBlocksNeedRegistersForTheirAccumulators) {
  MatmulIdiom Idiom = plainIdiom(true, true);
  RegionClauses Tall;
  Tall.Tile = {256, 64, 64};
  Tall.Stages = 2;
  Chosen R = chooseFor(Idiom, Tall, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->Tma);
  EXPECT_LE(2 * R.Config->sharedBytes(), sharedMemoryLimit(GpuArch::SM90a));
  EXPECT_FALSE(R.Config->twoBlocksFit());
  // The cp.async kernels' __launch_bounds__ alike: 128x256 tiles of two
  // stages in 256 threads would have 128 registers for 128 accumulators.
  RegionClauses Wide;
  Wide.Tile = {128, 256, 64};
  Wide.Stages = 2;
  R = chooseFor(Idiom, Wide, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  const KernelConfig Twin = R.Config->cpAsyncTwin();
  EXPECT_LE(2 * Twin.sharedBytes(), sharedMemoryLimit(GpuArch::SM90a));
  EXPECT_FALSE(Twin.twoBlocksFit());
  R = chooseFor(Idiom, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_EQ(R.Config->BlockM, 128);
  EXPECT_TRUE(R.Config->twoBlocksFit());
  EXPECT_TRUE(R.Config->cpAsyncTwin().twoBlocksFit());
}

// A converted A's fragments need registers beside the accumulators
// (convertedFragmentsFit, one block an SM): 128x128 and 64x256 tiles have
// them; 128x192 (wgmma serialised) and 256x128 (544 threads: 96
// registers) do not, and their regions keep cp.async stages.
TEST(KernelConfigTest, ConvertedFragmentsNeedRegisters) {
  MatmulIdiom Idiom = plainIdiom(true, true);
  Idiom.A.ConvertWhileCopying = true;
  auto Tiles = [&](int BM, int BN) {
    RegionClauses Cl;
    Cl.Tile = {BM, BN, 64};
    Chosen R = chooseFor(Idiom, Cl, GpuArch::SM90a, MmaPreference::Auto);
    EXPECT_TRUE(R.Config.has_value()) << BM << "x" << BN;
    return R.Config ? *R.Config : KernelConfig();
  };
  for (auto [BM, BN, Fits] : {std::tuple{128, 128, true}, std::tuple{64, 256, true},
                              std::tuple{128, 192, false}, std::tuple{256, 128, false}}) {
    KernelConfig C = Tiles(BM, BN);
    EXPECT_EQ(C.convertedFragmentsFit(), Fits) << BM << "x" << BN;
    EXPECT_EQ(C.Tma && C.ConvertsLandedOperands, Fits) << BM << "x" << BN;
  }
}

// A 16-bit A converted by its row beside an 8-bit B: the region keeps its
// generated kernels (the components have no raw 8-bit stages), with its
// narrow alternative.
TEST(KernelConfigTest, ConvertedOperandBesideEightBitKeepsGeneratedKernels) {
  MatmulIdiom Idiom = plainIdiom(true, true);
  Idiom.A.ConvertWhileCopying = true;
  Idiom.B.ConvertWhileCopying = Idiom.B.EightBit = true;
  EXPECT_FALSE(convertedALandsRaw(Idiom));
  Chosen R = chooseFor(Idiom, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->Tma || R.Config->ConvertsLandedOperands);
}

// An 8-bit K-major B (a quantized weight): TMA lands its raw tile in the
// second half of B's stage (a byte an element); 4 stages, one block per SM.
// The square 128x128 kernel computes its tile transposed, each consumer
// converting its fragments of the raw tile (one group in flight: the
// fragments are double-buffered); the 64x128 alternative, under the
// converted operand's rule for short reductions, converts the raw tile
// into its stage; the 256x128 alternative, for outputs of enough such
// tiles, computes its tile transposed too, with accumulators of 256
// columns beside a producer warpgroup that gives its registers to the
// consumers. The cp.async twin converts while copying, and no kernel
// pairs blocks (each converts its own B). An N-major 8-bit B, or an 8-bit A, keeps the
// copier's conversion.
TEST(KernelConfigTest, PrologueOnAKeepsAnEightBitBInItsStage) {
  // ReLU(X) beside int8 weights only converted: the transposed tile would
  // read X's stage as wgmma's B, where no schedule applies its prologue
  // (isl refused to generate that kernel). B converts in its stage, X's
  // prologue on its landed stages, untransposed; so do the narrow tiles.
  MatmulIdiom Idiom = plainIdiom(true, true);
  Idiom.A.Prologue.push_back(ExprNode::make(ExprNode::Read, ""));
  Idiom.B.ConvertWhileCopying = Idiom.B.EightBit = true;
  Chosen R = chooseFor(Idiom, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->Tma);
  EXPECT_TRUE(R.Config->RawStagesB);
  EXPECT_TRUE(R.Config->ConvertStages);
  EXPECT_FALSE(R.Config->RawFragmentsB);
  EXPECT_FALSE(R.Config->transposedTile());
  std::vector<AlternativeKernel> Alts = alternativeKernels(*R.Config, RegionModel(), Idiom);
  ASSERT_EQ(Alts.size(), 1u);
  EXPECT_EQ(Alts[0].Predicate, "prefer_narrow_converted_tiles");
  EXPECT_FALSE(Alts[0].Config.RawFragmentsB);
  EXPECT_TRUE(Alts[0].Config.RawStagesB);
}

TEST(KernelConfigTest, EightBitKMajorBLandsRawForTheConsumers) {
  MatmulIdiom Idiom = plainIdiom(true, true);
  Idiom.B.ConvertWhileCopying = Idiom.B.EightBit = true;
  Chosen R = chooseFor(Idiom, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  ASSERT_TRUE(R.Config->Tma);
  EXPECT_TRUE(R.Config->RawStagesB);
  EXPECT_FALSE(R.Config->PairedTiles);
  // (The raw tile lands in the second half of B's stage.)
  EXPECT_EQ(R.Config->bytesPerStage(), (128 + 128) * 64 * 2);
  EXPECT_EQ(R.Config->Stages, 4);
  EXPECT_FALSE(R.Config->twoBlocksFit());
  EXPECT_NE(R.Config->pathReason().find("lands raw"), std::string::npos);
  EXPECT_TRUE(R.Config->RawFragmentsB);
  EXPECT_FALSE(R.Config->convertsLandedStages());
  EXPECT_EQ(R.Config->WgmmaPending, 1);
  EXPECT_NE(R.Config->pathReason().find("computed transposed"), std::string::npos);
  // Few tiles in clusters of parts from 10 k tiles (each k tile also
  // converts B's fragments), not the plain kernels' 12.
  EXPECT_TRUE(R.Config->clusterParts());
  EXPECT_EQ(R.Config->clusterPartsMinKTiles(), 10);
  // A prologue that is not the element minus an offset: through fp32 only.
  EXPECT_FALSE(R.Config->OffsetRowsB);
  KernelConfig Twin = R.Config->cpAsyncTwin();
  EXPECT_FALSE(Twin.RawStagesB);
  EXPECT_FALSE(Twin.RawFragmentsB);
  EXPECT_EQ(Twin.Stages, 3);
  EXPECT_FALSE(R.Config->ProducerWarpgroup);
  EXPECT_EQ(R.Config->blockThreads(), 256 + 32);
  std::vector<AlternativeKernel> Alts = alternativeKernels(*R.Config, RegionModel(), Idiom);
  ASSERT_EQ(Alts.size(), 10u);
  // (Against the 128x128 kernel, only for short reductions: 64 rows of X
  // by 128 of W, transposed as the shortest of the square kernel's tiles,
  // converted into fragments rather than into a stage.)
  EXPECT_EQ(Alts[0].Predicate, "prefer_narrow_raw_fragment_tiles");
  EXPECT_TRUE(Alts[0].Config.Tma);
  EXPECT_TRUE(Alts[0].Config.RawStagesB);
  EXPECT_TRUE(Alts[0].Config.RawFragmentsB);
  EXPECT_FALSE(Alts[0].Config.convertsLandedStages());
  EXPECT_FALSE(Alts[0].Config.PairedTiles);
  EXPECT_EQ(Alts[0].Config.BlockM, 64);
  EXPECT_EQ(Alts[0].Config.BlockN, 128);
  EXPECT_EQ(Alts[0].Config.warpgroups(), 2);
  EXPECT_EQ(Alts[0].Config.SplitFillDivisor, 2);
  EXPECT_EQ(Alts[0].Config.Stages, Alts.back().Config.Stages);
  // (--explain says how each kernel converts.)
  EXPECT_NE(Alts[0].Config.pathReason().find("computed transposed"), std::string::npos);
  // 192x192 transposed tiles where they fill whole rounds of SMs and the
  // tall ones do not: three consumer warpgroups of m64n192k16.
  const AlternativeKernel &Fitted = Alts[1];
  EXPECT_EQ(Fitted.Suffix, "_fitted");
  EXPECT_EQ(Fitted.Predicate, "prefer_fitted_raw_fragment_tiles");
  EXPECT_EQ(Fitted.Config.BlockM, 192);
  EXPECT_EQ(Fitted.Config.BlockN, 192);
  EXPECT_EQ(Fitted.Config.warpgroups(), 3);
  EXPECT_EQ(Fitted.Config.accumulatorCols(), 192);
  EXPECT_TRUE(Fitted.Config.RawFragmentsB);
  EXPECT_TRUE(Fitted.Config.ProducerWarpgroup);
  EXPECT_EQ(Fitted.Config.blockThreads(), 512);
  // (The producer keeps 32 registers, so that each consumer thread gets
  // 160: all of the SM's, one block per SM.)
  EXPECT_EQ(Fitted.Config.producerRegisters(), 32);
  EXPECT_EQ(Fitted.Config.consumerRegisters(), 160);
  EXPECT_EQ(Fitted.Config.producerThreads() * Fitted.Config.producerRegisters() +
                Fitted.Config.threads() * Fitted.Config.consumerRegisters(),
            KernelConfig::RegistersPerSm);
  EXPECT_FALSE(Fitted.Config.StreamUnits); // (three warpgroups)
  // Five stages at the components' sizes (W's raw tile a byte an
  // element), which the output tile, staged transposed, fits in; the
  // cp.async twin counts 16-bit stages again.
  EXPECT_TRUE(Fitted.Config.ComponentStages);
  EXPECT_EQ(Fitted.Config.Stages, 5);
  EXPECT_EQ(Fitted.Config.bytesPerStage(), 192 * 64 * 2 + 192 * 64);
  EXPECT_LE(Fitted.Config.sharedBytes(), sharedMemoryLimit(GpuArch::SM90a));
  EXPECT_GE(Fitted.Config.stageBytes(), 192 * (192 + 4) * 4);
  EXPECT_TRUE(Fitted.Config.stagedEpilogue());
  const KernelConfig FittedTwin = Fitted.Config.cpAsyncTwin();
  EXPECT_FALSE(FittedTwin.ComponentStages);
  EXPECT_EQ(FittedTwin.bytesPerStage(), (192 + 192) * 64 * 2);
  EXPECT_LE(FittedTwin.sharedBytes(), sharedMemoryLimit(GpuArch::SM90a));
  // No other kernel of the layer lays out its stages so.
  for (const AlternativeKernel &A : Alts)
    EXPECT_EQ(A.Config.ComponentStages, &A == &Fitted) << A.Suffix;
  EXPECT_FALSE(R.Config->ComponentStages);
  // Then the tall tiles 224, 192 and 176 rows tall, each under the rule
  // that fits the heights to rounds of SMs, then 256 rows for the rest.
  const int ShorterHeights[] = {224, 192, 176};
  for (int I = 0; I < 3; ++I) {
    const AlternativeKernel &Shorter = Alts[2 + I];
    EXPECT_EQ(Shorter.Suffix, "_tall" + std::to_string(ShorterHeights[I]));
    EXPECT_EQ(Shorter.Predicate, "prefer_tall_raw_fragment_height");
    // (The last argument: the 256-row kernel runs stream units, to which
    // the rule leaves a thin last round.)
    EXPECT_EQ(Shorter.Size, ShorterHeights[I]);
    EXPECT_EQ(Shorter.Sizes, std::vector<int>({256, 224, 192, 176}));
    EXPECT_EQ(Shorter.Arg, 1);
    EXPECT_EQ(Shorter.Config.BlockM, ShorterHeights[I]);
    EXPECT_EQ(Shorter.Config.WarpN, ShorterHeights[I]);
    EXPECT_EQ(Shorter.Config.BlockN, 128);
    EXPECT_TRUE(Shorter.Config.RawFragmentsB);
    EXPECT_TRUE(Shorter.Config.ProducerWarpgroup);
    EXPECT_TRUE(Shorter.Config.StreamUnits);
    EXPECT_EQ(Shorter.Config.accumulatorCols(), ShorterHeights[I]);
    EXPECT_EQ(Shorter.Config.fragmentsN(), ShorterHeights[I] / 8);
    EXPECT_LE(Shorter.Config.sharedBytes(), sharedMemoryLimit(GpuArch::SM90a));
    EXPECT_TRUE(Shorter.Config.stagedEpilogue());
    EXPECT_NE(Shorter.Config.pathReason().find(
                  "accumulators of " + std::to_string(ShorterHeights[I]) + " columns"),
              std::string::npos);
  }
  // Last, the 128x128 kernel itself 112, 96, 80 and 64 rows of X tall:
  // its warps and stages layout, 6 stages, one block per SM, cluster parts
  // from its floor of 10 k tiles (the rule's last argument).
  const int SquareHeights[] = {112, 96, 80, 64};
  for (int I = 0; I < 4; ++I) {
    const AlternativeKernel &Short = Alts[6 + I];
    const int H = SquareHeights[I];
    EXPECT_EQ(Short.Suffix, "_short" + std::to_string(H));
    EXPECT_EQ(Short.Predicate, "prefer_short_raw_fragment_height");
    EXPECT_EQ(Short.Size, H);
    EXPECT_EQ(Short.Sizes, std::vector<int>({128, 112, 96, 80, 64}));
    EXPECT_EQ(Short.Arg, 10);
    EXPECT_EQ(Short.Config.BlockM, H);
    EXPECT_EQ(Short.Config.WarpN, H);
    EXPECT_EQ(Short.Config.BlockN, 128);
    EXPECT_EQ(Short.Config.Stages, 6);
    EXPECT_TRUE(Short.Config.RawFragmentsB);
    EXPECT_FALSE(Short.Config.ProducerWarpgroup);
    EXPECT_EQ(Short.Config.blockThreads(), 256 + 32);
    EXPECT_FALSE(Short.Config.twoBlocksFit());
    EXPECT_TRUE(Short.Config.StreamUnits);
    EXPECT_TRUE(Short.Config.clusterParts());
    EXPECT_EQ(Short.Config.accumulatorCols(), H);
    EXPECT_LE(Short.Config.sharedBytes(), sharedMemoryLimit(GpuArch::SM90a));
    EXPECT_TRUE(Short.Config.stagedEpilogue());
  }
  // Under a split_k clause no kernel runs stream units (every tile is
  // split its own way), so the rule fits the heights to every output; nor
  // cluster parts, which the short heights' rule then leaves out.
  RegionModel SplitModel;
  SplitModel.Clauses.SplitK = 2;
  std::vector<AlternativeKernel> SplitAlts = alternativeKernels(*R.Config, SplitModel, Idiom);
  ASSERT_EQ(SplitAlts.size(), 10u);
  EXPECT_FALSE(SplitAlts[5].Config.StreamUnits);
  EXPECT_FALSE(SplitAlts[2].Config.StreamUnits);
  EXPECT_EQ(SplitAlts[2].Size, 224);
  EXPECT_EQ(SplitAlts[2].Arg, 0); // (no stream units)
  EXPECT_FALSE(SplitAlts[6].Config.StreamUnits);
  EXPECT_EQ(SplitAlts[6].Size, 112);
  EXPECT_EQ(SplitAlts[6].Arg, 0); // (no cluster parts)
  const KernelConfig &Tall = Alts[5].Config;
  EXPECT_EQ(Alts[5].Suffix, "_tall");
  EXPECT_EQ(Alts[5].Predicate, "prefer_tall_raw_fragment_tiles");
  EXPECT_EQ(Tall.BlockM, 256);
  EXPECT_EQ(Tall.BlockN, 128);
  EXPECT_TRUE(Tall.RawFragmentsB);
  EXPECT_TRUE(Tall.StreamUnits);
  // Accumulators 128 x 256 (the tile transposed): two warpgroups of
  // m64n256k16, one per 64 columns of the output tile.
  EXPECT_EQ(Tall.accumulatorRows(), 128);
  EXPECT_EQ(Tall.accumulatorCols(), 256);
  EXPECT_EQ(Tall.warpgroups(), 2);
  EXPECT_EQ(Tall.threads(), 256);
  EXPECT_EQ(Tall.fragmentsN(), 32);
  EXPECT_EQ(Tall.issuerTileM(), 256);
  EXPECT_EQ(Tall.issuerTileN(), 64);
  // A producer warpgroup of 40 registers a thread, the consumers 232.
  EXPECT_TRUE(Tall.ProducerWarpgroup);
  EXPECT_EQ(Tall.blockThreads(), 384);
  EXPECT_EQ(Tall.consumerRegisters(), 232);
  EXPECT_LE(Tall.sharedBytes(), sharedMemoryLimit(GpuArch::SM90a));
  EXPECT_TRUE(Tall.stagedEpilogue());
  EXPECT_FALSE(Tall.cpAsyncTwin().ProducerWarpgroup);
  EXPECT_NE(Tall.pathReason().find("computed transposed"), std::string::npos);
  EXPECT_NE(Tall.pathReason().find("setmaxnreg"), std::string::npos);
  EXPECT_NE(Tall.describe().find("m64n256k16"), std::string::npos);

  // The element minus an offset (or no prologue): fp16 pairs on fp16
  // stages, not on bf16 ones nor in the cp.async twin.
  MatmulIdiom Offset = Idiom;
  Offset.B.Offset = OperandView::ElementOffset{};
  R = chooseFor(Offset, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->OffsetRowsB);
  EXPECT_NE(R.Config->pathReason().find("fp16 pairs"), std::string::npos);
  EXPECT_FALSE(R.Config->cpAsyncTwin().OffsetRowsB);
  // Integer offsets take one subtraction a pair in the 128x128 transposed
  // tiles only: not in the 256x128 ones, nor where nothing converts into
  // fragments.
  EXPECT_TRUE(R.Config->integerOffsetPairs());
  Alts = alternativeKernels(*R.Config, RegionModel(), Offset);
  ASSERT_EQ(Alts.size(), 10u);
  for (size_t I = 1; I < 6; ++I) {
    EXPECT_TRUE(Alts[I].Config.ProducerWarpgroup);
    EXPECT_TRUE(Alts[I].Config.OffsetRowsB);
    EXPECT_FALSE(Alts[I].Config.integerOffsetPairs());
  }
  // (The shorter 128-row tiles are the 128x128 kernel's: pairs too.)
  for (size_t I = 6; I < Alts.size(); ++I)
    EXPECT_TRUE(Alts[I].Config.integerOffsetPairs());
  EXPECT_TRUE(Alts[0].Config.integerOffsetPairs());
  EXPECT_FALSE(R.Config->cpAsyncTwin().integerOffsetPairs());
  Offset.InputType = ElementType::BF16;
  R = chooseFor(Offset, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->RawStagesB);
  EXPECT_FALSE(R.Config->OffsetRowsB);

  MatmulIdiom NMajor = plainIdiom(true, false);
  NMajor.B.ConvertWhileCopying = NMajor.B.EightBit = true;
  R = chooseFor(NMajor, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->Tma);
  EXPECT_FALSE(R.Config->RawStagesB);
  EXPECT_FALSE(R.Config->RawFragmentsB);

  // An M-major A cannot be wgmma's B of the transposed tile: B's raw tile
  // is converted into its stage.
  MatmulIdiom AMMajor = plainIdiom(false, true);
  AMMajor.B.ConvertWhileCopying = AMMajor.B.EightBit = true;
  R = chooseFor(AMMajor, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->RawStagesB);
  EXPECT_FALSE(R.Config->RawFragmentsB);
  Alts = alternativeKernels(*R.Config, RegionModel(), AMMajor);
  ASSERT_EQ(Alts.size(), 1u);
  EXPECT_EQ(Alts[0].Predicate, "prefer_narrow_converted_tiles");
  EXPECT_EQ(kernelRule(Alts[0].Predicate), "NarrowConvertedTiles");

}

// An 8-bit K-major A lands raw too, converted in its register fragments
// (RawFragmentsA, the components' RawRegisterA): not transposed, no pairs,
// four stages at one block an SM; its narrow tiles one warpgroup of 64
// rows. An M-major one, or one beside a B with a prologue, keeps cp.async
// stages.
TEST(KernelConfigTest, EightBitKMajorALandsRawForTheConsumers) {
  MatmulIdiom OnA = plainIdiom(true, true);
  OnA.A.ConvertWhileCopying = OnA.A.EightBit = true;
  Chosen R = chooseFor(OnA, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  EXPECT_TRUE(R.Config->Tma && R.Config->RawFragmentsA && R.Config->ConvertsLandedOperands);
  EXPECT_FALSE(R.Config->RawStagesB || R.Config->transposedTile() || R.Config->PairedTiles);
  EXPECT_EQ(R.Config->Stages, 4);
  EXPECT_FALSE(R.Config->twoBlocksFit());
  EXPECT_NE(R.Config->pathReason().find("A's 8-bit tile lands raw"), std::string::npos);
  const KernelConfig Twin = R.Config->cpAsyncTwin();
  EXPECT_FALSE(Twin.Tma || Twin.RawFragmentsA || Twin.ConvertsLandedOperands);
  std::vector<AlternativeKernel> Alts = alternativeKernels(*R.Config, RegionModel(), OnA);
  ASSERT_EQ(Alts.size(), 1u);
  EXPECT_EQ(Alts[0].Predicate, "prefer_narrow_converted_tiles");
  EXPECT_TRUE(Alts[0].Config.RawFragmentsA);
  EXPECT_EQ(Alts[0].Config.warpgroups(), 1);
  MatmulIdiom MMajor = plainIdiom(false, true);
  MMajor.A.ConvertWhileCopying = MMajor.A.EightBit = true;
  R = chooseFor(MMajor, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->Tma || R.Config->RawFragmentsA);
  MatmulIdiom ReluB = OnA;
  ReluB.B.Prologue.push_back(nullptr);
  R = chooseFor(ReluB, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->Tma || R.Config->RawFragmentsA);
}

TEST(KernelConfigTest, SkinnyTilesFollowBsLayout) {
  // An N-major B is stored in 64-column panels: its skinny tiles are 64x64.
  Chosen R = chooseFor(plainIdiom(true, false), {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  ASSERT_TRUE(R.Config->Tma);
  std::vector<AlternativeKernel> Alts =
      alternativeKernels(*R.Config, RegionModel(), plainIdiom(true, false));
  ASSERT_FALSE(Alts.empty());
  EXPECT_EQ(Alts[0].Suffix, "_skinny");
  EXPECT_EQ(Alts[0].Config.BlockM, 64);
  EXPECT_EQ(Alts[0].Config.BlockN, 64);
  EXPECT_TRUE(Alts[0].Config.Tma);
  EXPECT_EQ(Alts[0].Config.Stages, 6);
}

TEST(KernelConfigTest, PrologueOnAIsAppliedToTmaStagesByTheConsumers) {
  // A prologue on a row-major A: A's fragments in registers beside the
  // producer warp would exceed the register cap of two blocks per SM, so
  // the TMA kernel keeps A in its stages and each consumer warpgroup
  // applies the prologue to its rows there: no extra warp or barrier. The
  // cp.async twin takes A from registers instead.
  MatmulIdiom PrologueA = plainIdiom(true, true);
  PrologueA.A.Prologue.push_back(ExprNode::make(ExprNode::Read, ""));
  Chosen R = chooseFor(PrologueA, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->Tma);
  EXPECT_TRUE(R.Config->ConvertStages);
  EXPECT_FALSE(R.Config->WgmmaRegisterA);
  EXPECT_EQ(R.Config->WgmmaPending, 1);
  EXPECT_EQ(R.Config->blockThreads(), 256 + 32);
  // Full and empty barriers per stage, and the combination flag: the
  // plain GEMM's layout.
  EXPECT_EQ(R.Config->sharedBytes(),
            R.Config->Stages * (128 + 128) * 64 * 2 + 16 * R.Config->Stages + 16);
  EXPECT_NE(R.Config->pathReason().find("by each consumer warpgroup"), std::string::npos)
      << R.Config->pathReason();
  KernelConfig Twin = R.Config->cpAsyncTwin();
  EXPECT_FALSE(Twin.Tma);
  EXPECT_FALSE(Twin.ConvertStages);
  EXPECT_TRUE(Twin.WgmmaRegisterA);
  EXPECT_EQ(Twin.WgmmaPending, 0);
  EXPECT_EQ(Twin.blockThreads(), 256);
  // The tile alternatives of one warpgroup take A's fragments from
  // registers, two buffers by the tile's parity, with one group in flight
  // (and their cp.async twins from registers, none in flight); so do the
  // 128x256 tiles (two warpgroups, one block per SM), beside a producer
  // warpgroup that gives them its registers, and the persistent 128x128
  // tiles, beside a producer warpgroup and one epilogue warpgroup, for
  // longer reductions than without a prologue. The others (three
  // warpgroups) convert their stages, as the default does. Not the
  // 128x256 tiles' narrower widths (measured no faster with ReLU on A);
  // the deep 64x128 tiles' narrower widths do.
  bool DeepNarrower = false, OneWarpgroup = false, WideFragments = false, Persistent = false;
  for (auto &Alt : alternativeKernels(*R.Config, RegionModel(), PrologueA)) {
    const bool WideBlock = Alt.Config.warpgroups() == 2 && !Alt.Config.twoBlocksFit();
    const bool Fragments = Alt.Config.warpgroups() == 1 || WideBlock;
    OneWarpgroup |= Alt.Config.warpgroups() == 1;
    WideFragments |= WideBlock && Fragments && !Alt.Config.PersistentTiles;
    EXPECT_EQ(Alt.Config.ProducerWarpgroup, WideBlock) << Alt.Suffix;
    if (Alt.Config.PersistentTiles) {
      Persistent = true;
      EXPECT_EQ(Alt.Predicate, "prefer_persistent_fragment_tiles");
      EXPECT_EQ(Alt.Config.storerThreads(), 128);
      EXPECT_EQ(Alt.Config.blockThreads(), 512); // 128 registers a thread at launch
      // 128 x 40 (producer) + 128 x 64 (epilogue) + 256 x 200 <= 64K.
      EXPECT_EQ(Alt.Config.consumerRegisters(), 200);
    }
    EXPECT_FALSE(Alt.Config.cpAsyncTwin().ProducerWarpgroup) << Alt.Suffix;
    EXPECT_EQ(Alt.Config.ConvertStages, !Fragments) << Alt.Suffix;
    EXPECT_EQ(Alt.Config.WgmmaRegisterA, Fragments) << Alt.Suffix;
    EXPECT_EQ(Alt.Config.fragmentsByParity(), Fragments) << Alt.Suffix;
    EXPECT_EQ(Alt.Config.WgmmaPending, 1) << Alt.Suffix;
    EXPECT_NE(Alt.Config.pathReason().find(Fragments ? "its prologue applied to each thread's wgmma "
                                                     "fragments"
                                                   : "by each consumer warpgroup"),
              std::string::npos)
        << Alt.Suffix << ": " << Alt.Config.pathReason();
    KernelConfig AltTwin = Alt.Config.cpAsyncTwin();
    EXPECT_TRUE(AltTwin.WgmmaRegisterA) << Alt.Suffix;
    EXPECT_FALSE(AltTwin.fragmentsByParity()) << Alt.Suffix;
    EXPECT_EQ(AltTwin.WgmmaPending, 0) << Alt.Suffix;
    EXPECT_FALSE(Alt.Config.BlockM == 128 && Alt.Config.BlockN > 128 &&
                 Alt.Config.BlockN < 256) << Alt.Suffix;
    DeepNarrower |= Alt.Config.BlockM == 64 && Alt.Config.BlockN < 128 && Alt.Config.Stages == 8;
  }
  EXPECT_TRUE(DeepNarrower);
  EXPECT_TRUE(OneWarpgroup);
  EXPECT_TRUE(WideFragments);
  EXPECT_TRUE(Persistent);
}

TEST(KernelConfigTest, ProloguesOnBAndOnMMajorAConvertTheLandedStages) {
  // wgmma reads B, and an M-major A, from shared memory: their prologues
  // are applied to each landed stage, by the consumers of the TMA kernel
  // and by all threads of its cp.async twin; no fragments in registers.
  MatmulIdiom PrologueB = plainIdiom(true, false);
  PrologueB.B.Prologue.push_back(ExprNode::make(ExprNode::Read, ""));
  MatmulIdiom PrologueMMajorA = plainIdiom(false, true);
  PrologueMMajorA.A.Prologue.push_back(ExprNode::make(ExprNode::Read, ""));
  for (const MatmulIdiom *I : {&PrologueB, &PrologueMMajorA}) {
    bool OnB = I == &PrologueB;
    Chosen R = chooseFor(*I, {}, GpuArch::SM90a, MmaPreference::Auto);
    ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
    EXPECT_TRUE(R.Config->wgmma());
    EXPECT_TRUE(R.Config->Tma);
    EXPECT_EQ(R.Config->ConvertStagesB, OnB);
    EXPECT_EQ(R.Config->ConvertStages, !OnB);
    EXPECT_FALSE(R.Config->WgmmaRegisterA);
    EXPECT_EQ(R.Config->blockThreads(), 256 + 32);
    EXPECT_NE(R.Config->pathReason().find(OnB ? "B's prologue" : "A's prologue"),
              std::string::npos)
        << R.Config->pathReason();
    KernelConfig Twin = R.Config->cpAsyncTwin();
    EXPECT_FALSE(Twin.Tma);
    EXPECT_EQ(Twin.ConvertStagesB, OnB);
    EXPECT_EQ(Twin.ConvertStages, !OnB);
    EXPECT_FALSE(Twin.WgmmaRegisterA);
    for (auto &Alt : alternativeKernels(*R.Config, RegionModel(), *I)) {
      EXPECT_FALSE(Alt.Config.PersistentTiles) << Alt.Suffix;
      // (B's 256 rows beside the 128x256 tile's accumulators spilled.)
      if (OnB) {
        EXPECT_LT(Alt.Config.BlockN, 224) << Alt.Suffix;
      }
    }
  }
  // Not in a sum of matmuls, whose products would need a prologue each.
  MatmulIdiom Sum = PrologueB;
  Sum.MoreProducts.push_back({});
  Chosen R = chooseFor(Sum, {}, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->wgmma());
  EXPECT_NE(R.Config->pathReason().find("prologue in a sum of matmuls"), std::string::npos)
      << R.Config->pathReason();
}

TEST(KernelConfigTest, WgmmaStagesAndTileClauses) {
  RegionClauses Cl = tile(128, 256, 64);
  Cl.Stages = 4;
  Chosen R = chooseFor(plainIdiom(true, true), Cl, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  EXPECT_EQ(R.Config->BlockN, 256);
  EXPECT_EQ(R.Config->WarpN, 256);
  // The stages clause holds for the TMA kernel and its cp.async twin;
  // four stages keep one wgmma group in flight, the copies run 2 ahead.
  EXPECT_TRUE(R.Config->Tma);
  EXPECT_EQ(R.Config->Stages, 4);
  EXPECT_EQ(R.Config->WgmmaPending, 1);
  EXPECT_EQ(R.Config->sharedBytes(), 4 * (128 + 256) * 64 * 2 + 4 * 16 + 16);
  KernelConfig Twin = R.Config->cpAsyncTwin();
  EXPECT_EQ(Twin.Stages, 4);
  EXPECT_EQ(Twin.WgmmaPending, 1);
  EXPECT_EQ(Twin.copyDistance(), 2);
  EXPECT_EQ(Twin.sharedBytes(), 4 * (128 + 256) * 64 * 2);
}

TEST(KernelConfigTest, MmaSyncWhereWgmmaCannotRun) {
  struct Case {
    MatmulIdiom Idiom;
    RegionClauses Cl;
    GpuArch Arch;
    const char *Reason;
  };
  MatmulIdiom Tf32 = plainIdiom(true, false, ElementType::F32);
  MatmulIdiom Tf32Prologue = plainIdiom(true, true, ElementType::F32);
  Tf32Prologue.A.Prologue.push_back(ExprNode::make(ExprNode::Read, ""));
  MatmulIdiom Tf32Guarded = plainIdiom(true, true, ElementType::F32);
  Tf32Guarded.OutputGuard = {AffineExpr::symbol("i") + AffineExpr::symbol("j") * -1};
  RegionClauses SplitK;
  SplitK.SplitK = 4;
  RegionClauses Warp;
  Warp.Warp = std::vector<int>{64, 64};
  RegionClauses OddTile = tile(128, 128, 32);
  RegionClauses Split;
  Split.WarpSplitK = 2;
  std::vector<Case> Cases = {
      {plainIdiom(true, true), {}, GpuArch::SM80, "wgmma needs sm_90a"},
      {plainIdiom(true, true), {}, GpuArch::SM89, "wgmma needs sm_90a"},
      {Tf32, {}, GpuArch::SM90a, "tf32 operands K-major only"},
      {Tf32Prologue, {}, GpuArch::SM90a, "with a prologue"},
      {Tf32Guarded, {}, GpuArch::SM90a, "guard of the output"},
      {plainIdiom(true, true, ElementType::F32), SplitK, GpuArch::SM90a, "split_k"},
      {plainIdiom(true, true, ElementType::F32), {}, GpuArch::SM80, "wgmma needs sm_90a"},
      {plainIdiom(true, true), Warp, GpuArch::SM90a, "warp tiles"},
      {plainIdiom(true, true), OddTile, GpuArch::SM90a, "BM x BN x 64"},
      {plainIdiom(true, true), Split, GpuArch::SM90a, "warp_split_k"},
  };
  for (const Case &C : Cases) {
    Chosen R = chooseFor(C.Idiom, C.Cl, C.Arch, MmaPreference::Auto);
    ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
    EXPECT_FALSE(R.Config->wgmma());
    EXPECT_NE(R.Config->pathReason().find(C.Reason), std::string::npos) << R.Config->pathReason();
    // Asking for wgmma there is an error with the same reason as its note.
    Chosen Forced = chooseFor(C.Idiom, C.Cl, C.Arch, MmaPreference::Wgmma);
    ASSERT_FALSE(Forced.Config.has_value());
    EXPECT_NE(Forced.Error->Message.find("cannot use wgmma"), std::string::npos);
  }
}

// fp32 operands stored K-major (X W^T: A [m][k], B [n][k]) take wgmma's
// tf32 instruction on sm_90a: k tiles of 32 elements, one 128-byte
// swizzled row as for 64 16-bit elements, k steps of 8.
TEST(KernelConfigTest, KMajorTf32TakesWgmma) {
  Chosen R = chooseFor(plainIdiom(true, true, ElementType::F32), {}, GpuArch::SM90a,
                       MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  EXPECT_TRUE(R.Config->Tf32);
  EXPECT_EQ(R.Config->BlockK, 32);
  EXPECT_EQ(R.Config->MmaK, 8);
  EXPECT_EQ(R.Config->bytesPerStage(), (R.Config->BlockM + R.Config->BlockN) * 128);
  EXPECT_NE(R.Config->describe().find("k8 (tf32"), std::string::npos) << R.Config->describe();
  // A's rounding to tf32 goes where a K-major A's prologue would: two
  // blocks of 128x128 tiles an SM leave no registers for A's fragments, so
  // each warpgroup rounds its rows of the landed stages (the persistent
  // kernel, which generated regions default to, takes the fragments:
  // test/rewrite/gemm-tf32-wgmma.cu).
  EXPECT_TRUE(R.Config->ConvertStages);
  EXPECT_FALSE(R.Config->WgmmaRegisterA);
  // A persistent block's epilogue warpgroup keeps 64 registers for tf32
  // (the kernel spilled 60 bytes at 48), its producer 48; the consumers
  // keep 200 either way.
  KernelConfig Persistent = *R.Config;
  Persistent.PersistentTiles = Persistent.ProducerWarpgroup = true;
  EXPECT_EQ(Persistent.producerRegisters(), 48);
  EXPECT_EQ(Persistent.storerRegisters(), 64);
  EXPECT_EQ(Persistent.consumerRegisters(), 200);
  Persistent.Tf32 = false;
  EXPECT_EQ(Persistent.producerRegisters(), 56);
  EXPECT_EQ(Persistent.storerRegisters(), 48);
  EXPECT_EQ(Persistent.consumerRegisters(), 200);
}

TEST(KernelConfigTest, MmaClauseOverridesThePreference) {
  RegionClauses Sync;
  Sync.Mma = "m16n8k16";
  Chosen R = chooseFor(plainIdiom(true, true), Sync, GpuArch::SM90a, MmaPreference::Wgmma);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_FALSE(R.Config->wgmma());
  RegionClauses Wg;
  Wg.Mma = "wgmma";
  R = chooseFor(plainIdiom(true, false), Wg, GpuArch::SM90a, MmaPreference::Sync);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  EXPECT_EQ(parseMmaPreference("auto"), std::optional<MmaPreference>(MmaPreference::Auto));
  EXPECT_EQ(parseMmaPreference("sync"), std::optional<MmaPreference>(MmaPreference::Sync));
  EXPECT_EQ(parseMmaPreference("wgmma"), std::optional<MmaPreference>(MmaPreference::Wgmma));
  EXPECT_EQ(parseMmaPreference("tcgen05"), std::nullopt);
}

TEST(KernelConfigTest, WgmmaTakesAFromRegistersForAPrologueOnA) {
  MatmulIdiom Idiom = plainIdiom(true, false);
  Idiom.A.Prologue.push_back(ExprNode::make(ExprNode::Read, ""));
  RegionClauses Cl;
  Cl.Stages = 4;
  Chosen R = chooseFor(Idiom, Cl, GpuArch::SM90a, MmaPreference::Auto);
  ASSERT_TRUE(R.Config.has_value()) << R.Error->Message;
  EXPECT_TRUE(R.Config->wgmma());
  // Four stages of 128x128 tiles leave room for one block per SM: the TMA
  // kernel takes A's fragments from registers, two buffers beside a
  // producer warpgroup.
  EXPECT_NE(R.Config->pathReason().find("its prologue applied to each thread's wgmma fragments"),
            std::string::npos)
      << R.Config->pathReason();
  EXPECT_TRUE(R.Config->WgmmaRegisterA);
  EXPECT_TRUE(R.Config->ProducerWarpgroup);
  EXPECT_FALSE(R.Config->ConvertStages);
  // The cp.async kernel takes A's fragments from registers too; the next
  // tile's fragments replace this tile's: no group in flight.
  KernelConfig Twin = R.Config->cpAsyncTwin();
  EXPECT_TRUE(Twin.WgmmaRegisterA);
  EXPECT_EQ(Twin.WgmmaPending, 0);
  EXPECT_FALSE(chooseFor(plainIdiom(true, true), {}, GpuArch::SM90a, MmaPreference::Auto)
                   .Config->WgmmaRegisterA);
}

} // namespace

namespace {
// The producer warpgroup that copies what TMA cannot map keeps as many
// registers as the runtime asks for (tc::sm90::kCopiesUnmapped): with
// fewer, the composed kernel's launch would fail for the shapes the
// generator lets it take (componentKernelsTakeEveryShape).
TEST(KernelConfigTest, CopyingProducerRegistersMatchTheRuntime) {
  std::ifstream Header(TC_RUNTIME_INCLUDE_DIR "/tc/sm90/gemm_kernel.cuh");
  ASSERT_TRUE(Header.good());
  const std::string Text((std::istreambuf_iterator<char>(Header)),
                         std::istreambuf_iterator<char>());
  std::smatch Match;
  ASSERT_TRUE(std::regex_search(
      Text, Match, std::regex(R"(inline constexpr int kCopyingProducerRegisters = (\d+);)")));
  EXPECT_EQ(std::stoi(Match[1]), KernelConfig::CopyingProducerRegisters);
}
} // namespace
