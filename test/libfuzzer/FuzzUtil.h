//===- FuzzUtil.h - run a Clang action on in-memory code, for fuzzing -----===//
//
// Shared by the libFuzzer targets of this directory. The code is parsed as
// C++17 from an in-memory file system that holds nothing else: a fuzzed
// `#include` finds nothing (never /dev/zero), and nothing is read from
// disk. Clang's `#pragma clang __debug crash` and its kin are disabled.
//
// A finding is reported through tcFuzzFail, which prints the input and
// aborts, so that libFuzzer saves it as crash-*.
//
// Environment (reproducing by hand: build-fuzz/bin/tc-fuzz-region FILE):
//   TC_FUZZ_VERBOSE=1   print the compiler's diagnostics and what was found
//
//===----------------------------------------------------------------------===//
#ifndef TC_TEST_LIBFUZZER_FUZZUTIL_H
#define TC_TEST_LIBFUZZER_FUZZUTIL_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace tc {
namespace fuzz {

inline bool verbose() {
  static const bool V = [] {
    const char *E = std::getenv("TC_FUZZ_VERBOSE");
    return E && *E && *E != '0';
  }();
  return V;
}

/// The path of the in-memory main file (its name shows in diagnostics).
inline const char *MainFile = "/fuzz/input.cc";

/// Counts the diagnostics by level and keeps their text; prints them too
/// under TC_FUZZ_VERBOSE.
class DiagCollector : public clang::DiagnosticConsumer {
public:
  struct Entry {
    clang::DiagnosticsEngine::Level Level;
    std::string Text;
  };
  std::vector<Entry> Entries;
  unsigned Errors = 0;

  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override {
    if (Printer)
      Printer->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override {
    if (Printer)
      Printer->EndSourceFile();
  }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    Entries.push_back({Level, std::string(Text)});
    if (Level >= clang::DiagnosticsEngine::Error)
      ++Errors;
    if (Printer)
      Printer->HandleDiagnostic(Level, Info);
  }

  DiagCollector() {
    if (verbose())
      Printer = std::make_unique<clang::TextDiagnosticPrinter>(llvm::errs(), Opts);
  }

private:
  clang::DiagnosticOptions Opts;
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
};

/// Keeps the compiler's "N errors generated." out of the fuzzer's output.
class QuietAction : public clang::WrapperFrontendAction {
public:
  using WrapperFrontendAction::WrapperFrontendAction;

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.setVerboseOutputStream(std::make_unique<llvm::raw_null_ostream>());
    return WrapperFrontendAction::BeginInvocation(CI);
  }
};

/// Runs \p Action on \p Code (C++17, the only file there is). Returns
/// whether Clang reported no error.
inline bool runOnCode(std::unique_ptr<clang::FrontendAction> Action,
                      llvm::StringRef Code, DiagCollector &Diags) {
  if (!verbose())
    Action = std::make_unique<QuietAction>(std::move(Action));
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  FS->setCurrentWorkingDirectory("/fuzz");
  FS->addFile(MainFile, 0, llvm::MemoryBuffer::getMemBufferCopy(Code, MainFile));
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(), FS);
  std::vector<std::string> Args = {
      "tc-fuzz", "-fsyntax-only", "-xc++", "-std=c++17", "-nostdinc",
      "-nostdinc++", "-Wno-unused-value",
      // `#pragma clang __debug crash` (and llvm_fatal_error, overflow_stack,
      // ...) would stop the run on purpose: not a finding of ours.
      "-Xclang", "-disable-pragma-debug-crash",
      // Deep nesting is Clang's own limit; keep its stack use bounded.
      "-fbracket-depth=64", "-ftemplate-depth=64", "-fconstexpr-depth=64",
      "-ferror-limit=0", MainFile};
  clang::tooling::ToolInvocation Inv(Args, std::move(Action), Files.get());
  Inv.setDiagnosticConsumer(&Diags);
  return Inv.run();
}

/// Prints \p What and the input, and aborts (libFuzzer saves the input).
[[noreturn]] inline void fail(const std::string &What, llvm::StringRef Code) {
  llvm::errs() << "==tc-fuzz== FINDING: " << What << "\n==tc-fuzz== input:\n"
               << Code << "\n==tc-fuzz== end of input\n";
  llvm::errs().flush();
  std::abort();
}

} // namespace fuzz
} // namespace tc

#endif
