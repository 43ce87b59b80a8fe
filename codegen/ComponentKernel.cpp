//===- ComponentKernel.cpp ------------------------------------------------===//
#include "ComponentKernel.h"
#include "CodeText.h"
#include "llvm/ADT/STLExtras.h"

namespace tc {

/// A transposed kernel's tiles (KernelConfig::transposedTile): it computes
/// C^T = B^T A^T, so its A is the region's B (BlockN rows, K-major: an
/// 8-bit one's raw bytes of `WeightType`), its B the region's A (BlockM
/// rows).
static std::string transposedTileType(const KernelConfig &C, const MatmulIdiom &Idiom,
                                      const std::string &WeightType, bool IsA) {
  if (IsA && C.RawFragmentsB)
    return "tc::sm90::RawOperandTile<" + WeightType + ", " + std::to_string(C.BlockN) + ">";
  return std::string("tc::sm90::OperandTile<") + spelling(Idiom.InputType) + ", " +
         std::to_string(IsA ? C.BlockN : C.BlockM) + ", tc::sm90::Major::" +
         (IsA || Idiom.A.ReductionIsContiguous ? "K" : "MN") + ">";
}

std::string sm90OperandTileType(const KernelConfig &C, const MatmulIdiom &Idiom, bool IsA) {
  const OperandView &V = IsA ? Idiom.A : Idiom.B;
  // A pair's blocks share B's tile, each copying half of it into both.
  const bool Halves = !IsA && C.PairedTiles;
  std::string S = std::string("tc::sm90::OperandTile<") + spelling(Idiom.InputType) + ", " +
                  std::to_string(IsA ? C.BlockM : C.BlockN) + ", tc::sm90::Major::" +
                  (V.ReductionIsContiguous ? "K" : "MN");
  // (kHalves, then kTransposedCopy: the defaults, false, left out.)
  if (Halves || V.StagedTransposed)
    S += Halves ? ", true" : ", false";
  if (V.StagedTransposed)
    S += ", true";
  return S + ">";
}

/// Every product's operand views (A, B, then each further product's),
/// where each product's layouts are the first's, so that one pair of tile
/// types serves them all; else none.
static std::vector<const OperandView *> productViews(const MatmulIdiom &Idiom) {
  std::vector<const OperandView *> Views = {&Idiom.A, &Idiom.B};
  for (const ProductTerm &P : Idiom.MoreProducts) {
    if (P.A.ReductionIsContiguous != Idiom.A.ReductionIsContiguous ||
        P.B.ReductionIsContiguous != Idiom.B.ReductionIsContiguous)
      return {};
    Views.insert(Views.end(), {&P.A, &P.B});
  }
  return Views;
}

/// Whether the output tile, `Rows` rows of `Cols` + `Pad` floats, fits in
/// the kernel's stages of `StageBytes` each, where the components stage it
/// for the epilogue (else it would apply the epilogue from registers).
static bool stagedOutputFits(const KernelConfig &C, int Rows, int Cols, int Pad,
                             int StageBytes) {
  return Rows * (Cols + Pad) * 4 <= C.Stages * StageBytes;
}

/// What a transposed kernel (KernelConfig::transposedTile) asks of its
/// tiles: B's rows are wgmma's M (64 a consumer warpgroup, at most
/// `MaxBRows`), A's its N; the output tile, staged transposed (BlockM rows
/// of BlockN + 4 floats), fits in the stages (BlockN rows of `BRowBytes`
/// and BlockM 16-bit rows of 64 k).
static std::string transposedTilesMismatch(const KernelConfig &C, const MatmulIdiom &Idiom,
                                           int MaxBRows, int BRowBytes) {
  if (C.BlockK != 64 || C.BlockN % 64 || C.BlockN > MaxBRows || C.BlockM > 256 ||
      C.BlockM % (Idiom.A.ReductionIsContiguous ? 8 : 64))
    return "its tiles";
  if (!stagedOutputFits(C, C.BlockM, C.BlockN, 4, C.BlockN * BRowBytes + C.BlockM * 128))
    return "an epilogue from registers";
  return "";
}

/// sm90ComponentMismatch of a raw-fragment kernel (an 8-bit K-major B, the
/// tile computed transposed): RawRegisterA's, beside X's 16-bit tile.
static std::string rawFragmentMismatch(const KernelConfig &C, const MatmulIdiom &Idiom) {
  const OperandView &X = Idiom.A, &W = Idiom.B;
  if (C.WarpSplitK != 1 || C.WgmmaPending != 1)
    return "its warp roles";
  if (Idiom.InputType != ElementType::F16 && Idiom.InputType != ElementType::BF16)
    return "its operand type";
  // (The weight's conversion knows no product or batch entry.)
  if (!Idiom.MoreProducts.empty() || !Idiom.IterBatch.empty())
    return "an operand converted in a sum of products or a batch";
  if (!W.EightBit || !W.ReductionIsContiguous || !W.Mask.empty() || W.InnerStride != 1)
    return "an 8-bit operand not dense and K-major";
  if (X.ConvertWhileCopying || !X.Prologue.empty() || !X.Mask.empty() || X.InnerStride != 1 ||
      X.StagedTransposed)
    return "an operand prologue";
  if (!Idiom.OutputGuard.empty())
    return "a guard of the output";
  // (W's rows raw bytes, at most four warpgroups of them.)
  return transposedTilesMismatch(C, Idiom, 256, 64);
}

/// sm90ComponentMismatch of a kernel whose converted 16-bit B is the
/// transposed tile's A (KernelConfig::ConvertsLandedB): RegisterA's, with
/// Converted<F> by B's rows, beside A's tile.
static std::string convertedBMismatch(const KernelConfig &C, const MatmulIdiom &Idiom) {
  if (C.WarpSplitK != 1 || C.WgmmaPending != 1 || C.PairedTiles)
    return "its warp roles";
  if (Idiom.InputType != ElementType::F16 && Idiom.InputType != ElementType::BF16)
    return "its operand type";
  if (!convertedBLandsRaw(Idiom))
    return "an operand converted while copied";
  // (B's 16-bit rows; two warpgroups of them, whose fragments' registers
  // fit.)
  return transposedTilesMismatch(C, Idiom, 128, 128);
}

/// sm90ComponentMismatch of a kernel whose 8-bit A lands raw
/// (KernelConfig::RawFragmentsA): RawRegisterA's, beside B's 16-bit tile.
static std::string rawAMismatch(const KernelConfig &C, const MatmulIdiom &Idiom) {
  if (C.WarpSplitK != 1 || C.WgmmaPending != 1 || C.PairedTiles)
    return "its warp roles";
  if (!rawALandsRaw(Idiom))
    return "an 8-bit operand not dense and K-major";
  // A's rows are wgmma's M (64 a consumer warpgroup, two of them).
  if (C.BlockK != 64 || C.BlockM % 64 || C.BlockM > 128 || C.BlockN > 256 ||
      C.BlockN % (Idiom.B.ReductionIsContiguous ? 8 : 64))
    return "its tiles";
  // The output tile (BlockM rows of BlockN + 8 floats) in the stages
  // (BlockM raw bytes and BlockN 16-bit elements of 64 k).
  if (!stagedOutputFits(C, C.BlockM, C.BlockN, 8, C.BlockM * 64 + C.BlockN * 128))
    return "an epilogue from registers";
  return "";
}

std::string sm90ComponentMismatch(const KernelConfig &C, const MatmulIdiom &Idiom,
                                  const RegionClauses &Clauses) {
  if (C.Arch != GpuArch::SM90a || !C.wgmma() || !C.Tma)
    return "not a TMA + wgmma kernel";
  if (C.RawFragmentsA)
    return rawAMismatch(C, Idiom);
  if (C.RawFragmentsB)
    return rawFragmentMismatch(C, Idiom);
  if (C.ConvertsLandedB)
    return convertedBMismatch(C, Idiom);
  if (C.RawStagesB)
    return "operands converted in the kernel";
  if (C.WarpSplitK != 1 || C.WgmmaPending != 1)
    return "its warp roles";
  // B's rows: whole swizzle atoms (K-major) or 64-wide panels (MN-major),
  // twice as many for a pair, which copies them in halves.
  const int BRows = (Idiom.B.ReductionIsContiguous ? 8 : 64) * (C.PairedTiles ? 2 : 1);
  // A k tile is one 128-byte swizzled row (64 16-bit or 32 tf32 elements).
  if (C.BlockK * C.ElementBytes != 128 || C.BlockM % 64 || C.BlockM > 256 || C.BlockN % BRows ||
      C.BlockN > 256)
    return "its tiles";
  if (!C.stagedEpilogue())
    return "an epilogue from registers";
  if (Idiom.InputType != ElementType::F16 && Idiom.InputType != ElementType::BF16 &&
      !(Idiom.InputType == ElementType::F32 && C.Tf32))
    return "its operand type";
  // wgmma reads tf32 operands K-major only.
  if (C.Tf32 && (!Idiom.A.ReductionIsContiguous || !Idiom.B.ReductionIsContiguous))
    return "tf32 operands stored M- or N-major";
  // Every product's tiles are the first's (tc/sm90/products.cuh).
  const std::vector<const OperandView *> Views = productViews(Idiom);
  if (Views.empty())
    return "products of different operand layouts";
  // An operand converted while copied: where it lands raw for the
  // consumers to convert by each element's place (tc::sm90::Converted).
  for (const OperandView *V : Views)
    if (V->ConvertWhileCopying &&
        !(C.ConvertsLandedOperands && V == &Idiom.A && convertedALandsRaw(Idiom)))
      return V->Mask.empty() ? "an operand converted while copied" : "an operand mask";
  // A prologue of the element alone, where the kernel applies it: the
  // landed stages (A's or B's) or A's fragments (tc/sm90/roles.cuh).
  // (A tf32 A's rounding is placed as A's prologue is; B's is always on
  // its stages: RoundToTf32.)
  const bool PrologueA = fragmentPrologue(Idiom.A) || C.Tf32,
             PrologueB = fragmentPrologue(Idiom.B);
  for (const ProductTerm &P : Idiom.MoreProducts)
    if (!P.A.Prologue.empty() || !P.B.Prologue.empty())
      return "an operand prologue in a sum of products";
  if (PrologueA != (C.ConvertStages || C.WgmmaRegisterA) || PrologueB != C.ConvertStagesB ||
      (C.ConvertStages && C.WgmmaRegisterA))
    return "an operand prologue";
  if (!Idiom.OutputGuard.empty())
    return "a guard of the output";
  return "";
}

std::string sm80ComponentMismatch(const KernelConfig &C, const MatmulIdiom &Idiom,
                                  const RegionClauses &Clauses) {
  (void)Clauses; // (a split_k clause is the launch's count of parts)
  if (C.wgmma() || C.Tma)
    return "not a cp.async + mma.sync kernel";
  // m16n8k16 on 16-bit operands, or m16n8k8 on fp32 ones as tf32.
  if (C.Tf32 ? C.MmaK != 8 || C.ElementBytes != 4 || Idiom.InputType != ElementType::F32
             : C.MmaK != 16 || C.ElementBytes != 2)
    return "its instruction";
  if (!C.Tf32 && Idiom.InputType != ElementType::F16 && Idiom.InputType != ElementType::BF16)
    return "its operand type";
  // A sum of products: every product's tiles are the first's, as stored
  // (the copiers switch operands between products: tc::sm80::Product).
  const std::vector<const OperandView *> Views = productViews(Idiom);
  if (Views.empty())
    return "products of different operand layouts";
  // An operand converted while copying (8-bit weights, a prologue of the
  // element's row or not finite at 0, a mask) is a ConvertedOperandTile;
  // packed 4-bit ones, gathered ones (an inner stride) and transposed
  // stages are not.
  for (const OperandView *V : Views)
    if (V->FourBit || V->StagedTransposed || V->InnerStride != 1 ||
        (!V->Mask.empty() && !V->ConvertWhileCopying))
      return "a packed, strided or transposed operand";
  // (A converted operand's functor knows neither the product nor the
  // batch entry; a fragment prologue would apply to every product.)
  for (const OperandView *V : Views) {
    if (!Idiom.MoreProducts.empty() && V->ConvertWhileCopying)
      return "an operand converted in a sum of products";
    if (!Idiom.MoreProducts.empty() && !V->Prologue.empty())
      return "an operand prologue in a sum of products";
    if (!Idiom.IterBatch.empty() && V->ConvertWhileCopying)
      return "an operand converted in a batch";
  }
  // A prologue of the element alone, on the fragments (tc/prologue.cuh),
  // on one operand: the zero padding past K becomes f(0), which the other
  // operand's zeros cancel. (tf32 fragments are rounded as loaded.)
  if (!Idiom.A.Prologue.empty() && !Idiom.B.Prologue.empty())
    return "prologues on both operands";
  if (C.Tf32 && (fragmentPrologue(Idiom.A) || fragmentPrologue(Idiom.B)))
    return "a prologue on tf32 fragments";
  if (C.RawStagesB || C.RawFragmentsB || C.ConvertStages || C.ConvertStagesB ||
      C.WgmmaRegisterA)
    return "operands converted in the kernel";
  if (!Idiom.OutputGuard.empty())
    return "a guard of the output";
  // (warp_split_k: kWarpsK groups of warps, each its share of a tile's k
  // steps, their sums added in shared memory.)
  if (C.SplitFillDivisor != 1 || C.kSteps() % C.WarpSplitK)
    return "its warp roles";
  // Warp tiles of whole pairs of n8 tiles; each thread copies whole rows
  // of 16-byte chunks of a stage (tc::sm80::OperandTile::Copy).
  if (C.BlockM % C.WarpM || C.BlockN % C.WarpN || C.WarpM % 16 || C.WarpN % 16)
    return "its tiles";
  const int Threads = C.threads();
  // The staged epilogue gives each thread eight columns of a row
  // (tc/staged_tile.cuh): a row's groups at most the threads.
  if (C.BlockN % 8 || C.BlockN / 8 > Threads)
    return "its tiles";
  for (const auto &[V, Rows] : {std::pair{&Idiom.A, C.BlockM}, std::pair{&Idiom.B, C.BlockN}}) {
    const int Contiguous = V->ReductionIsContiguous ? C.BlockK : Rows;
    const int Stored = V->ReductionIsContiguous ? Rows : C.BlockK;
    const int ChunksPerRow = Contiguous * C.ElementBytes / 16;
    if (Contiguous % C.vector() || Threads % ChunksPerRow || Stored % (Threads / ChunksPerRow))
      return "its tiles";
  }
  // (Where the output tile does not fit in the stages, the kernel applies
  // the epilogue from registers: tc::sm80::GemmKernel::kStagedEpilogue.)
  return "";
}

std::string sm80MainloopType(const KernelConfig &C, const MatmulIdiom &Idiom,
                             bool OperandPerLine, const Sm80Names &Names) {
  const std::string &Region = Names.Region;
  auto Tile = [&](const OperandView &V, int Rows, bool IsA) {
    const std::string Shape = std::to_string(Rows) + ", tc::sm80::Major::" +
                              (V.ReductionIsContiguous ? "K" : "MN");
    const std::string Element = spelling(Idiom.InputType);
    if (V.ConvertWhileCopying)
      return "tc::sm80::ConvertedOperandTile<" + (IsA ? Names.SourceA : Names.SourceB) + ", " +
             Element + ", " + Shape + ", " + convertedOperandFunctorName(Region, IsA) + ">";
    return "tc::sm80::OperandTile<" + Element + ", " + Shape + ">";
  };
  const std::string A = Tile(Idiom.A, C.BlockM, true), B = Tile(Idiom.B, C.BlockN, false);
  std::string Rest = std::to_string(C.BlockK) + ", " + std::to_string(C.Stages) + ", " +
                     std::to_string(C.warpsM()) + ", " + std::to_string(C.warpsN());
  // The prologue functors (named as KernelEmitter defines them), then the
  // groups of warps over k; the trailing ones that are the defaults left
  // out.
  std::vector<std::string> Optional = {
      fragmentPrologue(Idiom.A) ? Region + "_prologue_a" : "tc::NoPrologue",
      fragmentPrologue(Idiom.B) ? Region + "_prologue_b" : "tc::NoPrologue",
      std::to_string(C.WarpSplitK)};
  const std::string Defaults[] = {"tc::NoPrologue", "tc::NoPrologue", "1"};
  while (!Optional.empty() && Optional.back() == Defaults[Optional.size() - 1])
    Optional.pop_back();
  for (const std::string &Argument : Optional)
    Rest += ", " + Argument;
  if (!OperandPerLine)
    return "tc::sm80::CpAsyncMmaMainloop<" + A + ", " + B + ", " + Rest + ">";
  return "tc::sm80::CpAsyncMmaMainloop<\n        " + A + ",  // A\n        " + B +
         ",  // B\n        " + Rest + ">";
}

/// What the decode kernels ask of a layer besides its weights: one product
/// of fp16 A as stored, no guard, no clause that fixes the kernel.
static std::string decodeLayerMismatch(const MatmulIdiom &Idiom, const RegionClauses &Clauses) {
  // A clause that fixes the kernel's tiles or instructions asks for that kernel.
  if (Clauses.SplitK || Clauses.Tile || Clauses.Warp || Clauses.Stages || Clauses.WarpSplitK ||
      Clauses.Mma)
    return "a clause fixes the kernel";
  if (!Idiom.MoreProducts.empty() || !Idiom.IterBatch.empty())
    return "a sum of products or a batch";
  if (!Idiom.OutputGuard.empty())
    return "a guard of the output";
  const OperandView &A = Idiom.A;
  if (Idiom.InputType != ElementType::F16 || A.ConvertWhileCopying || !A.Prologue.empty() ||
      !A.Mask.empty() || !A.ReductionIsContiguous || A.InnerStride != 1)
    return "A is not fp16 as stored, k contiguous";
  return "";
}

std::string nibbleStreamMismatch(const KernelConfig &C, const MatmulIdiom &Idiom,
                                 const RegionClauses &Clauses, const DequantizedOperand &D) {
  (void)C; // TMA stages where built for sm_90, cp.async stages on sm_80 on
  if (std::string Why = decodeLayerMismatch(Idiom, Clauses); !Why.empty())
    return Why;
  if (!D.Groups)
    return D.GroupsMismatch;
  const OperandView &B = Idiom.B;
  if (B.ArrayId != D.Copy || !B.Prologue.empty() || B.ConvertWhileCopying || !B.Mask.empty())
    return "the product applies more to the weights than their packed factor";
  if (D.Groups->GroupSize % 32 != 0)
    return "groups of " + std::to_string(D.Groups->GroupSize) +
           " k (the kernel's are multiples of 32)";
  return "";
}

std::string weightStreamMismatch(const KernelConfig &C, const MatmulIdiom &Idiom,
                                 const RegionClauses &Clauses) {
  (void)C; // every architecture of the tool has mma.sync m16n8k16 (sm_80 on)
  if (std::string Why = decodeLayerMismatch(Idiom, Clauses); !Why.empty())
    return Why;
  const OperandView &B = Idiom.B;
  if (!B.EightBit || !B.Offset || !B.Mask.empty() || !B.ReductionIsContiguous ||
      B.InnerStride != 1)
    return "B is not 8-bit weights minus an offset, k contiguous";
  return "";
}

std::string sm90MainloopPolicies(const KernelConfig &C, const MatmulIdiom &Idiom,
                                 const std::string &Region) {
  std::string S;
  const std::string PA = Region + "_prologue_a", PB = Region + "_prologue_b";
  if (C.Tf32) // (wgmma alone would truncate them: A where its prologue goes, B's stages)
    S = std::string(", tc::sm90::") + (C.WgmmaRegisterA ? "RegisterA" : "SharedOperands") +
        "<tc::sm90::RoundToTf32, tc::sm90::RoundToTf32>";
  else if (C.WgmmaRegisterA)
    S = ", tc::sm90::RegisterA<" + (Idiom.A.Prologue.empty() ? std::string() : PA) + ">";
  else if (C.RawFragmentsB || C.RawFragmentsA) // (B transposed: rawFragmentMismatch)
    S = ", tc::sm90::RawRegisterA<" + convertedOperandFunctorName(Region, C.RawFragmentsA) + ">";
  else if (C.ConvertsLandedOperands) // (in its fragments, A's or the transposed tile's)
    S = ", tc::sm90::RegisterA<tc::sm90::Converted<" +
        convertedOperandFunctorName(Region, !C.ConvertsLandedB) + ">>";
  else {
    // What SharedOperands applies to an operand's landed stages: its
    // prologue, or nothing ("").
    auto Slot = [&](bool IsA) -> std::string {
      return (IsA ? C.ConvertStages : C.ConvertStagesB) ? (IsA ? PA : PB) : "";
    };
    const std::string SA = Slot(true), SB = Slot(false);
    if (!SA.empty() || !SB.empty())
      S = ", tc::sm90::SharedOperands<" + (SA.empty() ? "tc::sm90::NoPrologue" : SA) +
          (SB.empty() ? "" : ", " + SB) + ">";
  }
  if (!C.ProducerWarpgroup)
    return S;
  if (S.empty())
    S = ", tc::sm90::SharedOperands<>";
  // (KernelConfig: the registers of each role's thread.)
  return S + ", tc::sm90::ProducerWarpgroup<" + std::to_string(C.producerRegisters()) + ", " +
         std::to_string(C.consumerRegisters()) +
         (C.PersistentTiles ? ", " + std::to_string(C.storerRegisters()) : "") + ">";
}

std::string sm90MainloopType(const KernelConfig &C, const MatmulIdiom &Idiom,
                             bool OperandPerLine, const std::string &Region,
                             const std::string &WeightType) {
  const bool Transposed = C.transposedTile();
  const std::string A = Transposed ? transposedTileType(C, Idiom, WeightType, true)
                        : C.RawFragmentsA
                            ? "tc::sm90::RawOperandTile<" + WeightType + ", " +
                                  std::to_string(C.BlockM) + ">"
                            : sm90OperandTileType(C, Idiom, true),
                    B = Transposed ? transposedTileType(C, Idiom, WeightType, false)
                                   : sm90OperandTileType(C, Idiom, false),
                    Stages = std::to_string(C.Stages);
  const std::string Policies = sm90MainloopPolicies(C, Idiom, Region);
  if (OperandPerLine)
    return "tc::sm90::TmaWgmmaMainloop<\n        " + A +
           (Transposed ? ",  // B, transposed: C^T = B^T A^T\n        " : ",  // A\n        ") +
           B + (Transposed ? ",  // A\n        " : ",  // B\n        ") + Stages +
           (Policies.empty() ? "" : ",\n        " + Policies.substr(2)) + ">";
  return "tc::sm90::TmaWgmmaMainloop<" + A + ", " + B + ", " + Stages + Policies + ">";
}

bool usesDefaultSm90Scheduler(const KernelConfig &C, const RegionClauses &Clauses) {
  return !C.PersistentTiles && !C.PairedTiles && !C.StreamUnits &&
         !launchesClusterParts(C, Clauses) && !Clauses.SplitK;
}

std::string epilogueFunctorText(const std::string &Name, const std::string &Comment,
                                const std::vector<FunctorMember> &Members,
                                const std::string &Element, const std::string &LaneBody,
                                int Lanes, bool Batched) {
  // A batch's functor takes the entry first (tc::BatchEntryEpilogue, tc/batch_entry.cuh).
  const std::string Entry = Batched ? "long long tc_batch, " : "";
  std::string S = Comment + "struct " + Name + " {\n";
  for (const FunctorMember &M : Members)
    S += "  " + M.Type + M.Name + ";\n";
  S += "  __device__ void operator()(" + Entry +
       "long long tc_m, long long tc_n, float tc_sum) const {\n" + indent(Element, 4) + "  }\n";
  if (Lanes == 8) {
    S += "  __device__ void row(" + Entry +
         "long long tc_m, long long tc_n0, const float (&tc_sums)[8]) const {\n" +
         indent(LaneBody, 4) + "  }\n";
  } else if (Lanes > 0) {
    S += "  __device__ void row(" + Entry +
         "long long tc_m, long long tc_j0, const float (&tc_row)[8]) const {\n"
         "#pragma unroll\n"
         "    for (int tc_h = 0; tc_h < 8; tc_h += " + std::to_string(Lanes) + ") {\n"
         "      const long long tc_n0 = tc_j0 + tc_h;\n"
         "      const float *tc_sums = tc_row + tc_h;\n" +
         indent(LaneBody, 6) + "    }\n  }\n";
  } else {
    S += "  __device__ void row(" + Entry +
         "long long tc_m, long long tc_n0, const float (&tc_sums)[8]) const {\n"
         "#pragma unroll\n"
         "    for (int tc_v = 0; tc_v < 8; ++tc_v)\n"
         "      (*this)(" + (Batched ? "tc_batch, " : "") + "tc_m, tc_n0 + tc_v, tc_sums[tc_v]);\n"
         "  }\n";
  }
  return S + "};\n\n";
}

std::string pairRuleName(const KernelConfig &C) {
  if (C.BlockM >= 128)
    return "tc::kPairWideTiles";
  return C.twoBlocksFit() ? "tc::kPairTwoBlocksPerSm" : "tc::kPairOneRound";
}

std::string sm90SchedulerType(const KernelConfig &C, const RegionClauses &Clauses) {
  if (C.PersistentTiles) // whole tiles: never cluster parts
    return "tc::sm90::PersistentScheduler";
  // The clause's parts, in every kernel of the region (no pairs, stream
  // units or cluster parts: launchesClusterParts, allowStreamUnits).
  if (Clauses.SplitK)
    return "tc::sm90::SplitScheduler<" + std::to_string(*Clauses.SplitK) + ">";
  const bool Tiles = !C.PairedTiles && !C.StreamUnits; // one unit a block
  std::string S = C.PairedTiles ? "tc::sm90::PairsScheduler<" + pairRuleName(C) +
                                      (C.StreamUnits ? ", true>" : ">")
                  : C.StreamUnits ? "tc::sm90::StreamUnitsScheduler"
                                  : "tc::sm90::TilesScheduler";
  if (!launchesClusterParts(C, Clauses))
    return S;
  return "tc::sm90::ClusterPartsScheduler<" + std::to_string(C.clusterPartsMinKTiles()) +
         (Tiles ? "" : ", " + S) + ">";
}

RegionKernels regionKernels(const KernelConfig &C, std::vector<AlternativeKernel> Alts,
                            const MatmulIdiom &Idiom, const RegionClauses &Clauses) {
  // (Stages at the components' sizes fit no generated kernel.)
  llvm::erase_if(Alts, [&](const AlternativeKernel &A) {
    return A.Config.ComponentStages && !composesSm90Gemm(A.Config, Idiom, Clauses);
  });
  auto IsPersistent = [](const AlternativeKernel &A) {
    return A.Predicate == "prefer_persistent_tiles" ||
           A.Predicate == "prefer_persistent_fragment_tiles";
  };
  auto Persistent = llvm::find_if(Alts, IsPersistent);
  if (Persistent == Alts.end() || !composesSm90Gemm(C, Idiom, Clauses) ||
      !composesSm90Gemm(Persistent->Config, Idiom, Clauses))
    return {C, std::move(Alts)};
  KernelConfig Default = Persistent->Config;
  llvm::erase_if(Alts, [&](const AlternativeKernel &A) {
    return IsPersistent(A) || A.Predicate == "prefer_narrow_tiles";
  });
  return {Default, std::move(Alts)};
}

void keepTmaOnComponents(RegionKernels &Kernels, const MatmulIdiom &Idiom,
                         const RegionClauses &Clauses) {
  auto TextTma = [&](const KernelConfig &K) {
    return K.Tma && !composesSm90Gemm(K, Idiom, Clauses);
  };
  if (TextTma(Kernels.Default))
    Kernels.Default = Kernels.Default.cpAsyncTwin();
  llvm::erase_if(Kernels.Alternatives,
                 [&](const AlternativeKernel &A) { return TextTma(A.Config); });
}

bool componentKernelsTakeEveryShape(const KernelConfig &C,
                                    const std::vector<AlternativeKernel> &Alts,
                                    const MatmulIdiom &Idiom, const RegionClauses &Clauses) {
  // (tc::sm90::kCopiesUnmapped: not a producer warpgroup of fewer
  // registers outside the persistent kernel.) An alternative that cannot
  // launch leaves the shape to the default.
  return composesSm90Gemm(C, Idiom, Clauses) &&
         (C.PersistentTiles || !C.ProducerWarpgroup ||
          C.producerRegisters() >= KernelConfig::CopyingProducerRegisters) &&
         llvm::all_of(Alts, [&](const AlternativeKernel &A) {
           return !A.Config.Tma || composesSm90Gemm(A.Config, Idiom, Clauses);
         });
}

bool tf32KernelsComposed(const RegionKernels &Kernels, const MatmulIdiom &Idiom,
                         const RegionClauses &Clauses) {
  if (!Kernels.Default.Tf32 || !Kernels.Default.wgmma())
    return true;
  return Kernels.Default.PersistentTiles && composesSm90Gemm(Kernels.Default, Idiom, Clauses) &&
         llvm::all_of(Kernels.Alternatives, [&](const AlternativeKernel &A) {
           return composesSm90Gemm(A.Config, Idiom, Clauses);
         });
}

std::optional<MatmulIdiom> tf32StagedKMajor(const MatmulIdiom &Idiom) {
  if (Idiom.InputType != ElementType::F32 || !Idiom.IterBatch.empty())
    return std::nullopt;
  MatmulIdiom Staged = Idiom;
  std::vector<OperandView *> As = {&Staged.A}, Bs = {&Staged.B};
  for (ProductTerm &P : Staged.MoreProducts) {
    As.push_back(&P.A);
    Bs.push_back(&P.B);
  }
  // (What else keeps tf32 off wgmma, chooseKernelConfig says of the
  // staged idiom.)
  bool Any = false;
  for (auto *Views : {&As, &Bs})
    for (OperandView *V : *Views) {
      // Every product's operand tiles are the first's (tc/sm90/products.cuh).
      if (V->ReductionIsContiguous != Views->front()->ReductionIsContiguous)
        return std::nullopt;
      if (!V->ReductionIsContiguous) {
        V->ReductionIsContiguous = true;
        V->StagedTransposed = Any = true;
      }
    }
  if (!Any)
    return std::nullopt;
  return Staged;
}

} // namespace tc
