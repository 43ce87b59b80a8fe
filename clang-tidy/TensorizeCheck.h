//===- TensorizeCheck.h - clang-tidy check tc-tensorize -------------------===//
//
// Runs tc-rewrite's pipeline (rewrite/RegionRewriter) on the translation
// unit clang-tidy parses, and reports each `#pragma tc` region of the main
// file:
//  - a region that can be rewritten: a warning at the pragma, "region can be
//    rewritten into a tensor-core kernel". The first such region of the file
//    carries the whole rewrite as fix-its (every region's replacement, the
//    kernel definitions, the runtime include), so that `clang-tidy -fix`
//    gives exactly the `tc-rewrite -o` output; the others carry a note
//    pointing to it. (clang-tidy applies all fix-its of all diagnostics:
//    shared insertions repeated on each region would be inserted several
//    times, and repeated replacements would cancel each other's fixes.)
//  - a region that cannot: the tool's error and note (warnings with
//    WarnOnly).
// Options: Arch (sm_90a, default; sm_80, sm_86, sm_89), WarnOnly (false).
//
//===----------------------------------------------------------------------===//
#ifndef TC_CLANG_TIDY_TENSORIZECHECK_H
#define TC_CLANG_TIDY_TENSORIZECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "RegionRewriter.h"
#include <memory>

namespace tc::tidy {

class TensorizeCheck : public clang::tidy::ClangTidyCheck {
public:
  TensorizeCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  std::string ArchName;
  bool WarnOnly = false;
  std::unique_ptr<TranslationUnitRewriter> Rewriter;
};

} // namespace tc::tidy

#endif
