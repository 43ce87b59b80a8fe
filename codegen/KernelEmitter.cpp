//===- KernelEmitter.cpp --------------------------------------------------===//
//
// Puts the pieces together: statement templates (helper calls from
// runtime_headers/tc), the isl-generated kernel body, the kernel signature
// and a host launcher that checks alignment at run time and picks the
// cp.async or the element-wise copy path.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"
#include "AliasCheck.h"
#include "SubscriptRange.h"
#include "AstPrinter.h"
#include "CodeText.h"
#include "ComponentKernel.h"
#include "Dequantize.h"
#include "Epilogue.h"
#include "FloatRounding.h"
#include "IslBuild.h"
#include "KernelSchedule.h"
#include "SerialKernel.h"
#include "SmallIntegerArithmetic.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Threading.h"
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <system_error>
#include <thread>

namespace tc {
namespace {

std::string str(long X) { return std::to_string(X); }

/// Whether Text uses the identifier Id (not as part of a longer name).
bool mentionsIdentifier(const std::string &Text, const std::string &Id) {
  for (size_t At = Text.find(Id); At != std::string::npos; At = Text.find(Id, At + 1)) {
    bool Before = At > 0 && clang::isAsciiIdentifierContinue(Text[At - 1]);
    bool After = At + Id.size() < Text.size() &&
                 clang::isAsciiIdentifierContinue(Text[At + Id.size()]);
    if (!Before && !After)
      return true;
  }
  return false;
}

struct OperandTile {
  std::string Smem;   // tc_smem_a
  int Cols;           // contiguous extent of the shared tile
  int Elements;       // per stage
  std::string Rows, ColsExtent, Ld; // of the global matrix
};

/// The sizes' condition under which the rows of the arrays the region
/// writes do not overlap (rowAssumptions, I.Assumptions), as C; empty
/// where every size satisfies it.
std::string rowsAssumedCondition(const RegionModel &M, const IslModel &I) {
  isl::set Context = contextSet(I.Context.ctx(), M);
  if (Context.is_subset(I.Assumptions))
    return "";
  isl::ast_build Build = isl::ast_build::from_context(Context);
  return printAstExpr(Build.expr_from(I.Assumptions.gist(Context)).get());
}

class Emitter {
public:
  /// `Model` builds the region's isl model in a context of the kernel's
  /// own, at the first use: a further kernel of the sm_90 components has
  /// no use for it.
  Emitter(const RegionModel &M, const MatmulIdiom &Idiom, std::function<const IslModel &()> Model,
          const KernelConfig &C, std::string Name, std::string Where,
          std::vector<AlternativeKernel> Alts = {})
      : M(M), Idiom(Idiom), Model(std::move(Model)), C(C), Name(std::move(Name)),
        Where(std::move(Where)), Alts(std::move(Alts)), Region(this->Name),
        Components(composesGemm(C)) {}

  /// A further kernel of region `RegionName`: its definitions share the
  /// region's prologue functors and reduction kernel, which the first of
  /// the region's kernels (`EmitShared`) defines.
  Emitter &partOf(const std::string &RegionName, bool Shared) {
    Region = RegionName;
    EmitShared = Shared;
    return *this;
  }

  /// Whether any kernel of the region splits k over blocks whose partial
  /// sums the region's reduction kernel adds (a cp.async kernel other
  /// than a fallback): without one, the shared pieces leave it out.
  Emitter &regionSplitsK(bool Splits) {
    EmitReduce = Splits;
    return *this;
  }

  /// The cp.async kernel that TMA launchers fall back to where TMA cannot
  /// map an operand even through an aligned copy, a dimension passes
  /// TMA's 32-bit coordinates, or K is 0: rare enough that one
  /// instantiation serves (element-wise copies, any alignment, k unsplit).
  Emitter &servesAsFallback(bool Serves) {
    Fallback = Serves;
    // (A twin has a launcher of its own, which the TMA launchers call.)
    Components = Components && !Serves;
    return *this;
  }

  /// Every TMA kernel of the region is the sm_90 components' and the
  /// default one whose producer warp copies what TMA cannot map
  /// (componentKernelsTakeEveryShape): no cp.async twin.
  Emitter &fallsBackToCopyingDefault(bool Copying) {
    CopyingDefault = Copying;
    return *this;
  }

  /// A TMA kernel that falls back to another kernel's cp.async twin (the
  /// region's default kernel's), defined later in the file: its launcher
  /// declares that twin's launcher, unless an earlier launcher of the
  /// region did (`Declare`).
  Emitter &fallsBackTo(const std::string &TwinName, bool Declare) {
    Twin = TwinName;
    DeclareTwin = Declare;
    return *this;
  }

  /// The region's rowsAssumedCondition.
  Emitter &rowsAssumedAre(std::string Condition) {
    RowsAssumed = std::move(Condition);
    return *this;
  }

  /// Whether the region's explanation is asked for (--explain): without
  /// it, a further kernel composed of the components skips the schedule
  /// steps that only the explanation shows.
  Emitter &explains(bool E) {
    Explains = E;
    return *this;
  }

  /// The region's epilogue functor (tc/sm90/epilogue.cuh) is defined with
  /// this kernel: the first of the region's kernels composed of the sm_90
  /// components.
  Emitter &definesEpilogueFunctor(bool Defines) {
    DefinesFunctor = Defines;
    return *this;
  }
  /// Whether an earlier kernel of the region defined the epilogue functor
  /// (the decode kernels' launch, in the region's launcher, uses it).
  Emitter &followsEpilogueFunctor(bool Defined) {
    FunctorDefinedBefore = Defined;
    return *this;
  }
  /// The region's tuning: the launcher that chooses between its kernels
  /// measures them in tuning runs, and lists the measured choices.
  Emitter &tuned(const RegionTuning &T) {
    Tuning = &T;
    return *this;
  }

  /// The shapes the region's launcher hands to another launcher
  /// (LauncherHandOver).
  Emitter &handsOver(const LauncherHandOver &H) {
    HandOver = &H;
    return *this;
  }

  /// The region reads a dequantised copy of a packed operand, which the
  /// entry launcher makes (model/PackedOperand.h, Dequantize.h).
  Emitter &dequantizes(const DequantizedOperand &D) {
    Dequantized = &D;
    return *this;
  }

  llvm::Expected<GeneratedRegion> run() {
    EpilogueLanes Lanes;
    auto Epi = emitEpilogue(M, Idiom, &Lanes);
    if (!Epi)
      return Epi.takeError();
    // The region's epilogue functor, where this kernel's text defines it
    // (once per region): its reads of arrays the region never writes go
    // through tc::read_only.
    std::string Functor;
    if (DefinesFunctor || ((decodes() || decodesNibbles()) && !FunctorDefinedBefore)) {
      EpilogueLanes FunctorLanes;
      auto FunctorEpi = emitEpilogue(M, Idiom, &FunctorLanes, true);
      if (!FunctorEpi)
        return FunctorEpi.takeError();
      Functor = epilogueFunctor(*FunctorEpi, FunctorLanes);
    }
    // A further kernel composed of the components has no body and no
    // launcher of its own: its schedule steps are only explained.
    std::optional<ComputeSchedule> CS;
    std::optional<KernelSchedule> KS;
    if (!Components || Explains) {
      CS = decomposeCompute(M, Idiom, I(), C);
      StatementTexts T = texts(*Epi, Lanes);
      KS = buildKernelSchedule(M, Idiom, I(), *CS, C, T);
    }

    GeneratedRegion G;
    G.Explain += "  " + Idiom.describe(M);
    if (entersRegion())
      for (const OperandView *V : offsetViews()) {
        std::string Offsets;
        for (const AffineExpr &E : V->IndexOffset)
          Offsets += (Offsets.empty() ? "" : ", ") + E.str();
        G.Explain += "  operand " + M.Arrays[V->ArrayId].Name + ": a view at offset [" +
                     Offsets + "]; the launcher moves the pointer there\n";
      }
    G.Explain += "  kernel: " + laidOut(C, Idiom, M.Clauses).describe() + "\n";
    G.Explain += "  main loop: " + C.pathReason() + "\n";
    if (entersRegion() && (Idiom.A.EightBit || Idiom.B.EightBit)) {
      const std::string Why = weightStreamMismatch(C, Idiom, M.Clauses);
      // The decode kernels for this target (tc/decode/launch.cuh).
      const std::string Producer =
          C.Arch == GpuArch::SM90a
              ? "mma.sync up to 16 rows, wgmma up to 32; W and X through TMA stages, "
                "through registers where TMA cannot map them"
              : "mma.sync, W through registers";
      G.Explain += "  decoding shapes (M <= " + decodeRowsName() + "): " +
                   (Why.empty() ? "tc::decode::launch_weight_stream with " + weightRowsName() +
                                      " and " + epilogueFunctorName() + " (" + Producer + ")"
                                : "the kernels below (" + Why + ")") +
                   "\n";
    }
    if (entersRegion() && Dequantized) {
      const std::string Why = nibbleStreamMismatch(C, Idiom, M.Clauses, *Dequantized);
      G.Explain += "  decoding shapes (M <= " + nibbleRowsName() + "): " +
                   (Why.empty() ? "tc::decode::launch_nibble_decode on the packed bytes with " +
                                      nibbleGroupsName() + " and " + epilogueFunctorName()
                                : "the copy and the kernels below (" + Why + ")") +
                   "\n";
    }
    if (sm80Components())
      G.Explain += "  composed: " + sm80Launcher() + "<" + sm80MainloopType(C, Idiom, false, sm80Names()) +
                   "> with " +
                   epilogueFunctorName() + "\n";
    else if (Components)
      G.Explain += "  composed: " + componentLauncher() + "<" +
                   sm90MainloopType(C, Idiom, false, Region, weightType()) + ", " +
                   sm90SchedulerType(C, M.Clauses) + "> with " + epilogueFunctorName() + "\n";
    else if (!C.Tma && !C.wgmma() && !Fallback)
      G.Explain += "  generated body: not composed of the mma.sync components (" +
                   sm80ComponentMismatch(C, Idiom, M.Clauses) + ")\n";
    else if (C.Arch == GpuArch::SM90a)
      G.Explain += "  generated body: not composed of the sm_90 components (" +
                   sm90ComponentMismatch(C, Idiom, M.Clauses) + ")\n";
    if (CS)
      for (auto &S : CS->Steps) {
        G.Explain += "  step " + S.Name + "\n";
        if (!S.Tree.empty())
          G.Explain += indent(S.Tree, 4);
      }
    if (KS)
      for (auto &S : KS->Steps)
        G.Explain += "  step " + S.Name + "\n" + indent(S.Tree, 4);
    // The prologue functors, the epilogue functor and split-K's reduction
    // kernel depend on the region, not on the tiles: one copy serves all of
    // its kernels. A kernel of the components is their instantiation in
    // the launcher; only the others have a body of their own.
    std::string Kernel;
    if (!Components) {
      std::string Body = generateKernelBody(*KS, KS->Tree, M, 2);
      std::string ProducerBody =
          KS->Producer ? generateKernelBody(*KS, *KS->Producer, M, 6) : std::string();
      std::string StorerBody =
          KS->Storer ? generateKernelBody(*KS, *KS->Storer, M, 4, &*KS->StorerContext)
                     : std::string();
      Kernel = kernel(Body, ProducerBody, StorerBody) + "\n";
    }
    // The region's entry launcher tests its arrays for overlap (Aliasing.h)
    // and runs the serial kernel where they meet.
    std::string Serial;
    const std::string RowsAssumed = entersRegion() ? rowsAssumed() : "";
    if (entersRegion() && runsSerialKernel()) {
      std::vector<KernelParameter> Params;
      for (const Arg &A : arguments())
        Params.push_back({A.LauncherType, A.Name});
      const IslModel &WI = asWrittenIsl();
      // Over every size: it runs where the kernel's assumptions fail.
      Serial = "// " + Where + ": the '#pragma tc' region as written, on one thread, for\n"
               "// the sizes and arrays the kernels do not serve (run by " + Name +
               "_launch)\n" +
               serialKernel(M.asWritten(), everySizeIsl(), serialKernelName(), Params) + "\n";
      G.Explain += explainAliasCheck(M.asWritten(), WI, Idiom.MayAlias, serialKernelName());
      if (!Idiom.SerialWhen.empty())
        G.Explain += "  sizes where the box reads beyond the loops' elements: " +
                     boxReadsBeyondCondition() + " runs " + serialKernelName() + "\n";
      if (!RowsAssumed.empty())
        G.Explain += "  sizes where rows of a written array overlap: !(" + RowsAssumed +
                     ") runs " + serialKernelName() + "\n";
    }
    if (entersRegion())
      G.Explain += explainNarrowArithmetic(M.asWritten(), everySizeIsl());
    G.Definitions = Serial +
                    (EmitShared ? prologueFunctor(Idiom.A, "a") + prologueFunctor(Idiom.B, "b")
                                : std::string()) +
                    (DefinesFunctor ? conversionFunctor(Idiom.A, true) +
                                          conversionFunctor(Idiom.B, false) +
                                          Functor
                                    : std::string()) +
                    Kernel +
                    (EmitShared && EmitReduce ? reduceKernel(*Epi) + "\n" : "") +
                    (entersRegion() && Dequantized ? dequantizeFunctorText() : std::string()) +
                    (decodes() || decodesNibbles()
                         ? (decodes() ? weightRowsFunctor() : nibbleGroupsFunctorText()) +
                               (DefinesFunctor || FunctorDefinedBefore ? std::string()
                                                                       : Functor)
                         : std::string()) +
                    launcherText(KS ? KS->GridTiles : isl::set());
    G.Call = call();
    return G;
  }

private:
  // ----- operands --------------------------------------------------------
  OperandTile tileA() const { return tileOf(Idiom.A, true, Idiom.ExtentK); }
  OperandTile tileB() const { return tileOf(Idiom.B, false, Idiom.ExtentK); }
  /// The shared tile of an operand (A: IsA) of a product reducing over
  /// ExtentK, and the global matrix it is cut from.
  OperandTile tileOf(const OperandView &V, bool IsA, const AffineExpr &ExtentK) const {
    bool KC = V.ReductionIsContiguous;
    int Outer = IsA ? C.BlockM : C.BlockN;
    const AffineExpr &Other = IsA ? Idiom.ExtentM : Idiom.ExtentN;
    return {IsA ? "tc_smem_a" : "tc_smem_b", KC ? C.BlockK : Outer, Outer * C.BlockK,
            (KC ? Other : ExtentK).str(subst()), (KC ? ExtentK : Other).str(subst()),
            printStride(V.LeadingDim, M)};
  }
  /// The operand's base pointer in the kernel (this block's batch entry).
  std::string operandBase(const OperandView &V) const {
    const std::string &Name = M.Arrays[V.ArrayId].Name;
    if (Idiom.IterBatch.empty())
      return Name;
    return "(" + Name + " + (long long)tc_batch * (" + printStride(V.BatchStride, M) + "))";
  }
  /// k tiles of a product reducing over ExtentK. A product of a sum may
  /// reduce over an empty loop whose extent is negative (`k0 <= k < k1`,
  /// k1 < k0): it has no tiles, and the others' must not shrink by it.
  std::string kTiles(const AffineExpr &ExtentK) const {
    const std::string E = ExtentK.str(subst());
    const std::string Tiles = "((" + E + ") + " + str(C.BlockK - 1) + ") / " + str(C.BlockK);
    if (Idiom.MoreProducts.empty())
      return Tiles;
    return "((" + E + ") > 0 ? " + Tiles + " : 0)";
  }
  /// The length of the whole reduction: K, or the sum of the products' K.
  std::string reductionLength() const {
    if (Idiom.MoreProducts.empty())
      return Idiom.ExtentK.str(subst());
    std::string R = "(" + Idiom.ExtentK.str(subst()) + ")";
    for (auto &P : Idiom.MoreProducts)
      R += " + (" + P.ExtentK.str(subst()) + ")";
    return R;
  }

  /// The tensor map of operand 'a' or 'b' of product P (TMA kernels).
  static std::string mapName(char Operand, size_t P) {
    return std::string("tc_map_") + Operand + (P ? std::to_string(P) : std::string());
  }
  /// All tensor maps, in parameter order: a, b, a1, b1, ...
  std::vector<std::string> mapNames() const {
    std::vector<std::string> R;
    for (size_t P = 0; P <= Idiom.MoreProducts.size(); ++P) {
      R.push_back(mapName('a', P));
      R.push_back(mapName('b', P));
    }
    return R;
  }

  /// The first k tile of each further product of a sum of matmuls.
  std::vector<std::string> productFirstTiles() const {
    std::vector<std::string> R;
    std::string Sum = "(long long)" + kTiles(Idiom.ExtentK);
    for (auto &P : Idiom.MoreProducts) {
      R.push_back("(" + Sum + ")");
      Sum += " + " + kTiles(P.ExtentK);
    }
    return R;
  }

  std::function<std::string(const std::string &)> subst() const {
    return [this](const std::string &S) {
      for (auto &P : M.Params)
        if (P.Name == S && P.Value)
          return std::to_string(*P.Value);
      return S;
    };
  }

  /// `struct <Region>_prologue_a { float operator()(float) }` for an operand
  /// prologue; empty when the operand has none.
  std::string prologueFunctor(const OperandView &V, const char *Suffix) const {
    if (V.Prologue.empty() || V.ConvertWhileCopying)
      return "";
    ExprPrinter P;
    P.PrintRead = [](unsigned) { return std::string("tc_x"); };
    P.PrintIterator = [](const std::string &S) { return S; };
    ExprPtr F = prologueOfElement(V);
    std::optional<std::string> Packed = packedPrologue(*F, M.Arrays[V.ArrayId].ElemSpelling);
    return "// The prologue of operand " + std::string(Suffix) +
           ", applied to its fragments or stages" +
           (Packed ? std::string("; exact on packed pairs of the 16-bit type (a maximum or\n"
                                 "// minimum with constants it represents), so also given on them")
                   : std::string()) +
           ".\n"
           "struct " + Region + "_prologue_" + Suffix + " {\n"
           "  static constexpr bool kPacked = " + (Packed ? "true" : "false") + ";\n"
           "  __device__ __forceinline__ float operator()(float tc_x) const {\n"
           "    return static_cast<float>(" + P.print(*F) + ");\n"
           "  }\n" +
           (Packed ? "  template <typename T2>\n"
                     "  __device__ __forceinline__ T2 operator()(T2 tc_x2) const {\n"
                     "    return " + *Packed + ";\n  }\n"
                   : std::string()) +
           "};\n\n";
  }

  /// The prologue (element already stripped of conversions) on a packed
  /// pair of the 16-bit input type (`tc_x2`, __half2 or __nv_bfloat162)
  /// where that is exact: maxima and minima of the element and literals the
  /// type represents exactly (ReLU, ReLU6 as a clamp), whose result is one
  /// of their operands. None otherwise.
  std::optional<std::string> packedPrologue(const ExprNode &E,
                                            const std::string &ElementType) const {
    if (Idiom.InputType != ElementType::F16 && Idiom.InputType != ElementType::BF16)
      return std::nullopt;
    switch (E.K) {
    case ExprNode::Read:
      return std::string("tc_x2");
    case ExprNode::Cast: // the element in its own type (prologueOfElement)
      if (E.Text == ElementType && E.Ops.size() == 1 && E.Ops[0]->K == ExprNode::Read)
        return std::string("tc_x2");
      return std::nullopt;
    case ExprNode::Literal: {
      std::string Text = E.Text;
      while (!Text.empty() && (Text.back() == 'f' || Text.back() == 'F'))
        Text.pop_back();
      char *End = nullptr;
      double Value = std::strtod(Text.c_str(), &End);
      if (Text.empty() || *End != '\0' || !representable(Value))
        return std::nullopt;
      return "tc::splat2<T2>(" + Text + (Text.find_first_of(".eE") == std::string::npos
                                              ? ".0f)"
                                              : "f)");
    }
    case ExprNode::Call: {
      const char *Op = E.Text == "fmaxf" || E.Text == "fmax" || E.Text == "max"   ? "__hmax2"
                       : E.Text == "fminf" || E.Text == "fmin" || E.Text == "min" ? "__hmin2"
                                                                                  : nullptr;
      if (!Op || E.Ops.size() != 2)
        return std::nullopt;
      auto L = packedPrologue(*E.Ops[0], ElementType),
           R = packedPrologue(*E.Ops[1], ElementType);
      if (!L || !R)
        return std::nullopt;
      return std::string(Op) + "(" + *L + ", " + *R + ")";
    }
    default:
      return std::nullopt;
    }
  }

