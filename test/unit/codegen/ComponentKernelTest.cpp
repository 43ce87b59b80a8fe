//===- ComponentKernelTest.cpp - which kernels the sm_90 components make --===//
#include "ComponentKernel.h"
#include "gtest/gtest.h"

using namespace tc;

namespace {

/// The region's default sm_90a kernel: 128x128x64 tiles, three TMA stages,
/// two consumer warpgroups and a producer warp.
KernelConfig tmaKernel() {
  KernelConfig C;
  C.Arch = GpuArch::SM90a;
  C.Path = MmaPath::Wgmma;
  C.Tma = true;
  C.WgmmaPending = 1;
  C.WarpM = 16;
  C.WarpN = 128;
  return C;
}

/// fp16 C = A B, A stored [m][k] and B stored [k][n].
MatmulIdiom gemm(ElementType T = ElementType::F16) {
  MatmulIdiom I;
  I.InputType = T;
  I.A.ReductionIsContiguous = true;
  I.B.ReductionIsContiguous = false;
  return I;
}

/// fp16 C = A B, both K-major, the 8-bit operand (A, or B) converted while
/// copied.
MatmulIdiom eightBitGemm(bool OnA) {
  MatmulIdiom I = gemm();
  I.B.ReductionIsContiguous = true;
  OperandView &Q = OnA ? I.A : I.B;
  Q.ConvertWhileCopying = Q.EightBit = true;
  return I;
}

/// The 128x128 kernel of four TMA stages that lands that operand raw and
/// converts it in its register fragments.
KernelConfig rawFragmentKernel(bool OnA) {
  KernelConfig C = tmaKernel();
  C.Stages = 4;
  if (OnA)
    C.RawFragmentsA = C.ConvertsLandedOperands = true;
  else
    C.RawStagesB = C.RawFragmentsB = true;
  return C;
}

TEST(ComponentKernelTest, PlainTmaKernelsCompose) {
  EXPECT_EQ(sm90ComponentMismatch(tmaKernel(), gemm(), {}), "");
  EXPECT_TRUE(composesSm90Gemm(tmaKernel(), gemm(ElementType::BF16), {}));
  KernelConfig Fitted = tmaKernel();
  Fitted.BlockM = Fitted.BlockN = 192;
  Fitted.Stages = 4;
  EXPECT_TRUE(composesSm90Gemm(Fitted, gemm(), {}));
}

TEST(ComponentKernelTest, StreamUnitsComposeWithTheirScheduler) {
  KernelConfig Wide = tmaKernel();
  Wide.BlockN = 192;
  Wide.Stages = 4;
  EXPECT_EQ(sm90SchedulerType(Wide, {}), "tc::sm90::TilesScheduler");
  Wide.StreamUnits = true;
  EXPECT_TRUE(composesSm90Gemm(Wide, gemm(), {}));
  EXPECT_EQ(sm90SchedulerType(Wide, {}), "tc::sm90::StreamUnitsScheduler");
}

TEST(ComponentKernelTest, PairsShareBsTileInHalves) {
  // The 128x256 kernel: pairs beside the stream units, by the wide tiles' rule.
  KernelConfig Wide = tmaKernel();
  Wide.BlockN = 256;
  Wide.Stages = 4;
  Wide.StreamUnits = Wide.PairedTiles = true;
  EXPECT_TRUE(composesSm90Gemm(Wide, gemm(), {}));
  EXPECT_EQ(sm90SchedulerType(Wide, {}), "tc::sm90::PairsScheduler<tc::kPairWideTiles, true>");
  EXPECT_NE(sm90MainloopType(Wide, gemm()).find("OperandTile<__half, 256, tc::sm90::Major::MN, true>"),
            std::string::npos);
  EXPECT_EQ(sm90OperandTileType(Wide, gemm(), true), "tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>");
  // An N-major B's tile splits in halves of whole 64-wide panels; a
  // K-major one in halves of whole 8-row swizzle atoms (the fitted widths).
  Wide.BlockN = 192;
  EXPECT_EQ(sm90ComponentMismatch(Wide, gemm(), {}), "its tiles");
  MatmulIdiom KMajorB = gemm();
  KMajorB.B.ReductionIsContiguous = true;
  for (int Width : {176, 192, 224}) {
    Wide.BlockN = Width;
    EXPECT_TRUE(composesSm90Gemm(Wide, KMajorB, {})) << Width;
  }
  Wide.BlockN = 168; // halves of 84 rows
  EXPECT_EQ(sm90ComponentMismatch(Wide, KMajorB, {}), "its tiles");
  Wide.PairedTiles = false;
  EXPECT_TRUE(composesSm90Gemm(Wide, KMajorB, {}));
  EXPECT_EQ(sm90ComponentMismatch(Wide, gemm(), {}), "its tiles");
}

TEST(ComponentKernelTest, PersistentBlocksComposeWithEpilogueWarpgroups) {
  KernelConfig Persistent = tmaKernel();
  Persistent.Stages = 4;
  Persistent.PersistentTiles = true;
  EXPECT_TRUE(composesSm90Gemm(Persistent, gemm(), {}));
  EXPECT_EQ(sm90SchedulerType(Persistent, {}), "tc::sm90::PersistentScheduler");
}

TEST(ComponentKernelTest, OneWarpgroupKernelsTakeClusterParts) {
  // 64x128 tiles in four stages (two blocks an SM): cluster parts, else
  // pairs by the rule of two blocks an SM.
  KernelConfig Narrow = tmaKernel();
  Narrow.BlockM = 64;
  Narrow.Stages = 4;
  Narrow.PairedTiles = true;
  EXPECT_TRUE(composesSm90Gemm(Narrow, gemm(), {}));
  EXPECT_EQ(sm90SchedulerType(Narrow, {}),
            "tc::sm90::ClusterPartsScheduler<12, tc::sm90::PairsScheduler<tc::kPairTwoBlocksPerSm>>");
  // Eight stages: one block an SM, pairs for outputs of one round.
  Narrow.Stages = 8;
  EXPECT_EQ(sm90SchedulerType(Narrow, {}),
            "tc::sm90::ClusterPartsScheduler<12, tc::sm90::PairsScheduler<tc::kPairOneRound>>");
  // 64x64 tiles without pairs.
  Narrow.BlockN = 64;
  Narrow.Stages = 6;
  Narrow.PairedTiles = false;
  EXPECT_EQ(sm90SchedulerType(Narrow, {}), "tc::sm90::ClusterPartsScheduler<12>");
  // A split_k clause splits every tile itself: its parts, no cluster parts.
  RegionClauses SplitK;
  SplitK.SplitK = 4;
  EXPECT_EQ(sm90SchedulerType(Narrow, SplitK), "tc::sm90::SplitScheduler<4>");
  EXPECT_FALSE(usesDefaultSm90Scheduler(Narrow, SplitK));
}

TEST(ComponentKernelTest, EachDifferenceKeepsTheGeneratedKernel) {
  auto Mismatch = [](auto Change, MatmulIdiom I = gemm(), RegionClauses Cl = {}) {
    KernelConfig C = tmaKernel();
    Change(C);
    return sm90ComponentMismatch(C, I, Cl);
  };
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.Arch = GpuArch::SM80; }), "not a TMA + wgmma kernel");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.Tma = false; }), "not a TMA + wgmma kernel");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.Path = MmaPath::Sync; }), "not a TMA + wgmma kernel");
  // A producer warpgroup (tc::sm90::ProducerWarpgroup), in persistent
  // blocks too.
  EXPECT_EQ(Mismatch([](KernelConfig &C) {
              C.PersistentTiles = C.ProducerWarpgroup = true;
            }),
            "");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.ProducerWarpgroup = true; }), "");
  // The split_k clause is a scheduler (tc::sm90::SplitScheduler).
  RegionClauses SplitK;
  SplitK.SplitK = 4;
  EXPECT_EQ(Mismatch([](KernelConfig &) {}, gemm(), SplitK), "");
  RegionClauses WarpSplitK;
  WarpSplitK.WarpSplitK = 2;
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.WarpSplitK = 2; }, gemm(), WarpSplitK),
            "its warp roles");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.RawStagesB = true; }),
            "operands converted in the kernel");
  // A kernel that applies a prologue the region does not have.
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.WgmmaRegisterA = true; }), "an operand prologue");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.WgmmaPending = 0; }), "its warp roles");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.BlockN = 96; }), "its tiles");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.BlockK = 32; }), "its tiles");
  // 256x256 tiles in three stages: the fp32 output tile does not fit.
  EXPECT_EQ(Mismatch([](KernelConfig &C) {
              C.BlockM = C.BlockN = 256;
              C.Stages = 2;
            }),
            "an epilogue from registers");
  EXPECT_EQ(Mismatch([](KernelConfig &) {}, gemm(ElementType::F32)), "its operand type");
  // A batch is composed (tc::sm90::launch_batched_gemm).
  MatmulIdiom Batched = gemm();
  Batched.IterBatch = "b";
  EXPECT_EQ(Mismatch([](KernelConfig &) {}, Batched), "");
  // A sum of products is composed (tc/sm90/products.cuh) where every
  // product's operands have the first's layouts and no prologue.
  MatmulIdiom Sum = gemm();
  Sum.MoreProducts.push_back({0, "k2", {}, Sum.A, Sum.B});
  EXPECT_EQ(Mismatch([](KernelConfig &) {}, Sum), "");
  MatmulIdiom Mixed = Sum;
  Mixed.MoreProducts[0].B.ReductionIsContiguous = !Sum.B.ReductionIsContiguous;
  EXPECT_EQ(Mismatch([](KernelConfig &) {}, Mixed), "products of different operand layouts");
  MatmulIdiom Masked = Sum;
  Masked.MoreProducts[0].A.ConvertWhileCopying = true;
  Masked.MoreProducts[0].A.Mask.resize(1);
  EXPECT_EQ(Mismatch([](KernelConfig &) {}, Masked), "an operand mask");
  MatmulIdiom Converted = gemm();
  Converted.A.ConvertWhileCopying = true;
  Converted.A.Prologue.push_back(nullptr);
  EXPECT_EQ(Mismatch([](KernelConfig &) {}, Converted), "an operand converted while copied");
  // Where A lands raw for the consumers to convert its fragments by each
  // element's place (tc::sm90::Converted); not a B (converted in its
  // stages in place, which ran slower than the cp.async kernels), not a
  // mask (TMA would read elements the loops do not), nor in a sum of
  // products, whose functors know no product.
  auto Landed = [](KernelConfig &C) { C.ConvertsLandedOperands = true; };
  EXPECT_EQ(Mismatch(Landed, Converted), "");
  MatmulIdiom ConvertedB = gemm();
  ConvertedB.B.ConvertWhileCopying = true;
  EXPECT_EQ(Mismatch(Landed, ConvertedB), "an operand converted while copied");
  MatmulIdiom MaskedA = Converted;
  MaskedA.A.Mask.resize(1);
  EXPECT_EQ(Mismatch(Landed, MaskedA), "an operand mask");
  MatmulIdiom SumConverted = Sum;
  SumConverted.A.ConvertWhileCopying = true;
  EXPECT_EQ(Mismatch(Landed, SumConverted), "an operand converted while copied");
  MatmulIdiom Guarded = Converted;
  Guarded.OutputGuard.resize(1);
  EXPECT_EQ(Mismatch(Landed, Guarded), "an operand converted while copied");
  // A prologue of the element alone, where the kernel applies it
  // (tc/sm90/roles.cuh): on A's fragments, on A's or B's landed stages.
  MatmulIdiom ReluA = gemm(), ReluB = gemm();
  ReluA.A.Prologue.push_back(nullptr);
  ReluB.B.Prologue.push_back(nullptr);
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.WgmmaRegisterA = true; }, ReluA), "");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.ConvertStages = true; }, ReluA), "");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.ConvertStagesB = true; }, ReluB), "");
  EXPECT_EQ(Mismatch([](KernelConfig &) {}, ReluA), "an operand prologue");
  EXPECT_EQ(Mismatch([](KernelConfig &C) { C.ConvertStages = true; }, ReluB),
            "an operand prologue");
  MatmulIdiom SumRelu = Sum;
  SumRelu.MoreProducts[0].A.Prologue.push_back(nullptr);
  EXPECT_EQ(Mismatch([](KernelConfig &) {}, SumRelu), "an operand prologue in a sum of products");
}

