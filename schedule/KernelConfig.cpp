//===- KernelConfig.cpp ---------------------------------------------------===//
#include "KernelConfig.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "tc/registers.cuh"
#include <cctype>

namespace tc {

std::optional<GpuArch> parseArch(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<GpuArch>>(Name)
      .Case("sm_80", GpuArch::SM80)
      .Case("sm_86", GpuArch::SM86)
      .Case("sm_89", GpuArch::SM89)
      .Case("sm_90a", GpuArch::SM90a)
      .Case("sm_90", GpuArch::SM90a)
      .Default(std::nullopt);
}

const char *archName(GpuArch A) {
  switch (A) {
  case GpuArch::SM80: return "sm_80";
  case GpuArch::SM86: return "sm_86";
  case GpuArch::SM89: return "sm_89";
  case GpuArch::SM90a: return "sm_90a";
  }
  return "?";
}

int sharedMemoryLimit(GpuArch A) {
  switch (A) {
  case GpuArch::SM80: return 163 * 1024;
  case GpuArch::SM90a: return 227 * 1024;
  case GpuArch::SM86:
  case GpuArch::SM89: return 99 * 1024;
  }
  return 99 * 1024;
}

std::optional<MmaPreference> parseMmaPreference(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<MmaPreference>>(Name)
      .Case("auto", MmaPreference::Auto)
      .Case("sync", MmaPreference::Sync)
      .Case("mma.sync", MmaPreference::Sync)
      .Case("wgmma", MmaPreference::Wgmma)
      .Default(std::nullopt);
}

std::string KernelConfig::describe() const {
  if (wgmma())
    return "block tile " + std::to_string(BlockM) + "x" + std::to_string(BlockN) + "x" +
           std::to_string(BlockK) + ", " + std::to_string(warpgroups()) + " warpgroup" +
           (warpgroups() > 1 ? "s" : "") + " (" + std::to_string(threads() / 32) +
           " warps" +
           (ProducerWarpgroup
                ? " and a producer warpgroup; setmaxnreg: " + std::to_string(producerRegisters()) +
                      " registers a producer thread, " +
                      (PersistentTiles ? std::to_string(storerRegisters()) + " an epilogue thread, "
                                       : std::string()) +
                      std::to_string(consumerRegisters()) + " a consumer's"
                : Tma ? " and a producer warp" : "") +
           "), " +
           std::to_string(Stages) +
           (Tma ? " TMA stages (mbarriers)" : " cp.async stages") +
           (PairedTiles ? ", pairs of blocks sharing B's tile (TMA multicast)" : "") +
           (StreamUnits ? ", stream units (a nearly empty last round shared by all SMs)"
                        : "") +
           (clusterParts() ? ", few tiles split into parts launched as one cluster each "
                             "(distributed shared memory adds them)"
                           : "") +
           (PersistentTiles
                ? std::string(", persistent blocks (one per SM, whole tiles in turn; ") +
                      (storerThreads() == 128 ? "an epilogue warpgroup stores"
                                              : "two epilogue warpgroups store") +
                      " each tile from a buffer of its own)"
                : "") +
           (transposedTile() ? ", the tile transposed" : "") + ", wgmma.mma_async.m64n" +
           std::to_string(accumulatorCols()) + "k" + std::to_string(MmaK) +
           (Tf32 ? " (tf32, fp32 accumulation, " : " (fp32 accumulation, ") +
           std::to_string(WgmmaPending) + " group" + (WgmmaPending == 1 ? "" : "s") +
           " in flight), " +
           std::to_string(sharedBytes()) + " bytes of shared memory, " + archName(Arch);
  return "block tile " + std::to_string(BlockM) + "x" + std::to_string(BlockN) +
         "x" + std::to_string(BlockK) + ", warp tile " + std::to_string(WarpM) +
         "x" + std::to_string(WarpN) + " (" + std::to_string(threads() / 32) +
         " warps), " +
         (WarpSplitK > 1 ? "intra-block split-K p=" + std::to_string(WarpSplitK) + ", "
                         : std::string()) +
         std::to_string(Stages) +
         " cp.async stages, mma.sync." + (Tf32 ? "m16n8k8 (tf32" : "m16n8k16 (") +
         (Tf32 ? ", " : "") + "fp32 accumulation), " +
         std::to_string(sharedBytes()) + " bytes of shared memory, " +
         archName(Arch);
}

static bool isPow2(int X) { return X > 0 && (X & (X - 1)) == 0; }

/// The wgmma instruction widths tc/wgmma_instructions.cuh has: powers of
/// two, and the widths between them that fit tiles to rounds of SMs (the
/// 128-row tiles of 176, 192 and 224 columns and the 64-row tiles of 96
/// and 112 that tc/tile_choice.cuh picks; 80, 144 and 160 for the tile
/// clause).
static bool isWgmmaTileN(int N) {
  return (isPow2(N) && N >= 16 && N <= 256) || N == 80 || N == 96 || N == 112 || N == 144 ||
         N == 160 || N == 176 || N == 192 || N == 224;
}

/// Whether B, or the B of another product of the sum, is N-major (its
/// stages are 64-column panels).
static bool hasNMajorB(const MatmulIdiom &Idiom) {
  bool NMajor = !Idiom.B.ReductionIsContiguous;
  for (auto &P : Idiom.MoreProducts)
    NMajor |= !P.B.ReductionIsContiguous;
  return NMajor;
}

/// A prologue applied to the operand's register fragments (not while
/// copying).
static bool hasFragmentPrologue(const OperandView &V) {
  return !V.Prologue.empty() && !V.ConvertWhileCopying;
}

/// Why the region cannot use wgmma, or nothing when it can.
static std::optional<std::string> wgmmaObstacle(const MatmulIdiom &Idiom,
                                                const RegionClauses &Cl, GpuArch Arch) {
  if (Arch != GpuArch::SM90a)
    return std::string("wgmma needs sm_90a; ") + archName(Arch) + " has mma.sync";
  if (Idiom.InputType == ElementType::F32) {
    // wgmma reads tf32 operands K-major only, from the stages TMA fills
    // and the sm_90 components compose: nothing converted or guarded.
    std::vector<const OperandView *> Views = {&Idiom.A, &Idiom.B};
    for (const ProductTerm &P : Idiom.MoreProducts)
      Views.insert(Views.end(), {&P.A, &P.B});
    if (llvm::any_of(Views, [](const OperandView *V) { return !V->ReductionIsContiguous; }))
      return std::string("wgmma reads tf32 operands K-major only (A stored [m][k], B stored "
                         "[n][k]); operands stored otherwise are staged from a transposed copy "
                         "made at each launch, but not in a batch, nor where a K-major region "
                         "would keep mma.sync (a prologue, a mask, a guard of the output, the "
                         "tile, stages and split_k clauses)");
    for (const OperandView *V : Views) {
      if (!V->Prologue.empty())
        return std::string("a tf32 operand with a prologue uses mma.sync");
      if (!V->Mask.empty())
        return std::string("a tf32 operand with a mask (a triangular or guarded reduction) "
                           "uses mma.sync");
      if (V->ConvertWhileCopying)
        return std::string("a tf32 operand gathered element by element while copied (a "
                           "strided view) uses mma.sync");
    }
    if (!Idiom.OutputGuard.empty())
      return std::string("a tf32 region with a guard of the output uses mma.sync");
    if (Cl.SplitK || Cl.Tile || Cl.Stages)
      return std::string("the tile, stages and split_k clauses of a tf32 region are "
                         "mma.sync's");
  } else if (Idiom.InputType != ElementType::F16 && Idiom.InputType != ElementType::BF16) {
    return std::string("wgmma is used for f16, bf16 and tf32 operands here; ") +
           spelling(Idiom.InputType) + " operands use mma.sync";
  }
  // M/N-major stages are 64-column panels, written by the plain copier.
  auto Converted = [](const OperandView &V) {
    return V.ConvertWhileCopying && !V.ReductionIsContiguous;
  };
  for (const OperandView *V : {&Idiom.A, &Idiom.B})
    if (Converted(*V))
      return std::string(V->PrologueNotFiniteAtZero
                             ? "the prologue of an M/N-major operand is not finite at 0, so "
                               "the copier applies it (zero-padded tiles would give inf * 0), "
                               "and only K-major converted stages are laid out for wgmma"
                             : "an operand converted while copying is stored M/N-major, and "
                               "only K-major converted stages are laid out for wgmma");
  // (A prologue is applied to the landed stages, or to K-major A's
  // fragments: ConvertStages, ConvertStagesB, WgmmaRegisterA.)
  if ((hasFragmentPrologue(Idiom.A) || hasFragmentPrologue(Idiom.B)) &&
      !Idiom.MoreProducts.empty())
    return std::string("an operand prologue in a sum of matmuls");
  if (Cl.WarpSplitK && *Cl.WarpSplitK != 1)
    return std::string("warp_split_k splits the k steps among warps of mma.sync");
  if (Cl.Warp)
    return std::string("warp tiles are mma.sync's; a warpgroup's tile is 64 rows by the "
                       "block tile's columns");
  if (Cl.Tile) {
    int BM = (*Cl.Tile)[0], BN = (*Cl.Tile)[1], BK = (*Cl.Tile)[2];
    if (hasNMajorB(Idiom) && (BN < 64 || (BN > 64 && BN % 64)))
      return std::string("an N-major B is stored in 64-column panels: the block tile needs "
                         "64 columns or a multiple of 64");
    if (BK != 64 || (BM != 64 && BM != 128 && BM != 192 && BM != 256) || !isWgmmaTileN(BN))
      return std::string("wgmma tiles are BM x BN x 64 with BM 64, 128, 192 or 256 and BN 16, "
                         "32, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224 or 256");
  }
  return std::nullopt;
}

/// Whether operand `V`, converted while copying, lands raw for the
/// components' consumers to convert in its register fragments, beside
/// `Other` (convertedALandsRaw, convertedBLandsRaw).
static bool landsRawBeside(const OperandView &V, const OperandView &Other,
                           const MatmulIdiom &Idiom) {
  // (Beside an 8-bit operand, whose raw stages the components lack, the
  // region keeps its generated kernels.)
  auto Packed = [](const OperandView &O) { return O.EightBit || O.FourBit; };
  return V.ConvertWhileCopying && V.ReductionIsContiguous && Other.Prologue.empty() &&
         !Other.ConvertWhileCopying && !Packed(V) && !Packed(Other) && V.Mask.empty() &&
         V.InnerStride == 1 && Idiom.MoreProducts.empty() && Idiom.IterBatch.empty() &&
         Idiom.OutputGuard.empty();
}

bool convertedALandsRaw(const MatmulIdiom &Idiom) {
  return landsRawBeside(Idiom.A, Idiom.B, Idiom);
}

bool convertedBLandsRaw(const MatmulIdiom &Idiom) {
  // (A is the transposed tile's B: K-major, as the kernels are measured.)
  return landsRawBeside(Idiom.B, Idiom.A, Idiom) && Idiom.A.ReductionIsContiguous;
}

bool rawALandsRaw(const MatmulIdiom &Idiom) {
  const OperandView &A = Idiom.A, &B = Idiom.B;
  return A.EightBit && A.ConvertWhileCopying && A.ReductionIsContiguous && A.Mask.empty() &&
         A.InnerStride == 1 && !B.ConvertWhileCopying && B.Prologue.empty() && !B.EightBit &&
         !B.FourBit && (Idiom.InputType == ElementType::F16 || Idiom.InputType == ElementType::BF16) &&
         Idiom.MoreProducts.empty() && Idiom.IterBatch.empty() && Idiom.OutputGuard.empty();
}

/// `C` computing its tile transposed for a converted B
/// (KernelConfig::ConvertsLandedB): the accumulators' columns, WarpN, are
/// the region's rows.
static KernelConfig transposedForB(KernelConfig C) {
  C.ConvertsLandedB = true;
  C.WarpN = C.BlockM;
  return C;
}

/// Whether `C`'s tiles, computed transposed, are the components' (one or
/// two warpgroups of B's rows) and their consumers have the registers to
/// convert B's fragments.
static bool transposedFragmentsFit(const KernelConfig &C) {
  return C.BlockN % KernelConfig::WgmmaM == 0 && C.BlockN <= 128 && C.BlockM % 8 == 0 &&
         C.BlockM <= 256 && transposedForB(C).convertedFragmentsFit();
}

/// Why a wgmma configuration cannot have its stages filled by TMA, or
/// nothing when it can.
static std::optional<std::string> tmaObstacle(const KernelConfig &C, const MatmulIdiom &Idiom) {
  if (!C.wgmma())
    return std::string("TMA stages feed wgmma");
  // An 8-bit K-major B lands raw for the consumers to convert
  // (KernelConfig::RawStagesB), and so does a 16-bit operand for the
  // components' consumers (ConvertsLandedOperands); other conversions need
  // the copier's registers.
  auto Lands = [&](const OperandView &V, bool IsB) {
    if (!V.ConvertWhileCopying)
      return true;
    if (V.EightBit)
      return IsB ? V.ReductionIsContiguous && V.Mask.empty() && V.InnerStride == 1
                 : rawALandsRaw(Idiom) && C.convertedFragmentsFit();
    // (Where the fragments' registers do not fit, cp.async stages.)
    if (IsB)
      return convertedBLandsRaw(Idiom) && transposedFragmentsFit(C);
    return convertedALandsRaw(Idiom) && C.convertedFragmentsFit();
  };
  if (!Lands(Idiom.A, false) || !Lands(Idiom.B, true))
    return std::string("an operand is converted while copying, which TMA cannot do (an 8-bit "
                       "K-major B lands raw for the consumers to convert, and so does a dense, "
                       "unmasked, K-major 16-bit A of one product, beside a B without a "
                       "prologue and an output without a guard, in tiles whose consumers "
                       "have the registers to convert its fragments, or such a B beside a "
                       "K-major A without one, in tiles of one or two warpgroups of B's rows "
                       "computed transposed, or such an 8-bit A beside a 16-bit B without one)");
  if (Idiom.B.ConvertWhileCopying && !Idiom.MoreProducts.empty())
    return std::string("an 8-bit B in a sum of matmuls is converted while copying");
  for (auto &P : Idiom.MoreProducts)
    if (P.A.ReductionIsContiguous != Idiom.A.ReductionIsContiguous ||
        P.B.ReductionIsContiguous != Idiom.B.ReductionIsContiguous)
      return std::string("the products of the sum store their operands in different layouts, "
                         "one set of TMA boxes each");
  // A batch of GEMMs runs on the sm_90 components only (3-D tensor maps,
  // the batch entry a tile scheduler's coordinate): those convert no
  // operand and guard no output; a clause that asks for what they lack
  // sends the region back to cp.async (RegionRewriter).
  if (!Idiom.IterBatch.empty() && (Idiom.B.ConvertWhileCopying || !Idiom.OutputGuard.empty()))
    return std::string("a batch of GEMMs takes TMA stages only where its operands are not "
                       "converted and its output has no guard");
  if (C.BlockK * C.ElementBytes != 128)
    return std::string("a TMA box row is one 128-byte swizzled row: 64 16-bit k elements");
  if (!C.stagedEpilogue())
    return std::string("the fp32 output tile does not fit in the stages, where the parts of a "
                       "k-split tile are combined");
  return std::nullopt;
}

/// Stages of a TMA kernel without a stages clause: as many as fit (up to
/// 6) in half of the SM's shared memory when that still gives 3 or more,
/// so that two blocks share an SM (one block's epilogue then overlaps the
/// other's main loop, and a grid of slightly more tiles than SMs still runs
/// in one wave); else in all of it (128x256 tiles: 4 stages).
static int defaultTmaStages(const KernelConfig &C) {
  int PerStage = C.bytesPerStage();
  int Limit = sharedMemoryLimit(C.Arch) - 1024; // the barriers, and slack
  int Half = Limit / 2 / PerStage;
  int Stages = std::max(2, std::min(6, Half >= 3 ? Half : Limit / PerStage));
  // A raw 8-bit B, or an A converted in its fragments, with two or more
  // warpgroups: at least 4 stages (one block per SM) instead of two blocks
  // of 3, whose conversion ptxas spilled at their 96 registers per thread
  // (at 112, __maxnreg__, only one block ran, slower than 4 stages).
  if ((C.RawStagesB || C.ConvertsLandedOperands) && C.warpgroups() >= 2)
    Stages = std::max(Stages, 4);
  return Stages;
}

/// Stages of a cp.async wgmma kernel without a stages clause: 3 (two
/// 128x128 blocks per SM), 4 for one warpgroup, so that one group stays in
/// flight.
static int defaultCpAsyncStages(const KernelConfig &C) { return C.BlockM == 64 ? 4 : 3; }

int KernelConfig::launchRegisters() const { return tc::launch_registers(blockThreads()); }

KernelConfig KernelConfig::cpAsyncTwin() const {
  KernelConfig T = *this;
  T.Tma = false;
  // (Untransposed: the accumulators' columns are the block's.)
  if (transposedTile())
    T.WarpN = T.BlockN;
  T.PairedTiles = false;
  T.StreamUnits = false;
  T.PersistentTiles = false;
  // (Converted while copying, into 16-bit stages.)
  T.RawStagesB = T.OffsetRowsB = T.RawFragmentsB = T.ComponentStages = false;
  T.ConvertsLandedOperands = T.ConvertsLandedB = T.RawFragmentsA = T.OffsetRowsA = false;
  T.ProducerWarpgroup = false;
  // Without TMA stages, a K-major A's prologue goes back to its fragments
  // (the other prologues convert the landed cp.async stages).
  if (T.ConvertStages && !T.ConvertedAIsMMajor) {
    T.ConvertStages = false;
    T.WgmmaRegisterA = true;
  }
  if (!FixedStages)
    T.Stages = defaultCpAsyncStages(T);
  T.WgmmaPending = T.Stages >= 4 && !T.WgmmaRegisterA ? 1 : 0;
  return T;
}

/// Whether an operand's tile of `Rows` rows splits into two halves of
/// whole TMA boxes (tc::tma_load_tile): K-major rows in two boxes, or an
/// even number of 64-wide panels.
static bool splitsInHalves(const OperandView &V, int Rows) {
  return V.ReductionIsContiguous ? Rows % 16 == 0 : Rows % 128 == 0;
}

/// Whether every product's B tile of `Rows` rows splits in halves: what a
/// pair of blocks sharing B's tile needs.
static bool everyBSplitsInHalves(const MatmulIdiom &Idiom, int Rows) {
  if (!splitsInHalves(Idiom.B, Rows))
    return false;
  for (auto &P : Idiom.MoreProducts)
    if (!splitsInHalves(P.B, Rows))
      return false;
  return true;
}

/// The TMA kernels of 128x256 and 64x128 tiles run as pairs of blocks
/// sharing B's tile where the shape allows (KernelConfig::PairedTiles; each
/// kernel's launcher by its own rule, tc::PairRule). Pairs of 128x128 tiles
/// (two blocks per SM) measured slower.
static void pairTiles(KernelConfig &C, const MatmulIdiom &Idiom) {
  const bool Wide = C.BlockM >= 128 && C.BlockN >= 256;
  const bool Narrow = C.BlockM == 64 && C.BlockN == 128;
  // (A raw 8-bit B is converted by each block from its own stage.)
  // (Nor a B converted as the transposed tile's A: its pairs would share
  // the region's A.)
  C.PairedTiles = (Wide || Narrow) && !C.RawStagesB && !C.ConvertsLandedB && !C.RawFragmentsA &&
                  everyBSplitsInHalves(Idiom, C.BlockN);
}

/// Whether a TMA kernel runs stream units (KernelConfig::StreamUnits).
static void allowStreamUnits(KernelConfig &C, const RegionClauses &Cl) {
  C.StreamUnits =
      C.Tma && !C.twoBlocksFit() && C.warpgroups() == 2 && !Cl.SplitK && !C.PersistentTiles;
}

/// The split_k clause's parts are the only tiles a block shares: no pairs
/// (tc::sm90::SplitScheduler, like stream units and cluster parts).
static void keepClauseParts(KernelConfig &C, const RegionClauses &Cl) {
  if (Cl.SplitK)
    C.PairedTiles = false;
}

/// Whether a TMA kernel with a raw 8-bit B converts it into register
/// fragments of a transposed tile (KernelConfig::RawFragmentsB). Not
/// beside a prologue on A's stages (ConvertStages): the transposed tile
/// reads A's stage as wgmma's B, and no kernel schedule applies a
/// prologue there (isl refused to generate it); B then converts in its
/// stage.
static void chooseRawFragments(KernelConfig &C, const MatmulIdiom &Idiom) {
  C.RawFragmentsB = C.Tma && C.RawStagesB && C.BlockM == C.BlockN && !C.PairedTiles &&
                    !C.PersistentTiles && Idiom.A.ReductionIsContiguous && !C.ConvertStages;
}

/// What pathReason() says, last, of a raw 8-bit B's conversion (none for
/// other operands): into fragments of a transposed tile, or into B's stage.
static std::string rawBReason(const KernelConfig &C) {
  std::string Offset = C.OffsetRowsB ? ", minus each row's offset in fp16 pairs where exact" : "";
  if (C.RawFragmentsB)
    return "; the tile computed transposed (C^T = B^T A^T): B's 8-bit tile lands raw "
           "(64-byte swizzle) and each consumer thread converts its wgmma A fragments "
           "from it in registers" +
           Offset + " (a cp.async twin, where there is one, converts while copying)" +
           (C.ProducerWarpgroup ? "; the producer a warpgroup that gives its registers to the "
                                  "consumers (setmaxnreg), for the accumulators of " +
                                      std::to_string(C.accumulatorCols()) + " columns"
                                : "");
  if (C.RawStagesB)
    return "; B's 8-bit tile lands raw in the second half of its stage and the "
           "consumers convert it in place" +
           Offset + " (a cp.async twin, where there is one, converts while copying)";
  return "";
}

/// What pathReason() says of A's prologue in a TMA kernel: applied to each
/// warpgroup's rows of the landed stages (a K-major A's to the fragments
/// in the cp.async kernel instead), or to wgmma's fragments.
static const char *const kAPrologueOnStages =
    "; A's prologue applied by each consumer warpgroup to its rows of each landed stage";
static const char *const kKMajorAPrologueInCpAsync = " (to the fragments in the cp.async kernel)";
static const char *const kAPrologueOnFragments =
    "; A from registers, its prologue applied to each thread's wgmma fragments (two buffers by "
    "the tile's parity; one in the cp.async kernel)";

/// Where a TMA kernel applies a K-major A's prologue: to wgmma's A
/// fragments in registers (KernelConfig::WgmmaRegisterA) for one
/// warpgroup, whose two buffers of them fit beside its accumulators, and
/// for two warpgroups of one block per SM (the 128x256 tiles) beside a
/// producer warpgroup that gives them its registers (ProducerWarpgroup),
/// and for persistent blocks of 128x128 tiles, beside a producer warpgroup
/// and one epilogue warpgroup;
/// to each warpgroup's rows of the landed stages (ConvertStages) for the
/// others (two blocks per SM, or three warpgroups), whose accumulators
/// leave no room for them (two blocks of 128x128 tiles: ptxas serialised
/// every wgmma for want of registers, C7511; as one block of 6 stages beside
/// a producer warpgroup they were no faster than the stage conversion).
/// The fragments add no shared memory traffic (wgmma would read the same
/// rows) and no fence or barrier before the wgmma. Called again for each
/// tile alternative.
static void placeAPrologue(KernelConfig &C) {
  if (C.Tma && C.ConvertsLandedOperands) {
    // A converted in its fragments (tc::sm90::RegisterA), always: two
    // warpgroups' blocks then hold one block an SM (twoBlocksFit).
    // Where that is one block, a 16-bit A's conversion (Converted<F>)
    // spilled beside a producer warp, whose 9 warps cap a thread at 168
    // registers (1/x on A, x/|x| on a transposed B); a producer warpgroup
    // gives them 216 (consumerRegisters()). (The 8-bit kernels' fragments
    // fit in 168.)
    if (!C.RawFragmentsA && !C.RawFragmentsB) {
      C.ProducerWarpgroup = false;  // twoBlocksFit() of the producer warp's block
      C.ProducerWarpgroup = C.warpgroups() == 2 && !C.twoBlocksFit();
    }
    C.WgmmaPending = 1;
    return;
  }
  // (tf32: A's rounding to tf32 is such a prologue; wgmma reads tf32 A
  // K-major only.)
  const bool KMajorPrologue =
      C.WgmmaRegisterA || (C.ConvertStages && !C.ConvertedAIsMMajor) || C.Tf32;
  if (!C.Tma || !KMajorPrologue || C.RawStagesB)
    return;
  const bool WideBlock = C.warpgroups() == 2 && !C.twoBlocksFit() && !C.PersistentTiles;
  const bool Fragments = C.warpgroups() == 1 || WideBlock || C.PersistentTiles;
  C.ProducerWarpgroup = WideBlock || C.PersistentTiles;
  C.WgmmaRegisterA = Fragments;
  C.ConvertStages = !Fragments;
  C.WgmmaPending = 1;
}

/// Feeds a wgmma configuration by TMA where it can (pathReason() says which).
static void chooseCopies(KernelConfig &C, const MatmulIdiom &Idiom) {
  if (!C.wgmma())
    return;
  if (auto Why = tmaObstacle(C, Idiom)) {
    if (C.WgmmaRegisterA)
      C.PathReason += "; A from registers (its prologue applied to the fragments)";
    if (C.convertsStagePrologue())
      C.PathReason += std::string("; the prologue of ") +
                      (C.ConvertStages ? (C.ConvertStagesB ? "A and B" : "A") : "B") +
                      " applied to each landed stage";
    C.PathReason += "; cp.async stages: " + *Why;
    return;
  }
  C.Tma = true;
  C.RawStagesB = Idiom.B.ConvertWhileCopying && Idiom.B.EightBit;
  C.ConvertsLandedB = convertedBLandsRaw(Idiom);
  if (C.ConvertsLandedB)
    C = transposedForB(C);
  C.RawFragmentsA = rawALandsRaw(Idiom);
  C.ConvertsLandedOperands = convertedALandsRaw(Idiom) || C.ConvertsLandedB || C.RawFragmentsA;
  C.OffsetRowsB = C.RawStagesB && Idiom.InputType == ElementType::F16 && Idiom.B.Offset;
  C.OffsetRowsA = C.RawFragmentsA && Idiom.InputType == ElementType::F16 && Idiom.A.Offset;
  if (C.WgmmaRegisterA) {
    // On the stages for now; placeAPrologue (last) keeps the fragments
    // for one warpgroup.
    C.WgmmaRegisterA = false;
    C.ConvertStages = true;
  }
  if (!C.FixedStages)
    C.Stages = defaultTmaStages(C);
  C.WgmmaPending = 1;
  pairTiles(C, Idiom);
  chooseRawFragments(C, Idiom);
  placeAPrologue(C);
}

std::string KernelConfig::pathReason() const {
  if (!Tma)
    return PathReason;
  // (Said here, not in PathReason, so that a cp.async twin does not.)
  std::string Operands = "; TMA stages filled by a producer warp (where TMA cannot map an "
                         "operand, even through an aligned copy: the producer warp copying, or "
                         "a generated kernel's cp.async twin)";
  if (WgmmaRegisterA)
    Operands += kAPrologueOnFragments;
  else if (ConvertStages)
    Operands += std::string(kAPrologueOnStages) +
                (ConvertedAIsMMajor ? "" : kKMajorAPrologueInCpAsync);
  if (ConvertStagesB)
    Operands += "; B's prologue applied by the consumers to each landed stage";
  if (ConvertsLandedB)
    Operands += "; the tile computed transposed (C^T = B^T A^T): the converted B lands raw and "
                "the consumers convert its register fragments, as wgmma's A, by each element's "
                "row, an exact 0 outside the operand (the cp.async kernel converts while "
                "copying)";
  else if (RawFragmentsA)
    Operands += "; A's 8-bit tile lands raw (64-byte swizzle) and each consumer thread converts "
                "its wgmma A fragments from it in registers" +
                std::string(OffsetRowsA ? ", minus each row's offset in fp16 pairs where exact"
                                        : "") +
                " (a cp.async twin, where there is one, converts while copying)";
  else if (ConvertsLandedOperands)
    Operands += "; the converted A lands raw and the consumers convert its register fragments "
                "by each element's row, an exact 0 outside the operand (the cp.async kernel "
                "converts while copying)";
  return PathReason + Operands + rawBReason(*this);
}

llvm::Expected<KernelConfig> chooseKernelConfig(const RegionModel &M,
                                                const MatmulIdiom &Idiom,
                                                clang::SourceLocation PragmaLoc,
                                                GpuArch Arch,
                                                MmaPreference Pref) {
  KernelConfig C;
  C.Arch = Arch;
  if (Idiom.InputType == ElementType::F32) {
    // tf32: 4-byte operands, k steps of 8; 128x128x32 keeps 3 stages in
    // 96 KiB.
    C.Tf32 = true;
    C.MmaK = 8;
    C.ElementBytes = 4;
    C.BlockK = 32;
    C.WarpN = 32; // 8 warps: rounding to tf32 needs registers next to the accumulators
  }
  const RegionClauses &Cl = M.Clauses;
  // The instruction family: the clause overrides the tool's preference.
  if (Cl.Mma && *Cl.Mma == "wgmma")
    Pref = MmaPreference::Wgmma;
  else if (Cl.Mma)
    Pref = MmaPreference::Sync;
  std::optional<std::string> Obstacle = wgmmaObstacle(Idiom, Cl, Arch);
  if (Pref == MmaPreference::Wgmma && Obstacle) {
    auto It = Cl.Locs.find("mma");
    return regionError(It != Cl.Locs.end() ? It->second : PragmaLoc,
                       "this region cannot use wgmma", *Obstacle);
  }
  if (Pref != MmaPreference::Sync && !Obstacle) {
    C.Path = MmaPath::Wgmma;
    C.PathReason = std::string("wgmma: sm_90a, ") +
                   (C.Tf32 ? "tf32 operands (rounded to nearest first, wgmma alone would truncate them: A "
                             "where an A prologue goes, as below; B in its landed stages; an "
                             "operand from a transposed copy by that copy)"
                           : "f16/bf16 operands") +
                   "; A " + (Idiom.A.ReductionIsContiguous ? "K-major" : "M-major") + ", B " +
                   (Idiom.B.ReductionIsContiguous ? "K-major" : "N-major") + " stages";
    const char *Stored = Idiom.A.StagedTransposed && Idiom.B.StagedTransposed
                             ? "A stored M-major and B N-major"
                         : Idiom.A.StagedTransposed ? "A stored M-major"
                         : Idiom.B.StagedTransposed ? "B stored N-major"
                                                    : nullptr;
    if (Stored)
      C.PathReason += std::string(" (") + Stored +
                      ": staged from a transposed copy made at each launch)";
    // One warpgroup per 64 rows of the block tile; a warp's share of the
    // instruction is a 16 x BN accumulator tile (tc/wgmma_instructions.cuh).
    // A k tile is one 128-byte swizzled row: 64 16-bit or 32 tf32 elements.
    C.BlockM = 128;
    C.BlockN = 128;
    C.BlockK = 128 / C.ElementBytes;
    C.Stages = 3;
    if (Cl.Tile) {
      C.BlockM = (*Cl.Tile)[0];
      C.BlockN = (*Cl.Tile)[1];
      C.BlockK = (*Cl.Tile)[2];
    }
    if (Cl.Stages)
      C.Stages = *Cl.Stages;
    C.FixedStages = Cl.Stages.has_value();
    C.WarpM = 16;
    C.WarpN = C.BlockN;
    // (chooseCopies says where the prologue is applied: to the fragments,
    // or with TMA stages by the consumers to their rows of each stage.) A
    // prologue on an M-major A or on B is applied to the landed stages.
    C.WgmmaRegisterA = hasFragmentPrologue(Idiom.A) && Idiom.A.ReductionIsContiguous;
    C.ConvertStages = hasFragmentPrologue(Idiom.A) && !Idiom.A.ReductionIsContiguous;
    C.ConvertedAIsMMajor = C.ConvertStages;
    C.ConvertStagesB = hasFragmentPrologue(Idiom.B);
    // With 4 or more stages one stage can hold the tile whose wgmma are
    // still running while the copies keep S - 2 tiles ahead (not with A
    // in registers: the next tile's fragments replace this tile's).
    C.WgmmaPending = C.Stages >= 4 && !C.WgmmaRegisterA ? 1 : 0;
    C.DoubleBufferFragments = false;
  } else {
    C.PathReason = Pref == MmaPreference::Sync
                       ? std::string("mma.sync: ") + (Cl.Mma ? "mma clause" : "requested")
                       : "mma.sync: " + *Obstacle;
    if (Cl.Tile) {
      C.BlockM = (*Cl.Tile)[0];
      C.BlockN = (*Cl.Tile)[1];
      C.BlockK = (*Cl.Tile)[2];
      if (!Cl.Warp) {
        C.WarpM = std::min(C.BlockM, 64);
        C.WarpN = std::min(C.BlockN, 64);
      }
    }
    if (Cl.Warp) {
      C.WarpM = (*Cl.Warp)[0];
      C.WarpN = (*Cl.Warp)[1];
    }
    if (Cl.Stages)
      C.Stages = *Cl.Stages;
    if (Cl.WarpSplitK)
      C.WarpSplitK = *Cl.WarpSplitK;
    // Double-buffered fragments need registers beside the accumulators: not
    // with operand prologues or conversions (their conversions need them;
    // with an int8 operand ptxas spills 32 bytes on sm_80), nor with fewer
    // than 4 warps (each thread then holds twice the copy addresses), nor
    // with three or more products (each keeps its own copy bases live;
    // ptxas spills 36 bytes at 128x128 with three).
    C.DoubleBufferFragments = Idiom.A.Prologue.empty() && Idiom.B.Prologue.empty() &&
                              !Idiom.A.ConvertWhileCopying && !Idiom.B.ConvertWhileCopying &&
                              C.threads() >= 128 && Idiom.MoreProducts.size() < 2;
  }
  // The checks below hold for both paths (a wgmma configuration meets the
  // mma.sync ones by construction). Errors point at the clause that set
  // the offending value, or at the pragma when the default was chosen.
  std::string Culprit;
  // A tile clause that wgmma could not take falls back to mma.sync, whose
  // checks then fail: the note says why it was not wgmma.
  const bool TileRefusedByWgmma =
      Cl.Tile && Arch == GpuArch::SM90a && Pref == MmaPreference::Auto && Obstacle;
  auto Bad = [&](const std::string &Msg, const std::string &Note) {
    auto It = Cl.Locs.find(Culprit);
    return regionError(It != Cl.Locs.end() ? It->second : PragmaLoc, Msg,
                       TileRefusedByWgmma ? Note + " (mma.sync here, not wgmma: " + *Obstacle + ")"
                                          : Note);
  };
  auto Blame = [&](std::initializer_list<const char *> Clauses) {
    Culprit.clear();
    for (const char *C : Clauses)
      if (Cl.Locs.count(C)) {
        Culprit = C;
        return;
      }
  };
  Blame({"split_k"});
  if (Cl.SplitK && (*Cl.SplitK < 1 || *Cl.SplitK > 64))
    return Bad("split_k(" + std::to_string(*Cl.SplitK) + ") is out of range",
               "split the reduction into 1 to 64 parts");
  Blame({"warp_split_k"});
  if (C.WarpSplitK != 1 && C.WarpSplitK != 2 && C.WarpSplitK != 4)
    return Bad("warp_split_k(" + std::to_string(C.WarpSplitK) + ") is not supported",
               "the k steps of a tile are split among 1, 2 or 4 warp groups");
  std::string Shape = C.Tf32 ? "m16n8k8" : "m16n8k16";
  Blame({"mma"});
  if (Cl.Mma && *Cl.Mma != Shape && !C.wgmma())
    return Bad("unsupported mma '" + *Cl.Mma + "' for these operands",
               "the supported instruction shapes are mma(" + Shape + ")" +
                   (Arch == GpuArch::SM90a && !C.Tf32 ? " and mma(wgmma)" : ""));
  Blame({"warp", "tile"});
  if (C.BlockM % C.WarpM || C.BlockN % C.WarpN)
    return Bad("the block tile must be a multiple of the warp tile",
               "e.g. tile(128, 128, 32) warp(64, 64)");
  if (C.WarpM % 16 || C.WarpN % 16)
    return Bad("warp tiles must be multiples of 16 in both dimensions",
               "the warp computes 16x8 mma tiles, two n-tiles per ldmatrix");
  Blame({"tile"});
  if (C.BlockK % C.MmaK || C.BlockK < 16 || !isPow2(C.BlockK) || C.BlockK > 128)
    return Bad("the block tile's K size must be 16, 32, 64 or 128",
               "the reduction is strip-mined by the mma depth, " +
                   std::to_string(C.MmaK));
  // wgmma: 192 rows are three warpgroups (the fitted kernel's tiles).
  if (!(isPow2(C.BlockM) || (C.wgmma() && C.BlockM == 192)) ||
      !(C.wgmma() ? isWgmmaTileN(C.BlockN) : isPow2(C.BlockN)) || C.BlockM < 16 ||
      C.BlockN < 16)
    return Bad("block tile sizes must be powers of two of at least 16" +
                   std::string(C.wgmma() ? " (or 192)" : ""),
               "shared-memory rows are swizzled in 16-byte chunks");
  Blame({"warp_split_k", "tile"});
  if (C.kSteps() % C.WarpSplitK)
    return Bad("warp_split_k(" + std::to_string(C.WarpSplitK) + ") does not divide the " +
                   std::to_string(C.kSteps()) + " mma k steps of a k tile",
               "each warp group takes an equal share of the k steps; use a "
               "larger tile K size or fewer warp groups");
  Blame({"warp_split_k", "tile", "warp"});
  if (C.threads() > 1024 || C.threads() < 32)
    return Bad("the tile needs " + std::to_string(C.threads() / 32) +
                   " warps; between 1 and 32 are possible",
               C.WarpSplitK > 1 ? std::to_string(C.groupWarps()) + " warps per warp group, " +
                                      std::to_string(C.WarpSplitK) + " warp groups"
                                : "");
  // The copiers keep a bit per chunk a thread copies (tc::chunk_mask_t).
  Blame({"tile", "warp"});
  if (!C.wgmma())
    for (int Rows : {C.BlockM, C.BlockN}) {
      const int Chunks = Rows * C.BlockK * C.ElementBytes / 16 / C.threads();
      if (Chunks > 64)
        return Bad("each thread would copy " + std::to_string(Chunks) +
                       " 16-byte chunks of an operand's k tile; at most 64 are possible",
                   "use more warps (a smaller warp tile) or a smaller tile K size");
    }
  // Shared memory a block may opt in to, per architecture.
  int Limit = sharedMemoryLimit(Arch);
  Blame({"warp_split_k", "tile"});
  if (C.partialSumBytes() > Limit)
    return Bad("the intra-block split-K reduction needs " +
                   std::to_string(C.partialSumBytes()) +
                   " bytes of shared memory, more than a block can have on " +
                   archName(Arch) + " (" + std::to_string(Limit) + ")",
               "warp groups 1 to P-1 each hand a whole fp32 block tile to group 0; "
               "use a smaller block tile or fewer warp groups");
  Blame({"stages"});
  // wgmma kernels of small tiles keep a whole short reduction in flight
  // (64x64 tiles: 12 stages of 16 KiB); the shared-memory limit below
  // bounds the rest.
  const int MaxStages = C.wgmma() ? 16 : 6;
  if (C.Stages < 2 || C.Stages > MaxStages)
    return Bad("stages must be between 2 and " + std::to_string(MaxStages),
               C.wgmma() ? "" : "up to 16 with wgmma (sm_90a)");
  Blame({"warp", "tile"});
  int Regs = C.fragmentsM() * C.fragmentsN() * 4;
  if (Regs > 256)
    return Bad("the warp tile needs " + std::to_string(Regs) +
                   " accumulator registers per thread",
               "use a warp tile of at most 64x128");
  // With P warp groups a block has P times the threads, and above 256
  // threads a thread gets less than the 255 registers ptxas may give it.
  // Fragments, copy and loader state need about as many registers again
  // as the accumulators, plus 64 (at 512 threads, 32x32 warp tiles use 108
  // of 128 registers; 32x64 spill).
  auto RegistersShort = [](const KernelConfig &K) {
    const int Accumulators = K.fragmentsM() * K.fragmentsN() * 4;
    const int PerThread = std::min(255, 65536 / K.threads());
    return K.WarpSplitK > 1 && PerThread < 255 && 2 * Accumulators + 64 > PerThread;
  };
  int RegsPerThread = std::min(255, 65536 / C.threads());
  Blame({"warp_split_k", "warp", "tile"});
  if (RegistersShort(C)) {
    // Fewer threads: a warp tile twice as wide or tall, where one fits
    // the block tile and the registers (the default tf32 warp tile, 64x32,
    // makes eight warps a group).
    std::string Note = "use fewer warp groups, or a larger warp tile (fewer warps a group)";
    for (auto [M2, N2] : {std::pair{C.WarpM, 2 * C.WarpN}, std::pair{2 * C.WarpM, C.WarpN}}) {
      KernelConfig Larger = C;
      Larger.WarpM = M2;
      Larger.WarpN = N2;
      if (C.BlockM % M2 == 0 && C.BlockN % N2 == 0 &&
          Larger.fragmentsM() * Larger.fragmentsN() * 4 <= 256 && !RegistersShort(Larger)) {
        Note = "the block tile has " + std::to_string(C.groupWarps()) + " warps of " +
               std::to_string(C.WarpM) + "x" + std::to_string(C.WarpN) + " a group; warp(" +
               std::to_string(M2) + ", " + std::to_string(N2) + ") gives " +
               std::to_string(Larger.groupWarps()) + " (or use fewer warp groups)";
        break;
      }
    }
    return Bad("with " + std::to_string(C.threads()) + " threads a thread has " +
                   std::to_string(RegsPerThread) + " registers, too few for " +
                   std::to_string(Regs) + " accumulators",
               Note);
  }
  Blame({"stages", "tile"});
  if (C.sharedBytes() > Limit)
    return Bad("the tile configuration needs " +
                   std::to_string(C.sharedBytes()) +
                   " bytes of shared memory, more than a block can have on " +
                   archName(Arch) + " (" + std::to_string(Limit) + ")",
               "reduce the tile sizes or the number of stages");
  chooseCopies(C, Idiom);
  allowStreamUnits(C, Cl);
  keepClauseParts(C, Cl);
  if (C.sharedBytes() > Limit)
    return Bad("the tile configuration needs " + std::to_string(C.sharedBytes()) +
                   " bytes of shared memory with its TMA barriers, more than a block can "
                   "have on " + archName(Arch) + " (" + std::to_string(Limit) + ")",
               "reduce the tile sizes or the number of stages");
  return C;
}

/// Stages of the 64x128 kernel for outputs of one round of its tiles: 8 of
/// 24 KiB fill the shared memory of one block per SM.
static constexpr int kDeepNarrowStages = 8;

/// Widths of the 128-row, one-block-per-SM TMA tiles besides 256
/// (tc::wide_tile_width).
static constexpr int kNarrowerWideWidths[] = {224, 192, 176};

/// Widths of the 8-stage 64-row TMA tiles besides 128
/// (tc::narrow_tile_width).
static constexpr int kNarrowerDeepWidths[] = {112, 96};

/// Heights (rows of X) of the int8 layer's 128x128 transposed tiles besides
/// 128 (tc::raw_fragment_tile_height).
static constexpr int kShorterSquareHeights[] = {112, 96, 80, 64};
/// Their stages: 6 fit one block per SM at every height (112 rows: 180 KB)
/// and none fits two.
static constexpr int kShortSquareStages = 6;

/// The predicate's list of a kernel's sizes: {256, 224, 192, 176}.
static std::vector<int> sizeList(int Base, llvm::ArrayRef<int> Others) {
  std::vector<int> List = {Base};
  List.insert(List.end(), Others.begin(), Others.end());
  return List;
}

std::string kernelRule(const std::string &Predicate) {
  llvm::StringRef Name(Predicate);
  Name.consume_front("prefer_");
  std::string Rule;
  bool Upper = true;
  for (char Ch : Name) {
    if (Ch == '_') {
      Upper = true;
      continue;
    }
    Rule += Upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(Ch))) : Ch;
    Upper = false;
  }
  return Rule;
}