  /// Whether the 16-bit input type holds V exactly, as a zero or a normal
  /// value.
  bool representable(double V) const {
    RoundedValue R = roundToSemantics(V, Idiom.InputType == ElementType::F16
                                             ? llvm::APFloat::IEEEhalf()
                                             : llvm::APFloat::BFloat());
    return R.Exact && std::isfinite(R.Value) && !R.Denormal;
  }

  /// The operand's prologue on the element as the kernels give it, a
  /// float: its conversions to float drop out, and where the source uses
  /// it in its own type, the float goes back to that type, exactly (else
  /// `__hadd(a, a)` would be the integer __hadd, `a > zero` ambiguous and
  /// `(uint8_t)w` of a negative weight 0).
  ExprPtr prologueOfElement(const OperandView &V) const {
    const Array &Arr = M.Arrays[V.ArrayId];
    const bool Typed = Arr.Elem != ElementType::F32 && Arr.Elem != ElementType::F64;
    // A conversion of the element to a type that holds all its values
    // (`static_cast<int>(w)`: the promotion of an 8-bit weight) is the
    // same from the float.
    auto HoldsElement = [&](const std::string &Type) {
      static const std::set<std::string> Signed = {
          "short", "int", "long", "long long", "int16_t", "int32_t", "int64_t"};
      static const std::set<std::string> Unsigned = {
          "unsigned short", "unsigned int", "unsigned long", "unsigned long long",
          "uint16_t",       "uint32_t",     "uint64_t"};
      return Signed.count(Type) || (Arr.Elem == ElementType::U8 && Unsigned.count(Type)) ||
             Type == Arr.ElemSpelling;
    };
    std::function<ExprPtr(const ExprPtr &)> Strip = [&](const ExprPtr &E) -> ExprPtr {
      const ExprNode *Inner = stripConversions(E.get());
      if (Inner->K == ExprNode::Read && Inner->AccessId == V.AccessId) {
        auto X = ExprNode::make(ExprNode::Read, "");
        X->AccessId = V.AccessId;
        if (Inner != E.get() || !Typed)
          return X;
        auto InType = ExprNode::make(ExprNode::Cast, Arr.ElemSpelling);
        InType->Ops.push_back(X);
        return InType;
      }
      if (E->K == ExprNode::Cast && E->Ops.size() == 1 && E->Ops[0]->K == ExprNode::Read &&
          E->Ops[0]->AccessId == V.AccessId && Typed &&
          (Arr.Elem == ElementType::F16 || Arr.Elem == ElementType::BF16 ||
           HoldsElement(E->Text))) {
        auto C = std::make_shared<ExprNode>(*E);
        C->Ops[0] = ExprNode::make(ExprNode::Read, "");
        C->Ops[0]->AccessId = V.AccessId;
        return C;
      }
      auto C = std::make_shared<ExprNode>(*E);
      for (auto &Op : C->Ops)
        Op = Strip(Op);
      return C;
    };
    // Its small integer arithmetic (an 8-bit weight plus an 8-bit shift) in
    // fp32, where the element already is: the same values, without the
    // conversions to int and back.
    const Statement &R = M.Stmts[Idiom.Reduction];
    return smallIntegerArithmeticInFloat(Strip(V.Prologue[0]), [&](unsigned Id) {
      return M.Arrays[R.Reads[Id].ArrayId].ElemSpelling;
    });
  }

  /// What the copier of an operand converted while copying
  /// (tc/tile_convert.cuh) computes: f of the element `tc_x` and its row or
  /// column `tc_row` (m for A, n for B), i.e. the prologue with the arrays
  /// it reads indexed by that coordinate, or the bare conversion; and,
  /// where the operand is masked (OperandMasks.h), the condition on
  /// `tc_row` and `tc_k` under which the loops read the element.
  struct Conversion {
    std::string Body, Needs;
  };
  Conversion conversionOf(const OperandView &V, bool IsA) const {
    const Statement &R = M.Stmts[Idiom.Reduction];
    const std::string &Own = IsA ? Idiom.IterM : Idiom.IterN;
    auto Iter = [&](const std::string &It) -> std::string {
      if (It == Own)
        return "tc_row";
      if (It == Idiom.IterBatch)
        return "tc_batch";
      return It; // the idiom admits no other
    };
    ExprPrinter P;
    P.PrintIterator = Iter;
    P.PrintRead = [&](unsigned Id) {
      return Id == V.AccessId ? std::string("tc_x") : printAccess(M, R.Reads[Id], Iter);
    };
    P.PrintScalar = subst();
    Conversion Cv;
    Cv.Body = V.Prologue.empty() ? "tc_x" : P.print(*prologueOfElement(V));
    for (const AffineExpr &G : V.Mask)
      Cv.Needs += (Cv.Needs.empty() ? "" : " && ") + G.str([&](const std::string &Sym) {
                    if (Sym == Idiom.IterK)
                      return std::string("tc_k");
                    return Sym == Own || Sym == Idiom.IterBatch ? Iter(Sym) : subst()(Sym);
                  }) + " >= 0";
    return Cv;
  }

  /// For an operand converted while copying: the kernel-local lambda of
  /// its conversion (conversionOf), `tc_convert_a` (`_b`), and its mask's,
  /// `tc_needs_a`.
  std::string conversionLambda(const OperandView &V, bool IsA) const {
    if (!V.ConvertWhileCopying)
      return "";
    const Conversion Cv = conversionOf(V, IsA);
    const char *Suffix = IsA ? "a" : "b";
    const Array &Arr = M.Arrays[V.ArrayId];
    if (!Cv.Needs.empty())
      return std::string("  // The elements of operand ") + Suffix + " (" + Arr.Name +
             ") that the loops read, by its " + (IsA ? "row" : "column") +
             " and k: the copier loads no other.\n" +
             "  const auto tc_needs_" + Suffix +
             " = [&](long long tc_row, long long tc_k) -> bool {\n"
             "    return " + Cv.Needs + ";\n  };\n" +
             "  // Operand " + Suffix + " (" + Arr.Name + ", " + Arr.ElemSpelling +
             ") becomes " + spelling(Idiom.InputType) + " in shared memory: f(element, its " +
             (IsA ? "row" : "column") + ", its k), an exact zero where it is not read.\n" +
             "  const auto tc_convert_" + Suffix +
             " = [&](float tc_x, long long tc_row, long long tc_k) -> float {\n"
             "    return tc_needs_" + Suffix + "(tc_row, tc_k) ? static_cast<float>(" + Cv.Body +
             ") : 0.0f;\n  };\n";
    return std::string("  // Operand ") + Suffix + " (" + Arr.Name + ", " + Arr.ElemSpelling +
           ") becomes " + spelling(Idiom.InputType) +
           " in shared memory: f(element, its " + (IsA ? "row" : "column") + ").\n" +
           "  const auto tc_convert_" + Suffix +
           " = [&](float tc_x, long long tc_row) -> float {\n"
           "    return static_cast<float>(" + Cv.Body + ");\n  };\n";
  }

  /// The functor of an operand converted while copying, for the mma.sync
  /// components (tc::sm80::ConvertedOperandTile) and for the sm_90 ones,
  /// which convert it where it lands (tc::sm90::Converted): the region's arguments as
  /// members, its conversion (conversionOf) as operator(), and a masked
  /// operand's condition as needs(). Empty for other operands.
  std::string conversionFunctor(const OperandView &V, bool IsA) const {
    if (!V.ConvertWhileCopying)
      return "";
    const Conversion Cv = conversionOf(V, IsA);
    const Array &Arr = M.Arrays[V.ArrayId];
    const char *Coordinate = IsA ? "row" : "column";
    std::string S = "// " + Where + ": operand " + Arr.Name + " (" + Arr.ElemSpelling +
                    ") of the '#pragma tc' region of '" + M.FunctionName +
                    "'\n// as the mma reads it (" + spelling(Idiom.InputType) +
                    "): f(element, its " + Coordinate +
                    (Cv.Needs.empty() ? std::string(")")
                                      : std::string(", its k), an exact zero where the loops do "
                                                    "not read it")) +
                    (C.ConvertsLandedOperands
                         ? ",\n// applied where it lands, by the element's place (tc::sm90::Converted).\n"
                         : ",\n// applied as it is copied (tc/tile_convert.cuh).\n") +
                    "struct " +
                    conversionFunctorName(IsA) + " {\n";
    S += argumentMembers();
    // (kMasked in both forms: a region argument of that name is renamed.)
    if (Cv.Needs.empty())
      return S + "  static constexpr bool kMasked = false;\n"
                 "  __device__ float operator()(float tc_x, long long tc_row) const {\n"
                 "    return static_cast<float>(" + Cv.Body + ");\n  }\n" +
             (C.convertsFragmentsByRow() && IsA != C.transposedTile()
                  ? rowBinding(V, IsA, IsA ? C.OffsetRowsA : C.OffsetRowsB)
                  : std::string()) +
             "};\n\n";
    return S + "  static constexpr bool kMasked = true;\n"
               "  __device__ bool needs(long long tc_row, long long tc_k) const {\n    return " +
           Cv.Needs + ";\n  }\n"
           "  __device__ float operator()(float tc_x, long long tc_row, long long tc_k) const {\n"
           "    return needs(tc_row, tc_k) ? static_cast<float>(" + Cv.Body +
           ") : 0.0f;\n  }\n};\n\n";
  }
  std::string conversionFunctorName(bool IsA) const { return convertedOperandFunctorName(Region, IsA); }
  /// The element type of the region's 8-bit operand as written (the
  /// weights', B's unless A is 8-bit).
  std::string weightType() const {
    return M.Arrays[(Idiom.A.EightBit ? Idiom.A : Idiom.B).ArrayId].ElemSpelling;
  }
  /// A converted operand's row(): the conversion of row `tc_row` as a
  /// function of the element, the values the row reads (a zero point, a
  /// scale) loaded once, none past the operand (`tc_inside` false): what
  /// tc::sm90::RegisterA binds for each of a thread's two rows, or
  /// RawRegisterA for a raw 8-bit B's (a tc::OffsetRow `WithOffset`). (The
  /// lambda copies *this: the region's scalars are members here.)
  std::string rowBinding(const OperandView &V, bool IsA, bool WithOffset = false) const {
    std::string Loads;
    const std::string Function = rowConversion(V, IsA, Loads, true, WithOffset, "[=, *this]");
    return "  // Row tc_row's conversion, with the values it reads loaded once\n"
           "  // (tc::sm90::" +
           std::string(C.RawFragmentsB || C.RawFragmentsA ? "RawRegisterA" : "RegisterA") +
           "); nothing read past the operand.\n"
           "  __device__ auto row(long long tc_row, bool tc_inside) const {\n" +
           Loads + "    return " + Function + ";\n  }\n";
  }
  /// The region's arguments as a functor's members, under their kernel
  /// names, so that the region's expressions read them as a kernel does.
  std::string argumentMembers() const {
    std::string S;
    for (auto &A : arguments())
      S += "  " + A.KernelType + A.Name + ";\n";
    return S;
  }
  bool convertsAnOperand() const {
    return Idiom.A.ConvertWhileCopying || Idiom.B.ConvertWhileCopying;
  }
  Sm80Names sm80Names() const {
    return {Region, M.Arrays[Idiom.A.ArrayId].ElemSpelling, M.Arrays[Idiom.B.ArrayId].ElemSpelling};
  }

  /// The OffsetRow of operand V's row `tc_row` (B's, where `WithOffset`),
  /// else its function of the element (a lambda of `Capture`), printed; the
  /// values the prologue reads for the row are loaded first, in `Loads`
  /// (under `tc_inside` where `Guarded`).
  std::string rowConversion(const OperandView &V, bool IsA, std::string &Loads, bool Guarded,
                            bool WithOffset, const std::string &Capture = "[=]") const {
    const Statement &R = M.Stmts[Idiom.Reduction];
    const std::string &Own = IsA ? Idiom.IterM : Idiom.IterN;
    auto Iter = [&](const std::string &It) -> std::string {
      return It == Own ? "tc_row" : It; // the idiom admits no other (no batch)
    };
    // The reads in the prologue besides the element, in order.
    std::set<unsigned> Reads;
    std::function<void(const ExprNode &)> Collect = [&](const ExprNode &E) {
      if (E.K == ExprNode::Read && E.AccessId != V.AccessId)
        Reads.insert(E.AccessId);
      for (auto &Op : E.Ops)
        Collect(*Op);
    };
    if (!V.Prologue.empty())
      Collect(*V.Prologue[0]);
    std::map<unsigned, std::string> Values;
    for (unsigned Id : Reads) {
      std::string Access = printAccess(M, R.Reads[Id], Iter);
      std::string Var = "tc_v" + str(long(Values.size()));
      std::string Type = "::std::decay_t<decltype(" + Access + ")>";
      Values[Id] = Var;
      Loads += "    const " + Type + " " + Var + " = " +
               (Guarded ? "tc_inside ? " + Access + " : " + Type + "()" : Access) + ";\n";
    }
    ExprPrinter P;
    P.PrintIterator = Iter;
    P.PrintRead = [&](unsigned Id) {
      if (Id == V.AccessId)
        return std::string("tc_x");
      auto It = Values.find(Id);
      return It != Values.end() ? It->second : printAccess(M, R.Reads[Id], Iter);
    };
    P.PrintScalar = subst();
    const Array &Arr = M.Arrays[V.ArrayId];
    ExprPtr Element = V.Prologue.empty() ? nullptr : prologueOfElement(V);
    std::string Body = Element ? P.print(*Element) : "tc_x";
    std::string Function =
        Capture + "(float tc_x) -> float { return static_cast<float>(" + Body + "); }";
    // The element minus an offset (tc::OffsetRow): in fp16 pairs.
    std::optional<std::string> Offset;
    if (WithOffset) {
      const auto &O = *V.Offset;
      Offset = !O.Value  ? "0"
               : O.Added ? "-static_cast<double>(" + P.print(*O.Value) + ")"
                         : P.print(*O.Value);
    }
    if (Offset)
      Function = "tc::offset_row<" + Arr.ElemSpelling + ">(\n        " + Function + ",\n        " +
                 *Offset + ")";
    return Function;
  }

  /// For a raw 8-bit B (KernelConfig::RawStagesB): the prologue of each of
  /// this thread's rows of B's stage (tc::RawStageLayout), `tc_convert_b`,
  /// with the values the prologue reads for the row (a scale, a zero point)
  /// loaded once, before the main loop; rows past the matrix, or a block
  /// without k tiles, read nothing.
  std::string rawRowConversions() const {
    const OperandView &V = Idiom.B;
    const Array &Arr = M.Arrays[V.ArrayId];
    std::string Loads;
    const std::string Function = rowConversion(Idiom.B, false, Loads, true, C.OffsetRowsB);
    const bool Offset = C.OffsetRowsB;
    OperandTile B = tileB();
    // The thread's rows: those it converts in the stage, or those of its
    // fragments (tc::RawFragmentLayout).
    std::string Layout = C.RawFragmentsB ? "tc::RawFragmentLayout"
                                         : "tc::RawStageLayout<" + str(C.BlockN) + ", " +
                                               str(C.threads()) + ">";
    int PerThread = C.RawFragmentsB ? 2 : C.BlockN * 8 / C.threads();
    std::string S =
        "  // Operand b (" + Arr.Name + ", " + Arr.ElemSpelling + ") becomes " +
        spelling(Idiom.InputType) +
        (C.RawFragmentsB ? " in registers: f(element), with the values\n"
                           "  // its row reads loaded once for each of this thread's rows of "
                           "its fragments.\n"
                         : " in shared memory: f(element), with the values\n"
                           "  // its row reads loaded once for each of this thread's rows of "
                           "B's stage.\n") +
        "  const auto tc_convert_b_row = [&](long long tc_row) {\n" +
        (Loads.empty() ? std::string()
                       : "    const bool tc_inside = tc_row < " + B.Rows +
                             " && tc_k_end > tc_k_begin;\n" + Loads) +
        "    return " + Function + ";\n"
        "  };\n"
        "  const decltype(tc_convert_b_row(0)) tc_convert_b[" + str(PerThread) + "] = {\n";
    for (int I = 0; I < PerThread; ++I)
      S += "      tc_convert_b_row(" + str(C.BlockN) + "LL * tc_block_n + " + Layout +
           "::row(tc_thread, " + str(I) + "))" + (I + 1 < PerThread ? ",\n" : "};\n");
    if (Offset && C.RawFragmentsB)
      S += std::string("  // Warps whose rows all have exact offsets convert in fp16 pairs") +
           (C.integerOffsetPairs() ? ", with one\n  // subtraction a pair where all are integers.\n"
                                   : ".\n") +
           "  const tc::OffsetPairs tc_pairs_b = tc::offset_pairs(tc_convert_b);\n";
    else if (Offset)
      S += "  // Warps whose rows all have exact offsets convert in fp16 pairs.\n"
           "  const bool tc_exact_rows = tc::packed_rows(tc_convert_b);\n" +
           std::string(twoConsumerVersions() ? "" : "  const bool tc_packed_b = tc_exact_rows;\n");
    return S;
  }

  std::string extentM() const { return Idiom.ExtentM.str(subst()); }
  std::string extentN() const { return Idiom.ExtentN.str(subst()); }

  /// Lanes of the staged epilogue's vector stores (tc/lane_store.cuh): as
  /// many as make a 16-byte store of the widest output, at most 8 (0: the
  /// element-wise stores, where an output is not contiguous along n or the
  /// epilogue is not staged).
  int vectorLanes(const EpilogueLanes &L) const {
    if (!C.stagedEpilogue() || !L.Contiguous || L.Stores.empty() || registerBound())
      return 0;
    int Widest = 0, Narrowest = 16;
    for (auto &S : L.Stores) {
      if (!byteSize(S.Elem))
        return 0;
      Widest = std::max(Widest, byteSize(S.Elem));
      Narrowest = std::min(Narrowest, byteSize(S.Elem));
    }
    int V = std::min(8, 16 / Widest);
    if (V < 2 || C.BlockN % V || V * Narrowest < 4)
      return 0;
    return V;
  }

  /// Kernels at the register limit, where the vector epilogue's values that
  /// live across the main loop made ptxas spill a few bytes in some forms
  /// (-Xptxas -v on the compile tests: sums of products, alpha/beta, leading
  /// dimensions): wgmma with A's fragments in registers from cp.async
  /// stages, and mma.sync with 128 accumulators per thread (the default
  /// sm_80 tile). (The TMA kernels with A's fragments have the registers:
  /// one warpgroup, or a producer warpgroup's given to the consumers; the
  /// mma.sync components' functor reads its values after the main loop.)
  bool registerBound() const {
    return (C.WgmmaRegisterA && !C.Tma) ||
           (!C.wgmma() && !sm80Components() &&
            C.fragmentsM() * C.fragmentsN() * 4 >= 128);
  }