TEST(ComponentKernelTest, PoliciesNameWhereThePrologueRuns) {
  MatmulIdiom ReluA = gemm(), ReluB = gemm();
  ReluA.A.Prologue.push_back(nullptr);
  ReluB.B.Prologue.push_back(nullptr);
  KernelConfig C = tmaKernel();
  EXPECT_EQ(sm90MainloopPolicies(C, gemm(), "r"), "");
  C.ConvertStages = true;
  EXPECT_EQ(sm90MainloopPolicies(C, ReluA, "r"), ", tc::sm90::SharedOperands<r_prologue_a>");
  C.ConvertStages = false;
  C.ConvertStagesB = true;
  EXPECT_EQ(sm90MainloopPolicies(C, ReluB, "r"),
            ", tc::sm90::SharedOperands<tc::sm90::NoPrologue, r_prologue_b>");
  // 128x256 tiles beside a producer warpgroup: 40 registers a producer
  // thread, the rest (232) a consumer's.
  C.ConvertStagesB = false;
  C.WgmmaRegisterA = C.ProducerWarpgroup = true;
  C.BlockN = C.WarpN = 256;
  EXPECT_EQ(sm90MainloopPolicies(C, ReluA, "r"),
            ", tc::sm90::RegisterA<r_prologue_a>, tc::sm90::ProducerWarpgroup<40, 232>");
  // Persistent blocks: the copying producer keeps 56, one epilogue
  // warpgroup 48, the consumers 200.
  C.BlockN = C.WarpN = 128;
  C.PersistentTiles = true;
  EXPECT_EQ(sm90MainloopPolicies(C, ReluA, "r"),
            ", tc::sm90::RegisterA<r_prologue_a>, tc::sm90::ProducerWarpgroup<56, 200, 48>");
  // A converted by its place: its functor on A's register fragments.
  KernelConfig Landed = tmaKernel();
  Landed.ConvertsLandedOperands = true;
  MatmulIdiom ConvertedA = gemm();
  ConvertedA.A.ConvertWhileCopying = true;
  EXPECT_EQ(sm90MainloopPolicies(Landed, ConvertedA, "r"),
            ", tc::sm90::RegisterA<tc::sm90::Converted<r_operand_a>>");
}

