//===- RegionFuzzer.cpp - libFuzzer target: the whole rewrite pipeline ----===//
//
// tc-fuzz-region: the input is the body of
//
//   void region(<Signature below>) { INPUT }
//
// after a CUDA-free prelude of stand-ins (__half, __nv_bfloat16, their
// conversions, math functions, cudaStream_t; cf.
// test/unit/RegionTestUtil.h). An input may close the function
// and define others (`}\nvoid f(...) {...`): the closing brace is ours.
// The file is parsed with Clang in memory and every `#pragma tc` region is
// run through the tool's pipeline (TranslationUnitRewriter, through
// RewriteActionFactory, as tc-rewrite does) for sm_90a and for sm_80.
//
// Findings, besides sanitizer reports, isl aborts and uncaught exceptions:
//  - a diagnostic that asks to "report this as a bug" (an internal error,
//    or an isl error caught by the pipeline);
//  - a rejected region without an error diagnostic;
//  - replacements that do not apply to the file, or a region counted as
//    rewritten whose launcher the rewritten file does not call once.
// TC_FUZZ_KNOWN=REGEX lets diagnostics of the first kind that match the
// (extended) regular expression pass: known findings, while looking for
// others (e.g. TC_FUZZ_KNOWN="names 'tc_common_").
//
// TC_FUZZ_DEPTH=front stops each region before code generation, which
// takes most of the time (isl's AST generation, several kernels a
// region): the file is parsed once, and each region is extracted,
// modelled in isl, matched to the idiom, and configured for sm_90a and
// sm_80 (the steps of RegionRewriter.cpp's process(), through the
// analysis and transforms headers). An isl exception is a finding there.
//
//===----------------------------------------------------------------------===//
#include "Extraction.h"
#include "FuzzUtil.h"
#include "Hygiene.h"
#include "IslModel.h"
#include "KernelConfig.h"
#include "MatmulIdiom.h"
#include "PragmaHandler.h"
#include "RegionRewriter.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Regex.h"
#include <cstdint>
#include <optional>
#include <set>