  /// The epilogue of the V elements (tc_m, tc_n0 + tc_v) of a row, from
  /// tc_sums[tc_v]: each stored array's values into a local array of V
  /// lanes, then one store of each (a vector store where the address is
  /// aligned, tc/lane_store.cuh).
  /// `Store` is the runtime's function of the vector store: tc::store_lanes
  /// in the text kernels, tc::store_lane_words in the components' functors
  /// (tc/lane_store.cuh says why).
  std::string laneBody(const EpilogueLanes &Lanes, int Width,
                       const std::string &Store = "tc::store_lanes") const {
    std::string V = str(Width), Decls, StoreLanes;
    for (auto &S : Lanes.Stores) {
      Decls += S.ElemSpelling + " " + S.Lanes + "[" + V + "];\n";
      StoreLanes += Store + "<" + V + ">(" + S.FirstAddress + ", " + S.Lanes + ");\n";
    }
    // The lane's column only where the epilogue reads it (a bias by
    // column), so that the kernel compiles without unused variables.
    std::string LaneColumn = mentionsIdentifier(Lanes.Text, "tc_n")
                                 ? "  const long long tc_n = tc_n0 + tc_v;\n"
                                 : "";
    return Decls + "#pragma unroll\nfor (int tc_v = 0; tc_v < " + V + "; ++tc_v) {\n" +
           LaneColumn + "  const float tc_sum = tc_sums[tc_v];\n" + indent(Lanes.Text, 2) +
           "}\n" + StoreLanes;
  }

  StatementTexts texts(const std::string &Epilogue, const EpilogueLanes &Lanes) const {
    StatementTexts T;
    OperandTile A = tileA(), B = tileB();
    auto Setup = [](const OperandTile &Tl, const char *Copier) {
      return std::string(Copier) + ".setup({i}, {r}, {c}, {grow}, {gcol}, " +
             Tl.Rows + ", " + Tl.ColsExtent + ");";
    };
    // The conversion lambda of copier tc_copy_x: tc_convert_x.
    auto ConvertOf = [](const char *Copier) {
      return std::string("tc_convert_") + Copier[sizeof("tc_copy_") - 1];
    };
    // The mask of a masked operand (OperandMasks.h): tc_needs_x.
    auto NeedsOf = [](const char *Copier, const OperandView &V) {
      return V.Mask.empty() ? std::string()
                            : std::string(", tc_needs_") + Copier[sizeof("tc_copy_") - 1];
    };
    auto Copy = [&](const OperandTile &Tl, const char *Copier, const OperandView &V) {
      std::string Convert =
          V.ConvertWhileCopying ? ", " + ConvertOf(Copier) + NeedsOf(Copier, V) : "";
      return std::string(Copier) + ".issue({i}, " + Tl.Smem + " + {stage} * " +
             str(Tl.Elements) + ", {t}" + Convert + ");";
    };
    T.SetupA = Setup(A, "tc_copy_a");
    T.SetupB = Setup(B, "tc_copy_b");
    T.CopyA = Copy(A, "tc_copy_a", Idiom.A);
    T.CopyB = Copy(B, "tc_copy_b", Idiom.B);
    // A converted operand in two phases: the copy loads into registers, the
    // land converts into the stage (KernelConfig::splitConvertingCopies).
    auto Split = [&](const OperandTile &Tl, const char *Copier, const OperandView &V,
                     std::string &CopyText, std::string &LandText) {
      if (!V.ConvertWhileCopying || !C.splitConvertingCopies())
        return;
      CopyText = std::string(Copier) + ".load({i}, {t}" + NeedsOf(Copier, V) + ");";
      LandText = std::string(Copier) + ".land({i}, " + Tl.Smem + " + {stage} * " +
                 str(Tl.Elements) + ", {t}, " + ConvertOf(Copier) + NeedsOf(Copier, V) + ");";
    };
    Split(A, "tc_copy_a", Idiom.A, T.CopyA, T.LandA);
    Split(B, "tc_copy_b", Idiom.B, T.CopyB, T.LandB);
    T.Wait = "tc::cp_async_wait<" + str(C.copyDistance() - 1) + ">();\n" +
             (C.wgmma() ? "tc::fence_proxy_async();  // wgmma reads the stages through the async proxy\n"
                        : "") +
             "__syncthreads();";
    // An operand's prologue applied in place to its landed stage by
    // `Threads` threads (the thread's index `Thread`), or by each warpgroup
    // to the 64 rows (or 64-column panel) of A that its wgmma read.
    std::string Elem = spelling(Idiom.InputType);
    // Chunks a thread loads before converting them (tc/prologue.cuh): 4,
    // or 2 at the register cap of two blocks per SM or for 8 or more chunks
    // a thread, where 4 made ptxas spill (the bf16 clamp's 128x128 kernel,
    // B's tile beside the 128x256 tile's accumulators).
    auto Batch = [&](int Elements, int Threads) {
      return minBlocksPerSm() >= 2 || Elements / 8 / Threads >= 8 ? 2 : 4;
    };
    // Elements elements of operand Tl's stage from Offset on (text), each
    // thread of Threads (index Thread) its share.
    auto ConvertPart = [&](const OperandTile &Tl, char Operand, int Elements,
                           const std::string &Offset, int Threads, const std::string &Thread) {
      return "tc::apply_prologue_to_tile<" + Elem + ", " + str(Elements) + ", " + str(Threads) +
             ", " + str(Batch(Elements, Threads)) + ">(" + Tl.Smem + " + {stage} * " +
             str(Tl.Elements) + Offset + ", " + Thread + ", " + Region + "_prologue_" +
             Operand + "())";
    };
    auto ConvertTile = [&](const OperandTile &Tl, char Operand, int Threads,
                           const std::string &Thread) {
      return ConvertPart(Tl, Operand, Tl.Elements, "", Threads, Thread) + ";\n";
    };
    if (C.wgmma() && !C.Tma && C.convertsStagePrologue()) {
      // All threads convert the landed tiles, then meet again before the
      // wgmma read them.
      T.Wait += "\n";
      if (C.ConvertStages)
        T.Wait += ConvertTile(A, 'a', C.threads(), "tc_thread");
      if (C.ConvertStagesB)
        T.Wait += ConvertTile(B, 'b', C.threads(), "tc_thread");
      T.Wait += "tc::fence_proxy_async();  // the wgmma read them through the async proxy\n"
                "__syncthreads();";
    }
    if (C.wgmma()) {
      T.Arrive = "tc::warpgroup_arrive(tc_acc[0]);";
      // An operand's descriptor moved to the stage and the k step: 32 bytes
      // along a K-major row, or 16 rows (two 1024-byte atoms) of an M/N-
      // major panel. A from registers instead takes the step's fragment.
      auto Desc = [&](const OperandView &V, const char *Var, const OperandTile &Tl) {
        return std::string("tc::wgmma_desc_advance(") + Var + ", {stage} * " +
               str(Tl.Elements * 2) + " + " + (V.ReductionIsContiguous ? "32" : "2048") +
               " * {kk})";
      };
      std::string TransB = Idiom.B.ReductionIsContiguous ? "0" : "1";
      if (C.RawFragmentsB) {
        // The tile transposed: B's fragments are wgmma's A, A's K-major
        // stage its B (BM columns of the instruction).
        T.Wgmma = "tc::wgmma_m64k16_rs<" + Elem + ", 0, " + str(C.BlockM) +
                  ">(tc_acc[0], tc_frag_b[{buf}][{kk}], " + Desc(Idiom.A, "tc_desc_a", A) + ");";
        // All of the tile's fragments, converted in one branch on the
        // rows' conversion (k: the tile's first k element, past which the
        // conversion zeroes the padding).
        T.LoadRawB = "tc::load_raw_fragments<" + M.Arrays[Idiom.B.ArrayId].ElemSpelling + ", " +
                     Elem + (C.OffsetRowsB && !C.integerOffsetPairs() ? ", false" : "") +
                     ">(tc_frag_b[{buf}], tc_raw_b + {stage} * " + str(B.Elements * 2) +
                     ", tc_thread, tc_convert_b, " + (C.OffsetRowsB ? "tc_pairs_b, " : "") +
                     "(" + Idiom.ExtentK.str(subst()) + ") - {k});";
      } else
      // (A's fragments: one buffer per k step with cp.async stages, two
      // buffers by the tile's parity with TMA stages.)
      T.Wgmma = C.WgmmaRegisterA
                    ? "tc::wgmma_m64k16_rs<" + Elem + ", " + TransB + ", " + str(C.BlockN) +
                          ">(tc_acc[0], " +
                          (C.fragmentsByParity() ? "tc_frag_a[{buf}][{kk}]" : "tc_frag_a[{kk}][0]") +
                          ", " +
                          Desc(Idiom.B, "tc_desc_b", B) + ");"
                    : "tc::wgmma_m64k16<" + Elem + ", " +
                          (Idiom.A.ReductionIsContiguous ? "0" : "1") + ", " + TransB + ", " +
                          str(C.BlockN) + ">(tc_acc[0], " + Desc(Idiom.A, "tc_desc_a", A) +
                          ", " + Desc(Idiom.B, "tc_desc_b", B) + ");";
      T.MmaCommit = "tc::wgmma_commit();";
      T.MmaWait = C.WgmmaPending
                      ? "tc::wgmma_wait<1>(tc_acc[0]);  // tile t - 1's stage is free after the next barrier"
                      : "tc::wgmma_wait<0>(tc_acc[0]);  // this tile's stage is free after the next barrier";
      if (C.WgmmaRegisterA)
        T.MmaWait += "\ntc::fence_fragments(tc_frag_a);  // read by the wgmma until here";
    }
    if (C.Tma) {
      // The producer fills stage {stage} with k tile {k} / BK: one box of a
      // K-major operand, or one per 64-column panel of an M/N-major one.
      auto Loads = [&](const OperandView &V, const OperandTile &Tl, const char *Map, int Rows,
                       const char *BlockVar) {
        std::string Dst = Tl.Smem + " + {stage} * " + str(Tl.Elements);
        std::string Row = str(Rows) + " * " + BlockVar;
        if (C.PairedTiles && &V == &Idiom.B) {
          // Two halves of K-major rows, or the 64-wide panels: a pair of
          // blocks shares B's tile, each copying half (tc/cluster.cuh).
          bool KMajor = V.ReductionIsContiguous;
          int Boxes = KMajor ? 2 : Rows / 64;
          return "tc::tma_load_tile<" + str(Boxes) + ", " + str(Tl.Elements / Boxes) + ">(" +
                 Dst + ", " + Map + ", tc_full + {stage}, " +
                 (KMajor ? "{k}, " + Row + ", 0, " + str(Rows / 2)
                         : Row + ", {k}, 64, 0") +
                 ", tc_schedule.pair, tc_rank);\n";
        }
        if (V.ReductionIsContiguous)
          return "tc::tma_load_2d(" + Dst + ", " + Map + ", tc_full + {stage}, {k}, " + Row +
                 ");\n";
        std::string R;
        for (int P = 0; P < Rows / 64; ++P)
          R += "tc::tma_load_2d(" + Dst + (P ? " + " + str(P * 64 * C.BlockK) : "") + ", " +
               Map + ", tc_full + {stage}, " + Row + (P ? " + " + str(64 * P) : "") +
               ", {k});\n";
        return R;
      };
      T.EmptyWait = "tc::mbarrier_wait(tc_empty + {stage}, {phase});  // released by the consumers";
      // Product p of a sum of matmuls copies from its own maps (the same
      // boxes: every product's operands have product 0's layouts).
      // A raw 8-bit B lands in the second half of its stage, a byte an
      // element.
      OperandTile LandedB = B;
      if (C.RawStagesB) {
        LandedB.Smem = "tc_smem_raw_b";
        LandedB.Elements *= 2; // (a stage apart)
      }
      int Bytes = A.Elements * C.ElementBytes + B.Elements * (C.RawStagesB ? 1 : C.ElementBytes);
      for (size_t P = 0; P <= Idiom.MoreProducts.size(); ++P) {
        std::string Load = "tc::mbarrier_arrive_expect_tx(tc_full + {stage}, " + str(Bytes) +
                           ");\n" +
                           Loads(Idiom.A, A, mapName('a', P).c_str(), C.BlockM, "tc_block_m") +
                           Loads(Idiom.B, LandedB, mapName('b', P).c_str(), C.BlockN,
                                 "tc_block_n");
        Load.pop_back();
        T.TmaLoad.push_back(Load);
      }
      T.FullWait = "tc::mbarrier_wait(tc_full + {stage}, {phase});  // the tile has landed";
      if (C.RawStagesB) {
        // All consumers convert B's raw tile in place, which every
        // warpgroup reads, while their previous tile's wgmma still run.
        std::string Sync = "[] { tc::consumer_sync<" + str(C.threads()) + ">(); }";
        T.ConvertStage = "tc::convert_raw_stage<" + M.Arrays[Idiom.B.ArrayId].ElemSpelling +
                         ", " + Elem + ", " + str(C.BlockN) + ", " + str(C.threads()) + ">(" +
                         B.Smem + " + {stage} * " + str(B.Elements) +
                         ", tc_thread, tc_convert_b, " +
                         (C.OffsetRowsB ? "tc_packed_b, " : "") + "(" +
                         Idiom.ExtentK.str(subst()) +
                         ") - {k},\n                       " + Sync + ");\n"
                         "tc::fence_proxy_async();  // the wgmma read it through the async proxy\n"
                         "tc::consumer_sync<" + str(C.threads()) + ">();";
      }
      if (C.convertsStagePrologue()) {
        // Each warpgroup converts the 64 rows of A that its own wgmma read,
        // all consumers B's tile, which every warpgroup reads, while their
        // previous tile's wgmma still run; the warpgroup's (or with B all
        // consumers') barrier publishes the writes to the async proxy
        // before the wgmma.
        // (After a raw B's conversion into its stage, above, where there is
        // one: both convert the same stage.)
        int Slice = KernelConfig::WgmmaM * C.BlockK;
        if (!T.ConvertStage.empty())
          T.ConvertStage += "\n";
        if (C.ConvertStages)
          T.ConvertStage += ConvertPart(A, 'a', Slice, " + " + str(Slice) + " * tc_warpgroup",
                                        128, "tc_thread % 128") +
                            ";  // this warpgroup's rows\n";
        if (C.ConvertStagesB)
          T.ConvertStage += ConvertTile(B, 'b', C.threads(), "tc_thread");
        T.ConvertStage +=
            "tc::fence_proxy_async();  // the wgmma read them through the async proxy\n";
        T.ConvertStage += C.ConvertStagesB
                              ? "tc::consumer_sync<" + str(C.threads()) + ">();"
                              : std::string("tc::warpgroup_sync(tc_warpgroup);");
      }
      T.MmaWait = "tc::wgmma_wait<1>(tc_acc[0]);  // tile t - 1's group has retired";
      if (C.fragmentsByParity())
        T.MmaWait += std::string("\ntc::fence_fragments(") +
                     (C.RawFragmentsB ? "tc_frag_b" : "tc_frag_a") +
                     "[{buf}]);  // which read its fragments until here";
      // (A kernel built for pairs may run its clusters as a split tile's
      // parts instead, which share no stages: tc::unit_blocks is 1 then.)
      T.Release = C.PairedTiles
                      ? "tc::release_stage_in_cluster(tc_empty + {stage}, tc_thread, "
                        "tc::unit_blocks(tc_schedule));  // tile t - 1's stage, in both blocks "
                        "of a pair"
                      : "tc::release_stage(tc_empty + {stage}, tc_thread);  // tile t - 1's stage";
    }
    T.Commit = "tc::cp_async_commit();";
    // A sum of matmuls: before its first k tile, each further product's
    // operands replace the previous ones in the copiers.
    auto FirstTiles = productFirstTiles();
    for (size_t P = 0; P < Idiom.MoreProducts.size(); ++P) {
      const ProductTerm &Term = Idiom.MoreProducts[P];
      std::string K = Term.ExtentK.str(subst());
      T.Rebase.push_back("tc_copy_a.rebase(" + operandBase(Term.A) + ", " +
                         printStride(Term.A.LeadingDim, M) + ", " + K + ", " + FirstTiles[P] +
                         ");\ntc_copy_b.rebase(" + operandBase(Term.B) + ", " +
                         printStride(Term.B.LeadingDim, M) + ", " + K + ", " + FirstTiles[P] +
                         ");");
    }
    const std::string ElemA = spelling(Idiom.InputType); // of the shared tiles
    // (wgmma with TMA stages: the k step's fragment in the buffer of the
    // tile's parity, KernelConfig::fragmentsByParity.)
    const bool ByParity = C.fragmentsByParity();
    const std::string FragA = ByParity ? "tc_frag_a[{buf}][{kk}]" : "tc_frag_a[{buf}][{mt}]";
    T.LoadA = "tc_frag_load_a.load(" + FragA + ", " + A.Smem + " + {stage} * " +
              str(A.Elements) + (ByParity ? ", 0" : ", {mt}") + ", {kk});";
    if (!Idiom.A.Prologue.empty() && !Idiom.A.ConvertWhileCopying)
      T.LoadA += "\ntc::apply_prologue<" + ElemA + ">(" + FragA + ", " + Region +
                 "_prologue_a());";
    T.LoadB = "tc_frag_load_b.load(tc_frag_b[{buf}][{nt}], tc_frag_b[{buf}][{nt} + 1], " + B.Smem +
              " + {stage} * " + str(B.Elements) + ", {np}, {kk});";
    if (!Idiom.B.Prologue.empty() && !Idiom.B.ConvertWhileCopying)
      T.LoadB += "\ntc::apply_prologue<" + ElemA + ">(tc_frag_b[{buf}][{nt}], " + Region +
                 "_prologue_b());\ntc::apply_prologue<" + ElemA + ">(tc_frag_b[{buf}][{nt} + 1], " +
                 Region + "_prologue_b());";
    T.Mma = std::string(C.Tf32 ? "tc::mma_m16n8k8_tf32"
                               : Idiom.InputType == ElementType::BF16 ? "tc::mma_m16n8k16_bf16"
                                                                      : "tc::mma_m16n8k16_f16") +
            "(tc_acc[{mt}][{nt}], tc_frag_a[{buf}][{mt}], tc_frag_b[{buf}][{nt}]);";
    // With split-K the partial sums go to the workspace and the reduction
    // kernel applies the epilogue.
    std::string Pitch = str(C.stagePitch());
    T.Drain = std::string(C.wgmma() && C.WgmmaPending
                              ? "tc::wgmma_wait<0>(tc_acc[0]);  // the last tile's wgmma\n"
                              : "") +
              "tc::cp_async_wait<0>();  // the operand stages become the " +
              (C.WarpSplitK > 1 ? "partial sums" : "output tile") + "\n__syncthreads();";
    T.PartialStore = "tc::store_partial(tc_partial + {slot}, tc_acc[{mt}][{nt}]);";
    T.PartialSync = "__syncthreads();  // the partial sums of warp group" +
                    (C.WarpSplitK == 2 ? std::string(" 1") : "s 1.." + str(C.WarpSplitK - 1)) +
                    " are in shared memory";
    T.PartialAdd = "tc::add_partial(tc_acc[{mt}][{nt}], tc_partial + {slot});";
    T.PartialDone = "__syncthreads();  // the output tile reuses the partial sums' memory";
    T.Stage = "*reinterpret_cast<::float2 *>(tc_stage + {ml} * " + Pitch +
              " + {nl}) = ::make_float2(tc_acc[{mt}][{nt}][{reg}], tc_acc[{mt}][{nt}][{reg} + 1]);";
    if (C.RawFragmentsB)
      // The accumulators hold the tile transposed: a thread's two
      // neighbours in a row of theirs are rows {ml} and {ml} + 1 of the
      // output tile.
      T.Stage = "tc_stage[{ml} * " + Pitch + " + {nl}] = tc_acc[{mt}][{nt}][{reg}];\n"
                "tc_stage[({ml} + 1) * " + Pitch + " + {nl}] = tc_acc[{mt}][{nt}][{reg} + 1];";
    T.StageSync = "__syncthreads();";
    if (C.Tma) {
      // The producer warp has left: the consumers synchronise alone.
      std::string Sync = "tc::consumer_sync<" + str(C.threads()) + ">();";
      T.Drain = "tc::wgmma_wait<0>(tc_acc[0]);  // the last tile's wgmma\n" + Sync +
                "  // the stages become the output tile";
      T.StageSync = Sync;
      if (C.PersistentTiles) {
        // The last k tile's stage is released too, for the producer's next
        // tile; the output buffer is free once every epilogue thread has
        // stored its part of the previous tile, and full once every
        // consumer has staged its part of this one (each thread arrives
        // itself: no barrier among the threads of either side).
        T.Drain = "tc::wgmma_wait<0>(tc_acc[0]);  // the last tile's wgmma\n"
                  "if (tc_k_end > tc_k_begin)\n"
                  "  tc::release_stage(tc_empty + (tc_k_origin + tc_k_end - tc_k_begin - 1) % " +
                  str(C.Stages) + ", tc_thread);  // its stage\n"
                  "if (tc_unit > 0)  // the previous tile has left the output buffer\n"
                  "  tc::mbarrier_wait(tc_out_empty, (tc_unit - 1) % 2);";
        T.StageSync = "tc::mbarrier_arrive(tc_out_full);  // this thread's part is staged";
      }
      std::string TileArgs = str(C.BlockM) + ", " + str(C.BlockN) + ", " + Pitch + ", " +
                             str(C.threads());
      T.CombineParts = "if (tc_split_tile >= 0 &&\n    !tc::combine_parts<" + TileArgs +
                       ">(tc_stage, tc_workspace, tc_counters, tc_split_tile,\n"
                       "        tc_part, tc_schedule.parts, tc_flag, tc_thread))\n"
                       "  " + consumersEnd() + "  // another part of this tile finishes it";
      if (C.clusterParts())
        // Or the parts, one cluster, each add and finish their share of the
        // rows [tc_row_begin, tc_row_end) (tc/cluster_parts.cuh).
        T.CombineParts = "int tc_row_begin = 0, tc_row_end = " + str(C.BlockM) +
                         ";  // the rows this block finishes\n"
                         "if (tc_schedule.cluster_parts)\n"
                         "  tc::add_parts_in_cluster<" + TileArgs +
                         ">(tc_stage, tc_part, tc_schedule.parts, tc_thread,\n"
                         "                                 tc_row_begin, tc_row_end);\n"
                         "else " + T.CombineParts;
    }
    // One output element (tc_m, tc_n): its partial sum to the split-K
    // workspace, or the epilogue. The staged form reads the sum from shared
    // memory. (TMA kernels combined the parts of a split tile before.)
    // The split's partial sum of element (tc_m, N) in the workspace.
    auto Workspace = [&](const std::string &N) {
      return "tc_workspace[((long long)::blockIdx.z * (" + extentM() + ") + tc_m) * (" +
             extentN() + ") + " + N + "]";
    };
    auto Element = [&](const std::string &Sum) {
      std::string B = "const float tc_sum = " + Sum + ";\n";
      if (C.Tma)
        return B + Epilogue;
      return B + "if (tc_splits > 1) {\n  " + Workspace("tc_n") + " = tc_sum;\n} else {\n" +
             indent(Epilogue, 2) + "}\n";
    };
    // With cluster parts, a staged store writes this block's rows only (see
    // CombineParts); `Rows` guards it.
    const std::string Rows =
        C.clusterParts() ? "if (tc_row_begin <= {ml} && {ml} < tc_row_end) " : "";
    auto Store = [&](const std::string &Sum, const std::string &RowGuard = "") {
      return "if ({guard}) " + RowGuard + "{\n  const long long tc_m = {m}, tc_n = {n};\n" +
             indent(Element(Sum), 2) + "}";
    };
    T.VectorLanes = vectorLanes(Lanes);
    if (T.VectorLanes) {
      // V consecutive elements of a row, wholly inside the output: the
      // epilogue of each into lane v of a local array per stored array,
      // then one store of each array's lanes (a vector store where the
      // address is aligned, tc/lane_store.cuh).
      std::string V = str(T.VectorLanes);
      std::string LaneBody = laneBody(Lanes, T.VectorLanes);
      std::string Body;
      if (C.Tma)
        Body = LaneBody;
      else
        Body = "if (tc_splits > 1) {\n  #pragma unroll\n  for (int tc_v = 0; tc_v < " + V +
               "; ++tc_v)\n    " + Workspace("tc_n0 + tc_v") + " = tc_sums[tc_v];\n"
               "} else {\n" + indent(LaneBody, 2) + "}\n";
      T.StagedStoreVector = Rows + "{\n  const long long tc_m = {m}, tc_n0 = {n};\n"
                            "  const float *tc_sums = tc_stage + {ml} * " + Pitch + " + {nl};\n" +
                            indent(Body, 2) + "}";
    }
    T.StagedStore = Store("tc_stage[{ml} * " + Pitch + " + {nl}]", Rows);
    T.Store = Store("tc_acc[{mt}][{nt}][{reg}]");
    return T;
  }