TEST(ComponentKernelTest, MainloopTypeNamesTheOperandLayouts) {
  MatmulIdiom I = gemm(ElementType::BF16);
  I.B.ReductionIsContiguous = true; // X W^T: B stored [n][k]
  KernelConfig C = tmaKernel();
  C.BlockN = 256;
  C.Stages = 4;
  std::string T = sm90MainloopType(C, I);
  EXPECT_NE(T.find("OperandTile<__nv_bfloat16, 128, tc::sm90::Major::K>"), std::string::npos) << T;
  EXPECT_NE(T.find("OperandTile<__nv_bfloat16, 256, tc::sm90::Major::K>, 4>"), std::string::npos)
      << T;
  I.A.ReductionIsContiguous = false;
  EXPECT_NE(sm90MainloopType(C, I).find("OperandTile<__nv_bfloat16, 128, tc::sm90::Major::MN>"),
            std::string::npos);
}

TEST(ComponentKernelTest, LaunchersPrintTheMainloopAnOperandALine) {
  KernelConfig C = tmaKernel();
  C.Stages = 3;
  EXPECT_EQ(sm90MainloopType(C, gemm(), true),
            "tc::sm90::TmaWgmmaMainloop<\n"
            "        tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>,  // A\n"
            "        tc::sm90::OperandTile<__half, 128, tc::sm90::Major::MN>,  // B\n"
            "        3>");
}

TEST(ComponentKernelTest, OnlyPlainTilesUseTheDefaultScheduler) {
  KernelConfig C = tmaKernel();
  EXPECT_TRUE(usesDefaultSm90Scheduler(C, {}));
  EXPECT_EQ(sm90SchedulerType(C, {}), "tc::sm90::TilesScheduler");
  for (auto Change : {+[](KernelConfig &K) { K.PersistentTiles = true; },
                      +[](KernelConfig &K) { K.PairedTiles = true; },
                      +[](KernelConfig &K) { K.StreamUnits = true; }}) {
    KernelConfig K = tmaKernel();
    Change(K);
    EXPECT_FALSE(usesDefaultSm90Scheduler(K, {}));
    EXPECT_NE(sm90SchedulerType(K, {}), "tc::sm90::TilesScheduler");
  }
}