/// The kernel `Base` (alternative `Suffix`) again with each narrower tile
/// width of `Widths`; taken where
/// tc::<Predicate>(m, n, k, width, {Base's width, Widths...}[, LastArg])
/// picks that width. Only widths that are multiples of 64 for an N-major B, whose
/// stages are 64-column panels. Built for pairs like Base where B's
/// narrower tile still splits in halves (a K-major B's 112 to 48 rows),
/// taken by Base's rule (tc::PairRule), which the pairs of narrower tiles
/// paid under too (docs/design/kernel-config.md).
static std::vector<AlternativeKernel> narrowerTiles(const KernelConfig &Base,
                                                    const std::string &Suffix,
                                                    const std::string &Predicate,
                                                    llvm::ArrayRef<int> Widths,
                                                    const MatmulIdiom &Idiom,
                                                    long long LastArg = 0) {
  std::vector<int> Usable;
  for (int W : Widths)
    if (!hasNMajorB(Idiom) || W % 64 == 0)
      Usable.push_back(W);
  const std::vector<int> List = sizeList(Base.BlockN, Usable);
  std::vector<AlternativeKernel> Alts;
  for (int W : Usable) {
    KernelConfig K = Base;
    K.BlockN = K.WarpN = W;
    K.PairedTiles = Base.PairedTiles && everyBSplitsInHalves(Idiom, W);
    Alts.push_back({K, Suffix + std::to_string(W), Predicate, W, List, LastArg});
  }
  return Alts;
}