  // ----- signatures ------------------------------------------------------
  struct Arg {
    std::string KernelType, LauncherType, Name, CallExpr;
    /// The entry launcher's own (a dequantised copy and its leading
    /// dimension): not its parameter, and not passed by the call.
    bool Internal = false;
  };
  std::vector<Arg> arguments() const {
    std::vector<Arg> Args;
    for (auto &P : M.Params)
      if (P.IsKernelArgument)
        // Sizes travel as signed 64-bit: isl's bounds and guards subtract
        // from them, which must not wrap for unsigned or size_t sizes.
        Args.push_back({"long long ", "long long", P.Name, P.Name,
                        Dequantized && P.Name == Dequantized->LeadingDimension});
    for (auto &S : M.Scalars)
      Args.push_back({S.TypeSpelling + " ", S.TypeSpelling, S.Name,
                      S.CastAtCall ? "static_cast<" + S.TypeSpelling + ">(" + S.Name + ")"
                                   : S.Name});
    // The arrays the statements access; with the serial kernel, as the
    // source writes them: it also writes the scratch arrays that fused
    // nests keep in registers (NestFusion.h).
    // With a dequantised copy, also the arrays the source reads (the copy
    // is made from them) and the copy.
    const RegionModel &Accessing = runsSerialKernel() || Dequantized ? M.asWritten() : M;
    std::vector<bool> Written(M.Arrays.size()), Accessed(M.Arrays.size());
    auto Mark = [&](const RegionModel &From) {
      for (auto &S : From.Stmts) {
        Written[S.Write.ArrayId] = Accessed[S.Write.ArrayId] = true;
        for (auto &R : S.Reads)
          Accessed[R.ArrayId] = true;
      }
    };
    Mark(Accessing);
    if (Dequantized)
      Mark(M);
    for (auto &A : M.Arrays) {
      const unsigned Id = unsigned(&A - &M.Arrays[0]);
      if (A.IsLocalScalar || !Accessed[Id])
        continue;
      std::string T = (Written[Id] ? "" : "const ") + A.ElemSpelling + " *";
      std::string Call = A.IsStaticShape
                             ? "reinterpret_cast<" + T + ">(" + A.Name + ")"
                             : A.Name;
      Args.push_back({T + "__restrict__ ", T, A.Name, Call,
                      Dequantized && Id == Dequantized->Copy});
    }
    return Args;
  }

  /// The kernel. With TMA (KernelConfig::Tma) it is warp-specialised: the
  /// warp after the consumers is the producer, whose first thread runs ProducerBody
  /// (tc/mbarrier.cuh describes the stage protocol); the warpgroups before
  /// it run Body. Otherwise all threads run Body, and the copy mode is a
  /// template parameter.
  std::string kernel(const std::string &Body, const std::string &ProducerBody,
                     const std::string &StorerBody) const {
    OperandTile A = tileA();
    const std::string Elem = spelling(Idiom.InputType); // of the shared tiles
    std::string S;
    S += "// " + Where + ": '#pragma tc' region of '" + M.FunctionName + "'\n";
    S += "//   " + Idiom.describe(M).substr(0, Idiom.describe(M).find('\n')) + "\n";
    S += "//   " + C.describe() + "\n";
    // wgmma: two blocks per SM when their stages fit, which caps the
    // registers at 128 per thread (64 of them accumulators); not with three
    // or more products, whose copy bases then spill (ptxas: 384 bytes).
    // TMA kernels (256 consumer threads and the producer warp): likewise,
    // else one block.
    int MinBlocks = minBlocksPerSm();
    if (!C.Tma)
      S += "template <int kCopyMode>  // tc::CopyMode, chosen by the launcher\n";
    S += "__global__ void __launch_bounds__(" + str(C.blockThreads()) +
         (MinBlocks ? ", " + str(MinBlocks) : std::string()) + ") " + Name + "_kernel(";
    auto Args = arguments();
    for (size_t I = 0; I < Args.size(); ++I)
      S += (I ? ", " : "") + Args[I].KernelType + Args[I].Name;
    std::string Maps;
    for (auto &Map : mapNames())
      Maps += "const __grid_constant__ ::CUtensorMap " + Map + ", ";
    S += std::string(Args.empty() ? "" : ", ") +
         (C.Tma ? Maps + "const tc::TileSchedule tc_schedule, float *__restrict__ "
                         "tc_workspace, int *__restrict__ tc_counters"
                : "int tc_splits, long long tc_split_tiles, float *__restrict__ tc_workspace") +
         ") {\n";
    // wgmma's 128-byte swizzle works on 1024-byte aligned atoms.
    S += std::string("  extern __shared__ __align__(") + (C.wgmma() ? "1024" : "128") +
         ") unsigned char tc_smem[];\n";
    S += "  " + Elem + " *tc_smem_a = reinterpret_cast<" + Elem + " *>(tc_smem);\n";
    S += "  " + Elem + " *tc_smem_b = tc_smem_a + " + str(C.Stages * A.Elements) +
         ";\n";
    if (C.RawStagesB) {
      const std::string &Raw = M.Arrays[Idiom.B.ArrayId].ElemSpelling;
      S += "  // B's k tiles land raw in the second half of their stage.\n"
           "  " + Raw + " *tc_smem_raw_b = reinterpret_cast<" + Raw + " *>(tc_smem_b + " +
           str(tileB().Elements / 2) + ");\n";
      if (C.RawFragmentsB)
        S += "  const unsigned char *tc_raw_b = reinterpret_cast<const unsigned char *>(tc_smem_raw_b);\n";
    }
    if (C.Tma) {
      S += "  // This block's output tile (grouped order: L2 reuse across blocks) and its\n"
           "  // k tiles [tc_k_begin, tc_k_end): all of them, or one part's of a split\n"
           "  // tile (tc/tile_schedule.cuh).\n";
      std::string Rank = C.PairedTiles || C.unitLoop() ? ", tc_rank" : "";
      if (C.PairedTiles)
        S += "  // With pairs, tc_rank is this block's place in its pair (tc/cluster.cuh).\n";
      if (C.StreamUnits)
        S += "  // A block of stream units computes several such pieces in turn.\n";
      if (C.PersistentTiles)
        S += "  // A persistent block computes several whole tiles in turn.\n";
      S += "  int tc_block_m, tc_block_n, tc_split_tile, tc_part" + Rank +
           ";\n"
           "  long long tc_k_begin, tc_k_end;\n";
      if (!C.unitLoop())
        S += "  tc::" + std::string(C.PairedTiles ? "pair" : "block") +
             "_work<8>(tc_schedule, tc_block_m, tc_block_n, tc_k_begin, tc_k_end, "
             "tc_split_tile, tc_part" + Rank + ");\n";
    } else {
      S += "  int tc_block_m, tc_block_n;  // grouped order: L2 reuse across blocks\n";
      S += "  tc::grouped_tile<8>(tc_block_m, tc_block_n);\n";
      if (!Idiom.IterBatch.empty())
        S += "  const int tc_batch = ::blockIdx.z / tc_splits;\n";
      S += "  // Split-K: this block reduces over the k tiles [tc_k_begin, tc_k_end).\n";
      S += "  const long long tc_k_begin = (long long)(::blockIdx.z % tc_splits) * tc_split_tiles;\n";
      S += "  const long long tc_k_end = tc_k_begin + tc_split_tiles;\n";
    }
    // With stream units: where the code of one unit begins in S, and what each
    // unit after the first does before it.
    size_t UnitStart = 0;
    std::string UnitReset;
    // (ProducerWarpgroup) The producer's code with its own loop over the
    // units, before the consumers' loop.
    std::string ProducerLoop;
    // (PersistentTiles with ProducerWarpgroup) The epilogue warpgroups'
    // code with its own loop over the units, before the producer's.
    std::string StorerLoop;
    if (C.Tma) {
      std::string Stages = str(C.Stages), Consumers = str(C.threads());
      std::string EmptyArrivals =
          str(C.warpgroups()) + (C.PairedTiles ? " * tc::unit_blocks(tc_schedule)" : "");
      S += "  // Stage s holds a k tile once tc_full[s] completes; the producer refills it\n"
           "  // once tc_empty[s] does (tc/mbarrier.cuh).\n";
      S += "  ::uint64_t *tc_full = reinterpret_cast<::uint64_t *>(tc_smem + " +
           str(C.barrierOffset()) + ");\n";
      S += "  ::uint64_t *tc_empty = tc_full + " + Stages + ";\n";
      if (!C.PersistentTiles) // (whole tiles only: no parts to combine)
        S += "  int *tc_flag = reinterpret_cast<int *>(tc_empty + " + Stages +
             ");  // of combine_parts\n";
      else
        S += "  // The output buffer holds a staged tile once tc_out_full completes; the\n"
             "  // consumers stage the next one once tc_out_empty does.\n"
             "  ::uint64_t *tc_out_full = tc_empty + " + Stages + ";\n"
             "  ::uint64_t *tc_out_empty = tc_out_full + 1;\n";
      S += "  if (::threadIdx.x == 0) {\n    for (int tc_s = 0; tc_s < " + Stages +
           "; ++tc_s) {\n      tc::mbarrier_init(tc_full + tc_s, 1);\n" +
           "      tc::mbarrier_init(tc_empty + tc_s, " + EmptyArrivals +
           (C.PairedTiles ? ");  // one arrival per consumer warpgroup of the pair\n"
                          : ");  // one arrival per consumer warpgroup\n") +
           "    }\n" +
           (C.PersistentTiles ? "    tc::mbarrier_init(tc_out_full, " + str(C.threads()) +
                                    ");  // one arrival per consumer thread\n"
                                    "    tc::mbarrier_init(tc_out_empty, " +
                                    str(C.storerThreads()) +
                                    ");  // one per epilogue thread\n"
                              : std::string()) +
           "    tc::fence_barrier_init();\n  }\n" +
           (!C.PairedTiles ? "  __syncthreads();\n"
            : !C.clusterParts()
                ? "  tc::cluster_sync();  // both blocks' barriers are ready before either "
                  "copies into them\n"
                // A cluster of a tile's parts shares no barriers: its blocks
                // meet once, after their main loops (tc/cluster_parts.cuh).
                : "  if (tc::unit_blocks(tc_schedule) > 1)\n"
                  "    tc::cluster_sync();  // both blocks' barriers are ready before either "
                  "copies into them\n"
                  "  else\n"
                  "    __syncthreads();  // (a tile's parts meet after their main loops)\n");
      UnitStart = S.size();
      if (C.StreamUnits)
        UnitReset = "if (tc_unit > 0)  // the previous unit's stages are idle: fresh barriers\n"
                    "  tc::reset_stage_barriers<" + Stages + ">(tc_full, tc_empty, " +
                    EmptyArrivals + ");\n";
      if (C.PersistentTiles && C.ProducerWarpgroup)
        StorerLoop = epilogueWarpgroupLoop(StorerBody);
      else if (C.PersistentTiles)
        S += epilogueWarpgroups(StorerBody);
      std::string Producer = "    if (::threadIdx.x == " + Consumers + ") {\n";
      for (auto &Map : mapNames())
        Producer += "      tc::tma_prefetch_map(" + Map + ");\n";
      Producer += ProducerBody + "    }\n";
      if (C.ProducerWarpgroup) {
        // Its own loop over the units, after it gave back its registers
        // (tc/registers.cuh); the consumers' code follows, after theirs grew.
        std::string Loop =
            unitLoop(UnitReset, C.unitLoop() ? dedent(Producer, 2) : Producer);
        ProducerLoop = "  if (::threadIdx.x >= " + Consumers +
                       ") {  // the producer warpgroup: few registers\n"
                       "    tc::release_registers<" +
                       str(C.producerRegisters()) + ">();\n" + indent(Loop, 2) +
                       "    return;\n  }\n"
                       "  tc::claim_registers<" + str(C.consumerRegisters()) +
                       ">();  // the consumers' share\n";
      } else {
        S += "  if (::threadIdx.x >= " + Consumers + ") {  // the producer warp\n" + Producer +
             (C.clusterParts()
                  ? "    if (tc_schedule.cluster_parts)  // (all threads of the cluster meet)\n"
                    "      tc::producer_parts_in_cluster();\n"
                  : "") +
             "    " + endOfUnit() + "\n  }\n";
      }
    }
    S += C.unitLoop() ? "  const int tc_thread = tc::unit_thread_index();\n"
                      : "  const int tc_thread = ::threadIdx.x;\n";
    if (C.WarpSplitK > 1) {
      S += "  // Intra-block split-K: warp group tc_warp_k computes the block's warp\n"
           "  // tiles over its share of each k tile, k steps [" +
           str(C.groupKSteps()) + " * tc_warp_k, " + str(C.groupKSteps()) +
           " * (tc_warp_k + 1)).\n";
      S += "  const int tc_warp_k = tc_thread / 32 / " + str(C.groupWarps()) + ";\n";
      S += "  const int tc_warp_m = tc_thread / 32 / " + str(C.warpsN()) + " % " +
           str(C.warpsM()) + ", tc_warp_n = tc_thread / 32 % " + str(C.warpsN()) + ";\n";
    } else if (C.wgmma()) {
      S += "  const int tc_warp_m = tc_thread / 32;  // warp tiles are 16 x " +
           str(C.accumulatorCols()) + "\n";
    } else {
      S += "  const int tc_warp_m = tc_thread / 32 / " + str(C.warpsN()) +
           ", tc_warp_n = tc_thread / 32 % " + str(C.warpsN()) + ";\n";
    }
    S += "  const int tc_lane_row = tc_thread % 32 / 4, tc_lane_col = tc_thread % 4;\n";
    if (!C.Tma) {
      S += copierDecl(tileA(), Idiom.A, "tc_copy_a");
      S += copierDecl(tileB(), Idiom.B, "tc_copy_b");
    }
    S += conversionLambda(Idiom.A, true);
    S += C.RawStagesB ? rawRowConversions() : conversionLambda(Idiom.B, false);
    if (C.WarpSplitK > 1)
      S += "  ::float4 *tc_partial = reinterpret_cast<::float4 *>(tc_smem);  // after the main loop\n";
    if (C.PersistentTiles)
      S += "  float *tc_stage = reinterpret_cast<float *>(tc_smem + " + str(C.operandBytes()) +
           ");  // the output tile's own buffer\n";
    else if (C.stagedEpilogue())
      S += std::string("  float *tc_stage = reinterpret_cast<float *>(tc_smem);  // after the ") +
           (C.WarpSplitK > 1 ? "reduction" : "main loop") + "\n";
    S += "  float tc_acc[" + str(C.fragmentsM()) + "][" + str(C.fragmentsN()) +
         "][4] = {};\n";
    // Without the fence, ptxas sinks the zeros past the stage conversion to
    // the first wgmma, and then serializes every wgmma (C7515).
    if (C.convertsLandedStages() || C.fragmentsByParity())
      S += "  tc::fence_operands(tc_acc[0]);  // the zeros are set before the main loop\n";
    if (C.wgmma()) {
      S += "  // This warp's share of its warpgroup's m64n" + str(C.accumulatorCols()) +
           "k16 accumulators: " + (C.RawFragmentsB ? "columns" : "rows") +
           " 16 * tc_warp_m .. + 15\n"
           "  // of the block tile (tc/wgmma_instructions.cuh).\n";
      // Its 64 rows of A: 64 K-major rows, or the 64-column panel of an
      // M-major A; the same offset either way.
      std::string Panel = str(C.BlockK * 128);
      auto Desc = [&](const OperandView &V, const std::string &Ptr) {
        return V.ReductionIsContiguous ? "tc::wgmma_desc_k_major_sw128(" + Ptr + ")"
                                       : "tc::wgmma_desc_mn_major_sw128(" + Ptr + ", " + Panel + ")";
      };
      if (C.RawFragmentsB) {
        S += "  // The tile transposed: each warp's 16 rows of B, one fragment per k step,\n"
             "  // times all of A's stage.\n";
        S += "  ::uint32_t tc_frag_b[2][" + str(C.kSteps()) + "][4];  // by the tile's parity\n";
        S += "  const ::uint64_t tc_desc_a = " + Desc(Idiom.A, "tc_smem_a") + ";\n";
      } else if (C.fragmentsByParity()) {
        S += "  // A from registers: each warp's 16 rows, one fragment per k step, its\n"
             "  // prologue applied in registers.\n";
        S += "  ::uint32_t tc_frag_a[2][" + str(C.kSteps()) + "][4];  // by the tile's parity\n";
        S += fragmentLoaderDecl(tileA(), true);
      } else if (C.WgmmaRegisterA) {
        S += "  // A from registers: each warp's 16 rows, one fragment per k step.\n";
        S += "  ::uint32_t tc_frag_a[" + str(C.kSteps()) + "][1][4];\n";
        S += fragmentLoaderDecl(tileA(), true);
      } else {
        S += "  const int tc_warpgroup = tc_thread / 128;\n";
        S += "  const ::uint64_t tc_desc_a = " +
             Desc(Idiom.A, "tc_smem_a + " + str(C.WgmmaM * C.BlockK) + " * tc_warpgroup") +
             ";\n";
      }
      if (!C.RawFragmentsB)
        S += "  const ::uint64_t tc_desc_b = " + Desc(Idiom.B, "tc_smem_b") + ";\n";
      if (twoConsumerVersions())
        S += "  // Two versions of the consumers' code, converting B's rows in fp16 pairs\n"
             "  // or through fp32, chosen once (tc::OffsetRow).\n"
             "  const auto tc_consumers = [&](auto tc_packed) {\n"
             "    constexpr bool tc_packed_b = decltype(tc_packed)::value;\n" +
             indent(Body, 2) +
             "  };\n"
             "  if (tc_exact_rows)\n"
             "    tc_consumers(::std::true_type());\n"
             "  else\n"
             "    tc_consumers(::std::false_type());\n";
      else
        S += Body;
      if (C.unitLoop()) {
        // Each of the block's units (tc/tile_schedule.cuh, unit_work) runs
        // the code since UnitStart, one level deeper. A persistent block's
        // stage barriers run on from tile to tile: tc_k_origin counts the
        // uses of the stages before this unit, the same in every role.
        std::string Unit = S.substr(UnitStart);
        S.resize(UnitStart);
        if (C.PersistentTiles)
          S += "  int tc_k_origin = 0;  // the stages' uses by this block's earlier tiles\n";
        S += StorerLoop + ProducerLoop + unitLoop(UnitReset, Unit);
      } else if (!ProducerLoop.empty()) {
        S.insert(UnitStart, ProducerLoop);
      }
      S += "}\n";
      return S;
    }
    // Two fragment buffers: the next k step's fragments load while this
    // step's mma run (one buffer when a tile has a single or odd k steps).
    const std::string Buffers = "[" + str(C.fragmentBuffers()) + "]";
    S += "  ::uint32_t tc_frag_a" + Buffers + "[" + str(C.fragmentsM()) + "][4];\n";
    S += fragmentLoaderDecl(tileA(), true);
    S += fragmentLoaderDecl(tileB(), false);
    S += "  ::uint32_t tc_frag_b" + Buffers + "[" + str(C.fragmentsN()) + "][2];\n";
    S += Body;
    S += "}\n";
    return S;
  }