TEST(ComponentKernelTest, FunctorRowForEachLaneWidth) {
  std::vector<FunctorMember> Members{{"long long ", "N"}, {"float *__restrict__ ", "C"}};
  const std::string Element = "C[tc_m * N + tc_n] = tc_sum;\n";
  const std::string Lanes = "lanes of tc_sums[tc_v] at tc_n0\n";
  std::string Eight = epilogueFunctorText("tc_f_0_epilogue", "// f\n", Members, Element, Lanes, 8);
  EXPECT_EQ(Eight, "// f\n"
                   "struct tc_f_0_epilogue {\n"
                   "  long long N;\n"
                   "  float *__restrict__ C;\n"
                   "  __device__ void operator()(long long tc_m, long long tc_n, float tc_sum) "
                   "const {\n"
                   "    C[tc_m * N + tc_n] = tc_sum;\n"
                   "  }\n"
                   "  __device__ void row(long long tc_m, long long tc_n0, const float "
                   "(&tc_sums)[8]) const {\n"
                   "    lanes of tc_sums[tc_v] at tc_n0\n"
                   "  }\n"
                   "};\n\n");
  // Four lanes (a float output): the row is two of them.
  std::string Four = epilogueFunctorText("tc_f_0_epilogue", "", Members, Element, Lanes, 4);
  EXPECT_NE(Four.find("for (int tc_h = 0; tc_h < 8; tc_h += 4) {\n"
                      "      const long long tc_n0 = tc_j0 + tc_h;\n"
                      "      const float *tc_sums = tc_row + tc_h;\n"
                      "      lanes of tc_sums[tc_v] at tc_n0\n"),
            std::string::npos)
      << Four;
  // No lane form (an output not contiguous along n): eight elements.
  std::string None = epilogueFunctorText("tc_f_0_epilogue", "", Members, Element, "", 0);
  EXPECT_NE(None.find("(*this)(tc_m, tc_n0 + tc_v, tc_sums[tc_v]);"), std::string::npos) << None;
  EXPECT_EQ(None.find("lanes"), std::string::npos);
  // A batch's functor takes the entry first (tc::BatchEntryEpilogue, tc/batch_entry.cuh).
  std::string Batch =
      epilogueFunctorText("tc_f_0_epilogue", "", Members, Element, Lanes, 8, true);
  EXPECT_NE(Batch.find("operator()(long long tc_batch, long long tc_m, long long tc_n, float "
                       "tc_sum) const {\n"),
            std::string::npos)
      << Batch;
  EXPECT_NE(Batch.find("row(long long tc_batch, long long tc_m, long long tc_n0, const float "
                       "(&tc_sums)[8]) const {\n"),
            std::string::npos)
      << Batch;
  std::string BatchNone =
      epilogueFunctorText("tc_f_0_epilogue", "", Members, Element, "", 0, true);
  EXPECT_NE(BatchNone.find("(*this)(tc_batch, tc_m, tc_n0 + tc_v, tc_sums[tc_v]);"),
            std::string::npos)
      << BatchNone;
}

} // namespace

namespace {

/// Y = X W^T with W int8 [n][k] minus a zero point per row: the layer the
/// decode component takes at M <= 64.
MatmulIdiom weightOnlyLayer() {
  MatmulIdiom I = gemm();
  I.B.ReductionIsContiguous = true;
  I.B.EightBit = I.B.ConvertWhileCopying = true;
  I.B.Offset = OperandView::ElementOffset{};
  return I;
}

TEST(ComponentKernelTest, WeightOnlyLayersTakeTheDecodeKernel) {
  EXPECT_EQ(weightStreamMismatch(tmaKernel(), weightOnlyLayer(), {}), "");
  KernelConfig Ampere;
  Ampere.Arch = GpuArch::SM80;
  EXPECT_EQ(weightStreamMismatch(Ampere, weightOnlyLayer(), {}), "");
}

TEST(ComponentKernelTest, EachDifferenceKeepsTheLayersKernels) {
  auto Mismatch = [](auto Change, RegionClauses Cl = {}) {
    MatmulIdiom I = weightOnlyLayer();
    Change(I);
    return weightStreamMismatch(tmaKernel(), I, Cl);
  };
  const std::string NotA = "A is not fp16 as stored, k contiguous";
  const std::string NotB = "B is not 8-bit weights minus an offset, k contiguous";
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.InputType = ElementType::BF16; }), NotA);
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.A.ConvertWhileCopying = true; }), NotA);
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.A.ReductionIsContiguous = false; }), NotA);
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.A.InnerStride = 2; }), NotA);
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.B.Offset.reset(); }), NotB);
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.B.EightBit = false; }), NotB);
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.B.ReductionIsContiguous = false; }), NotB);
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.B.Mask.resize(1); }), NotB);
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.IterBatch = "b"; }), "a sum of products or a batch");
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.MoreProducts.resize(1); }),
            "a sum of products or a batch");
  EXPECT_EQ(Mismatch([](MatmulIdiom &I) { I.OutputGuard.resize(1); }), "a guard of the output");
  RegionClauses Tile;
  Tile.Tile = std::vector<int>{128, 128, 64};
  EXPECT_EQ(Mismatch([](MatmulIdiom &) {}, Tile), "a clause fixes the kernel");
  RegionClauses SplitK;
  SplitK.SplitK = 2;
  EXPECT_EQ(Mismatch([](MatmulIdiom &) {}, SplitK), "a clause fixes the kernel");
}

} // namespace

namespace {

/// The region's kernels for a default 128x128 kernel and further kernels
/// with these rules (their configurations only tell the tiles apart).
std::vector<AlternativeKernel> alternatives(std::initializer_list<const char *> Predicates) {
  std::vector<AlternativeKernel> Alts;
  for (const char *P : Predicates) {
    KernelConfig K = tmaKernel();
    K.Stages = 4;
    if (llvm::StringRef(P) == "prefer_persistent_tiles")
      K.PersistentTiles = true;
    else if (llvm::StringRef(P) == "prefer_wide_tma_tiles")
      K.BlockN = 256;
    Alts.push_back({K, std::string("_") + P, P});
  }
  return Alts;
}

std::vector<std::string> predicates(const RegionKernels &R) {
  std::vector<std::string> P;
  for (const AlternativeKernel &A : R.Alternatives)
    P.push_back(A.Predicate);
  return P;
}

} // namespace

TEST(ComponentKernelTest, PersistentKernelIsTheComposedRegionsDefault) {
  KernelConfig Default = tmaKernel();
  Default.Stages = 3;
  RegionKernels R = regionKernels(
      Default,
      alternatives({"prefer_wide_tma_tiles", "prefer_persistent_tiles", "prefer_narrow_tiles"}),
      gemm(), {});
  EXPECT_TRUE(R.Default.PersistentTiles);
  EXPECT_EQ(R.Default.Stages, 4);
  EXPECT_EQ(predicates(R), std::vector<std::string>{"prefer_wide_tma_tiles"});
}