namespace {

const char *const Prelude = R"(typedef unsigned long size_t;
typedef signed char int8_t;
typedef unsigned char uint8_t;
struct __half { __half(); __half(float); operator float() const; };
struct __nv_bfloat16 { __nv_bfloat16(); __nv_bfloat16(float); operator float() const; };
typedef __half half;
typedef struct CUstream_st *cudaStream_t;
float __half2float(__half);
__half __float2half(float);
__half __float2half_rn(float);
float __bfloat162float(__nv_bfloat16);
__nv_bfloat16 __float2bfloat16(float);
__nv_bfloat16 __float2bfloat16_rn(float);
__half __hadd(__half, __half);
__half __hmul(__half, __half);
__half __hfma(__half, __half, __half);
__half __hmax(__half, __half);
float fmaxf(float, float);
float fminf(float, float);
float fmaf(float, float, float);
float expf(float);
float tanhf(float);
float erff(float);
float sqrtf(float);
float rsqrtf(float);
float fabsf(float);
float powf(float, float);
float logf(float);
float __expf(float);
float normcdff(float);
double exp(double);
double tanh(double);
double sqrt(double);
double fmax(double, double);
float max(float, float);
float min(float, float);
namespace std {
float max(float, float);
float min(float, float);
float exp(float);
float tanh(float);
float sqrt(float);
} // namespace std
namespace forms {
constexpr int kK64 = 64, kN128 = 128, kK37 = 37, kN45 = 45;
}
void region(int M, int N, int K, int BATCH, int lda, int ldb, int ldc,
            float alpha, float beta, float slope, float lo, float hi,
            const __half *__restrict__ A, const __half *__restrict__ B,
            __half *__restrict__ C, __half *__restrict__ D,
            const __half *__restrict__ R, const float *__restrict__ bias,
            const float *__restrict__ Af, const float *__restrict__ Bf,
            float *__restrict__ Cf, float *__restrict__ T,
            const __nv_bfloat16 *__restrict__ Ab,
            const __nv_bfloat16 *__restrict__ Bb, __nv_bfloat16 *__restrict__ Cb,
            const int8_t *__restrict__ W, const uint8_t *__restrict__ Wu,
            const float *__restrict__ zero, const float *__restrict__ scale,
            float *P, float *Q, cudaStream_t s) {
)";

/// Whether \p Text is a known finding (TC_FUZZ_KNOWN).
bool known(llvm::StringRef Text) {
  static const std::optional<llvm::Regex> Known =
      []() -> std::optional<llvm::Regex> {
    const char *E = std::getenv("TC_FUZZ_KNOWN");
    if (!E || !*E)
      return std::nullopt;
    llvm::Regex R(E);
    std::string Error;
    if (!R.isValid(Error)) {
      llvm::errs() << "tc-fuzz-region: bad TC_FUZZ_KNOWN: " << Error << "\n";
      std::exit(2);
    }
    return R;
  }();
  return Known && Known->match(Text);
}

void runPipeline(const std::string &Code, tc::GpuArch Arch) {
  tc::RewriteOptions Opts;
  Opts.Arch = Arch;
  // One thread: a crash reproduces on the input alone.
  Opts.KernelThreads = 1;
  tc::RewriteActionFactory Factory(Opts);
  tc::fuzz::DiagCollector Diags;
  tc::fuzz::runOnCode(Factory.create(), Code, Diags);
  std::string ArchName = Arch == tc::GpuArch::SM90a ? "sm_90a" : "sm_80";
  auto fail = [&](const std::string &What) {
    tc::fuzz::fail(What + " (" + ArchName + ")", Code);
  };
  // A bug report is asked for in the note after the error that says what.
  for (size_t I = 0; I < Diags.Entries.size(); ++I)
    if (llvm::StringRef(Diags.Entries[I].Text).contains("report this as a bug")) {
      std::string What = I ? Diags.Entries[I - 1].Text : "";
      if (!known(What))
        fail("a diagnostic asks for a bug report: " + What);
    }
  if (Factory.Results.empty())
    return; // no AST (Clang gave up early)
  const tc::FileRewrite &R = Factory.Results.begin()->second;
  if (tc::fuzz::verbose())
    llvm::errs() << ArchName << ": " << R.RegionsRewritten << " rewritten, "
                 << R.RegionsRejected << " rejected"
                 << (R.ParseFailed ? ", parse failed" : "") << "\n";
  if (R.RegionsRejected && !Diags.Errors)
    fail("a region was rejected without an error diagnostic");
  if (R.Source != Code)
    fail("the parsed source is not the input file");
  auto Rewritten = clang::tooling::applyAllReplacements(R.Source, R.Replacements);
  if (!Rewritten)
    fail("replacements do not apply: " + llvm::toString(Rewritten.takeError()));
  if (R.RegionsRewritten && *Rewritten == R.Source)
    fail("regions rewritten but the file is unchanged");
  // Each rewritten region's statement is replaced by a call of its own
  // launcher (the replacement's first line names it).
  for (const tc::RegionOutcome &O : R.Regions) {
    if (!O.Rewritten)
      continue;
    std::string Line = "region computed by " + O.Launcher + " (tc-rewrite)";
    size_t At = Rewritten->find(Line);
    if (At == std::string::npos || Rewritten->find(Line, At + 1) != std::string::npos)
      fail("rewritten region's launcher " + O.Launcher +
           " is not called exactly once");
  }
  if (tc::fuzz::verbose() && R.RegionsRewritten)
    llvm::errs() << *Rewritten << "\n";
}

/// The regions of the main file: each valid pragma and the statement that
/// follows it in a compound statement of a function body (as
/// RegionRewriter.cpp's RegionFinder pairs them).
class FrontEnd : public clang::ASTFrontendAction,
                 public clang::RecursiveASTVisitor<FrontEnd> {
public:
  explicit FrontEnd(const std::string &Code) : Code(Code) {}

  bool TraverseFunctionDecl(clang::FunctionDecl *F) {
    return withFunction(F, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(F); });
  }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl *F) {
    return withFunction(F, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(F); });
  }
  bool VisitCompoundStmt(clang::CompoundStmt *CS) {
    if (!Current || !SM->isWrittenInMainFile(CS->getBeginLoc()))
      return true;
    clang::SourceLocation Prev = CS->getLBracLoc();
    for (clang::Stmt *Child : CS->body()) {
      for (const tc::PragmaRecord &P : Pragmas)
        if (SM->isBeforeInTranslationUnit(Prev, P.Loc) &&
            SM->isBeforeInTranslationUnit(P.Loc, Child->getBeginLoc()) &&
            Found.insert(&P).second && P.Valid)
          region(P, *Child);
      Prev = Child->getEndLoc();
    }
    return true;
  }

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override {
    CI.getPreprocessor().AddPragmaHandler(new tc::TcPragmaHandler(Pragmas));
    struct Consumer : clang::ASTConsumer {
      FrontEnd &F;
      explicit Consumer(FrontEnd &F) : F(F) {}
      void HandleTranslationUnit(clang::ASTContext &Ctx) override { F.run(Ctx); }
    };
    return std::make_unique<Consumer>(*this);
  }

