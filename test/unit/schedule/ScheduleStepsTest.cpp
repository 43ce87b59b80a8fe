//===- ScheduleStepsTest.cpp - the compute decomposition ------------------===//
#include "../RegionTestUtil.h"
#include "KernelSchedule.h"
#include "ScheduleSteps.h"
#include "gtest/gtest.h"
#include <isl/schedule_node.h>
#include <isl/union_map.h>

using namespace tc;
using namespace tc::test;

namespace {

// The tiling of the paper's figures (128 x 128 x 32); the tests pin the
// steps, not the default configuration.
KernelConfig paperConfig() {
  KernelConfig C;
  C.BlockK = 32;
  C.Stages = 4;
  return C;
}

const char *Box =
    "[M, N, K] -> { R[m, n, k] : 0 <= m < M and 0 <= n < N and 0 <= k < K }";

/// The set with its parameters fixed and then projected out.
isl::set instance(const isl::set &S, int M, int N, int K) {
  isl::set F = S.intersect_params(isl::set(
      S.ctx(), "[M, N, K] -> { : M = " + std::to_string(M) + " and N = " +
                   std::to_string(N) + " and K = " + std::to_string(K) + " }"));
  unsigned NP = isl_set_dim(F.get(), isl_dim_param);
  return isl::manage(isl_set_project_out(F.release(), isl_dim_param, 0, NP));
}

long count(const isl::set &S) {
  isl_val *V = isl_set_count_val(S.get());
  long R = isl_val_get_num_si(V);
  isl_val_free(V);
  return R;
}

isl::set domainOf(const isl::schedule &S) {
  return isl::manage(isl_set_from_union_set(S.domain().release()));
}

/// The band node at `Depth` below the domain node.
isl::schedule_node bandAt(const isl::schedule &S, unsigned Depth) {
  isl::schedule_node N = S.root().child(0);
  for (unsigned D = 0; D < Depth; ++D)
    N = N.child(0);
  return N;
}

/// A band's partial schedule as a relation, restricted to `Domain`.
isl::union_map bandMap(const isl::schedule_node &Band, const isl::set &Domain) {
  isl_multi_union_pw_aff *P = isl_schedule_node_band_get_partial_schedule(Band.get());
  isl::union_map U = isl::manage(isl_union_map_from_multi_union_pw_aff(P));
  return U.intersect_domain(isl::union_set(Domain));
}

unsigned bandMembers(const isl::schedule_node &Band) {
  return isl_schedule_node_band_n_member(Band.get());
}

bool isBand(const isl::schedule_node &N) {
  return isl_schedule_node_get_type(N.get()) == isl_schedule_node_band;
}

// ----- individual steps ------------------------------------------------------

TEST(ScheduleStepsTest, PadToFullTilesRoundsUpToBlockTiles) {
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  KernelConfig C = paperConfig(); // 128 x 128 x 32
  isl::set Padded = padToFullTiles(isl::set(Ctx, Box), C);
  isl::set Expected(
      Ctx, "[M, N, K] -> { R[m, n, k] : 0 <= m < 128 * floor((M + 127) / 128) and "
           "0 <= n < 128 * floor((N + 127) / 128) and "
           "0 <= k < 32 * floor((K + 31) / 32) }");
  EXPECT_TRUE(Padded.is_equal(Expected)) << islStr(Padded);
  EXPECT_EQ(isl_set_get_tuple_name(Padded.get()), std::string("R"));
  // 200 x 130 x 40 becomes 256 x 256 x 64.
  EXPECT_EQ(count(instance(Padded, 200, 130, 40)), 256L * 256 * 64);
  // Whole tiles stay as they are.
  EXPECT_EQ(count(instance(Padded, 128, 256, 32)), 128L * 256 * 32);
  // An empty problem stays empty.
  EXPECT_TRUE(instance(Padded, 0, 128, 32).is_empty());
}

TEST(ScheduleStepsTest, PadToFullTilesFollowsTheConfig) {
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  KernelConfig C = paperConfig();
  C.BlockM = 64;
  C.BlockN = 32;
  C.BlockK = 16;
  isl::set Padded = padToFullTiles(isl::set(Ctx, Box), C);
  isl::set Expected(
      Ctx, "[M, N, K] -> { R[m, n, k] : 0 <= m < 64 * floor((M + 63) / 64) and "
           "0 <= n < 32 * floor((N + 31) / 32) and "
           "0 <= k < 16 * floor((K + 15) / 16) }");
  EXPECT_TRUE(Padded.is_equal(Expected)) << islStr(Padded);
}

TEST(ScheduleStepsTest, InitialScheduleIsOnePermutableBand) {
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  isl::set D(Ctx, Box);
  isl::schedule S = initialSchedule(D);
  EXPECT_TRUE(domainOf(S).is_equal(D));
  isl::schedule_node B = bandAt(S, 0);
  ASSERT_TRUE(isBand(B));
  EXPECT_EQ(bandMembers(B), 3u);
  EXPECT_EQ(isl_schedule_node_band_get_permutable(B.get()), isl_bool_true);
  EXPECT_EQ(isl_schedule_node_band_member_get_coincident(B.get(), 0), isl_bool_true);
  EXPECT_EQ(isl_schedule_node_band_member_get_coincident(B.get(), 1), isl_bool_true);
  EXPECT_EQ(isl_schedule_node_band_member_get_coincident(B.get(), 2), isl_bool_false);
  EXPECT_TRUE(bandMap(B, D).is_equal(isl::union_map(
      isl::map(Ctx, "[M, N, K] -> { R[m, n, k] -> [m, n, k] : 0 <= m < M and "
                    "0 <= n < N and 0 <= k < K }"))));
  std::string T = printTree(S);
  EXPECT_NE(T.find("permutable: 1"), std::string::npos) << T;
}

TEST(ScheduleStepsTest, TileForBlocksAndSplit) {
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  KernelConfig C = paperConfig();
  isl::set D(Ctx, Box);
  isl::schedule S = tileForBlocks(initialSchedule(D), C);
  isl::schedule_node Tile = bandAt(S, 0), Point = bandAt(S, 1);
  ASSERT_TRUE(isBand(Tile));
  ASSERT_TRUE(isBand(Point));
  EXPECT_EQ(bandMembers(Tile), 3u);
  EXPECT_EQ(bandMembers(Point), 3u);
  // Tile loops are not scaled; point loops are shifted to start at 0.
  EXPECT_TRUE(bandMap(Tile, D).is_equal(isl::union_map(isl::map(
      Ctx, "[M, N, K] -> { R[m, n, k] -> [floor(m / 128), floor(n / 128), "
           "floor(k / 32)] : 0 <= m < M and 0 <= n < N and 0 <= k < K }"))))
      << islStr(bandMap(Tile, D));
  EXPECT_TRUE(bandMap(Point, D).is_equal(isl::union_map(isl::map(
      Ctx, "[M, N, K] -> { R[m, n, k] -> [m mod 128, n mod 128, k mod 32] : "
           "0 <= m < M and 0 <= n < N and 0 <= k < K }"))))
      << islStr(bandMap(Point, D));

  // [bm, bn] | [bk]: the reduction tile loop becomes its own band.
  isl::schedule Split = splitReductionTile(S);
  isl::schedule_node Blocks = bandAt(Split, 0), MainLoop = bandAt(Split, 1);
  ASSERT_TRUE(isBand(Blocks));
  ASSERT_TRUE(isBand(MainLoop));
  EXPECT_EQ(bandMembers(Blocks), 2u);
  EXPECT_EQ(bandMembers(MainLoop), 1u);
  EXPECT_TRUE(bandMap(MainLoop, D).is_equal(isl::union_map(isl::map(
      Ctx, "[M, N, K] -> { R[m, n, k] -> [floor(k / 32)] : 0 <= m < M and "
           "0 <= n < N and 0 <= k < K }"))));
  EXPECT_EQ(bandMembers(bandAt(Split, 2)), 3u); // the point band is untouched
}

/// The steps up to contractToMma of a padded box.
isl::schedule upToContraction(const isl::set &Padded, const KernelConfig &C) {
  isl::schedule S = initialSchedule(Padded);
  S = tileForBlocks(S, C);
  S = splitReductionTile(S);
  S = tileForWarps(S, C);
  S = stripMineReduction(S, C);
  return contractToMma(S, C);
}

TEST(ScheduleStepsTest, ContractToMmaKeepsOnePointPerMma) {
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  KernelConfig C = paperConfig();
  isl::set Padded = padToFullTiles(isl::set(Ctx, Box), C);
  isl::set Contracted = domainOf(upToContraction(Padded, C));
  // Only m % 16 == 0, n % 8 == 0, k % 16 == 0 survive.
  isl::set Expected(
      Ctx, "[M, N, K] -> { R[m, n, k] : 0 <= m < 128 * floor((M + 127) / 128) and "
           "0 <= n < 128 * floor((N + 127) / 128) and "
           "0 <= k < 32 * floor((K + 31) / 32) and m mod 16 = 0 and "
           "n mod 8 = 0 and k mod 16 = 0 }");
  EXPECT_TRUE(Contracted.is_equal(Expected)) << islStr(Contracted);

  // One 128 x 128 x 32 block tile holds (128/16) * (128/8) * (32/16) mmas.
  isl::set One = instance(Contracted, 128, 128, 32);
  EXPECT_EQ(count(One), 8L * 16 * 2);
  EXPECT_TRUE(One.is_equal(isl::set(
      Ctx, "{ R[m, n, k] : 0 <= m < 128 and 0 <= n < 128 and 0 <= k < 32 and "
           "m mod 16 = 0 and n mod 8 = 0 and k mod 16 = 0 }")));
  // 200 x 130 x 40 is padded to 256 x 256 x 64 first.
  EXPECT_EQ(count(instance(Contracted, 200, 130, 40)), 16L * 32 * 4);
}

TEST(ScheduleStepsTest, StepsKeepTheDomainUntilContraction) {
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  KernelConfig C = paperConfig();
  isl::set Padded = padToFullTiles(isl::set(Ctx, Box), C);
  isl::schedule S = initialSchedule(Padded);
  S = tileForBlocks(S, C);
  EXPECT_TRUE(domainOf(S).is_equal(Padded));
  S = splitReductionTile(S);
  EXPECT_TRUE(domainOf(S).is_equal(Padded));
  S = tileForWarps(S, C);
  EXPECT_TRUE(domainOf(S).is_equal(Padded));
  // Warp tiling splits the point band into a warp band and a point band.
  EXPECT_EQ(bandMembers(bandAt(S, 2)), 3u);
  EXPECT_EQ(bandMembers(bandAt(S, 3)), 3u);
  S = stripMineReduction(S, C);
  EXPECT_TRUE(domainOf(S).is_equal(Padded));
  EXPECT_EQ(bandMembers(bandAt(S, 4)), 3u);
}

TEST(ScheduleStepsTest, MapReductionToWarpGroupsIsIdentityForOneGroup) {
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  KernelConfig C = paperConfig();
  isl::schedule S = upToContraction(padToFullTiles(isl::set(Ctx, Box), C), C);
  EXPECT_EQ(printTree(mapReductionToWarpGroups(S, C)), printTree(S));
}

TEST(ScheduleStepsTest, MapReductionToWarpGroupsGivesEachGroupAContiguousShare) {
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  KernelConfig C; // 128 x 128 x 64: 4 k steps of 16 per tile
  C.WarpSplitK = 2;
  isl::set Padded = padToFullTiles(isl::set(Ctx, Box), C);
  isl::schedule S = mapReductionToWarpGroups(upToContraction(Padded, C), C);
  isl::set D = domainOf(S);
  ASSERT_GE(isl_set_find_dim_by_name(D.get(), isl_dim_param, kernel_ids::WarpK), 0);
  auto Group = [&](int Z) {
    isl::set F = D.intersect_params(isl::set(
        Ctx, std::string("[M, N, K, ") + kernel_ids::WarpK + "] -> { : M = 16 and N = 8 and "
             "K = 100 and " + kernel_ids::WarpK + " = " + std::to_string(Z) + " }"));
    unsigned NP = isl_set_dim(F.get(), isl_dim_param);
    // The mmas of the output's first 16 x 8 tile (blocks and warps are
    // not mapped here).
    return isl::manage(isl_set_project_out(F.release(), isl_dim_param, 0, NP))
        .intersect(isl::set(Ctx, "{ R[0, 0, k] }"));
  };
  // K = 100 is padded to two k tiles; group 0 takes k steps 0, 1 of each
  // (k = 0, 16, 64, 80), group 1 steps 2, 3 (k = 32, 48, 96, 112).
  EXPECT_TRUE(Group(0).is_equal(isl::set(
      Ctx, "{ R[0, 0, k] : k = 0 or k = 16 or k = 64 or k = 80 }")))
      << islStr(Group(0));
  EXPECT_TRUE(Group(1).is_equal(isl::set(
      Ctx, "{ R[0, 0, k] : k = 32 or k = 48 or k = 96 or k = 112 }")))
      << islStr(Group(1));
  EXPECT_TRUE(Group(2).is_empty());
  // The groups partition the contracted domain: together they are all of it.
  isl::set All = Group(0).unite(Group(1));
  EXPECT_EQ(count(All), 8L);
}

// ----- decomposeCompute on the canonical GEMM --------------------------------

class DecomposeGemmTest : public ::testing::Test {
protected:
  void SetUp() override {
    E = extract(CanonicalGemm);
    ASSERT_TRUE(E.ok());
    I = IslModel::build(Ctx, *E.Model);
    auto Id = recognizeMatmul(*E.Model, I);
    ASSERT_TRUE(bool(Id)) << takeError(Id.takeError()).Message;
    Idiom = std::move(*Id);
    CS = decomposeCompute(*E.Model, Idiom, I, paperConfig());
  }
  OwnedIslCtx Isl;
  isl::ctx Ctx = Isl.Ctx;
  Extracted E;
  IslModel I;
  MatmulIdiom Idiom;
  ComputeSchedule CS;
};

TEST_F(DecomposeGemmTest, StepNamesInOrder) {
  ASSERT_EQ(CS.Steps.size(), 8u);
  EXPECT_EQ(CS.Steps[0].Name.rfind("padToFullTiles", 0), 0u) << CS.Steps[0].Name;
  const char *Rest[] = {"initialSchedule",    "tileForBlocks",
                        "splitReductionTile", "tileForWarps",
                        "stripMineReduction", "contractToMma",
                        "mapToBlocksAndWarps"};
  for (unsigned I = 0; I < 7; ++I) {
    EXPECT_EQ(CS.Steps[I + 1].Name, Rest[I]);
    EXPECT_FALSE(CS.Steps[I + 1].Tree.empty()) << Rest[I];
    EXPECT_NE(CS.Steps[I + 1].Tree.find("domain:"), std::string::npos) << Rest[I];
  }
  // The first step shows the padded domain in its name.
  EXPECT_NE(CS.Steps[0].Name.find(islStr(CS.PaddedDomain)), std::string::npos);
}

TEST_F(DecomposeGemmTest, ReductionDomainIsOrderedMNK) {
  isl::set D = reductionDomain(*E.Model, Idiom, I, 64);
  EXPECT_TRUE(D.is_equal(isl::set(
      Ctx, "[M, N, K] -> { S1[m, n, k] : 0 <= m < M and 0 <= n < N and 0 <= k < K }")))
      << islStr(D);
}

TEST_F(DecomposeGemmTest, PaddedDomain) {
  isl::set Expected(
      Ctx, "[M, N, K] -> { S1[m, n, k] : 0 <= m < 128 * floor((M + 127) / 128) and "
           "0 <= n < 128 * floor((N + 127) / 128) and "
           "0 <= k < 32 * floor((K + 31) / 32) }");
  EXPECT_TRUE(CS.PaddedDomain.is_equal(Expected)) << islStr(CS.PaddedDomain);
}

TEST_F(DecomposeGemmTest, ContractedDomainIsOneWarpOfOneBlock) {
  // The block and warp ids are parameters of the final domain.
  isl::set D = CS.ContractedDomain;
  for (const char *P : {kernel_ids::BlockM, kernel_ids::BlockN, kernel_ids::WarpM,
                        kernel_ids::WarpN})
    EXPECT_GE(isl_set_find_dim_by_name(D.get(), isl_dim_param, P), 0) << P;
  auto Fix = [&](int M, int N, int K, int BM, int BN, int WM, int WN) {
    std::string Ids = std::string("[M, N, K, ") + kernel_ids::BlockM + ", " +
                      kernel_ids::BlockN + ", " + kernel_ids::WarpM + ", " +
                      kernel_ids::WarpN + "]";
    isl::set F = D.intersect_params(isl::set(
        Ctx, Ids + " -> { : M = " + std::to_string(M) + " and N = " +
                 std::to_string(N) + " and K = " + std::to_string(K) + " and " +
                 kernel_ids::BlockM + " = " + std::to_string(BM) + " and " +
                 kernel_ids::BlockN + " = " + std::to_string(BN) + " and " +
                 kernel_ids::WarpM + " = " + std::to_string(WM) + " and " +
                 kernel_ids::WarpN + " = " + std::to_string(WN) + " }"));
    unsigned NP = isl_set_dim(F.get(), isl_dim_param);
    return isl::manage(isl_set_project_out(F.release(), isl_dim_param, 0, NP));
  };
  // A 64 x 64 warp tile over K = 32: 4 x 8 x 2 mmas.
  isl::set W00 = Fix(128, 128, 32, 0, 0, 0, 0);
  EXPECT_EQ(count(W00), 4L * 8 * 2);
  EXPECT_TRUE(W00.is_equal(isl::set(
      Ctx, "{ S1[m, n, k] : 0 <= m < 64 and 0 <= n < 64 and 0 <= k < 32 and "
           "m mod 16 = 0 and n mod 8 = 0 and k mod 16 = 0 }")))
      << islStr(W00);
  isl::set W11 = Fix(128, 128, 32, 0, 0, 1, 1);
  EXPECT_TRUE(W11.is_equal(isl::set(
      Ctx, "{ S1[m, n, k] : 64 <= m < 128 and 64 <= n < 128 and 0 <= k < 32 and "
           "m mod 16 = 0 and n mod 8 = 0 and k mod 16 = 0 }")))
      << islStr(W11);
  // Only 2 x 2 warps per block, one block for a 128 x 128 output.
  EXPECT_TRUE(Fix(128, 128, 32, 0, 0, 2, 0).is_empty());
  EXPECT_TRUE(Fix(128, 128, 32, 1, 0, 0, 0).is_empty());
  // The second block row of a 256-row output.
  EXPECT_EQ(count(Fix(256, 128, 64, 1, 0, 0, 1)), 4L * 8 * 4);
}

TEST_F(DecomposeGemmTest, StepByStepMatchesDecomposition) {
  KernelConfig C = paperConfig();
  isl::set D = reductionDomain(*E.Model, Idiom, I, 64);
  isl::set Padded = padToFullTiles(D, C);
  EXPECT_TRUE(Padded.is_equal(CS.PaddedDomain));
  isl::schedule S = upToContraction(Padded, C);
  EXPECT_EQ(printTree(S), CS.Steps[6].Tree);
  S = mapToBlocksAndWarps(S, C);
  EXPECT_EQ(printTree(S), CS.Steps[7].Tree);
  EXPECT_TRUE(domainOf(S).is_equal(CS.ContractedDomain));
}

// A launcher of the sm_90 components takes its grid's tiles without the
// kernel schedule: they must be the schedule's, in print too (the
// launcher's condition is printed from them).
TEST_F(DecomposeGemmTest, GridTilesAreTheKernelSchedules) {
  KernelConfig Copying = paperConfig();
  KernelConfig Persistent = paperConfig();
  Persistent.Arch = GpuArch::SM90a;
  Persistent.BlockK = 64;
  Persistent.Tma = true;
  Persistent.PersistentTiles = true;
  for (const KernelConfig &C : {Copying, Persistent}) {
    ComputeSchedule S = decomposeCompute(*E.Model, Idiom, I, C);
    StatementTexts T;
    T.TmaLoad = {""}; // one product's copies
    KernelSchedule KS = buildKernelSchedule(*E.Model, Idiom, I, S, C, T);
    isl::set Tiles = gridTiles(*E.Model, Idiom, I, C);
    EXPECT_TRUE(Tiles.is_equal(KS.GridTiles)) << islStr(Tiles);
    EXPECT_EQ(islStr(Tiles), islStr(KS.GridTiles));
  }
}

} // namespace