TEST(ComponentKernelTest, RegionKernelsUnchangedWithoutComposedPersistentKernel) {
  KernelConfig Default = tmaKernel();
  Default.Stages = 3;
  // No persistent alternative (a split_k clause, a prologue on B).
  RegionKernels R =
      regionKernels(Default, alternatives({"prefer_wide_tma_tiles", "prefer_narrow_tiles"}),
                    gemm(), {});
  EXPECT_FALSE(R.Default.PersistentTiles);
  EXPECT_EQ(predicates(R),
            (std::vector<std::string>{"prefer_wide_tma_tiles", "prefer_narrow_tiles"}));
  // A region the components do not compose (8-bit operands): its text
  // kernels keep their own default.
  R = regionKernels(Default, alternatives({"prefer_persistent_tiles", "prefer_narrow_tiles"}),
                    gemm(ElementType::I8), {});
  EXPECT_FALSE(R.Default.PersistentTiles);
  EXPECT_EQ(R.Alternatives.size(), 2u);
}

TEST(ComponentKernelTest, BatchKeepsTmaOnTheComponentsOnly) {
  MatmulIdiom Batched = gemm();
  Batched.IterBatch = "b";
  KernelConfig Default = tmaKernel();
  Default.Stages = 3;
  // Composed: the persistent default and the wide alternative stay.
  RegionKernels R = regionKernels(
      Default, alternatives({"prefer_wide_tma_tiles", "prefer_persistent_tiles"}), Batched, {});
  keepTmaOnComponents(R, Batched, {});
  EXPECT_TRUE(R.Default.Tma && R.Default.PersistentTiles);
  EXPECT_EQ(predicates(R), std::vector<std::string>{"prefer_wide_tma_tiles"});
  // A warp_split_k clause, which the components lack: no TMA kernel is
  // left, the default being its cp.async twin (the generated TMA kernels
  // have no batch coordinate).
  RegionClauses WarpSplitK;
  WarpSplitK.WarpSplitK = 2;
  Default.WarpSplitK = 2;
  std::vector<AlternativeKernel> Alts =
      alternatives({"prefer_wide_tma_tiles", "prefer_narrow_tiles"});
  for (AlternativeKernel &A : Alts)
    A.Config.WarpSplitK = 2;
  R = regionKernels(Default, Alts, Batched, WarpSplitK);
  keepTmaOnComponents(R, Batched, WarpSplitK);
  EXPECT_FALSE(R.Default.Tma);
  EXPECT_TRUE(R.Alternatives.empty());
}

TEST(ComponentKernelTest, ConvertedOperandsKeepTmaOnTheComponentsOnly) {
  MatmulIdiom Converted = gemm();
  Converted.A.ConvertWhileCopying = true;
  KernelConfig Default = tmaKernel();
  Default.ConvertsLandedOperands = true;
  auto Kernels = [&] {
    std::vector<AlternativeKernel> Alts = alternatives({"prefer_narrow_converted_tiles"});
    for (AlternativeKernel &A : Alts)
      A.Config.ConvertsLandedOperands = true;
    return regionKernels(Default, Alts, Converted, {});
  };
  RegionKernels R = Kernels();
  keepTmaOnComponents(R, Converted, {});
  EXPECT_TRUE(R.Default.Tma && R.Default.ConvertsLandedOperands);
  EXPECT_EQ(predicates(R), std::vector<std::string>{"prefer_narrow_converted_tiles"});
  // A guard of the output, which the components lack: the cp.async twin
  // converts while copying, and no TMA kernel is left.
  Converted.OutputGuard.resize(1);
  R = Kernels();
  keepTmaOnComponents(R, Converted, {});
  EXPECT_FALSE(R.Default.Tma || R.Default.ConvertsLandedOperands);
  EXPECT_TRUE(R.Alternatives.empty());
}

TEST(ComponentKernelTest, ComposedKernelsTakeEveryShapeWithoutATwin) {
  KernelConfig Persistent = tmaKernel();
  Persistent.Stages = 4;
  Persistent.PersistentTiles = true;
  EXPECT_TRUE(componentKernelsTakeEveryShape(Persistent, alternatives({"prefer_wide_tma_tiles"}),
                                             gemm(), {}));
  // A default of two blocks per SM (a stages clause): composed too.
  KernelConfig Default = tmaKernel();
  Default.Stages = 3;
  EXPECT_TRUE(componentKernelsTakeEveryShape(Default, {}, gemm(), {}));
  // An alternative the components do not compose (its tiles do not split
  // into halves of whole panels for pairs): the cp.async twin.
  std::vector<AlternativeKernel> Alts = alternatives({"prefer_wide_tma_tiles"});
  Alts[0].Config.BlockN = 192;
  Alts[0].Config.PairedTiles = true;
  EXPECT_FALSE(componentKernelsTakeEveryShape(Persistent, Alts, gemm(), {}));
  // A producer warpgroup that gives its registers away copies nothing
  // outside the persistent kernel (tc::sm90::kCopiesUnmapped).
  KernelConfig Giving = tmaKernel();
  Giving.Stages = 4;
  Giving.ProducerWarpgroup = true;
  ASSERT_TRUE(composesSm90Gemm(Giving, gemm(), {}));
  EXPECT_FALSE(componentKernelsTakeEveryShape(Giving, {}, gemm(), {}));
  // As an alternative it leaves those shapes to the default.
  EXPECT_TRUE(componentKernelsTakeEveryShape(Persistent, {{Giving, "_giving", "p"}}, gemm(), {}));
  Giving.PersistentTiles = true;
  EXPECT_TRUE(componentKernelsTakeEveryShape(Giving, {}, gemm(), {}));
  // A default the components do not compose (8-bit B landing raw).
  Default.RawStagesB = true;
  EXPECT_FALSE(componentKernelsTakeEveryShape(Default, {}, gemm(), {}));
}

namespace {

/// The default sm_80 kernel: 128x128x64 tiles, 64x64 warp tiles (4 warps),
/// three cp.async stages, mma.sync.m16n8k16.
KernelConfig mmaSyncKernel() {
  KernelConfig C;
  C.Arch = GpuArch::SM80;
  C.Path = MmaPath::Sync;
  return C;
}

/// The tf32 one of fp32 operands: 128x128x32, 64x32 warp tiles (8 warps).
KernelConfig tf32Kernel() {
  KernelConfig C = mmaSyncKernel();
  C.BlockK = 32;
  C.WarpN = 32;
  C.MmaK = 8;
  C.ElementBytes = 4;
  C.Tf32 = true;
  return C;
}

} // namespace

