//===- RegionRewriter.h - `#pragma tc` regions -> clang Replacements ------===//
//
// The per-translation-unit driver of the pipeline: registers the pragma
// handler, finds the statement each pragma annotates, runs the pipeline on
// it, and turns the generated code into Replacements of the main file. A
// region that cannot be rewritten gets a diagnostic and no replacement.
//
// Two front ends use it:
//  - the tool, through RewriteActionFactory (a clang FrontendAction that
//    reports through the compiler's DiagnosticsEngine);
//  - the clang-tidy check `tc-tensorize` (clang-tidy/), which drives a
//    TranslationUnitRewriter itself and reports through clang-tidy.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_REGIONREWRITER_H
#define TC_TRANSFORMS_REGIONREWRITER_H

#include "KernelConfig.h"
#include "TuningDatabase.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/FrontendAction.h"
#include "LineDirectives.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace clang {
class ASTContext;
class Preprocessor;
} // namespace clang

namespace tc {

struct RewriteOptions {
  GpuArch Arch = GpuArch::SM90a;
  /// The main loop's instruction family where the region does not say
  /// (its mma clause): Auto takes wgmma wherever sm_90a and the region
  /// allow it.
  MmaPreference Mma = MmaPreference::Auto;
  bool Explain = false;           // print models and schedules
  bool ErrorsAsWarnings = false;  // pre-build use: never fail the build
  /// Threads that generate a region's kernels at once (0: one per core).
  unsigned KernelThreads = 0;
  /// Measured kernel choices (--tuning-db), or none.
  std::shared_ptr<const TuningDatabase> Tuning;
};

/// One `#pragma tc` of the main file and what became of it.
struct RegionOutcome {
  unsigned PragmaOffset = 0; // offset of the pragma's `#` in the main file
  bool Rewritten = false;
  std::string Launcher;      // e.g. "tc_gemm_0_launch" (rewritten regions)
};

/// What happened to one file.
struct FileRewrite {
  std::string Path;
  clang::tooling::Replacements Replacements;
  unsigned RegionsRewritten = 0;
  unsigned RegionsRejected = 0;
  bool ParseFailed = false;
  std::string Explain;
  std::string Source; // the main file's text as parsed (Replacements apply to it)
  /// The headers it includes that are not system headers (absolute
  /// paths): the rewrite depends on them too (--dependency-file).
  std::vector<std::string> Headers;
  std::vector<RegionOutcome> Regions; // in source order
  /// Where the source's own `#line` directives give its lines other
  /// numbers or another file (LineDirectives.h).
  std::vector<PresumedLines> LineMap;
};

/// A diagnostic about a region: an error (a warning under
/// ErrorsAsWarnings) or a note attached to the previous one.
struct RegionDiagnostic {
  clang::SourceLocation Loc;
  std::string Message;
  bool IsNote = false;
  std::optional<clang::FixItHint> FixIt;
};
using DiagnosticSink = std::function<void(const RegionDiagnostic &)>;

/// The pipeline on one translation unit. Call registerPreprocessorHooks
/// before parsing and run() once the AST is complete; the object must
/// outlive the parse.
class TranslationUnitRewriter {
public:
  explicit TranslationUnitRewriter(RewriteOptions Opts);
  ~TranslationUnitRewriter();
  TranslationUnitRewriter(const TranslationUnitRewriter &) = delete;
  TranslationUnitRewriter &operator=(const TranslationUnitRewriter &) = delete;

  /// Registers the `#pragma tc` handler and the include tracker.
  void registerPreprocessorHooks(clang::Preprocessor &PP);
  /// Rewrites every region of the main file; reports rejected ones.
  FileRewrite run(clang::ASTContext &Ctx, const DiagnosticSink &Report);

  const RewriteOptions &options() const { return Opts; }

private:
  struct State;
  RewriteOptions Opts;
  std::unique_ptr<State> S;
};

/// Reports region diagnostics through a DiagnosticsEngine (errors, or
/// warnings under ErrorsAsWarnings).
DiagnosticSink engineSink(clang::DiagnosticsEngine &D, bool ErrorsAsWarnings);

class RewriteActionFactory : public clang::tooling::FrontendActionFactory {
public:
  explicit RewriteActionFactory(RewriteOptions Opts) : Opts(Opts) {}
  std::unique_ptr<clang::FrontendAction> create() override;
  /// Results by absolute path of the main file.
  std::map<std::string, FileRewrite> Results;
  std::mutex Lock;
  RewriteOptions Opts;
};

} // namespace tc

#endif