  /// The epilogue warpgroups of a persistent kernel (the block's last
  /// threads): for each unit, wait until the consumers have staged its
  /// tile, store it (Body, the epilogue's isl schedule for these threads),
  /// and hand back each thread's part of the buffer once it has read it.
  std::string epilogueWarpgroups(const std::string &Body) const {
    return "  if (::threadIdx.x >= " + str(firstStorerThread()) +
           ") {  // the epilogue warpgroups\n" + epilogueWarpgroupUnit(Body) +
           "    continue;\n  }\n";
  }
  int firstStorerThread() const { return C.threads() + C.producerThreads(); }
  /// What the epilogue warpgroups do for one unit (at the indentation of
  /// the consumers' unit code, one level deeper).
  std::string epilogueWarpgroupUnit(const std::string &Body) const {
    return "    const int tc_thread = tc::unit_thread_index() - " + str(firstStorerThread()) +
           ";\n"
           "    const float *tc_stage = reinterpret_cast<const float *>(tc_smem + " +
           str(C.operandBytes()) + ");\n"
           "    tc::mbarrier_wait(tc_out_full, tc_unit % 2);  // the consumers staged the tile\n" +
           Body + "    tc::mbarrier_arrive(tc_out_empty);  // this thread has read its part\n";
  }
  /// With a producer warpgroup, the epilogue warpgroups resize their
  /// registers too (tc/registers.cuh), and then run a loop over the units
  /// of their own: code after a resize must not be shared with the
  /// consumers'.
  std::string epilogueWarpgroupLoop(const std::string &Body) const {
    return "  if (::threadIdx.x >= " + str(firstStorerThread()) + ") {  // the epilogue warpgroup" +
           (C.storerThreads() > 128 ? "s" : "") + ": registers of its own\n"
           "    tc::release_registers<" +
           str(C.storerRegisters()) + ">();\n" +
           indent(unitLoop("", dedent(epilogueWarpgroupUnit(Body), 2)), 2) +
           "    return;\n  }\n";
  }

  /// Blocks of a TMA kernel that share an SM: two where their shared memory
  /// fits, so that one block's epilogue overlaps the other's main loop.
  int tmaBlocksPerSm() const { return C.twoBlocksFit() ? 2 : 1; }
  /// The kernel's __launch_bounds__ minimum of blocks per SM (0: none).
  int minBlocksPerSm() const {
    if (C.Tma)
      return tmaBlocksPerSm();
    return C.wgmma() && C.twoBlocksFit() && C.threads() <= 256 && Idiom.MoreProducts.size() < 2
               ? 2
               : 0;
  }

  /// The loop over the block's units (tc/tile_schedule.cuh, unit_work)
  /// around Code, one level deeper, each unit after the first beginning
  /// with Reset.
  std::string unitLoop(const std::string &Reset, const std::string &Code) const {
    if (!C.unitLoop())
      return Code;
    return "  for (int tc_unit = 0; tc::unit_work<8>(tc_schedule, tc_unit, tc_block_m, "
           "tc_block_n, tc_k_begin,\n"
           "                                           tc_k_end, tc_split_tile, tc_part, "
           "tc_rank);" +
           std::string(C.PersistentTiles
                           ? "\n       ++tc_unit, tc_k_origin += (int)(tc_k_end - tc_k_begin)"
                           : " ++tc_unit") +
           ") {\n" + indent(Reset, 4) + indent(Code, 2) + "  }\n";
  }

  /// How the kernel's code leaves a piece of work early: the next of the
  /// block's units (KernelConfig::StreamUnits), or the end of the block.
  std::string endOfUnit() const { return C.unitLoop() ? "continue;" : "return;"; }
  /// The same for the consumers, whose code may be a lambda's
  /// (twoConsumerVersions): returning from it ends the unit.
  std::string consumersEnd() const { return twoConsumerVersions() ? "return;" : endOfUnit(); }

  /// Offset rows: the consumers' code (the last of the block's or unit's)
  /// is a generic lambda, run with tc_packed_b a compile-time true where
  /// all of the warp's rows are exact, false otherwise, so that the choice
  /// is made once and each version's main loop converts one way. (One loop
  /// choosing in every k tile measured slower.)
  bool twoConsumerVersions() const {
    return C.OffsetRowsB && !C.PersistentTiles && !C.RawFragmentsB;
  }

  /// The warp's fragment loader of an operand (tc/fragment.cuh).
  std::string fragmentLoaderDecl(const OperandTile &Tl, bool IsA) const {
    bool KC = (IsA ? Idiom.A : Idiom.B).ReductionIsContiguous;
    std::string Layout = IsA ? (KC ? "AKContiguous" : "AMContiguous")
                             : (KC ? "BKContiguous" : "BNContiguous");
    int Tiles = IsA ? C.WarpM / 16 : C.WarpN / 16;
    std::string Var = IsA ? "tc_frag_load_a" : "tc_frag_load_b";
    std::string S = std::string("  tc::FragmentLoader") + (C.Tf32 ? "Tf32" : "") +
                    "<tc::FragmentLayout::" + Layout + ", " + str(Tl.Cols) + ", " +
                    str(Tiles) + ", " + str(C.groupKSteps()) + "> " + Var + ";\n";
    // With warp groups, the loader's k steps are those of its group's share.
    S += "  " + Var + ".setup(" + str(IsA ? C.WarpM : C.WarpN) + " * " +
         (IsA ? "tc_warp_m" : "tc_warp_n") +
         (C.WarpSplitK > 1 ? ", " + str(C.groupKSteps()) + " * tc_warp_k" : std::string()) +
         ");\n";
    return S;
  }

  /// The per-thread copier of an operand (tc/tile_copy.cuh).
  std::string copierDecl(const OperandTile &Tl, const OperandView &V,
                         const char *Var) const {
    const Array &Arr = M.Arrays[V.ArrayId];
    int Rows = V.ReductionIsContiguous ? Tl.Elements / C.BlockK : C.BlockK;
    int Chunks = (Rows * (Tl.Cols / C.vector()) + C.threads() - 1) / C.threads();
    std::string Base = operandBase(V);
    std::string K = Idiom.ExtentK.str(subst());
    std::string Types = V.ConvertWhileCopying
                            ? "ConvertingCopier<kCopyMode, " + Arr.ElemSpelling + ", " +
                                  spelling(Idiom.InputType)
                            : "OperandCopier<kCopyMode, " + Arr.ElemSpelling;
    std::string S = "  tc::" + Types + ", " +
                    str(Chunks) + ", " + str(Tl.Cols) + ", " +
                    (V.ReductionIsContiguous ? "true" : "false") + ", " +
                    str(C.BlockK) + ", " + str(C.threads() / (Tl.Cols / C.vector())) +
                    (C.wgmma() && !V.ReductionIsContiguous ? ", true" : "") + "> " + Var + ";\n";
    S += "  " + std::string(Var) + ".base = " + Base + ";\n";
    S += "  " + std::string(Var) + ".ld = " + Tl.Ld + ";\n";
    S += "  " + std::string(Var) + ".k_extent = " + K + ";\n";
    if (V.InnerStride != 1) // gathered (ConvertWhileCopying)
      S += "  " + std::string(Var) + ".element_stride = " + str(V.InnerStride) + ";\n";
    return S;
  }

  /// Split-K's second kernel: sums the partial results of the splits and
  /// applies the epilogue, one thread per output element.
  std::string reduceKernel(const std::string &Epilogue) const {
    std::string S = "__global__ void __launch_bounds__(256) " + Region + "_reduce_kernel(";
    auto Args = arguments();
    for (size_t I = 0; I < Args.size(); ++I)
      S += (I ? ", " : "") + Args[I].KernelType + Args[I].Name;
    S += std::string(Args.empty() ? "" : ", ") +
         "int tc_splits, const float *__restrict__ tc_workspace) {\n";
    S += "  const long long tc_elements = (long long)(" + extentM() + ") * (" + extentN() + ");\n";
    S += "  const long long tc_i = (long long)::blockIdx.x * ::blockDim.x + ::threadIdx.x;\n";
    S += "  if (tc_i >= tc_elements)\n    return;\n";
    if (!Idiom.IterBatch.empty())
      S += "  const int tc_batch = ::blockIdx.y;\n";
    std::string Batch = Idiom.IterBatch.empty() ? "0" : "tc_batch";
    S += "  const long long tc_m = tc_i / (" + extentN() + "), tc_n = tc_i % (" + extentN() + ");\n";
    S += "  float tc_sum = 0.0f;\n";
    S += "  for (int tc_s = 0; tc_s < tc_splits; ++tc_s)\n";
    S += "    tc_sum += tc_workspace[((long long)" + Batch + " * tc_splits + tc_s) * tc_elements + tc_i];\n";
    S += indent(Epilogue, 2);
    S += "}\n";
    return S;
  }

  /// The kernel's launcher; none for an alternative of the components,
  /// which the region's launcher launches itself (but the twin's
  /// declaration, where this kernel was to make it).
  /// GridTiles: the kernel schedule's, where it was built.
  std::string launcherText(const isl::set &GridTiles) const {
    if (Components && !entersRegion())
      return DeclareTwin ? launcherSignature(twin()) + ";  // the fallback, defined below\n\n"
                         : "";
    return launcher(GridTiles.is_null() ? gridTiles(M, Idiom, I(), C) : GridTiles) + "\n";
  }

  /// The launcher's signature (without its body) for kernel `KName`.
  std::string launcherSignature(const std::string &KName) const {
    auto Args = arguments();
    // (The entry launcher makes its internal arguments itself.)
    if (KName == Region)
      llvm::erase_if(Args, [](const Arg &A) { return A.Internal; });
    std::string S = "static void " + KName + "_launch(";
    for (size_t I = 0; I < Args.size(); ++I)
      S += (I ? ", " : "") + Args[I].LauncherType + (Args[I].LauncherType.back() == '*' ? "" : " ") + Args[I].Name;
    return S + (Args.empty() ? "" : ", ") + "::cudaStream_t tc_stream)";
  }