TEST(ComponentKernelTest, MmaSyncKernelsCompose) {
  // Also with fewer than four warps or an odd number of k steps (the main
  // loop then loads each step's fragments just before its mmas).
  KernelConfig Small = mmaSyncKernel();
  Small.BlockM = Small.BlockN = 64;
  Small.BlockK = 32;
  Small.WarpN = 32;
  Small.DoubleBufferFragments = false;
  EXPECT_EQ(sm80ComponentMismatch(Small, gemm(), {}), "");
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), gemm(), {}), "");
  EXPECT_TRUE(composesSm80Gemm(mmaSyncKernel(), gemm(ElementType::BF16), {}));
  // Not the sm_90 components' kernel, nor they the mma.sync one's.
  EXPECT_FALSE(composesSm90Gemm(mmaSyncKernel(), gemm(), {}));
  EXPECT_EQ(sm80ComponentMismatch(tmaKernel(), gemm(), {}), "not a cp.async + mma.sync kernel");
  EXPECT_EQ(sm80MainloopType(mmaSyncKernel(), gemm()),
            "tc::sm80::CpAsyncMmaMainloop<tc::sm80::OperandTile<__half, 128, tc::sm80::Major::K>, "
            "tc::sm80::OperandTile<__half, 128, tc::sm80::Major::MN>, 64, 3, 2, 2>");
  // fp32 operands as tf32 (m16n8k8), and not fp32 ones read otherwise.
  EXPECT_EQ(sm80ComponentMismatch(tf32Kernel(), gemm(ElementType::F32), {}), "");
  EXPECT_EQ(sm80MainloopType(tf32Kernel(), gemm(ElementType::F32)),
            "tc::sm80::CpAsyncMmaMainloop<tc::sm80::OperandTile<float, 128, tc::sm80::Major::K>, "
            "tc::sm80::OperandTile<float, 128, tc::sm80::Major::MN>, 32, 3, 2, 4>");
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), gemm(ElementType::F32), {}),
            "its operand type");
}