private:
  template <typename Fn> bool withFunction(clang::FunctionDecl *F, Fn Traverse) {
    const clang::FunctionDecl *Saved = Current;
    Current = F;
    bool R = Traverse();
    Current = Saved;
    return R;
  }

  void run(clang::ASTContext &C) {
    Ctx = &C;
    SM = &C.getSourceManager();
    clang::DiagnosticsEngine &D = C.getDiagnostics();
    unsigned ClauseErrors = 0;
    for (const tc::PragmaRecord &P : Pragmas)
      ClauseErrors += !P.Valid;
    if (D.hasFatalErrorOccurred() || D.getNumErrors() > ClauseErrors)
      return; // the tool rewrites nothing in a file that does not parse
    TraverseDecl(C.getTranslationUnitDecl());
  }

  void region(const tc::PragmaRecord &P, const clang::Stmt &S) {
    auto Model = tc::extractRegion(*Ctx, *Current, S, P.Clauses);
    if (!Model) {
      llvm::consumeError(Model.takeError());
      return;
    }
    tc::usePlaceholderNames(*Model);
    try {
      isl::ctx IslCtx = tc::makeIslContext();
      struct Free {
        isl::ctx C;
        ~Free() { isl_ctx_free(C.release()); }
      } Guard{IslCtx};
      auto Assumed = tc::rowAssumptions(IslCtx, *Model);
      if (!Assumed) {
        llvm::consumeError(Assumed.takeError());
        return;
      }
      tc::IslModel I = tc::IslModel::build(IslCtx, *Model, *Assumed);
      (void)tc::explainModel(*Model, I);
      auto Idiom = tc::recognizeMatmul(*Model, I);
      if (!Idiom) {
        llvm::consumeError(Idiom.takeError());
        return;
      }
      for (tc::GpuArch Arch : {tc::GpuArch::SM90a, tc::GpuArch::SM80}) {
        auto Config = tc::chooseKernelConfig(*Model, *Idiom, P.Loc, Arch,
                                             tc::MmaPreference::Auto);
        if (!Config) {
          llvm::consumeError(Config.takeError());
          continue;
        }
        (void)tc::alternativeKernels(*Config, *Model, *Idiom);
      }
    } catch (const isl::exception &E) {
      tc::fuzz::fail(std::string("isl failed on a region: ") + E.what(), Code);
    }
  }

  const std::string &Code;
  std::vector<tc::PragmaRecord> Pragmas;
  std::set<const tc::PragmaRecord *> Found;
  clang::ASTContext *Ctx = nullptr;
  clang::SourceManager *SM = nullptr;
  const clang::FunctionDecl *Current = nullptr;
};

bool frontOnly() {
  static const bool V = [] {
    const char *E = std::getenv("TC_FUZZ_DEPTH");
    return E && llvm::StringRef(E) == "front";
  }();
  return V;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef In(reinterpret_cast<const char *>(Data), Size);
  // Without a pragma nothing of ours runs: keep such inputs out of the
  // corpus (they would only exercise Clang).
  if (!In.contains("pragma") && !In.contains("_Pragma"))
    return -1;
  std::string Code = std::string(Prelude) + In.str() + "\n}\n";
  if (frontOnly()) {
    tc::fuzz::DiagCollector Diags;
    tc::fuzz::runOnCode(std::make_unique<FrontEnd>(Code), Code, Diags);
    return 0;
  }
  runPipeline(Code, tc::GpuArch::SM90a);
  runPipeline(Code, tc::GpuArch::SM80);
  return 0;
}