  std::string launcher(const isl::set &GridTiles) const {
    auto Args = arguments();
    std::string ArgList; // the arguments passed on: "M, N, K, A, B, C"
    for (size_t I = 0; I < Args.size(); ++I)
      ArgList += (I ? ", " : "") + Args[I].Name;
    std::string S;
    if (DeclareTwin)
      S += launcherSignature(twin()) + ";  // the fallback, defined below\n\n";
    if (Components) // what the text kernels' heading says (kernel())
      S += "// " + Where + ": '#pragma tc' region of '" + M.FunctionName + "'\n//   " +
           C.describe() + "\n";
    S += launcherSignature(Name) + " {\n";
    if (entersRegion() && Dequantized)
      S += copyDeclarations(*Dequantized);
    S += handOverText(ArgList);
    // The device's facts and the switches, read once for every choice below.
    if (!Fallback && (!Alts.empty() || (C.Tma && !Components) ||
                      (!M.Clauses.SplitK && !sm80Components()) || decodes() ||
                      decodesNibbles()))
      S += "  const tc::LaunchFacts tc_facts = tc::launch_facts();  // (tc/launch_facts.cuh)\n";
    // Grid: one block per block tile of the output, counted by isl. The
    // checks come before the choice of kernel, whose arithmetic on the
    // sizes assumes an output.
    isl::set Tiles = GridTiles;
    int BatchPos = isl_set_find_dim_by_name(Tiles.get(), isl_dim_param, "tc_batch");
    if (BatchPos >= 0) // the same tiles for every batch element
      Tiles = isl::manage(isl_set_project_out(Tiles.copy(), isl_dim_param, BatchPos, 1));
    isl::set Params = Tiles.params();
    // First, where a subscript or a bound the source computes unsigned
    // would wrap: no kernel, the serial one included, computes the
    // source's elements.
    if (entersRegion())
      S += narrowArithmeticCheck(M.asWritten(), everySizeIsl(), Where);
    // The region as written on one thread (the serial kernel's launch).
    const std::string SerialLaunch =
        serialKernelName() + "<<<1, 1, 0, tc_stream>>>(" + ArgList + ");" +
        (M.Clauses.Sync ? "\n    ::cudaStreamSynchronize(tc_stream);" : "");
    if (std::string Cond = rowsAssumed(); !Cond.empty()) {
      // Assumed by the dependence analysis (rows of written arrays do not
      // overlap); where the sizes make them overlap, the later row's store
      // wins, which only the loops as written keep.
      if (entersRegion())
        S += "  if (!(" + Cond + ")) {\n    " + SerialLaunch + "\n    return;\n  }\n";
      else // the entry launcher has tested it; reported as CUDA reports errors
        S += "  if (!(" + Cond + ")) {\n    tc::report_error(tc::Status::AssumptionViolated, \"" +
             Where + "\", \"'#pragma tc' region assumes " + escape(Cond) +
             ", which does not hold\");\n    return;\n  }\n";
    }
    S += "  if (!(" + printSetCondition(Params) + "))\n    return;  // no output element\n";
    if (entersRegion() && !Idiom.MayAlias.empty()) {
      S += aliasCheck(M.asWritten(), asWrittenIsl(), Idiom.MayAlias, SerialLaunch);
    }
    if (entersRegion() && !Idiom.SerialWhen.empty())
      S += "  // For these sizes the kernel's box of the loops would read an operand\n"
           "  // beyond the elements the loops read (OperandMasks.h).\n"
           "  if (" + boxReadsBeyondCondition() + ") {\n    " + SerialLaunch +
           "\n    return;\n  }\n";
    // Where the kernels run, before the operands' views move their pointers
    // (the measurement runs this launcher again).
    std::string EntryArgList; // the entry launcher's own (no internal arguments)
    for (const Arg &A : Args)
      if (!A.Internal)
        EntryArgList += (EntryArgList.empty() ? "" : ", ") + A.Name;
    S += tuningMeasurement(EntryArgList);
    // After the alias check, which bounds the arrays as the source indexes
    // them.
    if (entersRegion())
      S += operandViewShifts();
    if (decodesNibbles())
      S += nibbleDecodeLaunch(ArgList);
    if (entersRegion() && Dequantized)
      S += dequantizeStep(*Dequantized, Dequantized->Rows.str(subst()),
                          Dequantized->Columns.str(subst()), dequantizeFunctorName(), ArgList,
                          Where);
    if (decodes())
      S += decodeLaunch(ArgList);
    if (!Alts.empty()) {
      std::string Names;
      for (auto &A : Args)
        Names += A.Name + ", ";
      S += "  // The kernel for this shape: the first candidate whose rule holds, else\n"
           "  // this one (tc/kernel_choice.cuh).\n";
      S += "  static constexpr tc::KernelCandidate tc_candidates[] = {\n";
      for (auto &Alt : Alts) {
        std::string Candidate = "tc::KernelRule::" + kernelRule(Alt.Predicate);
        if (Alt.Size || !Alt.Sizes.empty() || Alt.Arg)
          Candidate += ", " + std::to_string(Alt.Size);
        if (!Alt.Sizes.empty() || Alt.Arg) {
          std::vector<std::string> Sizes;
          for (int Sz : Alt.Sizes)
            Sizes.push_back(std::to_string(Sz));
          Candidate += ", {" + llvm::join(Sizes, ", ") + "}";
        }
        if (Alt.Arg)
          Candidate += ", " + std::to_string(Alt.Arg);
        S += "      {" + Candidate + "},  // " + Name + Alt.Suffix + "\n";
      }
      S += "  };\n";
      const bool Tuned = Tuning && !Tuning->Entries.empty();
      if (Tuned)
        S += tunedTable();
      S += "  switch (tc::choose_kernel(" + extentM() + ", " + extentN() + ", " +
           reductionLength() + ", " +
           (Idiom.IterBatch.empty() ? std::string("1") : Idiom.ExtentBatch.str(subst())) +
           ", tc_candidates, " +
           (Tuned ? "tc_tuned, tc::named(tc_facts.device)" : "tc_facts.device") +
           ", tc_facts.options)) {\n";
      // A kernel of the components is launched here; another has a
      // launcher of its own.
      for (size_t I = 0; I < Alts.size(); ++I) {
        S += "  case " + std::to_string(I) + ":  // " + std::to_string(Alts[I].Config.BlockM) +
             "x" + std::to_string(Alts[I].Config.BlockN) + " tiles\n";
        if (composesGemm(Alts[I].Config))
          S += componentLaunch(Alts[I].Config, false, Names, 4) +
               (CopyingDefault && !composesSm80Gemm(Alts[I].Config, Idiom, M.Clauses)
                    ? ""
                    : "    return;\n");
        else
          S += "    return " + Name + Alts[I].Suffix + "_launch(" + Names + "tc_stream);\n";
      }
      S += "  default:\n    break;\n  }\n";
    }
    std::string ArgNames;
    for (auto &A : Args)
      ArgNames += A.Name + ", ";
    if (sm80Components()) {
      S += "  // The kernel of the mma.sync components (tc/sm80/gemm_kernel.cuh) for these\n"
           "  // tiles and the region's epilogue.\n" +
           componentLaunch(C, true, ArgNames, 2);
      return S + "}\n";
    }
    if (Components) {
      S += "  // The kernel of the sm_90 components (tc/sm90/gemm_kernel.cuh) for these\n";
      if (!CopyingDefault)
        S += "  // tiles and the region's epilogue; the cp.async kernel where TMA cannot\n"
             "  // map an operand, not even through an aligned copy.\n";
      else if (Alts.empty())
        S += "  // tiles and the region's epilogue, its producer warp copying what TMA\n"
             "  // cannot map.\n";
      else
        S += "  // tiles and the region's epilogue, its producer warp copying what TMA\n"
             "  // cannot map; also where another kernel cannot launch.\n";
      return S + componentLaunch(C, true, ArgNames, 2) + "}\n";
    }
    if (C.Tma) {
      // TMA boxes: 64 k elements by the tile's rows (K-major; half of B's
      // for pairs, tc::tma_load_tile), or 64 m (n) elements by 64 k (one
      // panel of an M/N-major tile).
      auto Map = [&](const OperandView &V, const OperandTile &Tl, const char *Var, int Rows,
                     int Operand, bool IsB) {
        int BoxRows = V.ReductionIsContiguous ? (C.PairedTiles && IsB ? Rows / 2 : Rows)
                                              : C.BlockK;
        // A raw 8-bit B: its own map, unswizzled (no aligned copy: else the
        // cp.async kernel, which converts while copying).
        if (IsB && C.RawStagesB)
          return std::string("tc::tma_map_2d_bytes(&") + Var + ", " +
                 M.Arrays[V.ArrayId].Name + ", " + Tl.ColsExtent + ", " + Tl.Rows + ", " + Tl.Ld +
                 ", 64, " + str(BoxRows) + (C.RawFragmentsB ? ", true" : "") + ")";
        return std::string("tc::tma_map_2d_aligned(&") + Var + ", " + M.Arrays[V.ArrayId].Name +
               ", " + Tl.ColsExtent + ", " + Tl.Rows + ", " + Tl.Ld + ", 64, " + str(BoxRows) +
               ", tc_stream, " + str(Operand) + ", tc_facts.device)";
      };
      S += "  // TMA needs 16-byte aligned operands and row pitches: an operand without\n"
           "  // them is read from an aligned copy (tc/operand_repack.cuh); without the\n"
           "  // memory for it, the cp.async kernel of the same tiles.\n";
      std::vector<std::string> Names = mapNames();
      S += "  ::CUtensorMap " + llvm::join(Names, ", ") + ";\n";
      // One map per operand of each product, each with its own buffer for
      // an aligned copy.
      std::vector<std::string> Maps;
      for (size_t P = 0; P <= Idiom.MoreProducts.size(); ++P) {
        const OperandView &VA = P ? Idiom.MoreProducts[P - 1].A : Idiom.A;
        const OperandView &VB = P ? Idiom.MoreProducts[P - 1].B : Idiom.B;
        const AffineExpr &K = P ? Idiom.MoreProducts[P - 1].ExtentK : Idiom.ExtentK;
        Maps.push_back(
            Map(VA, tileOf(VA, true, K), Names[2 * P].c_str(), C.BlockM, 2 * P, false));
        Maps.push_back(
            Map(VB, tileOf(VB, false, K), Names[2 * P + 1].c_str(), C.BlockN, 2 * P + 1, true));
      }
      S += "  if (!" + llvm::join(Maps, " ||\n      !") + ") {\n";
      S += "    " + twin() + "_launch(" + ArgNames + "tc_stream);\n    return;\n  }\n";
    }
    std::string TilesM = printParametricExpr(isl::manage(isl_set_dim_max(Tiles.copy(), 0)), Params);
    std::string TilesN = printParametricExpr(isl::manage(isl_set_dim_max(Tiles.copy(), 1)), Params);
    // (Parenthesised unless one name or number: `BATCH - 1`, `-b0 + b1`
    // are multiplied below.)
    std::string Batches = Idiom.IterBatch.empty() ? "1" : Idiom.ExtentBatch.str(subst());
    if (!llvm::all_of(Batches, [](char C) { return clang::isAsciiIdentifierContinue(C); }))
      Batches = "(" + Batches + ")";
    if (!Idiom.IterBatch.empty())
      S += "  if (" + Batches + " <= 0)\n    return;\n";
    std::string KTiles = kTiles(Idiom.ExtentK);
    for (auto &P : Idiom.MoreProducts)
      KTiles += " + " + kTiles(P.ExtentK);
    S += "  const long long tc_k_tiles = " + KTiles + ";\n";
    if (C.Tma)
      S += tmaLaunch(TilesM, TilesN, ArgList);
    else
      S += cpAsyncLaunch(TilesM, TilesN, Batches, ArgList);
    if (M.Clauses.Sync)
      S += "  ::cudaStreamSynchronize(tc_stream);\n";
    S += "}\n";
    return S;
  }

  /// The cp.async kernel's launch: split-K chosen from the shape
  /// (tc/split_k.cuh) or by the split_k clause, partial sums added by the
  /// region's reduction kernel.
  std::string cpAsyncLaunch(const std::string &TilesM, const std::string &TilesN,
                            const std::string &Batches, const std::string &ArgList) const {
    std::string S;
    if (Fallback)
      return fallbackLaunch(TilesM, TilesN, Batches, ArgList);
    S += "  const long long tc_tiles = (" + TilesN + " + 1) * (" + TilesM + " + 1) * " + Batches + ";\n";
    if (M.Clauses.SplitK)
      S += "  int tc_splits = " + str(*M.Clauses.SplitK) + ";  // split_k clause\n";
    else
      S += "  int tc_splits = tc::choose_splits(tc_tiles, tc_k_tiles, tc_facts.device" +
           (C.SplitFillDivisor > 1 ? ", " + str(C.SplitFillDivisor) : std::string()) + ");\n";
    // The parts of k go along the grid's z with the batches.
    S += "  if ((long long)(" + Batches + ") * tc_splits > 65535)\n    tc_splits = (int)tc::max(1LL, 65535 / (long long)(" + Batches + "));\n";
    S += "  const long long tc_split_tiles = tc_k_tiles > 0 ? (tc_k_tiles + tc_splits - 1) / tc_splits : 1;\n";
    S += "  if (tc_k_tiles > 0)\n    tc_splits = (int)((tc_k_tiles + tc_split_tiles - 1) / tc_split_tiles);\n";
    S += gridFitsCheck(TilesM, TilesN, "(long long)(" + Batches + ") * tc_splits");
    S += "  const ::dim3 tc_grid(" + TilesN + " + 1, " + TilesM + " + 1, " + Batches + " * tc_splits);\n";
    S += "  float *tc_workspace = nullptr;\n";
    S += "  if (tc_splits > 1)\n    ::cudaMallocAsync(&tc_workspace, sizeof(float) * (::size_t)tc_splits * " +
         Batches + " * (" + extentM() + ") * (" + extentN() + "), tc_stream);\n";
    S += "  constexpr int tc_smem_bytes = " + str(C.sharedBytes()) + ";\n";
    std::string Kernel = Name + "_kernel";
    std::string SplitArgs = std::string(ArgList.empty() ? "" : ", ") + "tc_splits";
    S += cpAsyncLaunches(Kernel, ArgList, SplitArgs);
    S += "  if (tc_splits > 1) {\n";
    S += "    const long long tc_elements = (long long)(" + extentM() + ") * (" + extentN() + ");\n";
    S += "    const ::dim3 tc_reduce_grid((unsigned)((tc_elements + 255) / 256), " + Batches + ");\n";
    S += "    " + Region + "_reduce_kernel<<<tc_reduce_grid, 256, 0, tc_stream>>>(" + ArgList +
         SplitArgs + ", tc_workspace);\n";
    S += "    ::cudaFreeAsync(tc_workspace, tc_stream);\n  }\n";
    return S;
  }

  /// The fallback's launch (servesAsFallback): one block per tile and
  /// batch element, each over all of k, copying element-wise.
  std::string fallbackLaunch(const std::string &TilesM, const std::string &TilesN,
                             const std::string &Batches, const std::string &ArgList) const {
    std::string S = gridFitsCheck(TilesM, TilesN, Batches);
    S += "  const ::dim3 tc_grid(" + TilesN + " + 1, " + TilesM + " + 1, " + Batches + ");\n";
    S += "  constexpr int tc_smem_bytes = " + str(C.sharedBytes()) + ";\n";
    const std::string Kernel = Name + "_kernel<tc::kElementwise>";
    S += sharedMemoryOptIn({Kernel});
    S += "  // Element-wise copies serve any alignment; one part of k (no reduction\n"
         "  // kernel): this kernel only runs where the TMA kernels cannot.\n";
    S += "  " + Kernel + "<<<tc_grid, " + str(C.threads()) + ", tc_smem_bytes, tc_stream>>>(" +
         ArgList + (ArgList.empty() ? "" : ", ") + "1, tc::max(tc_k_tiles, 1LL), nullptr);\n";
    return S;
  }

  /// A launcher's test that its grid fits CUDA's limits (a count past them
  /// would wrap in the dim3: too few blocks, or a failed launch).
  std::string gridFitsCheck(const std::string &TilesM, const std::string &TilesN,
                            const std::string &Blocks) const {
    // (The tiles' first rows and columns are ints in the kernel.)
    return "  if (!tc::grid_fits(" + TilesN + " + 1, " + TilesM + " + 1, " + Blocks +
           ") ||\n      !tc::tile_origins_fit(" + TilesN + " + 1, " + str(C.BlockN) +
           ") || !tc::tile_origins_fit(" + TilesM + " + 1, " + str(C.BlockM) +
           ")) {\n    tc::report_error(tc::Status::GridTooLarge, \"" + Where +
           "\", \"'#pragma tc' region: the output needs more thread blocks than a CUDA grid "
           "holds, or more rows or columns than the kernel's 32-bit tile indices\");\n"
           "    return;\n  }\n";
  }

  /// The TMA kernel's launch: the maps go by value, as __grid_constant__
  /// parameters; one block per whole tile or part of a k-split tile
  /// (tc/tile_schedule.cuh), the parts' workspace and counters kept per
  /// stream.
  std::string tmaLaunch(const std::string &TilesM, const std::string &TilesN,
                        const std::string &ArgList) const {
    std::string Kernel = Name + "_kernel";
    std::string TM = "(" + TilesM + " + 1)", TN = "(" + TilesN + " + 1)";
    std::string S;
    // Few tiles: every tile split, its parts one cluster (the cluster
    // capacity needs the kernel's shared memory opt-in first).
    const bool ClusterParts = launchesClusterParts(C, M.Clauses);
    if (ClusterParts) {
      const std::string MinKTiles = str(C.clusterPartsMinKTiles());
      S += "  constexpr int tc_smem_bytes = " + str(C.sharedBytes()) + ";\n" +
           sharedMemoryOptIn({Kernel}) +
           "  // Few tiles: every tile split, its parts one cluster adding their partial\n"
           "  // tiles through distributed shared memory (tc/cluster_parts.cuh), where\n"
           "  // the clusters run in one wave (their capacity measured once a device).\n"
           "  tc::TileSchedule tc_schedule;\n"
           "  bool tc_in_clusters = false;\n"
           "  if (tc::cluster_parts_may_pay(" + TM + ", " + TN + ", tc_k_tiles, " + MinKTiles +
           ", tc_facts.device,\n"
           "                                tc_facts.options)) {\n"
           "    static tc::ClusterCapacities tc_capacities;  // measured once per device\n"
           "    const tc::ClusterCapacity tc_capacity = tc::cluster_capacity_on(\n"
           "        tc_capacities, tc_facts.device.ordinal, " + Kernel + ", " +
           str(C.blockThreads()) + ", tc_smem_bytes);\n"
           "    tc_in_clusters = tc::schedule_cluster_parts(" + TM + ", " + TN + ", tc_k_tiles, " +
           MinKTiles + ", tc_capacity,\n"
           "                                                tc_facts.device, tc_facts.options,\n"
           "                                                tc_schedule);\n"
           "  }\n"
           "  if (!tc_in_clusters)\n  ";
    }
    // The kernel's own schedule (after the cluster parts' rule where it has
    // one), with what it does.
    std::string Tiles = TM + ", " + TN + ", tc_k_tiles", Why, Schedule;
    if (M.Clauses.SplitK)
      Schedule = "tc::split_all_tiles(" + Tiles + ", " + str(*M.Clauses.SplitK) + ")";
    else if (C.PairedTiles) {
      Why = "  // Pairs of tiles sharing B's tile where the shape has them.\n";
      Schedule = "tc::schedule_tile_pairs(" + Tiles + ", " + pairRuleName(C) + ", " +
                 (C.StreamUnits ? "true" : "false") + ", tc_facts.device, tc_facts.options)";
    } else if (C.StreamUnits) {
      Why = "  // The last round and a tail of tiles shared by all SMs where that helps.\n";
      Schedule = "tc::schedule_stream_tiles(" + Tiles + ", tc_facts.device, tc_facts.options)";
    } else if (C.PersistentTiles) {
      Why = "  // One block per SM, each computing whole tiles in turn.\n";
      Schedule = "tc::schedule_persistent_tiles(" + Tiles + ", tc_facts.device)";
    } else
      Schedule = "tc::schedule_tiles(" + Tiles + ", tc_facts.device)";
    if (ClusterParts)
      S += "  tc_schedule = " + Schedule + ";" +
           (C.PairedTiles   ? "  // else pairs where they pay"
            : C.StreamUnits ? "  // else the stream units"
                            : "") +
           "\n";
    else
      S += Why + "  tc::TileSchedule tc_schedule = " + Schedule + ";" +
           (M.Clauses.SplitK ? "  // split_k clause" : "") + "\n";
    S += "  float *tc_workspace = nullptr;\n  int *tc_counters = nullptr;\n";
    if (!C.PersistentTiles) // (whole tiles only: no parts, no workspace)
      S += "  // The parts' counters and slots, kept per stream (the counters left at\n"
           "  // zero); without the memory, whole tiles.\n"
           "  if (" + std::string(ClusterParts ? "!tc_schedule.cluster_parts && " : "") +
           "tc::split_tiles(tc_schedule) > 0 &&\n"
           "      !tc::stream_workspace(tc_stream, tc::schedule_counter_bytes(tc_schedule),\n"
           "                            tc::schedule_slot_bytes(tc_schedule, " +
           str(C.BlockM * C.BlockN) + "), tc_counters, tc_workspace))\n"
           "    tc_schedule = tc::without_split_tiles(tc_schedule);\n";
    if (!ClusterParts)
      S += "  constexpr int tc_smem_bytes = " + str(C.sharedBytes()) + ";\n" +
           sharedMemoryOptIn({Kernel});
    std::string KernelArgs =
        ArgList + (ArgList.empty() ? "" : ", ") + llvm::join(mapNames(), ", ");
    if (C.PairedTiles || ClusterParts)
      S += std::string(C.PairedTiles && ClusterParts
                           ? "  // A cluster of two blocks per pair of tiles (tc/cluster.cuh), or of\n"
                             "  // the parts of each tile where they add up there.\n"
                       : C.PairedTiles
                           ? "  // A cluster of two blocks per pair of tiles (tc/cluster.cuh).\n"
                           : "  // (A cluster of the parts of each tile where they add up there.)\n") +
           "  tc::launch_schedule(" + Kernel + ", tc_schedule, tc_workspace, tc_counters, " +
           str(C.blockThreads()) + ", tc_smem_bytes, tc_stream, " + KernelArgs + ");\n";
    else
      S += "  " + Kernel + "<<<(unsigned)tc::schedule_blocks(tc_schedule), " +
           str(C.blockThreads()) + ", tc_smem_bytes, tc_stream>>>(" + KernelArgs +
           ", tc_schedule, tc_workspace, tc_counters);\n";
    return S;
  }

  /// Above 48 KiB of dynamic shared memory, the opt-in of each kernel,
  /// once per device (tc/shared_memory_opt_in.cuh; tc_smem_bytes is the
  /// launcher's constant).
  std::string sharedMemoryOptIn(const std::vector<std::string> &Kernels) const {
    if (C.sharedBytes() <= 48 * 1024)
      return "";
    std::string S = "  static tc::SharedMemoryOptIn tc_smem_opt_in;  // per device\n"
                    "  tc_smem_opt_in.apply(tc_smem_bytes";
    for (auto &K : Kernels)
      S += ", " + K;
    return S + ");\n";
  }

  /// The cp.async kernel's launches, one per copy mode (tc/tile_copy.cuh),
  /// chosen from the operands' alignment at run time.
  std::string cpAsyncLaunches(const std::string &Kernel, const std::string &ArgList,
                              const std::string &SplitArgs) const {
    std::string S = sharedMemoryOptIn({Kernel + "<tc::kWholeChunks>",
                                       Kernel + "<tc::kPartialChunks>",
                                       Kernel + "<tc::kElementwise>"});
    OperandTile A = tileA(), B = tileB();
    const std::string &NA = M.Arrays[Idiom.A.ArrayId].Name;
    const std::string &NB = M.Arrays[Idiom.B.ArrayId].Name;
    S += "  // cp.async needs 16-byte aligned chunks; otherwise copy element-wise.\n";
    auto Mode = [&](const OperandView &V) {
      return V.ConvertWhileCopying
                 ? std::string("tc::convert_copy_mode<") + spelling(Idiom.InputType) + ">("
                 : std::string("tc::copy_mode(");
    };
    S += "  int tc_mode = " + Mode(Idiom.A) + NA + ", " + A.Ld + ", " + A.ColsExtent + ");\n";
    S += "  tc_mode = tc::min(tc_mode, " + Mode(Idiom.B) + NB + ", " + B.Ld + ", " +
         B.ColsExtent + "));\n";
    for (auto &P : Idiom.MoreProducts)
      for (bool IsA : {true, false}) {
        const OperandView &V = IsA ? P.A : P.B;
        OperandTile Tl = tileOf(V, IsA, P.ExtentK);
        S += "  tc_mode = tc::min(tc_mode, tc::copy_mode(" + M.Arrays[V.ArrayId].Name + ", " +
             Tl.Ld + ", " + Tl.ColsExtent + "));\n";
      }
    if (!Idiom.IterBatch.empty()) {
      std::string Cond = "(" + printStride(Idiom.A.BatchStride, M) + ") % 8 != 0 || (" +
                         printStride(Idiom.B.BatchStride, M) + ") % 8 != 0";
      for (auto &P : Idiom.MoreProducts)
        Cond += " || (" + printStride(P.A.BatchStride, M) + ") % 8 != 0 || (" +
                printStride(P.B.BatchStride, M) + ") % 8 != 0";
      S += "  if (" + Cond + ")\n    tc_mode = tc::kElementwise;\n";
    }
    std::string Launch = "<<<tc_grid, " + str(C.threads()) + ", tc_smem_bytes, tc_stream>>>(" +
                         ArgList + SplitArgs + ", tc_split_tiles, tc_workspace);\n";
    S += "  if (tc_mode == tc::kWholeChunks)\n    " + Kernel + "<tc::kWholeChunks>" + Launch;
    S += "  else if (tc_mode == tc::kPartialChunks)\n    " + Kernel + "<tc::kPartialChunks>" + Launch;
    S += "  else\n    " + Kernel + "<tc::kElementwise>" + Launch;
    return S;
  }