/// A transposed raw-fragment kernel `Base` (RawFragmentsB: X's tile is
/// wgmma's N, so its height is what a wide kernel's width is) again with
/// each shorter height of `Heights`; taken where tc::<Predicate>(m, n, k, height,
/// {Base's height, Heights...}, LastArg) picks that height. `Stages`, when
/// set, replaces Base's.
static std::vector<AlternativeKernel>
shorterTransposedTiles(const KernelConfig &Base, llvm::ArrayRef<int> Heights,
                       const std::string &Suffix, const std::string &Predicate,
                       long long LastArg, const RegionClauses &Cl,
                       std::optional<int> Stages = std::nullopt) {
  const std::vector<int> List = sizeList(Base.BlockM, Heights);
  std::vector<AlternativeKernel> Alts;
  for (int H : Heights) {
    KernelConfig K = Base;
    K.BlockM = K.WarpN = H;
    if (Stages)
      K.Stages = *Stages;
    allowStreamUnits(K, Cl);
    Alts.push_back({K, Suffix + std::to_string(H), Predicate, H, List, LastArg});
  }
  return Alts;
}

/// The tall transposed kernel `Tall` 224, 192 and 176 rows tall
/// (kNarrowerWideWidths), under tc::prefer_tall_raw_fragment_height; its
/// last argument says whether the 256-row kernel runs stream units, which
/// the rule leaves a thin last round to (not under a split_k clause).
static std::vector<AlternativeKernel> shorterTallTiles(const KernelConfig &Tall,
                                                       const RegionClauses &Cl) {
  return shorterTransposedTiles(Tall, kNarrowerWideWidths, "_tall",
                                "prefer_tall_raw_fragment_height",
                                Tall.StreamUnits ? 1 : 0, Cl);
}

