//===- RegionRewriter.cpp -------------------------------------------------===//
#include "RegionRewriter.h"
#include "IslModel.h"
#include "Extraction.h"
#include "KernelEmitter.h"
#include "MatmulIdiom.h"
#include "PragmaHandler.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace tc {
namespace {

/// Remembers where the main file's last #include ends, for our own.
class IncludeTracker : public PPCallbacks {
public:
  IncludeTracker(SourceManager &SM, SourceLocation &Last) : SM(SM), Last(Last) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef,
                          bool, CharSourceRange FilenameRange, OptionalFileEntryRef,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (SM.isWrittenInMainFile(HashLoc))
      Last = FilenameRange.getEnd();
  }

private:
  SourceManager &SM;
  SourceLocation &Last;
};

struct Region {
  const PragmaRecord *Pragma;
  const Stmt *S;
  const FunctionDecl *F;
};

/// Finds, for each pragma, the statement that follows it in a function body.
class RegionFinder : public RecursiveASTVisitor<RegionFinder> {
public:
  RegionFinder(SourceManager &SM, const std::vector<PragmaRecord> &Pragmas)
      : SM(SM), Pragmas(Pragmas) {}

  bool TraverseFunctionDecl(FunctionDecl *F) {
    const FunctionDecl *Saved = Current;
    Current = F;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(F);
    Current = Saved;
    return R;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *F) {
    const FunctionDecl *Saved = Current;
    Current = F;
    bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(F);
    Current = Saved;
    return R;
  }

  bool VisitCompoundStmt(CompoundStmt *CS) {
    if (!Current || !SM.isWrittenInMainFile(CS->getBeginLoc()))
      return true;
    SourceLocation Prev = CS->getLBracLoc();
    for (Stmt *Child : CS->body()) {
      for (const PragmaRecord &P : Pragmas)
        if (SM.isBeforeInTranslationUnit(Prev, P.Loc) &&
            SM.isBeforeInTranslationUnit(P.Loc, Child->getBeginLoc()) &&
            !Found.count(&P)) {
          Found.insert(&P);
          Regions.push_back({&P, Child, Current});
        }
      Prev = Child->getEndLoc();
    }
    return true;
  }

  std::vector<Region> Regions;
  std::set<const PragmaRecord *> Found;

private:
  SourceManager &SM;
  const std::vector<PragmaRecord> &Pragmas;
  const FunctionDecl *Current = nullptr;
};

/// If \p E asks for __restrict__ on a pointer parameter of \p F declared
/// at the error's location, the insertion that adds it.
std::optional<FixItHint> restrictFixIt(const FunctionDecl &F,
                                       const RegionError &E) {
  if (E.Note.find("__restrict__") == std::string::npos || !E.Loc.isValid() ||
      !E.Loc.isFileID())
    return std::nullopt;
  for (const ParmVarDecl *P : F.parameters()) {
    if (P->getLocation() != E.Loc || !P->getTypeSourceInfo())
      continue;
    QualType T = P->getType();
    if (!T->isPointerType() || T.isRestrictQualified() ||
        !P->getTypeSourceInfo()->getTypeLoc().getAs<PointerTypeLoc>())
      return std::nullopt;
    return FixItHint::CreateInsertion(E.Loc, "__restrict__ ");
  }
  return std::nullopt;
}

SourceLocation lineStart(SourceManager &SM, SourceLocation L) {
  auto [FID, Off] = SM.getDecomposedLoc(L);
  unsigned Line = SM.getLineNumber(FID, Off);
  return SM.translateLineCol(FID, Line, 1);
}

SourceLocation lineEnd(SourceManager &SM, SourceLocation L) {
  auto [FID, Off] = SM.getDecomposedLoc(L);
  llvm::StringRef Buf = SM.getBufferData(FID);
  size_t NL = Buf.find('\n', Off);
  return SM.getLocForStartOfFile(FID).getLocWithOffset(
      NL == llvm::StringRef::npos ? Buf.size() : NL);
}