  /// MatmulIdiom::SerialWhen as a condition on the sizes.
  std::string boxReadsBeyondCondition() const {
    isl::set Context = withKnownSizes(contextSet(I().Context.ctx(), M), M);
    isl::set Bad = withKnownSizes(isl::set(I().Context.ctx(), Idiom.SerialWhen), M);
    isl::ast_build Build = isl::ast_build::from_context(Context);
    return printAstExpr(Build.expr_from(Bad.gist(Context)).get());
  }

  std::string printSetCondition(const isl::set &Params) const {
    isl::ast_build Build = isl::ast_build::from_context(I().Context);
    std::string Cond = printAstExpr(Build.expr_from(Params).get());
    return Cond;
  }
  /// Whether the launcher times its kernels in tuning runs: the one that
  /// chooses between them, for one output (the tuning table serves
  /// unbatched launches).
  bool measuresKernels() const {
    return Tuning && entersRegion() && !Alts.empty() && Idiom.IterBatch.empty();
  }

  /// The launcher's statement that, built with TC_TUNING, times each of
  /// its kernels the first time it runs a shape of a bucket
  /// (tc/tuning.cuh): it runs itself under each, then goes on. Empty where
  /// it does not measure (measuresKernels).
  std::string tuningMeasurement(const std::string &ArgList) const {
    if (!measuresKernels())
      return "";
    // The arrays whose values from before the region it reads and writes
    // (`C += A * B`): each kernel must start from those values. (What it
    // writes before reading, each kernel computes again.)
    const RegionModel &W = M.asWritten();
    const std::set<std::string> LiveIn = asWrittenIsl().liveInArrays();
    std::set<unsigned> Written;
    for (const Statement &St : W.Stmts)
      if (!W.Arrays[St.Write.ArrayId].IsLocalScalar && LiveIn.count(W.Arrays[St.Write.ArrayId].Name))
        Written.insert(St.Write.ArrayId);
    std::string Ranges;
    for (unsigned Id : Written)
      Ranges += std::string(Ranges.empty() ? "" : ",\n         ") +
                accessedBytes(W, asWrittenIsl(), Id);
    std::string Names;
    for (const std::string &K : Tuning->Kernels)
      Names += (Names.empty() ? "\"" : ", \"") + K + "\"";
    const std::string Key = "\"" + escape(Tuning->Key) + "\"";
    const std::string Shape = extentM() + ", " + extentN() + ", " + reductionLength();
    // (Not the decoding shapes, which the decode kernel takes whatever the
    // choice.)
    const std::string Decoding =
        decodes()          ? "(" + extentM() + ") > " + decodeRowsName() + " && "
        : decodesNibbles() ? "(" + extentM() + ") > " + nibbleRowsName() + " && "
                           : "";
    return "#ifdef TC_TUNING\n"
           "  // A tuning run (tc/tuning.cuh): the first launch of a shape's bucket\n"
           "  // times each kernel on the region's arrays, then runs as usual.\n"
           "  if (" + Decoding + "tc::tuning::measures(" + Key + ", " + Shape + ", tc_stream))\n"
           "    tc::tuning::measure(" + Key + ", {" + Names + "},\n"
           "        " + Shape + ", tc_stream,\n"
           "        {" + Ranges + "},\n"
           "        [&] { " + Name + "_launch(" + ArgList + (ArgList.empty() ? "" : ", ") +
           "tc_stream); });\n"
           "#endif\n";
  }

  /// The measured choices of the tuning databases (tc/tuned_choice.cuh).
  std::string tunedTable() const {
    std::string S = "  // The kernels measured fastest (tc-rewrite --tuning-db), by GPU and\n"
                    "  // shape bucket; the candidates' rules choose elsewhere.\n"
                    "  static constexpr tc::TunedKernel tc_tuned[] = {\n";
    for (const TunedEntry &E : Tuning->Entries)
      S += "      {\"" + escape(E.Gpu) + "\", " + std::to_string(E.BucketM) + ", " +
           std::to_string(E.BucketN) + ", " + std::to_string(E.BucketK) + ", " +
           std::to_string(E.Kernel) + "},  // " + E.KernelName + "\n";
    return S + "  };\n";
  }

  /// S in a C string literal: quotes, backslashes and control characters
  /// (a GPU name from a tuning database) escaped.
  static std::string escape(const std::string &S) {
    std::string R;
    for (char Ch : S) {
      if (Ch == '"' || Ch == '\\') {
        R += std::string("\\") + Ch;
      } else if (static_cast<unsigned char>(Ch) < 0x20 || Ch == 0x7f) {
        char Octal[8];
        snprintf(Octal, sizeof Octal, "\\%03o", static_cast<unsigned char>(Ch));
        R += Octal;
      } else {
        R += Ch;
      }
    }
    return R;
  }

  std::string call() const {
    std::string S = Name + "_launch(";
    auto Args = arguments();
    llvm::erase_if(Args, [](const Arg &A) { return A.Internal; });
    for (size_t I = 0; I < Args.size(); ++I)
      S += (I ? ", " : "") + Args[I].CallExpr;
    S += std::string(Args.empty() ? "" : ", ") +
         (M.Clauses.Stream ? *M.Clauses.Stream : std::string("0")) + ");";
    return S;
  }

  const RegionModel &M;
  const MatmulIdiom &Idiom;
  std::function<const IslModel &()> Model;
  /// The region's isl model (built at the first call).
  const IslModel &I() const { return Model(); }
  const KernelConfig &C;
  std::string Name, Where;
  /// The region's further kernels, which this launcher dispatches to.
  std::vector<AlternativeKernel> Alts;
  /// The stem of the names shared by the region's kernels, and whether
  /// this kernel's definitions include the shared pieces.
  std::string Region;
  bool EmitShared = true;
  bool EmitReduce = true;
  /// servesAsFallback, fallsBackToCopyingDefault.
  bool Fallback = false;
  bool CopyingDefault = false;
  /// The cp.async kernel that the TMA launcher falls back to (default: its
  /// own twin, Name + "_cp_async", defined before it).
  std::string Twin;
  bool DeclareTwin = false;
  /// Whether the kernel is tc/sm90/gemm_kernel.cuh's (composesSm90Gemm),
  /// and whether the region's epilogue functor is defined with it.
  bool Components = false;
  bool DefinesFunctor = false;
  bool FunctorDefinedBefore = false;
  /// Whether kernel `K` of the region is composed of the components, the
  /// sm_90 ones or the mma.sync ones (ComponentKernel.h).
  bool composesGemm(const KernelConfig &K) const {
    return composesSm90Gemm(K, Idiom, M.Clauses) || composesSm80Gemm(K, Idiom, M.Clauses);
  }
  /// Whether this kernel is the mma.sync components' (not a TMA kernel's
  /// twin, which keeps its body and launcher).
  bool sm80Components() const { return Components && composesSm80Gemm(C, Idiom, M.Clauses); }
  const RegionTuning *Tuning = nullptr;
  /// explains().
  bool Explains = true;
  std::string twin() const { return Twin.empty() ? Name + "_cp_async" : Twin; }
  /// Whether this is the launcher the region's call names (the default
  /// kernel's), which dispatches to the others.
  bool entersRegion() const { return Name == Region; }
  const LauncherHandOver *HandOver = nullptr;
  const DequantizedOperand *Dequantized = nullptr;
  std::string dequantizeFunctorName() const { return Region + "_dequantize"; }
  /// The hand-over of the shapes another launcher of the region takes
  /// (LauncherHandOver), first in the region's launcher: that launcher
  /// checks what this one would.
  std::string handOverText(const std::string &ArgList) const {
    if (!HandOver || !entersRegion())
      return "";
    auto Flag = [](bool B) { return B ? "true" : "false"; };
    return "  // Operands stored M- or N-major: the wgmma kernels below read a transposed\n"
           "  // copy, which pays where the product reads it twice; other shapes run\n"
           "  // the mma.sync kernels (tc/kernel_choice.cuh).\n"
           "  if (!tc::prefer_transposed_copies(" + extentM() + ", " + extentN() + ", " +
           Flag(HandOver->CopiesA) + ", " + Flag(HandOver->CopiesB) + ")) {\n    " +
           HandOver->Launcher + "_launch(" + ArgList + (ArgList.empty() ? "" : ", ") +
           "tc_stream);\n    return;\n  }\n";
  }
  /// The sizes' condition that rows of the written arrays do not overlap
  /// (rowAssumptions), as C; empty where every size satisfies it. The
  /// region's (rowsAssumedCondition), read once for all its kernels.
  std::string rowsAssumed() const { return RowsAssumed; }
  std::string RowsAssumed;
  std::string serialKernelName() const { return Region + "_serial_kernel"; }
  /// Whether the region's launcher runs the serial kernel somewhere: where
  /// arrays may overlap, where the box reads beyond the loops' elements,
  /// or where rows of a written array overlap. (Region-wide: every
  /// kernel's arguments then include the arrays the region as written
  /// accesses.)
  bool runsSerialKernel() const {
    if (!SerialKernelRuns)
      SerialKernelRuns =
          !Idiom.MayAlias.empty() || !Idiom.SerialWhen.empty() || !rowsAssumed().empty();
    return *SerialKernelRuns;
  }
  mutable std::optional<bool> SerialKernelRuns;
  /// The isl model of the region as written (RegionModel::AsWritten), which
  /// the alias test bounds and the serial kernel runs.
  /// Built once, on first use.
  const IslModel &asWrittenIsl() const {
    if (!M.AsWritten)
      return I();
    if (!WrittenIsl) {
      // rowAssumptions of the fused model, which built I, computed these.
      isl::ctx Ctx = I().Context.ctx();
      WrittenIsl = IslModel::build(Ctx, *M.AsWritten,
                                   llvm::cantFail(rowAssumptions(Ctx, *M.AsWritten)));
    }
    return *WrittenIsl;
  }
  mutable std::optional<IslModel> WrittenIsl;

  /// The model of the region as written over every size, not only those
  /// the kernels assume: the serial kernel's and the narrow-arithmetic
  /// test's (SubscriptRange.h). Built once, where asked.
  const IslModel &everySizeIsl() const {
    if (!EverySizeIsl) {
      isl::ctx Ctx = I().Context.ctx();
      EverySizeIsl = IslModel::build(Ctx, M.asWritten(), contextSet(Ctx, M.asWritten()));
    }
    return *EverySizeIsl;
  }
  mutable std::optional<IslModel> EverySizeIsl;

  /// The operands read at an offset from the plain iterators
  /// (OperandView::IndexOffset), each view once.
  std::vector<const OperandView *> offsetViews() const {
    std::vector<const OperandView *> Views;
    auto Add = [&](const OperandView &V) {
      if (!V.IndexOffset.empty())
        Views.push_back(&V);
    };
    Add(Idiom.A);
    Add(Idiom.B);
    for (const ProductTerm &P : Idiom.MoreProducts) {
      Add(P.A);
      Add(P.B);
    }
    return Views;
  }
  /// `A += (r0) * (lda) + (c0);` for each offset view: the kernels read
  /// the view from its first element.
  std::string operandViewShifts() const {
    std::string S;
    for (const OperandView *V : offsetViews()) {
      const Array &Arr = M.Arrays[V->ArrayId];
      std::string Off;
      for (size_t D = 0; D < V->IndexOffset.size(); ++D) {
        std::string Stride = printStride(Arr.Strides[D], M);
        std::string Term = "(long long)(" + V->IndexOffset[D].str(subst()) + ")";
        Off += (Off.empty() ? "" : " + ") + (Stride == "1" ? Term : Term + " * (" + Stride + ")");
      }
      S += "  " + Arr.Name + " += " + Off + ";  // where the operand's view starts\n";
    }
    return S;
  }

  /// An operand as a component's launch takes it: `array, leading dimension`.
  std::string operandArguments(const OperandView &V) const {
    return M.Arrays[V.ArrayId].Name + ", " + printStride(V.LeadingDim, M);
  }

  /// The extents and operands of a component's launch (tc::sm90::launch_gemm):
  /// `{M, N, K}, A, lda, B, ldb` for one product, else the output's extents
  /// and each product's `{A, lda, B, ldb, K}` (tc::sm90::Products).
  /// The components' launch function (tc/sm90/gemm_kernel.cuh).
  std::string componentLauncher() const {
    return Idiom.IterBatch.empty() ? "tc::sm90::launch_gemm" : "tc::sm90::launch_batched_gemm";
  }

  /// A batch's: the entries, the extents, and each product's `{A, lda, B,
  /// ldb, K, A's batch stride, B's}` (tc::sm90::launch_batched_gemm).
  std::string componentOperands(const KernelConfig &K) const {
    if (K.transposedTile()) // (C^T = B^T A^T)
      return "{" + extentN() + ", " + extentM() + ", " + Idiom.ExtentK.str(subst()) + "}, " +
             operandArguments(Idiom.B) + ", " + operandArguments(Idiom.A);
    if (!launchesProducts())
      return "{" + extentM() + ", " + extentN() + ", " + Idiom.ExtentK.str(subst()) + "}, " +
             operandArguments(Idiom.A) + ", " + operandArguments(Idiom.B);
    return productExtents() + "tc::sm90::Products<" + spelling(Idiom.InputType) + ", " +
           std::to_string(Idiom.MoreProducts.size() + 1) + ">{{" +
           productList([&](const OperandView &V, bool) { return operandArguments(V); }) + "}}";
  }

  /// Whether a component launch lists products (tc::sm90::Products,
  /// tc::sm80::Product): a sum of them, or a batch.
  bool launchesProducts() const {
    return !Idiom.MoreProducts.empty() || !Idiom.IterBatch.empty();
  }
  /// A launch of products: `entries, M, N, ` (in a batch) or `M, N, `.
  std::string productExtents() const {
    return (Idiom.IterBatch.empty() ? std::string() : Idiom.ExtentBatch.str(subst()) + ", ") +
           extentM() + ", " + extentN() + ", ";
  }
  /// Each product's `{A, B, K}`, in a batch with A's and B's batch
  /// strides, a line each, its operands as `Operand(view, is A)` prints
  /// them.
  template <class OperandText> std::string productList(OperandText Operand) const {
    auto Product = [&](const OperandView &A, const OperandView &B, const AffineExpr &K) {
      return "\n        {" + Operand(A, true) + ", " + Operand(B, false) + ", " + K.str(subst()) +
             (Idiom.IterBatch.empty() ? std::string()
                                      : ", " + printStride(A.BatchStride, M) + ", " +
                                            printStride(B.BatchStride, M)) +
             "}";
    };
    std::string S = Product(Idiom.A, Idiom.B, Idiom.ExtentK);
    for (const ProductTerm &P : Idiom.MoreProducts)
      S += "," + Product(P.A, P.B, P.ExtentK);
    return S;
  }

  /// The extents and operands of the mma.sync components' launch
  /// (tc::sm80::launch_gemm): `{M, N, K}, A, lda, B, ldb`, or where an
  /// operand is converted while copied, each operand's Arguments, a
  /// converted one's with its functor (`Members` its initialisers).
  /// A sum of products or a batch: the entries, the extents, and each
  /// product's `{{A, lda}, {B, ldb}, K}`, with A's and B's batch strides
  /// (tc::sm80::Product).
  std::string sm80Operands(const std::string &Members) const {
    if (!sm80OperandsOnLines())
      return componentOperands(C);
    auto Operand = [&](const OperandView &V, bool IsA) {
      return "{" + operandArguments(V) +
             (V.ConvertWhileCopying ? ", " + conversionFunctorName(IsA) + "{" + Members + "}"
                                    : std::string()) +
             "}";
    };
    if (!launchesProducts())
      return "{" + extentM() + ", " + extentN() + ", " + Idiom.ExtentK.str(subst()) +
             "},\n    " + Operand(Idiom.A, true) + ",\n    " + Operand(Idiom.B, false);
    return productExtents() + "{" + productList(Operand) + "}";
  }
  /// Whether sm80Operands puts the operands on lines of their own (tile
  /// Arguments or product lists), not `{M, N, K}, A, lda, B, ldb`.
  bool sm80OperandsOnLines() const { return convertsAnOperand() || launchesProducts(); }
  /// The trailing arguments of an sm_90 components' launch whose A is
  /// converted by its rows (KernelConfig::ConvertsLandedOperands; for a
  /// transposed kernel the region's B, the kernel's A): the producer, and
  /// the operands' functors (tc::sm90::OperandConversions: A's, `Members`
  /// its initialisers, and B's none). Empty for other kernels.
  std::string sm90Conversions(const KernelConfig &K, const std::string &Members) const {
    if (!K.convertsFragmentsByRow())
      return "";
    return ",\n    tc::sm90::Producer::kTma, {" + conversionFunctorName(!K.transposedTile()) + "{" +
           Members + "}, {}}";
  }

  /// The mma.sync components' launch function (tc/sm80/gemm_kernel.cuh).
  std::string sm80Launcher() const {
    return Idiom.IterBatch.empty() ? "tc::sm80::launch_gemm" : "tc::sm80::launch_batched_gemm";
  }

  // ----- the decode component (tc/decode/launch.cuh) --------------------
  /// Whether this launcher takes the decode kernel at few rows: the
  /// region's entry launcher, for a layer of 8-bit weights
  /// (weightStreamMismatch).
  bool decodes() const {
    return entersRegion() && weightStreamMismatch(C, Idiom, M.Clauses).empty();
  }
  std::string weightRowsName() const { return Region + "_weight_rows"; }

  /// The functor of the packed operand's elements (Dequantize.h).
  std::string dequantizeFunctorText() const {
    std::vector<FunctorMember> Members;
    for (auto &A : arguments())
      Members.push_back({A.KernelType, A.Name});
    const std::string Comment =
        "// " + Where + ": the packed 4-bit operand of the '#pragma tc' region of '" +
        M.FunctionName + "':\n// its element (tc_row, tc_k) as the source computes it "
        "(tc::dequantize_operand, tc/packed.cuh).\n";
    return dequantizeFunctor(*Dequantized, dequantizeFunctorName(), Comment, Members);
  }
  /// The rows up to which the target's decode kernels run: sm_90a has the
  /// wgmma one (tc/decode/weight_stream_grid.cuh, decode_kernel).
  bool decodesOnWgmma() const { return C.Arch == GpuArch::SM90a; }
  /// The rows up to which a packed 4-bit layer may take a decode kernel
  /// (nibble_decode_kernel, tc/decode/weight_stream_grid.cuh): the wgmma
  /// kernel's where the code is built for sm_90a.
  std::string nibbleRowsName() const {
    return decodesOnWgmma() ? "tc::decode::kNibbleWgmmaRows" : "tc::decode::kNibbleDecodeRows";
  }
  std::string decodeRowsName() const {
    return decodesOnWgmma() ? "tc::decode::kWgmmaDecodeRows" : "tc::decode::kDecodeRows";
  }