/// The 128x128 transposed kernel `Square` (the int8 layer's default
/// kernel) 112, 96, 80 and 64 rows tall (kShorterSquareHeights), under
/// tc::prefer_short_raw_fragment_height: more SMs share an output of one or
/// two rounds of tiles, or rows of X that are mostly padding drop out of
/// the wgmma. One block per SM (two would hold 96 registers a thread, below
/// the 128x128 kernel's, and spill), so the stages the shorter X tiles free
/// go to a deeper pipeline (kShortSquareStages). The last argument is the
/// 128x128 kernel's floor of k tiles for cluster parts (0 where it has
/// none), which the rule compares with the shorter tiles'.
static std::vector<AlternativeKernel> shorterSquareTiles(const KernelConfig &Square,
                                                         const RegionClauses &Cl) {
  return shorterTransposedTiles(
      Square, kShorterSquareHeights, "_short", "prefer_short_raw_fragment_height",
      launchesClusterParts(Square, Cl) ? Square.clusterPartsMinKTiles() : 0, Cl,
      kShortSquareStages);
}

std::vector<AlternativeKernel> alternativeKernels(const KernelConfig &C,
                                                  const RegionModel &M,
                                                  const MatmulIdiom &Idiom) {
  const RegionClauses &Cl = M.Clauses;
  if (!C.wgmma() || Cl.Tile || Cl.Stages)
    return {};
  KernelConfig Wide = C;
  Wide.BlockN = Wide.WarpN = 256;
  KernelConfig Narrow = C;
  Narrow.BlockM = 64;
  Narrow.Stages = 4;
  Narrow.WgmmaPending = C.WgmmaRegisterA ? 0 : 1;
  Narrow.SplitFillDivisor = 2;
  // Converted while copying (cp.async stages): only these tiles, where
  // enough of them fill the GPU unsplit; wider and taller tiles measured
  // slower (docs/results/fused-bench-h100-int8-tiles.md).
  if (Idiom.A.ConvertWhileCopying || Idiom.B.ConvertWhileCopying) {
    if (Narrow.Tma) {
      chooseRawFragments(Narrow, Idiom);
      // (A converted B's transposed tile: 64 columns of 128 rows of B.)
      if (Narrow.ConvertsLandedB)
        Narrow = transposedForB(Narrow);
      placeAPrologue(Narrow);
      Narrow.Stages = defaultTmaStages(Narrow);
    }
    allowStreamUnits(Narrow, Cl);
    // (Against a 128x128 kernel converting into its fragments, only for
    // short reductions; then, for outputs of enough 256-row tiles, the
    // transposed tile 256 rows tall: each thread's fragments serve twice
    // the columns of wgmma, m64n256k16, beside a producer warpgroup that
    // gives its registers to the consumers. 4 stages, one block per SM.
    // Preceded by the same
    // tiles 224, 192 and 176 rows tall for outputs those fit better to
    // rounds of SMs, tc::tall_tile_height.)
    if (C.RawFragmentsB) {
      KernelConfig Tall = C;
      Tall.BlockM = Tall.WarpN = 256;
      Tall.ProducerWarpgroup = true;
      Tall.Stages = 4;
      allowStreamUnits(Tall, Cl);
      AlternativeKernel TallAlt{Tall, "_tall", "prefer_tall_raw_fragment_tiles"};
      // The 128x128 kernel's own tiles shorter where they spread an output
      // over more SMs (tc::raw_fragment_tile_height), last.
      std::vector<AlternativeKernel> ShorterSquare = shorterSquareTiles(C, Cl);
      // The narrow tiles (64 rows of X by 128 of W) transposed too, as the
      // shortest of those: converted into fragments, not into a stage.
      KernelConfig NarrowTransposed = ShorterSquare.back().Config;
      NarrowTransposed.SplitFillDivisor = Narrow.SplitFillDivisor;
      std::vector<AlternativeKernel> Alts = {
          {NarrowTransposed, "_narrow", "prefer_narrow_raw_fragment_tiles"}};
      // Outputs that 192x192 tiles cover in whole rounds of SMs where the
      // tall tiles do not (tc::prefer_fitted_raw_fragment_tiles): the same
      // transposed tile, 192 rows of X by three warpgroups of 64 rows of W.
      // Five stages at the components' sizes, so that the output tile,
      // staged transposed, fits in them (a kernel of the components only).
      KernelConfig Fitted = Tall;
      Fitted.BlockM = Fitted.WarpN = Fitted.BlockN = 192;
      Fitted.ComponentStages = true;
      Fitted.Stages = 5;
      allowStreamUnits(Fitted, Cl);
      Alts.push_back({Fitted, "_fitted", "prefer_fitted_raw_fragment_tiles"});
      std::vector<AlternativeKernel> Shorter = shorterTallTiles(Tall, Cl);
      Alts.insert(Alts.end(), Shorter.begin(), Shorter.end());
      Alts.push_back(TallAlt);
      Alts.insert(Alts.end(), ShorterSquare.begin(), ShorterSquare.end());
      return Alts;
    }
    return {{Narrow, "_narrow", "prefer_narrow_converted_tiles"}};
  }
  // Outputs of at most 64 columns: tiles as narrow as B's stage allows (an
  // N-major B is stored in 64-column panels), so that each stage carries
  // mostly A and the pipeline keeps more of it in flight; the 64x32 tiles
  // also for outputs one round of them covers, of short reductions
  // (tc::prefer_skinny_tiles gets k and the tiles' width).
  KernelConfig Skinny = C;
  Skinny.BlockM = 64;
  Skinny.BlockN = Skinny.WarpN = Idiom.B.ReductionIsContiguous ? 32 : 64;
  Skinny.SplitFillDivisor = 2;
  for (KernelConfig *K : {&Wide, &Narrow, &Skinny}) {
    if (K->Tma) {
      K->Stages = defaultTmaStages(*K);
      pairTiles(*K, Idiom);
      placeAPrologue(*K);
    } else if (K == &Wide)
      K->Stages = defaultCpAsyncStages(*K);
  }
  // Outputs of at most one round of 64x128 tiles: the same tiles with twice
  // the stages (8, one block per SM), so that a short reduction is mostly in
  // flight from the start instead of waiting for a refill every 4 k tiles.
  KernelConfig Deep = Narrow;
  Deep.Stages = kDeepNarrowStages;
  // Outputs of at most one round of 64x128 tiles, more than 128 columns:
  // the same kernel with 112 or 96 columns (tc::narrow_tile_width picks the
  // narrowest whose tiles still fit one round of SMs, so that more SMs
  // work), built for pairs like it - but not where those would run whole
  // and 128-column tiles in cluster parts (the rule takes the kernel's
  // floor of k tiles for them; 0 where the launcher has none: a split_k
  // clause splits every tile its own way). A K-major B only (neither width
  // is a multiple of 64).
  std::vector<AlternativeKernel> NarrowerDeep;
  if (Deep.Tma)
    NarrowerDeep = narrowerTiles(
        Deep, "_narrow_deep", "prefer_deep_narrow_width", kNarrowerDeepWidths, Idiom,
        launchesClusterParts(Deep, Cl) ? Deep.clusterPartsMinKTiles() : 0);
  // Outputs that 192x192 tiles cover in whole rounds of SMs where 128x256
  // tiles leave a last round mostly empty (tc/tile_choice.cuh,
  // prefer_fitted_tiles): three warpgroups of m64n192k16, 4 stages, one
  // block per SM.
  KernelConfig Fitted = C;
  Fitted.BlockM = Fitted.BlockN = Fitted.WarpN = 192;
  if (Fitted.Tma)
    Fitted.Stages = defaultTmaStages(Fitted); // unpaired: B's tile is not the 256-row one
  placeAPrologue(Fitted);
  // Outputs of one or two rounds of 128x256 tiles whose last round is
  // poorly filled: the same kernel with 224, 192 or 176 columns
  // (tc::wide_tile_width picks the width of the fewest rounds, then the
  // fewest tile columns over them), 4 stages like the 128x256 kernel (5
  // or 6, which would fit, measured slower), built for pairs like it.
  // Not 160 or 144 (the tile clause has them): in the same rounds as 176
  // they were faster on an H200 but slower on an H100
  // (docs/design/tile-choice.md, wide_tile_width).
  // Only 192 for an N-major B (unpaired: three 64-column panels). Not with
  // an operand prologue (converted for fewer columns of output): ReLU on A
  // measured no faster than on the 128x256 tiles.
  std::vector<AlternativeKernel> Narrower;
  if (Wide.Tma && !C.appliesOperandPrologue())
    Narrower = narrowerTiles(Wide, "_wide", "prefer_wide_tma_width", kNarrowerWideWidths, Idiom);
  // The TMA kernels' own rule: their tile schedule balances a partial last
  // round of tiles (tc/tile_choice.cuh).
  // Checked in this order (the skinny rule first: a tall output of few
  // columns would otherwise take wide tiles).
  std::vector<AlternativeKernel> Alts;
  if (Skinny.Tma) // measured with TMA stages only
    Alts.push_back(
        {Skinny, "_skinny", "prefer_skinny_tiles", Skinny.BlockN});
  // Measured with TMA stages only, and not for sums of three or more
  // products (384 threads keep 160 registers a thread).
  if (Fitted.Tma && Idiom.MoreProducts.size() < 2)
    Alts.push_back({Fitted, "_fitted", "prefer_fitted_tiles"});
  Alts.insert(Alts.end(), Narrower.begin(), Narrower.end());
  // Not with a prologue on B: converting B's 256 rows beside the 128x256
  // tile's accumulators made ptxas spill (an N-major B, TMA).
  if (!C.ConvertStagesB)
    Alts.push_back(
        {Wide, "_wide", Wide.Tma ? "prefer_wide_tma_tiles" : "prefer_wide_tiles"});
  Alts.insert(Alts.end(), NarrowerDeep.begin(), NarrowerDeep.end());
  if (Deep.Tma) // measured with TMA stages only
    Alts.push_back({Deep, "_narrow_deep", "prefer_deep_narrow_tiles"});
  // The default's 128x128 tiles as persistent blocks
  // (KernelConfig::PersistentTiles), with as many stages as fit beside the
  // output buffer (4), before the 64x128 tiles of two blocks per SM:
  // tc::prefer_persistent_tiles takes them for the reductions where their
  // epilogue warpgroups pay, with at least as many tiles as SMs and, for
  // long reductions, with fewer. With a K-major A's prologue, on wgmma's
  // fragments beside a producer warpgroup (placeAPrologue), for longer
  // reductions (prefer_persistent_fragment_tiles); applied to the stages
  // it measured no better than the two blocks. Not with
  // B's prologue or a raw B. Nor with the split_k clause: persistent
  // blocks compute whole tiles, and do not add up the parts of a split
  // one.
  const bool KMajorAPrologueOnly = C.ConvertStages && !C.ConvertedAIsMMajor &&
                                   !C.ConvertStagesB && !C.RawStagesB;
  if (C.Tma && (!C.appliesOperandPrologue() || KMajorAPrologueOnly) && !Cl.SplitK) {
    KernelConfig Persistent = C;
    Persistent.PersistentTiles = true;
    placeAPrologue(Persistent);
    int Free = sharedMemoryLimit(C.Arch) - 1024 - Persistent.epilogueBufferBytes();
    Persistent.Stages = std::min(4, Free / C.bytesPerStage());
    if (Persistent.Stages >= 3 && Persistent.sharedBytes() <= sharedMemoryLimit(C.Arch)) {
      Alts.push_back({Persistent, "_persistent",
                      Persistent.WgmmaRegisterA ? "prefer_persistent_fragment_tiles"
                                                : "prefer_persistent_tiles"});
    }
  }
  Alts.push_back({Narrow, "_narrow", "prefer_narrow_tiles"});
  for (AlternativeKernel &Alt : Alts) {
    allowStreamUnits(Alt.Config, Cl);
    keepClauseParts(Alt.Config, Cl);
  }
  return Alts;
}

} // namespace tc