TEST(ComponentKernelTest, MmaSyncKernelsKeepTheirBodiesWhereComponentsLack) {
  // Warp groups splitting a tile's k steps (warp_split_k) are the main
  // loop's kWarpsK, after its prologues.
  KernelConfig Split = mmaSyncKernel();
  Split.WarpSplitK = 2;
  EXPECT_EQ(sm80ComponentMismatch(Split, gemm(), {}), "");
  EXPECT_EQ(sm80MainloopType(Split, gemm(), false, {"tc_f_0"}),
            "tc::sm80::CpAsyncMmaMainloop<tc::sm80::OperandTile<__half, 128, tc::sm80::Major::K>, "
            "tc::sm80::OperandTile<__half, 128, tc::sm80::Major::MN>, 64, 3, 2, 2, "
            "tc::NoPrologue, tc::NoPrologue, 2>");
  MatmulIdiom Relu = gemm();
  Relu.A.Prologue.push_back(nullptr);
  EXPECT_EQ(sm80MainloopType(Split, Relu, false, {"tc_f_0"}),
            "tc::sm80::CpAsyncMmaMainloop<tc::sm80::OperandTile<__half, 128, tc::sm80::Major::K>, "
            "tc::sm80::OperandTile<__half, 128, tc::sm80::Major::MN>, 64, 3, 2, 2, "
            "tc_f_0_prologue_a, tc::NoPrologue, 2>");
  // Steps a group count cannot share.
  Split.WarpSplitK = 3;
  EXPECT_EQ(sm80ComponentMismatch(Split, gemm(), {}), "its warp roles");
  // Packed 4-bit or gathered operands, prologues on both operands, a
  // guarded output.
  MatmulIdiom Packed = gemm();
  Packed.B.ConvertWhileCopying = Packed.B.FourBit = true;
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), Packed, {}),
            "a packed, strided or transposed operand");
  MatmulIdiom Strided = gemm();
  Strided.A.ConvertWhileCopying = true;
  Strided.A.InnerStride = 2;
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), Strided, {}),
            "a packed, strided or transposed operand");
  MatmulIdiom Both = gemm();
  Both.A.Prologue.push_back(nullptr);
  Both.B.Prologue.push_back(nullptr);
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), Both, {}), "prologues on both operands");
  // One operand's prologue is applied to its fragments.
  Both.A.Prologue.clear();
  KernelConfig Single = mmaSyncKernel();
  Single.DoubleBufferFragments = false;
  EXPECT_EQ(sm80ComponentMismatch(Single, Both, {}), "");
  EXPECT_EQ(sm80MainloopType(Single, Both, false, {"tc_f_0"}),
            "tc::sm80::CpAsyncMmaMainloop<tc::sm80::OperandTile<__half, 128, tc::sm80::Major::K>, "
            "tc::sm80::OperandTile<__half, 128, tc::sm80::Major::MN>, 64, 3, 2, 2, "
            "tc::NoPrologue, tc_f_0_prologue_b>");
  // An operand converted while copied (8-bit weights; a mask of the
  // loops' domain) is a ConvertedOperandTile of the stored type and the
  // region's functor.
  MatmulIdiom Weights = gemm();
  Weights.B.ConvertWhileCopying = Weights.B.EightBit = true;
  Weights.A.ConvertWhileCopying = true;
  Weights.A.Mask.push_back(AffineExpr());
  EXPECT_EQ(sm80ComponentMismatch(Single, Weights, {}), "");
  EXPECT_EQ(sm80MainloopType(Single, Weights, false, {"tc_f_0", "__half", "int8_t"}),
            "tc::sm80::CpAsyncMmaMainloop<tc::sm80::ConvertedOperandTile<__half, __half, 128, "
            "tc::sm80::Major::K, tc_f_0_operand_a>, tc::sm80::ConvertedOperandTile<int8_t, "
            "__half, 128, tc::sm80::Major::MN, tc_f_0_operand_b>, 64, 3, 2, 2>");
  // A prologue the copier applies is not also a fragment prologue.
  Weights.B.Prologue.push_back(nullptr);
  EXPECT_EQ(sm80MainloopType(Single, Weights, false, {"tc_f_0", "__half", "int8_t"}),
            "tc::sm80::CpAsyncMmaMainloop<tc::sm80::ConvertedOperandTile<__half, __half, 128, "
            "tc::sm80::Major::K, tc_f_0_operand_a>, tc::sm80::ConvertedOperandTile<int8_t, "
            "__half, 128, tc::sm80::Major::MN, tc_f_0_operand_b>, 64, 3, 2, 2>");
  // A batch, and a sum of products of the first's layouts, are composed
  // (tc::sm80::Product); their operands are read as stored.
  MatmulIdiom Batch = gemm();
  Batch.IterBatch = "b";
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), Batch, {}), "");
  Batch.A.Prologue.push_back(nullptr); // (on the fragments: every entry's)
  EXPECT_EQ(sm80ComponentMismatch(Single, Batch, {}), "");
  Batch.B.ConvertWhileCopying = Batch.B.EightBit = true;
  EXPECT_EQ(sm80ComponentMismatch(Single, Batch, {}), "an operand converted in a batch");
  MatmulIdiom Sum = gemm();
  Sum.MoreProducts.resize(1);
  Sum.MoreProducts[0].A = Sum.A;
  Sum.MoreProducts[0].B = Sum.B;
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), Sum, {}), "");
  MatmulIdiom Layouts = Sum;
  Layouts.MoreProducts[0].B.ReductionIsContiguous = !Sum.B.ReductionIsContiguous;
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), Layouts, {}),
            "products of different operand layouts");
  MatmulIdiom SumPrologue = Sum;
  SumPrologue.MoreProducts[0].A.Prologue.push_back(nullptr);
  EXPECT_EQ(sm80ComponentMismatch(Single, SumPrologue, {}),
            "an operand prologue in a sum of products");
  MatmulIdiom SumConverted = Sum;
  SumConverted.B.ConvertWhileCopying = SumConverted.B.EightBit = true;
  EXPECT_EQ(sm80ComponentMismatch(Single, SumConverted, {}),
            "an operand converted in a sum of products");
  MatmulIdiom SumStrided = Sum;
  SumStrided.MoreProducts[0].A.InnerStride = 2;
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), SumStrided, {}),
            "a packed, strided or transposed operand");
  MatmulIdiom Guarded = gemm();
  Guarded.OutputGuard.push_back(AffineExpr());
  EXPECT_EQ(sm80ComponentMismatch(mmaSyncKernel(), Guarded, {}), "a guard of the output");
  // A stage's rows of chunks do not divide among the threads: 128
  // threads, a K-major A of 12 chunks a row (96 k).
  KernelConfig Uneven = mmaSyncKernel();
  Uneven.BlockN = 64;
  Uneven.WarpN = 32;
  Uneven.BlockK = 96;
  EXPECT_EQ(sm80ComponentMismatch(Uneven, gemm(), {}), "its tiles");
  // More column groups of eight in a row than threads to write them.
  KernelConfig Narrow = mmaSyncKernel();
  Narrow.BlockM = Narrow.WarpM = 16;
  Narrow.BlockN = Narrow.WarpN = 512;
  Narrow.BlockK = 32;
  EXPECT_EQ(sm80ComponentMismatch(Narrow, gemm(), {}), "its tiles");
  // The output tile does not fit the stages' bytes: composed all the
  // same, the kernel's epilogue runs from registers
  // (tc::sm80::GemmKernel::kStagedEpilogue).
  KernelConfig Shallow = mmaSyncKernel();
  Shallow.BlockN = 256;
  Shallow.BlockK = 32;
  Shallow.Stages = 2;
  EXPECT_FALSE(Shallow.stagedEpilogue());
  EXPECT_EQ(sm80ComponentMismatch(Shallow, gemm(), {}), "");
}

// A converted 16-bit K-major B's kernels (KernelConfig::ConvertsLandedB)
// compute the tile transposed: B is the kernel's A (BlockN rows),
// converted in its fragments by the region's B functor, A the kernel's B
// (BlockM rows); not wider than two warpgroups of B's rows, nor beside
// pairs, nor where the transposed output tile does not fit the stages.
TEST(ComponentKernelTest, ConvertedBKernelsComposeTransposed) {
  MatmulIdiom Idiom = gemm();
  Idiom.A.ReductionIsContiguous = Idiom.B.ReductionIsContiguous = true;
  Idiom.B.ConvertWhileCopying = true;
  KernelConfig C = tmaKernel();
  C.Stages = 4;
  C.ConvertsLandedOperands = C.ConvertsLandedB = true;
  EXPECT_EQ(sm90ComponentMismatch(C, Idiom, {}), "");
  EXPECT_EQ(sm90MainloopType(C, Idiom, false, "r"),
            "tc::sm90::TmaWgmmaMainloop<tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>, "
            "tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>, 4, "
            "tc::sm90::RegisterA<tc::sm90::Converted<r_operand_b>>>");
  KernelConfig Narrow = C;
  Narrow.BlockM = Narrow.WarpN = 64;
  EXPECT_EQ(sm90ComponentMismatch(Narrow, Idiom, {}), "");
  EXPECT_NE(sm90MainloopType(Narrow, Idiom, true, "r")
                .find("OperandTile<__half, 128, tc::sm90::Major::K>,  // B, transposed: C^T = "
                      "B^T A^T\n        tc::sm90::OperandTile<__half, 64, tc::sm90::Major::K>,  "
                      "// A"),
            std::string::npos);
  KernelConfig Wide = C;
  Wide.BlockN = 256;
  EXPECT_EQ(sm90ComponentMismatch(Wide, Idiom, {}), "its tiles");
  KernelConfig Pairs = C;
  Pairs.PairedTiles = true;
  EXPECT_EQ(sm90ComponentMismatch(Pairs, Idiom, {}), "its warp roles");
  KernelConfig Shallow = C;
  Shallow.BlockM = 256;
  Shallow.Stages = 2;
  EXPECT_EQ(sm90ComponentMismatch(Shallow, Idiom, {}), "an epilogue from registers");
  MatmulIdiom Relu = Idiom;
  Relu.A.Prologue.push_back(nullptr);
  EXPECT_EQ(sm90ComponentMismatch(C, Relu, {}), "an operand converted while copied");
}