std::string mainPath(SourceManager &SM) {
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID());
  return FE ? FE->getName().str() : "";
}

void add(tooling::Replacements &Into, const tooling::Replacement &R) {
  if (auto Err = Into.add(R))
    llvm::consumeError(std::move(Err)); // overlapping regions cannot occur
}

} // namespace

struct TranslationUnitRewriter::State {
  std::vector<PragmaRecord> Pragmas;
  SourceLocation LastInclude;
};

TranslationUnitRewriter::TranslationUnitRewriter(RewriteOptions Opts)
    : Opts(Opts), S(std::make_unique<State>()) {}
TranslationUnitRewriter::~TranslationUnitRewriter() = default;

void TranslationUnitRewriter::registerPreprocessorHooks(Preprocessor &PP) {
  PP.AddPragmaHandler(new TcPragmaHandler(S->Pragmas));
  PP.addPPCallbacks(
      std::make_unique<IncludeTracker>(PP.getSourceManager(), S->LastInclude));
}

namespace {

/// The pipeline on one region: model, idiom, configuration, code.
llvm::Expected<GeneratedRegion> process(ASTContext &Ctx, const Region &R,
                                        const std::string &Name,
                                        const std::string &Where,
                                        const RewriteOptions &Opts,
                                        std::string &Explain) {
  auto Model = extractRegion(Ctx, *R.F, *R.S, R.Pragma->Clauses);
  if (!Model)
    return Model.takeError();
  try {
    isl::ctx IslCtx = makeIslContext();
    // Free the isl context when done: all isl objects live in this scope.
    struct Free {
      isl::ctx C;
      ~Free() { isl_ctx_free(C.release()); }
    } Guard{IslCtx};
    llvm::Expected<GeneratedRegion> G = [&]() -> llvm::Expected<GeneratedRegion> {
      auto Assumed = rowAssumptions(IslCtx, *Model);
      if (!Assumed)
        return Assumed.takeError();
      IslModel I = IslModel::build(IslCtx, *Model, *Assumed);
      std::string Text = "region " + Name + " at " + Where + "\n" +
                         explainModel(*Model, I);
      auto Idiom = recognizeMatmul(*Model, I);
      if (!Idiom) {
        Explain += Text;
        return Idiom.takeError();
      }
      auto Config = chooseKernelConfig(*Model, *Idiom, R.Pragma->Loc, Opts.Arch, Opts.Mma);
      if (!Config) {
        Explain += Text;
        return Config.takeError();
      }
      auto Gen = generateRegion(*Model, *Idiom, I, *Config, Name, Where,
                                alternativeKernels(*Config, *Model, *Idiom));
      if (Gen)
        Text += Gen->Explain;
      Explain += Text;
      return Gen;
    }();
    return G;
  } catch (const isl::exception &E) {
    return regionError(R.S->getBeginLoc(),
                       std::string("isl failed on this region: ") + E.what(),
                       "please report this as a bug");
  }
}

tooling::Replacement regionReplacement(SourceManager &SM,
                                       const LangOptions &LangOpts,
                                       const Region &R,
                                       const GeneratedRegion &G) {
  SourceLocation Begin = lineStart(SM, SM.getExpansionLoc(R.Pragma->Loc));
  SourceLocation End = Lexer::getLocForEndOfToken(
      SM.getExpansionLoc(R.S->getEndLoc()), 0, SM, LangOpts);
  // A loop whose body is an expression statement ends before that
  // statement's ';': the replacement takes the ';' too.
  if (!isa<CompoundStmt>(R.S))
    if (std::optional<Token> Next = Lexer::findNextToken(
            SM.getExpansionLoc(R.S->getEndLoc()), SM, LangOpts);
        Next && Next->is(tok::semi))
      End = Next->getEndLoc();
  unsigned Column = SM.getExpansionColumnNumber(R.S->getBeginLoc());
  std::string Pad(Column > 0 ? Column - 1 : 0, ' ');
  std::string Text = Pad + "// '#pragma tc' region computed by " +
                     G.Call.substr(0, G.Call.find('(')) + " (tc-rewrite)\n" +
                     Pad + G.Call;
  unsigned Len = SM.getFileOffset(End) - SM.getFileOffset(Begin);
  return tooling::Replacement(SM, Begin, Len, Text);
}

} // namespace

