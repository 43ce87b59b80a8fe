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

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(CompilerInstance &CI, RewriteActionFactory &Factory,
                  std::vector<PragmaRecord> &Pragmas, SourceLocation &LastInclude)
      : CI(CI), Factory(Factory), Pragmas(Pragmas), LastInclude(LastInclude) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    SourceManager &SM = Ctx.getSourceManager();
    DiagnosticsEngine &D = Ctx.getDiagnostics();
    FileRewrite Result;
    Result.Path = mainPath(SM);
    if (D.hasErrorOccurred()) {
      // Never rewrite a file we could not parse completely.
      Result.ParseFailed = true;
      store(std::move(Result));
      return;
    }
    RegionFinder Finder(SM, Pragmas);
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
    DiagnosticsEngine::Level Severity = Factory.Opts.ErrorsAsWarnings
                                            ? DiagnosticsEngine::Warning
                                            : DiagnosticsEngine::Error;
    unsigned ErrID = D.getCustomDiagID(Severity, "%0");
    unsigned NoteID = D.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    for (const PragmaRecord &P : Pragmas)
      if (P.Valid && !Finder.Found.count(&P) && SM.isWrittenInMainFile(P.Loc)) {
        D.Report(P.Loc, ErrID) << "'#pragma tc' does not precede a statement "
                                  "in a function body";
        D.Report(P.Loc, NoteID) << "place it directly before a 'for' loop nest "
                                   "or a '{ }' block of nests";
        Result.RegionsRejected++;
      }
    std::map<const FunctionDecl *, std::string> Definitions;
    std::map<std::string, unsigned> Counter;
    for (const Region &R : Finder.Regions) {
      if (!R.Pragma->Valid) {
        Result.RegionsRejected++;
        continue;
      }
      std::string Name = "tc_" + R.F->getNameAsString() + "_" +
                         std::to_string(Counter[R.F->getNameAsString()]++);
      PresumedLoc PL = SM.getPresumedLoc(R.Pragma->Loc);
      std::string Where = llvm::sys::path::filename(PL.getFilename()).str() +
                          ":" + std::to_string(PL.getLine());
      auto Gen = process(Ctx, R, Name, Where, Result.Explain);
      if (!Gen) {
        llvm::handleAllErrors(Gen.takeError(), [&](const RegionError &E) {
          D.Report(E.Loc.isValid() ? E.Loc : R.S->getBeginLoc(), ErrID)
              << E.Message;
          if (!E.Note.empty())
            D.Report(E.Loc.isValid() ? E.Loc : R.S->getBeginLoc(), NoteID)
                << E.Note;
        });
        Result.RegionsRejected++;
        continue;
      }
      if (R.F->getDeclContext()->isRecord()) {
        D.Report(R.Pragma->Loc, ErrID)
            << "'#pragma tc' in a member function defined inside its class";
        D.Report(R.Pragma->Loc, NoteID)
            << "define the function outside the class body";
        Result.RegionsRejected++;
        continue;
      }
      Definitions[R.F] += Gen->Definitions;
      replaceRegion(SM, R, *Gen, Result);
      Result.RegionsRewritten++;
    }
    for (auto &[F, Text] : Definitions) {
      SourceLocation Begin = lineStart(SM, SM.getExpansionLoc(F->getOuterLocStart()));
      add(Result, tooling::Replacement(SM, Begin, 0, Text));
    }
    if (Result.RegionsRewritten) {
      if (LastInclude.isValid()) {
        SourceLocation End = lineEnd(SM, LastInclude);
        add(Result, tooling::Replacement(SM, End, 0, "\n#include <tc/tc.cuh>"));
      } else {
        add(Result, tooling::Replacement(
                        SM, SM.getLocForStartOfFile(SM.getMainFileID()), 0,
                        "#include <tc/tc.cuh>\n"));
      }
    }
    store(std::move(Result));
  }

private:
  llvm::Expected<GeneratedRegion> process(ASTContext &Ctx, const Region &R,
                                          const std::string &Name,
                                          const std::string &Where,
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
        auto Config = chooseKernelConfig(*Model, *Idiom, R.Pragma->Loc,
                                         Factory.Opts.Arch);
        if (!Config) {
          Explain += Text;
          return Config.takeError();
        }
        auto Gen = generateRegion(*Model, *Idiom, I, *Config, Name, Where);
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

  void replaceRegion(SourceManager &SM, const Region &R, const GeneratedRegion &G,
                     FileRewrite &Result) {
    SourceLocation Begin = lineStart(SM, SM.getExpansionLoc(R.Pragma->Loc));
    SourceLocation End = Lexer::getLocForEndOfToken(
        SM.getExpansionLoc(R.S->getEndLoc()), 0, SM, CI.getLangOpts());
    unsigned Column = SM.getExpansionColumnNumber(R.S->getBeginLoc());
    std::string Pad(Column > 0 ? Column - 1 : 0, ' ');
    std::string Text = Pad + "// '#pragma tc' region computed by " + G.Call.substr(0, G.Call.find('(')) +
                       " (tc-rewrite)\n" + Pad + G.Call;
    unsigned Len = SM.getFileOffset(End) - SM.getFileOffset(Begin);
    add(Result, tooling::Replacement(SM, Begin, Len, Text));
  }

  static SourceLocation lineStart(SourceManager &SM, SourceLocation L) {
    auto [FID, Off] = SM.getDecomposedLoc(L);
    unsigned Line = SM.getLineNumber(FID, Off);
    return SM.translateLineCol(FID, Line, 1);
  }
  static SourceLocation lineEnd(SourceManager &SM, SourceLocation L) {
    auto [FID, Off] = SM.getDecomposedLoc(L);
    llvm::StringRef Buf = SM.getBufferData(FID);
    size_t NL = Buf.find('\n', Off);
    return SM.getLocForStartOfFile(FID).getLocWithOffset(
        NL == llvm::StringRef::npos ? Buf.size() : NL);
  }
  static std::string mainPath(SourceManager &SM) {
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID());
    return FE ? FE->getName().str() : "";
  }
  void add(FileRewrite &Result, const tooling::Replacement &R) {
    if (auto Err = Result.Replacements.add(R))
      llvm::consumeError(std::move(Err)); // overlapping regions cannot occur
  }
  void store(FileRewrite R) {
    std::lock_guard<std::mutex> G(Factory.Lock);
    Factory.Results[R.Path] = std::move(R);
  }

  CompilerInstance &CI;
  RewriteActionFactory &Factory;
  std::vector<PragmaRecord> &Pragmas;
  SourceLocation &LastInclude;
};

class RewriteAction : public ASTFrontendAction {
public:
  explicit RewriteAction(RewriteActionFactory &F) : Factory(F) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    Preprocessor &PP = CI.getPreprocessor();
    PP.AddPragmaHandler(new TcPragmaHandler(Pragmas));
    PP.addPPCallbacks(std::make_unique<IncludeTracker>(CI.getSourceManager(),
                                                       LastInclude));
    return std::make_unique<RewriteConsumer>(CI, Factory, Pragmas, LastInclude);
  }

private:
  RewriteActionFactory &Factory;
  std::vector<PragmaRecord> Pragmas;
  SourceLocation LastInclude;
};

} // namespace

std::unique_ptr<FrontendAction> RewriteActionFactory::create() {
  return std::make_unique<RewriteAction>(*this);
}

} // namespace tc