// An 8-bit K-major A's kernels (KernelConfig::RawFragmentsA): its raw tile
// (RawOperandTile of A's element type) converted in its fragments
// (RawRegisterA with A's functor), B's 16-bit tile as ever; not in pairs,
// nor wider than two warpgroups of A's rows.
TEST(ComponentKernelTest, RawAKernelsCompose) {
  const MatmulIdiom Int8A = eightBitGemm(true);
  const KernelConfig C = rawFragmentKernel(true);
  EXPECT_EQ(sm90ComponentMismatch(C, Int8A, {}), "");
  EXPECT_EQ(sm90MainloopType(C, Int8A, false, "r", "signed char"),
            "tc::sm90::TmaWgmmaMainloop<tc::sm90::RawOperandTile<signed char, 128>, "
            "tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>, 4, "
            "tc::sm90::RawRegisterA<r_operand_a>>");
  KernelConfig Narrow = C;
  Narrow.BlockM = 64;
  EXPECT_EQ(sm90ComponentMismatch(Narrow, Int8A, {}), "");
  KernelConfig Tall = C;
  Tall.BlockM = 256;
  EXPECT_EQ(sm90ComponentMismatch(Tall, Int8A, {}), "its tiles");
  KernelConfig Pairs = C;
  Pairs.PairedTiles = true;
  EXPECT_EQ(sm90ComponentMismatch(Pairs, Int8A, {}), "its warp roles");
  MatmulIdiom Masked = Int8A;
  Masked.A.Mask.resize(1);
  EXPECT_EQ(sm90ComponentMismatch(C, Masked, {}), "an 8-bit operand not dense and K-major");
}

// An 8-bit K-major B's transposed kernels (KernelConfig::RawFragmentsB)
// are composed: the weight is the kernel's A, landed raw (RawOperandTile)
// and converted in its fragments (RawRegisterA with the region's operand
// functor), X the kernel's B; the kernel that converts the raw tile into a
// stage (RawStagesB alone) is not, nor an output tile that does not fit
// the stages transposed (192x192 of four stages), nor a masked weight.
TEST(ComponentKernelTest, RawFragmentKernelsCompose) {
  const MatmulIdiom Int8 = eightBitGemm(false);
  const KernelConfig C = rawFragmentKernel(false);
  EXPECT_EQ(sm90ComponentMismatch(C, Int8, {}), "");
  EXPECT_EQ(sm90MainloopType(C, Int8, false, "r", "signed char"),
            "tc::sm90::TmaWgmmaMainloop<tc::sm90::RawOperandTile<signed char, 128>, "
            "tc::sm90::OperandTile<__half, 128, tc::sm90::Major::K>, 4, "
            "tc::sm90::RawRegisterA<r_operand_b>>");
  KernelConfig Short = C;
  Short.BlockM = 112;
  EXPECT_NE(sm90MainloopType(Short, Int8, false, "r", "unsigned char")
                .find("RawOperandTile<unsigned char, 128>, "
                      "tc::sm90::OperandTile<__half, 112, tc::sm90::Major::K>"),
            std::string::npos);
  // --explain states the shared memory the composed kernel takes: W's raw
  // stages a byte an element (tc::sm90::TmaWgmmaMainloop::kSharedBytes).
  EXPECT_EQ(C.sharedBytes(), 4 * (128 + 128) * 64 * 2 + 4 * 16 + 16);
  EXPECT_EQ(laidOut(C, Int8, {}).sharedBytes(), 98384);
  KernelConfig Stage = C;
  Stage.RawFragmentsB = false;
  EXPECT_EQ(laidOut(Stage, Int8, {}).sharedBytes(), Stage.sharedBytes());
  EXPECT_EQ(sm90ComponentMismatch(Stage, Int8, {}), "operands converted in the kernel");
  // 192x192 tiles: their output tile, staged transposed, needs five
  // stages (W's raw tile a byte an element, as the components lay it).
  KernelConfig Fitted = C;
  Fitted.BlockM = Fitted.BlockN = Fitted.WarpN = 192;
  Fitted.ProducerWarpgroup = true;
  EXPECT_EQ(sm90ComponentMismatch(Fitted, Int8, {}), "an epilogue from registers");
  Fitted.Stages = 5;
  Fitted.ComponentStages = true;
  EXPECT_EQ(sm90ComponentMismatch(Fitted, Int8, {}), "");
  // Such stages fit no generated kernel: the region's kernels keep the
  // fitted one only where it is composed (not beside a guard of the
  // output).
  std::vector<AlternativeKernel> Alts = {{C, "_narrow", "prefer_narrow_raw_fragment_tiles"},
                                         {Fitted, "_fitted", "prefer_fitted_raw_fragment_tiles"}};
  EXPECT_EQ(regionKernels(C, Alts, Int8, {}).Alternatives.size(), 2u);
  MatmulIdiom Guarded = Int8;
  Guarded.OutputGuard.resize(1);
  RegionKernels Kept = regionKernels(C, Alts, Guarded, {});
  ASSERT_EQ(Kept.Alternatives.size(), 1u);
  EXPECT_EQ(Kept.Alternatives[0].Suffix, "_narrow");
  MatmulIdiom Masked = Int8;
  Masked.B.Mask.resize(1);
  EXPECT_EQ(sm90ComponentMismatch(C, Masked, {}), "an 8-bit operand not dense and K-major");
  MatmulIdiom Relu = Int8;
  Relu.A.Prologue.push_back(nullptr);
  EXPECT_EQ(sm90ComponentMismatch(C, Relu, {}), "an operand prologue");
}