FileRewrite TranslationUnitRewriter::run(ASTContext &Ctx,
                                         const DiagnosticSink &Report) {
  SourceManager &SM = Ctx.getSourceManager();
  DiagnosticsEngine &D = Ctx.getDiagnostics();
  std::vector<PragmaRecord> &Pragmas = S->Pragmas;
  FileRewrite Result;
  Result.Path = mainPath(SM);
  Result.Source = SM.getBufferData(SM.getMainFileID()).str();
  // Never rewrite a file we could not parse completely. A malformed clause
  // is an error too, but only of its own pragma (one error each): that
  // region stays as written and the others are still rewritten.
  unsigned ClauseErrors = 0;
  for (const PragmaRecord &P : Pragmas)
    ClauseErrors += !P.Valid;
  if (D.hasFatalErrorOccurred() ||
      (D.hasErrorOccurred() && D.getNumErrors() > ClauseErrors)) {
    Result.ParseFailed = true;
    return Result;
  }
  auto error = [&](SourceLocation Loc, std::string Message) {
    Report({Loc, std::move(Message), /*IsNote=*/false, std::nullopt});
  };
  auto note = [&](SourceLocation Loc, std::string Message,
                  std::optional<FixItHint> FixIt = std::nullopt) {
    Report({Loc, std::move(Message), /*IsNote=*/true, std::move(FixIt)});
  };
  auto outcome = [&](const PragmaRecord &P) {
    RegionOutcome O;
    O.PragmaOffset = SM.getFileOffset(SM.getExpansionLoc(P.Loc));
    return O;
  };

  RegionFinder Finder(SM, Pragmas);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::vector<RegionOutcome> Outcomes;
  for (const PragmaRecord &P : Pragmas)
    if (P.Valid && !Finder.Found.count(&P) && SM.isWrittenInMainFile(P.Loc)) {
      error(P.Loc, "'#pragma tc' does not precede a statement in a function body");
      note(P.Loc, "place it directly before a 'for' loop nest or a '{ }' block of nests");
      Result.RegionsRejected++;
      Outcomes.push_back(outcome(P));
    }
  std::map<const FunctionDecl *, std::string> Definitions;
  std::map<std::string, unsigned> Counter;
  for (const Region &R : Finder.Regions) {
    RegionOutcome O = outcome(*R.Pragma);
    if (!R.Pragma->Valid) {
      Result.RegionsRejected++;
      Outcomes.push_back(std::move(O));
      continue;
    }
    std::string Name = "tc_" + R.F->getNameAsString() + "_" +
                       std::to_string(Counter[R.F->getNameAsString()]++);
    PresumedLoc PL = SM.getPresumedLoc(R.Pragma->Loc);
    std::string Where = llvm::sys::path::filename(PL.getFilename()).str() +
                        ":" + std::to_string(PL.getLine());
    auto Gen = process(Ctx, R, Name, Where, Opts, Result.Explain);
    if (!Gen) {
      llvm::handleAllErrors(Gen.takeError(), [&](const RegionError &E) {
        SourceLocation Loc = E.Loc.isValid() ? E.Loc : R.S->getBeginLoc();
        error(Loc, E.Message);
        if (!E.Note.empty())
          note(Loc, E.Note, restrictFixIt(*R.F, E));
      });
      Result.RegionsRejected++;
      Outcomes.push_back(std::move(O));
      continue;
    }
    if (R.F->getDeclContext()->isRecord()) {
      error(R.Pragma->Loc, "'#pragma tc' in a member function defined inside its class");
      note(R.Pragma->Loc, "define the function outside the class body");
      Result.RegionsRejected++;
      Outcomes.push_back(std::move(O));
      continue;
    }
    Definitions[R.F] += Gen->Definitions;
    add(Result.Replacements, regionReplacement(SM, Ctx.getLangOpts(), R, *Gen));
    O.Rewritten = true;
    O.Launcher = Gen->Call.substr(0, Gen->Call.find('('));
    Outcomes.push_back(std::move(O));
    Result.RegionsRewritten++;
  }
  // Without an #include of its own the file gets ours at its start, where a
  // function's definitions may be inserted too: one insertion carries both.
  bool IncludeInDefinitions = false;
  for (auto &[F, Text] : Definitions) {
    SourceLocation Begin = lineStart(SM, SM.getExpansionLoc(F->getOuterLocStart()));
    if (!S->LastInclude.isValid() && SM.getFileOffset(Begin) == 0) {
      Text = "#include <tc/tc.cuh>\n\n" + Text;
      IncludeInDefinitions = true;
    }
    add(Result.Replacements, tooling::Replacement(SM, Begin, 0, Text));
  }
  if (Result.RegionsRewritten && !IncludeInDefinitions) {
    if (S->LastInclude.isValid()) {
      SourceLocation End = lineEnd(SM, S->LastInclude);
      add(Result.Replacements,
          tooling::Replacement(SM, End, 0, "\n#include <tc/tc.cuh>"));
    } else {
      add(Result.Replacements,
          tooling::Replacement(SM, SM.getLocForStartOfFile(SM.getMainFileID()),
                               0, "#include <tc/tc.cuh>\n"));
    }
  }
  for (RegionOutcome &O : Outcomes)
    Result.Regions.push_back(std::move(O));
  llvm::sort(Result.Regions, [](const RegionOutcome &A, const RegionOutcome &B) {
    return A.PragmaOffset < B.PragmaOffset;
  });
  return Result;
}

