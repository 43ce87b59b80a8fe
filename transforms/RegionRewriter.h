//===- RegionRewriter.h - `#pragma tc` regions -> clang Replacements ------===//
//
// The front-end action of the tool: registers the pragma handler, finds
// the statement each pragma annotates, runs the pipeline on it, and turns
// the generated code into Replacements of the main file. A region that
// cannot be rewritten gets a diagnostic and no replacement.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_REGIONREWRITER_H
#define TC_TRANSFORMS_REGIONREWRITER_H

#include "KernelConfig.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include <map>
#include <memory>
#include <mutex>

namespace tc {

struct RewriteOptions {
  GpuArch Arch = GpuArch::SM90a;
  bool Explain = false;           // print models and schedules
  bool ErrorsAsWarnings = false;  // pre-build use: never fail the build
};

/// What happened to one file.
struct FileRewrite {
  std::string Path;
  clang::tooling::Replacements Replacements;
  unsigned RegionsRewritten = 0;
  unsigned RegionsRejected = 0;
  bool ParseFailed = false;
  std::string Explain;
};

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