  /// The functor of B's rows for the decode kernel: row tc_row's OffsetRow,
  /// the values its prologue reads loaded once (the kernel asks for rows
  /// inside the matrix only).
  std::string weightRowsFunctor() const {
    std::string Loads;
    const std::string Function = rowConversion(Idiom.B, false, Loads, false, true);
    std::string S = "// " + Where + ": the rows of operand " + M.Arrays[Idiom.B.ArrayId].Name +
                    " of the '#pragma tc' region of '" + M.FunctionName +
                    "': row tc_row's\n// elements minus its offset (tc::OffsetRow, "
                    "tc/decode/weight_stream.cuh).\nstruct " + weightRowsName() + " {\n";
    S += argumentMembers();
    return S + "  __device__ auto operator()(long long tc_row) const {\n" + Loads +
           "    return " + Function + ";\n  }\n};\n\n";
  }

  /// Whether the entry launcher runs the 4-bit decode kernel at few rows
  /// on the packed operand (nibbleStreamMismatch), before it makes the copy.
  bool decodesNibbles() const {
    return entersRegion() && Dequantized &&
           nibbleStreamMismatch(C, Idiom, M.Clauses, *Dequantized).empty();
  }
  std::string nibbleGroupsName() const { return Region + "_nibble_groups"; }
  std::string nibbleGroupsFunctorText() const {
    std::vector<FunctorMember> Members;
    for (auto &A : arguments())
      Members.push_back({A.KernelType, A.Name});
    const std::string Comment =
        "// " + Where + ": the zero points and scales of the packed 4-bit operand of the\n"
        "// '#pragma tc' region of '" + M.FunctionName + "': row tc_row's in group tc_group "
        "of k\n// (tc::decode::launch_nibble_decode, tc/decode/launch.cuh).\n";
    return nibbleGroupsFunctor(*Dequantized, nibbleGroupsName(), Comment, Members);
  }
  /// The launch of the 4-bit decode kernel for few rows, on the packed
  /// bytes as the source stores them; where it does not launch, the copy is
  /// made and the kernels below run.
  std::string nibbleDecodeLaunch(const std::string &ArgList) const {
    const RegionModel &Source = M.asWritten();
    const NibbleGroups &G = *Dequantized->Groups;
    const Access &Bytes = Source.Stmts[Dequantized->Reduction].Reads[G.Packed];
    const Array &W = Source.Arrays[Bytes.ArrayId];
    return "  // Decoding shapes: at few rows the layer is bound by the bytes of " + W.Name +
           ",\n  // which the 4-bit decode kernel reads once, without the copy "
           "(tc/decode/launch.cuh).\n"
           "  if (tc_facts.options.decode_kernels && (" + extentM() + ") <= " + nibbleRowsName() +
           " &&\n"
           "      tc::decode::launch_nibble_decode<" +
           (G.Signed ? "true" : "false") + (decodesOnWgmma() ? ", true" : "") + ">(\n        " +
           extentM() + ", " + extentN() + ", " + Idiom.ExtentK.str(subst()) + ", " +
           operandArguments(Idiom.A) + ", " + W.Name + ", " + printStride(W.Strides[0], Source) +
           ", " + std::to_string(G.GroupSize) + ",\n        " + nibbleGroupsName() + "{" +
           ArgList + "}, " + epilogueFunctorName() + "{" + ArgList +
           "}, tc_facts.device, tc_stream)) {\n" +
           (M.Clauses.Sync ? "    ::cudaStreamSynchronize(tc_stream);\n" : "") +
           "    return;\n  }\n";
  }

  /// The launch of the decode kernels for few rows (decodeRowsName; which
  /// kernel, decode_kernel in tc/decode/weight_stream_grid.cuh); where none
  /// launches, the kernels below run.
  std::string decodeLaunch(const std::string &ArgList) const {
    return "  // Decoding shapes: at few rows the layer is bound by the bytes of " +
           M.Arrays[Idiom.B.ArrayId].Name + ",\n  // which the decode kernel reads once "
           "(tc/decode/launch.cuh).\n"
           "  if (tc_facts.options.decode_kernels && (" + extentM() + ") <= " + decodeRowsName() +
           " &&\n      tc::decode::launch_weight_stream" +
           (decodesOnWgmma() ? "<true>(" : "(") + extentM() +
           ", " + extentN() + ", " + Idiom.ExtentK.str(subst()) + ", " + operandArguments(Idiom.A) +
           ", " + operandArguments(Idiom.B) + ",\n        " + weightRowsName() + "{" + ArgList + "}, " +
           epilogueFunctorName() + "{" + ArgList + "}, tc_facts.device, tc_stream)) {\n" +
           (M.Clauses.Sync ? "    ::cudaStreamSynchronize(tc_stream);\n" : "") +
           "    return;\n  }\n";
  }

  // ----- the sm_90 components (ComponentKernel.h) -----------------------
  std::string epilogueFunctorName() const { return Region + "_epilogue"; }

  /// The region's epilogue functor: the kernel's parameters as members,
  /// under their kernel names, so that the epilogue's statements read them
  /// as the text kernels' do.
  std::string epilogueFunctor(const std::string &Epilogue, const EpilogueLanes &Lanes) const {
    std::vector<FunctorMember> Members;
    for (auto &A : arguments())
      Members.push_back({A.KernelType, A.Name});
    int Width = vectorLanes(Lanes);
    std::string Comment = "// " + Where + ": the epilogue of the '#pragma tc' region of '" +
                          M.FunctionName + "': output element (tc_m, tc_n)\n"
                          "// from its sum, and eight of a row at once (tc/sm90/epilogue.cuh).\n";
    return epilogueFunctorText(epilogueFunctorName(), Comment, Members, Epilogue,
                               Width ? laneBody(Lanes, Width, "tc::store_lane_words")
                                     : std::string(),
                               Width, !Idiom.IterBatch.empty());
  }

  /// The launch of the sm_90 components' kernel (tc/sm90/gemm_kernel.cuh)
  /// for `K`'s tiles and schedule, the region's operands and epilogue; where
  /// it cannot launch (an operand TMA cannot map, even through an aligned
  /// copy; K = 0), the cp.async twin, or with a copying default, that
  /// default (IsDefault: `K` is it, and reports the error). Indented by
  /// `Indent` spaces.
  std::string componentLaunch(const KernelConfig &K, bool IsDefault, const std::string &ArgNames,
                              int Indent) const {
    // The functor's members are the launcher's arguments, in their order.
    const std::string Members = llvm::StringRef(ArgNames).rtrim(", ").str();
    if (composesSm80Gemm(K, Idiom, M.Clauses)) {
      // (Its errors are the launch's: no other kernel takes the shapes.)
      const std::string Launch =
          sm80Launcher() + "<" + sm80MainloopType(K, Idiom, true, sm80Names()) + ">(\n    " +
          sm80Operands(Members) +
          (sm80OperandsOnLines() ? ",\n    " : ", ") +
          epilogueFunctorName() + "{" + Members + "}, tc_stream" +
          (M.Clauses.SplitK ? ", " + str(*M.Clauses.SplitK) : "") + ")";
      return indent((M.Clauses.SplitK ? "// k in " + str(*M.Clauses.SplitK) +
                                            " parts at most (split_k clause)\n"
                                      : std::string()) +
                        "tc::report_status(" + Launch + ", \"" + Where + "\");\n" +
                        (M.Clauses.Sync ? "::cudaStreamSynchronize(tc_stream);\n" : ""),
                    Indent);
    }
    // (A transposed kernel's A is the region's B, the epilogue functor's
    // rows the output's all the same: KernelConfig::transposedTile.)
    const std::string Epilogue = epilogueFunctorName() + "{" + Members + "}";
    const std::string Launch =
        componentLauncher() + "<" + sm90MainloopType(K, Idiom, true, Region, weightType()) +
        (usesDefaultSm90Scheduler(K, M.Clauses) ? ""
                                                : ",\n    " + sm90SchedulerType(K, M.Clauses)) +
        ">(" + componentOperands(K) + ", " +
        (K.transposedTile() ? "tc::sm90::TransposedOutput<" + epilogueFunctorName() + ">{" +
                               Epilogue + "}"
                         : Epilogue) +
        ", tc_stream" + sm90Conversions(K, Members) + ")";
    const std::string Sync = M.Clauses.Sync ? "::cudaStreamSynchronize(tc_stream);\n" : "";
    std::string S;
    if (!CopyingDefault)
      S = "if (!" + Launch + ")\n  " + twin() + "_launch(" + ArgNames + "tc_stream);\n" + Sync;
    else if (!IsDefault) // the default kernel below where it cannot launch
      S = Sync.empty() ? "if (" + Launch + ")\n  return;\nbreak;\n"
                       : "if (" + Launch + ") {\n" + indent(Sync, 2) + "  return;\n}\nbreak;\n";
    else
      S = "if (!" + Launch + ")\n  tc::report_error(tc::Status::LaunchFailed, \"" + Where +
          "\", \"'#pragma tc' region: its kernel could not be launched (cudaGetLastError says "
          "why)\");\n" + Sync;
    return indent(S, Indent);
  }
};

} // namespace

namespace {

/// One Emitter run of a region's kernels, fixed before any of them runs:
/// which shares the region's pieces and which declares a twin depends on
/// their order only (an error stops the region anyway).
struct KernelJob {
  KernelConfig Config;
  std::string Name;
  std::vector<AlternativeKernel> Alts;
  bool Shared = false;
  bool DefinesFunctor = false; // definesEpilogueFunctor
  bool FunctorDefinedBefore = false; // followsEpilogueFunctor
  std::optional<std::string> Twin; // fallsBackTo
  bool DeclareTwin = false;
  bool Fallback = false;       // servesAsFallback
  bool RegionSplitsK = false;  // regionSplitsK
  bool CopyingDefault = false; // fallsBackToCopyingDefault
  bool Explains = true;        // explains
  std::string RowsAssumed;     // rowsAssumedAre
  const RegionTuning *Tuning = nullptr; // tuned
  const LauncherHandOver *HandOver = nullptr; // handsOver
  const DequantizedOperand *Dequantized = nullptr; // dequantizes
  std::optional<llvm::Expected<GeneratedRegion>> Result;
};

/// A kernel of the launcher: its own job, preceded by its cp.async twin's
/// job when it defines one (Twin), and what the explanation says after it.
struct KernelPart {
  std::optional<size_t> Twin;
  size_t Kernel = 0;
  std::string ExplainAfter;
};

void runJob(KernelJob &J, const RegionModel &M, const MatmulIdiom &Idiom,
            const IslModelBuilder &Model, const std::string &Region,
            const std::string &SourceLocation) {
  try {
    // Its own isl context: the jobs may run at once, and each kernel's
    // text is then the same however many do.
    isl::ctx Ctx = makeIslContext();
    // The model, built at the first use; where that fails, its error is
    // the kernel's (ModelFailed unwinds the emitter).
    std::optional<IslModel> I;
    std::optional<llvm::Error> ModelError;
    struct ModelFailed {};
    struct Free {
      isl::ctx C;
      std::optional<IslModel> &I;
      ~Free() {
        I.reset(); // its objects before their context
        isl_ctx_free(C.release());
      }
    } Guard{Ctx, I};
    auto Lazy = [&]() -> const IslModel & {
      if (!I) {
        auto Built = Model(Ctx);
        if (!Built) {
          ModelError.emplace(Built.takeError());
          throw ModelFailed{};
        }
        I.emplace(std::move(*Built));
      }
      return *I;
    };
    // A kernel whose operand lands raw to be converted by each element's
    // place exists only as the sm_90 components' (keepTmaOnComponents):
    // a generated body would multiply the raw elements.
    // So does one whose stages are laid out at the components' sizes
    // (regionKernels): a generated body would overrun its shared memory.
    if ((J.Config.ConvertsLandedOperands || J.Config.ComponentStages) &&
        !composesSm90Gemm(J.Config, Idiom, M.Clauses)) {
      J.Result.emplace(regionError(
          M.Range.getBegin(),
          std::string("internal error: a kernel that ") +
              (J.Config.ConvertsLandedOperands ? "converts its landed operands"
                                               : "lays out its stages as the components do") +
              " is not composed of the sm_90 components (" +
              sm90ComponentMismatch(J.Config, Idiom, M.Clauses) + ")",
          "please report this as a bug"));
      return;
    }
    try {
      Emitter E(M, Idiom, Lazy, J.Config, J.Name, SourceLocation, J.Alts);
      E.partOf(Region, J.Shared)
          .regionSplitsK(J.RegionSplitsK)
          .servesAsFallback(J.Fallback)
          .fallsBackToCopyingDefault(J.CopyingDefault)
          .definesEpilogueFunctor(J.DefinesFunctor)
          .followsEpilogueFunctor(J.FunctorDefinedBefore)
          .explains(J.Explains)
          .rowsAssumedAre(J.RowsAssumed);
      if (J.Tuning)
        E.tuned(*J.Tuning);
      if (J.HandOver)
        E.handsOver(*J.HandOver);
      if (J.Dequantized)
        E.dequantizes(*J.Dequantized);
      if (J.Twin)
        E.fallsBackTo(*J.Twin, J.DeclareTwin);
      J.Result.emplace(E.run());
    } catch (const ModelFailed &) {
      J.Result.emplace(std::move(*ModelError));
    }
  } catch (const isl::exception &E) {
    J.Result.emplace(regionError(
        M.Range.getBegin(),
        "internal error: isl failed while generating the kernel " + J.Name + " (" +
            J.Config.describe() + "): " + E.what(),
        "please report this as a bug; the region is left as written"));
  }
}

/// Runs the jobs on up to Threads threads (0: one per core).
void runJobs(std::vector<KernelJob> &Jobs, unsigned Threads, const RegionModel &M,
             const MatmulIdiom &Idiom, const IslModelBuilder &Model,
             const std::string &Region, const std::string &SourceLocation) {
  if (Threads == 0)
    Threads = llvm::hardware_concurrency().compute_thread_count();
  Threads = std::max(1u, std::min<unsigned>(Threads, Jobs.size()));
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    for (size_t J; (J = Next++) < Jobs.size();)
      runJob(Jobs[J], M, Idiom, Model, Region, SourceLocation);
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < Threads; ++T) {
    try {
      Pool.emplace_back(Work);
    } catch (const std::system_error &) {
      break; // no thread to be had: the others, and this one, do the rest
    }
  }
  Work();
  for (std::thread &T : Pool)
    T.join();
}

} // namespace

llvm::Expected<GeneratedRegion>
generateRegion(const RegionModel &M, const MatmulIdiom &Idiom, const IslModel &I,
               const IslModelBuilder &Model, const KernelConfig &C, const std::string &Name,
               const std::string &SourceLocation, const std::vector<AlternativeKernel> &Alts,
               unsigned Threads, bool Explains, const RegionTuning &Tuning,
               const std::optional<LauncherHandOver> &HandOver,
               const DequantizedOperand *Dequantized) {
  std::vector<KernelJob> Jobs;
  // The first kernel emitted defines the pieces the others share.
  bool SharedDone = false;
  // Whether the twin's launcher is declared ahead of its definition yet
  // (fallsBackTo).
  bool TwinDeclared = false;
  // Whether a kernel composed of the sm_90 components defines the region's
  // epilogue functor yet.
  bool FunctorDone = false;
  // One kernel. A TMA kernel's launcher falls back to the cp.async twin of
  // the region's default kernel (defined with it, declared ahead where an
  // alternative comes first): only operands that TMA cannot map even
  // through an aligned copy take it, so one twin serves every tile shape.
  const std::string Twin = Name + "_cp_async";
  const std::string FallbackWhere =
      "where TMA cannot map an operand (not even through an aligned copy), or K = 0";
  // Unless the components' kernels take every shape: then no twin.
  const bool CopyingDefault = componentKernelsTakeEveryShape(C, Alts, Idiom, M.Clauses);
  auto Plan = [&](const KernelConfig &K, const std::string &KName,
                  const std::vector<AlternativeKernel> &KAlts, bool IsDefault) {
    KernelPart P;
    auto Add = [&](KernelJob J) {
      J.Shared = !SharedDone;
      SharedDone = true;
      J.FunctorDefinedBefore = FunctorDone;
      J.DefinesFunctor = !FunctorDone && !J.Fallback &&
                         (composesSm90Gemm(J.Config, Idiom, M.Clauses) ||
                          composesSm80Gemm(J.Config, Idiom, M.Clauses));
      FunctorDone |= J.DefinesFunctor;
      Jobs.push_back(std::move(J));
      return Jobs.size() - 1;
    };
    if (CopyingDefault) {
      P.Kernel = Add(KernelJob{K, KName, KAlts});
      if (IsDefault)
        P.ExplainAfter = "  " + FallbackWhere + ": " + KName +
                         ", its producer warp copying the tiles\n";
      return P;
    }
    if (K.Tma && !IsDefault) {
      KernelJob J{K, KName, KAlts};
      J.Twin = Twin;
      J.DeclareTwin = !TwinDeclared;
      TwinDeclared = true;
      P.Kernel = Add(std::move(J));
      P.ExplainAfter = "  " + FallbackWhere + ": " + Twin + "\n";
      return P;
    }
    if (K.Tma) {
      KernelConfig TwinConfig = K.cpAsyncTwin();
      KernelJob J{TwinConfig, Twin, {}};
      J.Fallback = true;
      P.Twin = Add(std::move(J));
      P.ExplainAfter = "  " + FallbackWhere + ": " + Twin + ", " + TwinConfig.describe() +
                       " (element-wise copies, k unsplit)\n";
    }
    P.Kernel = Add(KernelJob{K, KName, KAlts});
    return P;
  };
  std::vector<KernelPart> Parts;
  for (auto &Alt : Alts)
    Parts.push_back(Plan(Alt.Config, Name + Alt.Suffix, {}, false));
  Parts.push_back(Plan(C, Name, Alts, true));

  const bool SplitsK = llvm::any_of(Jobs, [&](const KernelJob &J) {
    // (The mma.sync components' launch adds its parts itself.)
    return !J.Config.Tma && !J.Fallback && !composesSm80Gemm(J.Config, Idiom, M.Clauses);
  });
  const std::string RowsAssumed = rowsAssumedCondition(M, I);
  for (KernelJob &J : Jobs) {
    J.RegionSplitsK = SplitsK;
    J.Explains = Explains;
    J.CopyingDefault = CopyingDefault;
    J.RowsAssumed = RowsAssumed;
    J.Tuning = &Tuning;
    J.HandOver = HandOver ? &*HandOver : nullptr;
    J.Dequantized = Dequantized;
  }
  runJobs(Jobs, Threads, M, Idiom, Model, Name, SourceLocation);

  // The first error, in the order the kernels were emitted one by one, is
  // the region's (the others are dropped).
  std::optional<llvm::Error> Failed;
  for (const KernelPart &P : Parts)
    for (std::optional<size_t> J : {P.Twin, std::optional<size_t>(P.Kernel)})
      if (J && !*Jobs[*J].Result) {
        llvm::Error E = Jobs[*J].Result->takeError();
        if (Failed)
          llvm::consumeError(std::move(E));
        else
          Failed.emplace(std::move(E));
      }
  if (Failed)
    return std::move(*Failed);
  std::vector<GeneratedRegion> Kernels;
  for (const KernelPart &P : Parts) {
    GeneratedRegion G = std::move(**Jobs[P.Kernel].Result);
    if (P.Twin)
      G.Definitions = (*Jobs[*P.Twin].Result)->Definitions + G.Definitions;
    G.Explain += P.ExplainAfter;
    Kernels.push_back(std::move(G));
  }
  std::string Definitions, Explain;
  for (size_t A = 0; A < Alts.size(); ++A) {
    Definitions += Kernels[A].Definitions;
    Explain += "  shapes where tc::" + Alts[A].Predicate + ": " + Name + Alts[A].Suffix + ", " +
               laidOut(Alts[A].Config, Idiom, M.Clauses).describe() + "\n" + Kernels[A].Explain;
  }
  GeneratedRegion G = std::move(Kernels.back());
  G.Definitions = Definitions + G.Definitions;
  G.Explain += Explain;
  return G;
}

} // namespace tc
