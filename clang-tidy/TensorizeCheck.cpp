//===- TensorizeCheck.cpp -------------------------------------------------===//
#include "TensorizeCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;

namespace tc::tidy {

TensorizeCheck::TensorizeCheck(StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), ArchName(Options.get("Arch", "sm_90a")) {
  // Options.get<bool> is a template that clang-tidy (built by Clang) exports
  // under a mangled name GCC does not produce: read the string instead.
  StringRef W = Options.get("WarnOnly", "false");
  WarnOnly = W.equals_insensitive("true") || W == "1";
}

void TensorizeCheck::storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Arch", ArchName);
  Options.store(Opts, "WarnOnly", WarnOnly ? "true" : "false");
}

void TensorizeCheck::registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                                         Preprocessor *) {
  RewriteOptions Opts;
  if (auto A = parseArch(ArchName))
    Opts.Arch = *A;
  else
    configurationDiag("invalid Arch '%0' for tc-tensorize (sm_90a, sm_80, "
                      "sm_86, sm_89); using sm_90a")
        << ArchName;
  Opts.ErrorsAsWarnings = WarnOnly;
  Rewriter = std::make_unique<TranslationUnitRewriter>(Opts);
  Rewriter->registerPreprocessorHooks(*PP);
}

void TensorizeCheck::registerMatchers(MatchFinder *Finder) {
  // The pipeline runs once, on the whole translation unit.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void TensorizeCheck::check(const MatchFinder::MatchResult &Result) {
  if (!Rewriter || !Result.Nodes.getNodeAs<TranslationUnitDecl>("tu"))
    return;
  ASTContext &Ctx = *Result.Context;
  SourceManager &SM = Ctx.getSourceManager();
  DiagnosticIDs::Level Severity = WarnOnly ? DiagnosticIDs::Warning : DiagnosticIDs::Error;
  FileRewrite R = Rewriter->run(Ctx, [&](const RegionDiagnostic &D) {
    auto B = diag(D.Loc, D.Message, D.IsNote ? DiagnosticIDs::Note : Severity);
    if (D.FixIt)
      B << *D.FixIt;
  });
  Rewriter.reset();
  if (R.ParseFailed)
    return;

  // clang-tidy applies every fix-it of every diagnostic: equal insertions
  // from several diagnostics would all be applied, and equal replacements
  // would conflict. So the first rewritten region carries the rewrite of the
  // whole file, and the others point to it.
  SourceLocation FileStart = SM.getLocForStartOfFile(SM.getMainFileID());
  std::optional<SourceLocation> First;
  for (const RegionOutcome &O : R.Regions) {
    if (!O.Rewritten)
      continue;
    SourceLocation Loc = FileStart.getLocWithOffset(O.PragmaOffset);
    {
      auto B = diag(Loc, "region can be rewritten into a tensor-core kernel");
      if (!First)
        for (const tooling::Replacement &Repl : R.Replacements) {
          SourceLocation Begin = FileStart.getLocWithOffset(Repl.getOffset());
          if (Repl.getLength() == 0)
            B << FixItHint::CreateInsertion(Begin, Repl.getReplacementText());
          else
            B << FixItHint::CreateReplacement(
                CharSourceRange::getCharRange(
                    Begin, Begin.getLocWithOffset(Repl.getLength())),
                Repl.getReplacementText());
        }
    }
    if (First)
      diag(*First, "rewritten by the fix of this region, which rewrites the "
                   "whole file",
           DiagnosticIDs::Note);
    else
      First = Loc;
  }
}

} // namespace tc::tidy