DiagnosticSink engineSink(DiagnosticsEngine &D, bool ErrorsAsWarnings) {
  unsigned ErrID = D.getCustomDiagID(ErrorsAsWarnings ? DiagnosticsEngine::Warning
                                                      : DiagnosticsEngine::Error,
                                     "%0");
  unsigned NoteID = D.getCustomDiagID(DiagnosticsEngine::Note, "%0");
  return [&D, ErrID, NoteID](const RegionDiagnostic &RD) {
    auto B = D.Report(RD.Loc, RD.IsNote ? NoteID : ErrID);
    B << RD.Message;
    if (RD.FixIt)
      B << *RD.FixIt;
  };
}

namespace {

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(RewriteActionFactory &Factory, TranslationUnitRewriter &TU)
      : Factory(Factory), TU(TU) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    FileRewrite R = TU.run(
        Ctx, engineSink(Ctx.getDiagnostics(), Factory.Opts.ErrorsAsWarnings));
    std::lock_guard<std::mutex> G(Factory.Lock);
    std::string Path = R.Path;
    Factory.Results[Path] = std::move(R);
  }

private:
  RewriteActionFactory &Factory;
  TranslationUnitRewriter &TU;
};

class RewriteAction : public ASTFrontendAction {
public:
  explicit RewriteAction(RewriteActionFactory &F) : Factory(F), TU(F.Opts) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    TU.registerPreprocessorHooks(CI.getPreprocessor());
    return std::make_unique<RewriteConsumer>(Factory, TU);
  }

private:
  RewriteActionFactory &Factory;
  TranslationUnitRewriter TU;
};

} // namespace

std::unique_ptr<FrontendAction> RewriteActionFactory::create() {
  return std::make_unique<RewriteAction>(*this);
}

} // namespace tc
