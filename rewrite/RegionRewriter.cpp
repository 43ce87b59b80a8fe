//===- RegionRewriter.cpp -------------------------------------------------===//
#include "RegionRewriter.h"
#include "LineDirectives.h"
#include "ComponentKernel.h"
#include "Hygiene.h"
#include "IslBuild.h"
#include "IslModel.h"
#include "Extraction.h"
#include "KernelEmitter.h"
#include "MatmulIdiom.h"
#include "DomainBox.h"
#include "NestFusion.h"
#include "PackedOperand.h"
#include "PragmaHandler.h"
#include "StatementPragmas.h"
#include "TemplateRegions.h"
#include "tc/kernel_choice.cuh"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace clang;

namespace tc {
namespace {

/// The main file's preprocessor directives that decide where our own
/// #include may go, and which a region may not hold: its #includes, its
/// conditional blocks (#if ... #endif), and every #define, #undef,
/// #include and conditional directive (Directives, by kind).
struct MainFileDirectives {
  std::vector<SourceLocation> IncludeEnds; // each #include's file name's end
  std::vector<SourceRange> Conditionals;   // #if/#ifdef/#ifndef to its #endif
  std::vector<std::pair<SourceLocation, std::string>> Directives;
  /// The headers the translation unit includes (anywhere) that are not
  /// system headers, as absolute paths: what the rewrite depends on.
  std::set<std::string> UserHeaders;
};

class DirectiveTracker : public PPCallbacks {
public:
  DirectiveTracker(SourceManager &SM, MainFileDirectives &Out) : SM(SM), Out(Out) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef File, StringRef,
                          StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind FileType) override {
    if (File && FileType == SrcMgr::C_User) {
      SmallString<256> Path(File->getName());
      llvm::sys::fs::make_absolute(Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      Out.UserHeaders.insert(std::string(Path));
    }
    if (!SM.isWrittenInMainFile(HashLoc))
      return;
    Out.IncludeEnds.push_back(FilenameRange.getEnd());
    Out.Directives.push_back({HashLoc, "#include"});
  }
  void MacroDefined(const Token &Name, const MacroDirective *) override {
    add(Name.getLocation(), "#define");
  }
  void MacroUndefined(const Token &Name, const MacroDefinition &, const MacroDirective *) override {
    add(Name.getLocation(), "#undef");
  }
  void If(SourceLocation Loc, SourceRange, ConditionValueKind) override { add(Loc, "#if"); }
  void Ifdef(SourceLocation Loc, const Token &, const MacroDefinition &) override {
    add(Loc, "#ifdef");
  }
  void Ifndef(SourceLocation Loc, const Token &, const MacroDefinition &) override {
    add(Loc, "#ifndef");
  }
  void Elif(SourceLocation Loc, SourceRange, ConditionValueKind, SourceLocation) override {
    add(Loc, "#elif");
  }
  void Else(SourceLocation Loc, SourceLocation) override { add(Loc, "#else"); }
  void Endif(SourceLocation Loc, SourceLocation IfLoc) override {
    if (!SM.isWrittenInMainFile(Loc))
      return;
    Out.Conditionals.push_back({IfLoc, Loc});
    Out.Directives.push_back({Loc, "#endif"});
  }

private:
  void add(SourceLocation Loc, const char *Kind) {
    if (Loc.isValid() && SM.isWrittenInMainFile(Loc))
      Out.Directives.push_back({Loc, Kind});
  }
  SourceManager &SM;
  MainFileDirectives &Out;
};

struct Region {
  const PragmaRecord *Pragma;
  const Stmt *S;
  const FunctionDecl *F;
};

/// A declaration named `tc` that the generated `tc::...` names would find
/// instead of (or beside) the runtime's namespace, or null: any entity of
/// that name at file scope other than a namespace declared outside the main
/// file (the runtime headers' own, where the file includes them), a
/// namespace tc of the main file, and any entity named tc in a namespace
/// that encloses a region's function or that a using-directive anywhere
/// nominates. (Entities named tc in functions and classes do not take part
/// in the lookup of `tc::` at file scope or in a region's function, whose
/// region the call replaces.)
const NamedDecl *conflictingTcDecl(ASTContext &Ctx, const SourceManager &SM,
                                   const std::vector<Region> &Regions) {
  std::set<const DeclContext *> Searched;  // namespaces whose tc would be found
  for (const Region &R : Regions)
    for (const DeclContext *DC = R.F->getDeclContext(); DC; DC = DC->getParent())
      if (DC->isNamespace())
        Searched.insert(DC->getPrimaryContext());
  std::vector<const NamedDecl *> Named;
  std::function<void(const DeclContext *)> Walk = [&](const DeclContext *DC) {
    for (const Decl *D : DC->decls()) {
      if (const auto *U = dyn_cast<UsingDirectiveDecl>(D))
        if (const NamespaceDecl *N = U->getNominatedNamespace())
          Searched.insert(N->getPrimaryContext());
      if (const auto *ND = dyn_cast<NamedDecl>(D);
          ND && ND->getDeclName().isIdentifier() && ND->getName() == "tc")
        Named.push_back(ND);
      // (An unscoped enumeration's enumerators are its context's names.)
      const auto *Enum = dyn_cast<EnumDecl>(D);
      if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D) || (Enum && !Enum->isScoped()))
        Walk(cast<DeclContext>(D));
    }
  };
  Walk(Ctx.getTranslationUnitDecl());
  // Also what lookup finds: a class first declared by an elaborated type
  // (`void m(struct tc *)` in a class) is its enclosing namespace's name,
  // though it is written, and walked, in the class.
  const IdentifierInfo &Tc = Ctx.Idents.get("tc");
  Searched.insert(Ctx.getTranslationUnitDecl());
  for (const DeclContext *DC : Searched)
    for (const NamedDecl *ND : DC->lookup(&Tc))
      Named.push_back(ND);
  // Where a name declared in DC is found: an inline namespace's names are
  // its enclosing namespace's too.
  auto FoundIn = [](const DeclContext *DC) {
    DC = DC->getRedeclContext();
    while (DC->isInlineNamespace())
      DC = DC->getParent()->getRedeclContext();
    return DC;
  };
  for (const NamedDecl *D : Named) {
    const DeclContext *DC = FoundIn(D->getDeclContext());
    if (DC->isTranslationUnit()) {
      if (!isa<NamespaceDecl>(D) || SM.isWrittenInMainFile(SM.getExpansionLoc(D->getLocation())) ||
          !D->getDeclContext()->getRedeclContext()->isTranslationUnit())
        return D;
    } else if (Searched.count(DC->getPrimaryContext())) {
      return D;
    }
  }
  return nullptr;
}

/// Finds, for each pragma, the statement that follows it in a function body.
class RegionFinder : public RecursiveASTVisitor<RegionFinder> {
public:
  RegionFinder(SourceManager &SM, const std::vector<PragmaRecord> &Pragmas)
      : SM(SM), Pragmas(Pragmas) {}

  // Every kind of function body, its regions found under it (a
  // constructor's, destructor's or conversion function's to be diagnosed
  // as such: placementError).
  bool TraverseFunctionDecl(FunctionDecl *F) {
    return in(F, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(F); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *F) {
    return in(F, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(F); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *F) {
    return in(F, [&] { return RecursiveASTVisitor::TraverseCXXConstructorDecl(F); });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *F) {
    return in(F, [&] { return RecursiveASTVisitor::TraverseCXXDestructorDecl(F); });
  }
  bool TraverseCXXConversionDecl(CXXConversionDecl *F) {
    return in(F, [&] { return RecursiveASTVisitor::TraverseCXXConversionDecl(F); });
  }

  // A lambda outside every function (`auto h = [](...) { ... };` at
  // namespace scope): its pragmas are said to be there, not found.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    if (!Current && L->getBody())
      for (const PragmaRecord &P : Pragmas)
        if (SM.isBeforeInTranslationUnit(L->getBody()->getBeginLoc(), P.Loc) &&
            SM.isBeforeInTranslationUnit(P.Loc, L->getBody()->getEndLoc()))
          OutsideFunctions.insert(&P);
    return RecursiveASTVisitor::TraverseLambdaExpr(L);
  }

  bool VisitCompoundStmt(CompoundStmt *CS) {
    // (Where the macro that expands to the block is invoked: a region in a
    // function that a macro defines is found, and diagnosed, not skipped.)
    if (!Current || !SM.isWrittenInMainFile(SM.getExpansionLoc(CS->getBeginLoc())))
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

  /// A pragma before the unbraced body of a statement (`for (...)`
  /// `#pragma tc` `for ...`): no region, which only a block's statement
  /// starts; said as such (the kind of statement, for the message).
  bool VisitStmt(Stmt *S) {
    if (!Current)
      return true;
    // Pragmas between `After` (the header's last token) and the body.
    auto Body = [&](const Stmt *B, SourceLocation After, const char *Kind) {
      if (!B || isa<CompoundStmt>(B) || After.isInvalid())
        return;
      SourceLocation From = SM.getExpansionLoc(After);
      SourceLocation To = SM.getExpansionLoc(B->getBeginLoc());
      for (const PragmaRecord &P : Pragmas) {
        SourceLocation At = SM.getExpansionLoc(P.Loc);
        if (SM.isBeforeInTranslationUnit(From, At) && !SM.isBeforeInTranslationUnit(To, At))
          UnbracedBody.emplace(&P, Kind);
      }
    };
    if (const auto *F = dyn_cast<ForStmt>(S))
      Body(F->getBody(), F->getRParenLoc(), "for");
    else if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
      Body(R->getBody(), R->getRParenLoc(), "for");
    else if (const auto *W = dyn_cast<WhileStmt>(S))
      Body(W->getBody(), W->getRParenLoc(), "while");
    else if (const auto *D = dyn_cast<DoStmt>(S))
      Body(D->getBody(), D->getDoLoc(), "do");
    else if (const auto *I = dyn_cast<IfStmt>(S)) {
      Body(I->getThen(), I->getRParenLoc(), "if");
      Body(I->getElse(), I->getElseLoc(), "else");
    } else if (const auto *C = dyn_cast<SwitchCase>(S))
      Body(C->getSubStmt(), C->getColonLoc(), isa<CaseStmt>(C) ? "case" : "default");
    return true;
  }

  std::vector<Region> Regions;
  std::set<const PragmaRecord *> Found;
  std::map<const PragmaRecord *, const char *> UnbracedBody;
  std::set<const PragmaRecord *> OutsideFunctions;

private:
  /// Traverse() with F the function whose body it is in.
  template <typename TraverseBody> bool in(const FunctionDecl *F, TraverseBody Traverse) {
    const FunctionDecl *Saved = Current;
    Current = F;
    bool R = Traverse();
    Current = Saved;
    return R;
  }

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

/// The end of the line of a directive whose file name ends at L: its
/// newline (or CR LF's CR) after any comment that continues the directive
/// over more lines, or a spliced line.
SourceLocation directiveEnd(SourceManager &SM, SourceLocation L) {
  auto [FID, Off] = SM.getDecomposedLoc(L);
  llvm::StringRef Buf = SM.getBufferData(FID);
  size_t Next = nextLineStartOutsideTokens(Buf, Off);
  size_t NL = Next == Buf.size() && (Buf.empty() || Buf.back() != '\n') ? Buf.size() : Next - 1;
  if (NL < Buf.size() && NL > Off && Buf[NL - 1] == '\r')
    --NL;
  return SM.getLocForStartOfFile(FID).getLocWithOffset(NL);
}

std::string mainPath(SourceManager &SM) {
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID());
  return FE ? FE->getName().str() : "";
}

/// Regions that cannot be rewritten on their own: two pragmas before one
/// statement (whose clauses would count?), or a pragma anywhere inside
/// another's region (whose replacement would swallow it). Each is
/// diagnosed at the later pragma, once, and all of them stay as written.
/// `Diagnosed` gets the pragmas reported here.
template <typename ErrorFn, typename NoteFn>
std::set<const PragmaRecord *>
conflictingRegions(SourceManager &SM, const std::vector<Region> &Regions,
                   const std::vector<PragmaRecord> &Pragmas,
                   std::set<const PragmaRecord *> &Diagnosed, ErrorFn error, NoteFn note) {
  std::set<const PragmaRecord *> Out;
  auto at = [&](const PragmaRecord &P) { return SM.getExpansionLoc(P.Loc); };
  auto inside = [&](SourceLocation L, const Stmt *S) {
    SourceLocation B = SM.getExpansionLoc(S->getBeginLoc());
    SourceLocation E = SM.getExpansionRange(S->getEndLoc()).getEnd();
    return !SM.isBeforeInTranslationUnit(L, B) && !SM.isBeforeInTranslationUnit(E, L);
  };
  for (const Region &B : Regions) {
    for (const Region &A : Regions)
      if (A.S == B.S && SM.isBeforeInTranslationUnit(at(*A.Pragma), at(*B.Pragma))) {
        error(B.Pragma->Loc, "more than one '#pragma tc' before one statement");
        note(A.Pragma->Loc, "the first is here; write all clauses on one '#pragma tc' line");
        Out.insert(A.Pragma);
        Out.insert(B.Pragma);
        Diagnosed.insert(B.Pragma);
        break;
      }
  }
  for (const PragmaRecord &P : Pragmas) {
    if (Diagnosed.count(&P) || !SM.isWrittenInMainFile(at(P)))
      continue;
    for (const Region &R : Regions)
      if (R.Pragma != &P && inside(at(P), R.S)) {
        if (!Diagnosed.count(&P)) {
          error(P.Loc, "'#pragma tc' inside the region of another '#pragma tc'");
          note(R.Pragma->Loc, "the enclosing region starts here; remove one of the two pragmas");
          Diagnosed.insert(&P);
        }
        Out.insert(R.Pragma);
        Out.insert(&P);
      }
  }
  return Out;
}

void add(tooling::Replacements &Into, const tooling::Replacement &R) {
  if (auto Err = Into.add(R))
    llvm::consumeError(std::move(Err)); // overlapping regions cannot occur
}

} // namespace

struct TranslationUnitRewriter::State {
  std::vector<PragmaRecord> Pragmas;
  MainFileDirectives Directives;
  Preprocessor *PP = nullptr;
};

TranslationUnitRewriter::TranslationUnitRewriter(RewriteOptions Opts)
    : Opts(Opts), S(std::make_unique<State>()) {}
TranslationUnitRewriter::~TranslationUnitRewriter() = default;

void TranslationUnitRewriter::registerPreprocessorHooks(Preprocessor &PP) {
  S->PP = &PP;
  PP.AddPragmaHandler(new TcPragmaHandler(S->Pragmas));
  PP.addPPCallbacks(
      std::make_unique<DirectiveTracker>(PP.getSourceManager(), S->Directives));
}

namespace {

/// The names of the macros the user defined (in the file, its own headers
/// or on the command line) that are defined at `Loc`, or anywhere when `Loc`
/// is invalid: not the compiler's predefined ones and not those of system
/// headers (CUDA's __device__, say), which the generated code relies on.
std::set<std::string> userMacros(Preprocessor &PP, SourceLocation Loc = {}) {
  SourceManager &SM = PP.getSourceManager();
  std::set<std::string> R;
  for (const auto &[II, State] : PP.macros()) {
    for (const MacroDirective *MD = PP.getLocalMacroDirectiveHistory(II); MD;
         MD = MD->getPrevious()) {
      if (Loc.isValid() && MD->getLocation().isValid() &&
          !SM.isBeforeInTranslationUnit(MD->getLocation(), Loc))
        continue; // after Loc
      const auto *Def = dyn_cast<DefMacroDirective>(MD);
      if (!Def) {
        if (Loc.isValid())
          break; // undefined at Loc
        continue;
      }
      SourceLocation L = Def->getInfo()->getDefinitionLoc();
      if (!Def->getInfo()->isBuiltinMacro() && L.isValid() &&
          !SM.isInSystemHeader(L) && !SM.isWrittenInBuiltinFile(L))
        R.insert(II->getName().str());
      if (Loc.isValid())
        break; // the definition in force at Loc
    }
  }
  return R;
}

/// Whether a name of `Taken` starts with `Stem`: the stem of a region's
/// file-scope names (kernels, launchers) must be the user's nowhere.
bool stemIsTaken(const std::set<std::string> &Taken, const std::string &Stem) {
  auto It = Taken.lower_bound(Stem);
  return It != Taken.end() && llvm::StringRef(*It).starts_with(Stem);
}

/// What --explain says of a tf32 region's hand-over (LauncherHandOver):
/// the shapes each family takes, in the user's array names (the idiom's A
/// and B are the matmul's).
struct HandOverText {
  std::string ToSync, ToCopies;
};
static HandOverText handOverText(const RegionModel &M, const MatmulIdiom &Idiom,
                                 const LauncherHandOver &H) {
  const std::string A = M.Arrays[Idiom.A.ArrayId].Name, B = M.Arrays[Idiom.B.ArrayId].Name;
  const std::string Copied = H.CopiesA && H.CopiesB ? A + " and " + B : H.CopiesA ? A : B;
  const std::string Once =
      H.CopiesA && H.CopiesB
          ? "the output's rows or columns are at most 128: the product reads " + A + " or " +
                B + " once"
      : H.CopiesA ? "the output's columns are at most 128: the product reads " + A + " once"
                  : "the output's rows are at most 128: the product reads " + B + " once";
  return {"  shapes where " + Once + " (tc::prefer_transposed_copies): " + H.Launcher +
              "_launch\n",
          "  other shapes: the wgmma kernels, reading " + Copied + " from a K-major copy\n"};
}

/// The pipeline after extraction: isl model, idiom, configuration, code.
llvm::Expected<GeneratedRegion> generate(const RegionModel &Source, const Region &R,
                                         const std::string &Name,
                                         const std::string &Where,
                                         const RewriteOptions &Opts,
                                         std::string &Explain) {
  try {
    isl::ctx IslCtx = makeIslContext();
    // Free the isl context when done: all isl objects live in this scope.
    struct Free {
      isl::ctx C;
      ~Free() { isl_ctx_free(C.release()); }
    } Guard{IslCtx};
    llvm::Expected<GeneratedRegion> G = [&]() -> llvm::Expected<GeneratedRegion> {
      auto Assumed = rowAssumptions(IslCtx, Source);
      if (!Assumed)
        return Assumed.takeError();
      IslModel Written = IslModel::build(IslCtx, Source, *Assumed);
      // (The model's text only for --explain: it costs the dependence
      // analysis, which a model without fusion or boxes needs only once.)
      std::string Text = "region " + Name + " at " + Where + "\n" +
                         (Opts.Explain ? explainModel(Source, Written) : std::string());
      // What is explained so far goes out however the region ends.
      auto Flush = llvm::make_scope_exit([&] { Explain += Text; });
      // A statement whose loops and conditions hold for no sizes (`if (i <
      // 0)`) is most likely a mistake; its region would compute nothing.
      // (On the plain sizes: the row assumptions may exclude some.)
      for (const Statement &S : Source.Stmts) {
        isl::set Domain =
            domainSet(IslCtx, Source, S).intersect_params(contextSet(IslCtx, Source));
        if (Domain.is_empty())
          return regionError(S.Range.getBegin(),
                             "this statement never runs: its loops' bounds and conditions "
                             "hold for no sizes",
                             "its domain is " + islStr(Domain) +
                                 "; check the conditions of the enclosing 'if's and loops");
      }
      // Loops bounded by other loops run over their box, with guards
      // (DomainBox.h); the domains stay the source's.
      auto Box = boxDomains(Source, Written);
      if (!Box)
        return Box.takeError();
      std::optional<IslModel> BoxIsl;
      if (*Box) {
        auto BoxAssumed = rowAssumptions(IslCtx, **Box);
        if (!BoxAssumed)
          return BoxAssumed.takeError();
        BoxIsl = IslModel::build(IslCtx, **Box, *BoxAssumed);
      }
      const RegionModel &Boxed = *Box ? **Box : Source;
      const IslModel &BoxedIsl = BoxIsl ? *BoxIsl : Written;
      // Reductions in separate nests become the one-nest model (NestFusion.h).
      auto Fusion = fuseReductionNests(Boxed, BoxedIsl);
      if (!Fusion)
        return Fusion.takeError();
      std::optional<IslModel> FusedIsl;
      if (*Fusion) {
        auto FusedAssumed = rowAssumptions(IslCtx, (*Fusion)->Fused);
        if (!FusedAssumed)
          return FusedAssumed.takeError();
        FusedIsl = IslModel::build(IslCtx, (*Fusion)->Fused, *FusedAssumed);
        if (Opts.Explain)
          Text += (*Fusion)->Explain + "  the fused model:\n" +
                  explainModel((*Fusion)->Fused, *FusedIsl);
      }
      const RegionModel &M = *Fusion ? (*Fusion)->Fused : Boxed;
      const IslModel &I = FusedIsl ? *FusedIsl : BoxedIsl;
      auto Idiom = recognizeMatmul(M, I);
      if (!Idiom)
        return Idiom.takeError();
      // The region's code from the idiom as its kernels stage it and the
      // kernels; the tuning key names the operands as stored.
      // (Of the model EM, EI: the region's, or the one reading a packed
      // operand's dequantised copy D.)
      auto emitFrom = [&](const RegionModel &EM, const IslModel &EI, const MatmulIdiom &Staging,
                          const RegionKernels &Kernels, const std::string &Launcher,
                          const std::optional<LauncherHandOver> &HandOver,
                          const DequantizedOperand *D) -> llvm::Expected<GeneratedRegion> {
        // Each kernel gets the same model, built again in its own context.
        auto Model = [&EM](isl::ctx C) -> llvm::Expected<IslModel> {
          auto A = rowAssumptions(C, EM);
          if (!A)
            return A.takeError();
          return IslModel::build(C, EM, *A);
        };
        RegionTuning Tuning{tuningKey(M, *Idiom, Kernels.Default, Kernels.Alternatives),
                            tuningKernelNames(Kernels.Alternatives), {}};
        if (Opts.Tuning)
          Tuning.Entries = tunedEntries(*Opts.Tuning, Tuning.Key, Tuning.Kernels);
        auto Gen = generateRegion(EM, Staging, EI, Model, Kernels.Default,
                                  Launcher.empty() ? Name : Launcher, Where, Kernels.Alternatives,
                                  Opts.KernelThreads, Opts.Explain, Tuning, HandOver, D);
        if (Gen)
          Text += Gen->Explain + explainTuning(Tuning);
        return Gen;
      };
      auto emit = [&](const MatmulIdiom &Staging, const RegionKernels &Kernels,
                      const std::string &Launcher = "",
                      const std::optional<LauncherHandOver> &HandOver = std::nullopt) {
        return emitFrom(M, I, Staging, Kernels, Launcher, HandOver, nullptr);
      };
      auto KernelsOf = [&](const KernelConfig &C, const MatmulIdiom &Id) {
        RegionKernels K = regionKernels(C, alternativeKernels(C, M, Id), Id, M.Clauses);
        if (!Id.IterBatch.empty() || C.ConvertsLandedOperands)
          keepTmaOnComponents(K, Id, M.Clauses);
        return K;
      };
      // A packed 4-bit operand: the kernels of the region that reads its
      // dequantised copy, which the entry launcher makes
      // (model/PackedOperand.h).
      if (Idiom->A.FourBit || Idiom->B.FourBit) {
        auto D = dequantizedOperand(M, *Idiom);
        if (!D)
          return D.takeError();
        const RegionModel &CopyModel = D->Model;
        auto CopyAssumed = rowAssumptions(IslCtx, CopyModel);
        if (!CopyAssumed)
          return CopyAssumed.takeError();
        IslModel CopyIsl = IslModel::build(IslCtx, CopyModel, *CopyAssumed);
        auto CopyIdiom = recognizeMatmul(CopyModel, CopyIsl);
        if (!CopyIdiom)
          return CopyIdiom.takeError();
        // The source's arrays that may overlap: the alias test's pairs.
        CopyIdiom->MayAlias = Idiom->MayAlias;
        Text += "  " + std::string(D->IsB ? "B" : "A") +
                ": packed 4-bit values, dequantised by the launcher into " +
                CopyModel.Arrays[D->Copy].Name + " (" + spelling(CopyIdiom->InputType) +
                ", K-major, leading dimension K rounded up to 8), which the kernels read\n";
        auto Config =
            chooseKernelConfig(CopyModel, *CopyIdiom, R.Pragma->Loc, Opts.Arch, Opts.Mma);
        if (!Config)
          return Config.takeError();
        RegionKernels K = regionKernels(*Config, alternativeKernels(*Config, CopyModel, *CopyIdiom),
                                        *CopyIdiom, CopyModel.Clauses);
        return emitFrom(CopyModel, CopyIsl, *CopyIdiom, K, "", std::nullopt, &*D);
      }
      // fp32 operands stored M- or N-major: staged K-major from a
      // transposed copy made at each launch, where the composed tf32
      // kernels take the region. Where wgmma is asked for (the mma(wgmma)
      // clause, --mma-path=wgmma) for every shape; by default only where
      // the copy pays (tc::prefer_transposed_copies), the launcher handing
      // the other shapes to the mma.sync kernels: at small M the copy costs
      // more than the product (docs/results/tf32-components-2026-12-06.md).
      const std::optional<std::string> &MmaClause = M.Clauses.Mma;
      const bool WgmmaAsked =
          MmaClause ? *MmaClause == "wgmma" : Opts.Mma == MmaPreference::Wgmma;
      const bool SyncAsked = MmaClause ? !WgmmaAsked : Opts.Mma == MmaPreference::Sync;
      if (std::optional<MatmulIdiom> Staged = Opts.Arch == GpuArch::SM90a && !SyncAsked
                                                  ? tf32StagedKMajor(*Idiom)
                                                  : std::nullopt) {
        auto C = chooseKernelConfig(M, *Staged, R.Pragma->Loc, Opts.Arch, Opts.Mma);
        if (!C) {
          llvm::consumeError(C.takeError()); // (the idiom as stored says why below)
        } else if (C->wgmma()) {
          RegionKernels K = KernelsOf(*C, *Staged);
          const bool CopiesA = Staged->A.StagedTransposed, CopiesB = Staged->B.StagedTransposed;
          // Sizes the source fixes: the launcher's choice is known now, and
          // only its family is generated.
          const std::optional<int64_t> KnownM = M.knownValue(Idiom->ExtentM),
                                       KnownN = M.knownValue(Idiom->ExtentN);
          std::optional<bool> CopyPays; // at sizes the source fixes
          if (KnownM && KnownN && !WgmmaAsked)
            CopyPays = tc::prefer_transposed_copies(*KnownM, *KnownN, CopiesA, CopiesB);
          const std::string Fixed = KnownM && KnownN ? "  sizes fixed (" +
                                                           std::to_string(*KnownM) + " x " +
                                                           std::to_string(*KnownN) + " outputs): "
                                                     : "";
          if (CopyPays == false) {
            // (Below: the region as stored, on mma.sync.)
            Text += Fixed + "the transposed copy would not pay "
                            "(tc::prefer_transposed_copies): mma.sync only\n";
          } else if (tf32KernelsComposed(K, *Staged, M.Clauses)) {
            if (CopyPays)
              Text += Fixed + "the wgmma kernels on a transposed copy only\n";
            if (WgmmaAsked || CopyPays)
              return emit(*Staged, K);
            auto SyncConfig =
                chooseKernelConfig(M, *Idiom, R.Pragma->Loc, Opts.Arch, MmaPreference::Sync);
            if (!SyncConfig)
              return SyncConfig.takeError();
            SyncConfig->PathReason = "mma.sync: shapes where the transposed copy would cost "
                                     "more than the product";
            const std::string SyncName = Name + "_sync";
            LauncherHandOver H{SyncName, CopiesA, CopiesB};
            const HandOverText Said = handOverText(M, *Idiom, H);
            Text += Said.ToSync;
            auto Sync = emit(*Idiom, KernelsOf(*SyncConfig, *Idiom), SyncName);
            if (!Sync)
              return Sync.takeError();
            Text += Said.ToCopies;
            auto Copies = emit(*Staged, K, Name, H);
            if (!Copies)
              return Copies.takeError();
            Copies->Definitions = Sync->Definitions + Copies->Definitions;
            return Copies;
          }
        }
      }
      auto Config = chooseKernelConfig(M, *Idiom, R.Pragma->Loc, Opts.Arch, Opts.Mma);
      if (!Config)
        return Config.takeError();
      RegionKernels Chosen = KernelsOf(*Config, *Idiom);
      // tf32 on wgmma exists only in the composed kernels (no generated
      // tf32 wgmma body): otherwise the region takes mma.sync.
      if (!tf32KernelsComposed(Chosen, *Idiom, M.Clauses)) {
        Config = chooseKernelConfig(M, *Idiom, R.Pragma->Loc, Opts.Arch, MmaPreference::Sync);
        if (!Config)
          return Config.takeError();
        Chosen = KernelsOf(*Config, *Idiom);
        if (!tf32KernelsComposed(Chosen, *Idiom, M.Clauses)) { // (an mma(wgmma) clause)
          auto It = M.Clauses.Locs.find("mma");
          return regionError(It != M.Clauses.Locs.end() ? It->second : R.Pragma->Loc,
                             "this region cannot use wgmma",
                             "tf32 operands take wgmma only in the sm_90 components' "
                             "kernels, which cannot compute this region");
        }
      }
      return emit(*Idiom, Chosen);
    }();
    return G;
  } catch (const isl::exception &E) {
    return regionError(R.S->getBeginLoc(),
                       std::string("isl failed on this region: ") + E.what(),
                       "please report this as a bug");
  }
}


/// Binds the placeholders of a region's generated code (Hygiene.h): the
/// definitions name the user's entities by their spelling where nothing
/// generated and no user macro takes it; the call and --explain spell them.
/// Each user macro that shares a name the definitions use is set aside
/// around them (push_macro), so that it cannot rewrite generated code.
llvm::Expected<GeneratedRegion> bindRegion(const RegionModel &M, GeneratedRegion G,
                                           const std::set<std::string> &UserMacros,
                                           SourceLocation Loc) {
  std::set<std::string> Taken = UserMacros;
  for (const std::string &Id : unqualifiedIdentifiersOf(G.Definitions))
    if (!isUserNamePlaceholder(Id))
      Taken.insert(Id);
  std::vector<std::string> Names = definitionNames(M.UserNames, Taken);
  G.Definitions = bindPlaceholders(G.Definitions, Names);
  G.Call = bindPlaceholders(G.Call, M.UserNames);
  G.Explain = bindPlaceholders(G.Explain, M.UserNames);
  // A placeholder pasted into a longer identifier would have escaped its
  // binding: never emit code that names something the user did not.
  std::set<std::string> Bound(Names.begin(), Names.end());
  Bound.insert(M.UserNames.begin(), M.UserNames.end());
  for (const std::string *Text : {&G.Definitions, &G.Call})
    for (const std::string &Id : identifiersOf(*Text))
      if (llvm::StringRef(Id).contains("__tc_u") && !Bound.count(Id))
        return regionError(Loc, "internal error: generated code names '" + Id + "'",
                           "please report this as a bug");
  std::string SetAside, Restore;
  for (const std::string &Id : codeIdentifiersOf(G.Definitions))
    // TC_* configure the generated code (-DTC_TUNING): they stay.
    if (UserMacros.count(Id) && !llvm::StringRef(Id).starts_with("TC_")) {
      SetAside += "#pragma push_macro(\"" + Id + "\")\n#undef " + Id + "\n";
      Restore = "#pragma pop_macro(\"" + Id + "\")\n" + Restore;
    }
  if (!SetAside.empty())
    G.Definitions = "// Macros of this file named as the code below names things:\n" +
                    SetAside + G.Definitions + Restore;
  return G;
}

/// `#include <tc/tc.cuh>`, with the file's macros of ordinary names that
/// are defined where it goes (`Macros`) set aside around it, so that they
/// cannot rewrite the runtime headers' own names (N, T, kThreads, ...).
/// Reserved names (`__X`, `_X`), NDEBUG and TC_* configure headers, and
/// stay.
std::string runtimeInclude(const std::set<std::string> &Macros) {
  std::string SetAside, Restore;
  for (const std::string &Id : Macros) {
    llvm::StringRef Name(Id);
    if (Name.empty() || Name == "NDEBUG" || Name.starts_with("TC_") ||
        Name.starts_with("__") || (Name[0] == '_' && Name.size() > 1 && isUppercase(Name[1])))
      continue;
    SetAside += "#pragma push_macro(\"" + Id + "\")\n#undef " + Id + "\n";
    Restore += "#pragma pop_macro(\"" + Id + "\")\n";
  }
  if (SetAside.empty())
    return "#include <tc/tc.cuh>\n";
  return "// Macros of this file set aside while the runtime headers are read:\n" + SetAside +
         "#include <tc/tc.cuh>\n" + Restore;
}

/// Where a function's regions' definitions go: before the function, and
/// before its first `template <...>` line: a function template's own, or
/// an out-of-line member's class template's (`template <class T>
/// template <class U> void S<T>::f()`), whichever comes first.
SourceLocation definitionsAnchor(const FunctionDecl &F, const SourceManager &SM) {
  SourceLocation Outer = F.getOuterLocStart();
  if (const FunctionTemplateDecl *T = F.getDescribedFunctionTemplate())
    if (SM.isBeforeInTranslationUnit(T->getBeginLoc(), Outer))
      return T->getBeginLoc();
  return Outer;
}

/// Whether F is declared in an `extern "C"` block, where its definitions
/// (templates among them) need C++ linkage back.
bool inCLinkageBlock(const FunctionDecl &F) {
  for (const DeclContext *DC = F.getLexicalDeclContext(); DC; DC = DC->getLexicalParent())
    if (const auto *L = dyn_cast<LinkageSpecDecl>(DC))
      return L->getLanguage() == LinkageSpecLanguageIDs::C;
  return false;
}

/// A directive of the main file inside the region, which its replacement
/// would drop: a #define or #undef whose effect reaches the code after
/// it, an #include, or a conditional, whose other branch the rewrite
/// would lose for a build with other macros.
std::optional<RegionError> directiveError(SourceManager &SM, const Region &R,
                                          const MainFileDirectives &D) {
  SourceLocation Begin = SM.getExpansionLoc(R.S->getBeginLoc());
  SourceLocation End = SM.getExpansionRange(R.S->getEndLoc()).getEnd();
  for (const auto &[Loc, Kind] : D.Directives) {
    if (SM.isBeforeInTranslationUnit(Loc, Begin) || SM.isBeforeInTranslationUnit(End, Loc))
      continue;
    const bool Conditional = Kind != "#define" && Kind != "#undef" && Kind != "#include";
    return RegionError(Loc, "'" + Kind + "' inside a '#pragma tc' region",
                       Conditional
                           ? "the rewrite would keep only the code that this compilation's "
                             "macros select; put the condition around the whole region"
                           : "the region's text becomes a launch, which drops the directive; "
                             "move it before or after the region");
  }
  return std::nullopt;
}

/// The pipeline on one region: model, idiom, configuration, code.
llvm::Expected<GeneratedRegion> process(ASTContext &Ctx, const Region &R,
                                        const std::string &Name,
                                        const std::string &Where,
                                        const RewriteOptions &Opts,
                                        const std::set<std::string> &UserMacros,
                                        std::string &Explain) {
  auto Model = extractRegion(Ctx, *R.F, *R.S, R.Pragma->Clauses);
  if (!Model)
    return Model.takeError();
  usePlaceholderNames(*Model);
  markSignedParameters(*Model);
  // Later stages see placeholders only; what reaches the user is spelled.
  auto Spelled = [&](std::string Text) { return bindPlaceholders(Text, Model->UserNames); };
  size_t ExplainBegin = Explain.size();
  auto G = generate(*Model, R, Name, Where, Opts, Explain);
  Explain.replace(ExplainBegin, std::string::npos, Spelled(Explain.substr(ExplainBegin)));
  if (!G)
    return llvm::handleErrors(G.takeError(), [&](const RegionError &E) {
      return regionError(E.Loc, Spelled(E.Message), Spelled(E.Note));
    });
  return bindRegion(*Model, std::move(*G), UserMacros, R.S->getBeginLoc());
}

/// Why a region cannot be replaced where it stands, if it cannot: in
/// device code (its replacement is a launch, which host code makes), or
/// ending inside a macro's expansion that goes on past it (the
/// replacement takes the whole invocation, which would drop the rest).
std::optional<RegionError> placementError(SourceManager &SM, const LangOptions &LangOpts,
                                          const Region &R) {
  if (R.F->hasAttr<CUDAGlobalAttr>() || R.F->hasAttr<CUDADeviceAttr>())
    return RegionError(R.Pragma->Loc,
                       "'#pragma tc' region in device code: '" + R.F->getNameAsString() +
                           "' is a " +
                           (R.F->hasAttr<CUDAGlobalAttr>() ? "'__global__'"
                            : R.F->hasAttr<CUDAHostAttr>() ? "'__host__ __device__'"
                                                            : "'__device__'") +
                           " function",
                       "the region becomes a kernel launch, which host code makes; move the "
                       "loop nest into a host function");
  if (isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(R.F))
    return RegionError(R.Pragma->Loc,
                       std::string("'#pragma tc' region in a ") +
                           (isa<CXXConstructorDecl>(R.F)  ? "constructor"
                            : isa<CXXDestructorDecl>(R.F) ? "destructor"
                                                          : "conversion function"),
                       "move the loop nest into a function that it calls");
  SourceLocation Last = R.S->getEndLoc();
  if (Last.isMacroID() && !Lexer::isAtEndOfMacroExpansion(Last, SM, LangOpts))
    return RegionError(SM.getExpansionLoc(Last),
                       "the '#pragma tc' region ends inside a macro's expansion that goes on "
                       "after it",
                       "the replacement would take the whole invocation; end the macro with "
                       "the loop nest, or write the rest outside it");
  return std::nullopt;
}

/// Where a region's replacement starts: the start of its pragma's line,
/// or, where a `_Pragma` operator follows other code on its line, the
/// operator (or the macro that holds it) itself.
SourceLocation replacementBegin(SourceManager &SM, SourceLocation PragmaLoc) {
  SourceLocation At = SM.getExpansionLoc(PragmaLoc);
  SourceLocation Line = lineStart(SM, At);
  llvm::StringRef Before = SM.getBufferData(SM.getFileID(At))
                               .substr(SM.getFileOffset(Line),
                                       SM.getFileOffset(At) - SM.getFileOffset(Line));
  llvm::StringRef Code = Before.ltrim(" \t");
  return Code.empty() || Code.starts_with("#") ? Line : At;
}

tooling::Replacement regionReplacement(SourceManager &SM,
                                       const LangOptions &LangOpts,
                                       const Region &R,
                                       const GeneratedRegion &G) {
  SourceLocation Begin = replacementBegin(SM, R.Pragma->Loc);
  // The end of a function-like macro's invocation, its arguments too.
  SourceLocation Last = SM.getExpansionRange(R.S->getEndLoc()).getEnd();
  SourceLocation End = Lexer::getLocForEndOfToken(Last, 0, SM, LangOpts);
  // A loop whose body is an expression statement ends before that
  // statement's ';': the replacement takes the ';' too.
  if (!isa<CompoundStmt>(R.S))
    if (std::optional<Token> Next = Lexer::findNextToken(Last, SM, LangOpts);
        Next && Next->is(tok::semi))
      End = Next->getEndLoc();
  // Mid-line (after other code), the comment and the call line up under
  // the pragma's column.
  const bool MidLine = Begin != lineStart(SM, Begin);
  unsigned Column = MidLine ? SM.getExpansionColumnNumber(Begin)
                            : SM.getExpansionColumnNumber(R.S->getBeginLoc());
  std::string Pad(Column > 0 ? Column - 1 : 0, ' ');
  std::string Text = (MidLine ? "" : Pad) + "// '#pragma tc' region computed by " +
                     G.Call.substr(0, G.Call.find('(')) + " (tc-rewrite)\n" +
                     Pad + G.Call;
  unsigned Len = SM.getFileOffset(End) - SM.getFileOffset(Begin);
  return tooling::Replacement(SM, Begin, Len, Text);
}

} // namespace

/// The generated code of a function's regions, in an unnamed namespace, so
/// that its entities (epilogue functors, kernel templates, the runtime's
/// templates instantiated with them) are this file's: another file's region
/// of the same function name has entities of the same names, which the
/// linker would otherwise merge (one file's launches running the other's
/// kernels). The library names the generator writes are qualified (`::dim3`)
/// so that the user's declarations of the same names in the enclosing
/// namespace do not capture them; the user's spellings mean what they mean
/// in the function.
/// nvcc's remark that a member of a generated functor is never called
/// (177: a prologue's float form beside its packed one, an epilogue's
/// row() where the kernel stores element by element) is kept off the
/// user's build; other compilers see no pragma.
static std::string fileLocalScope(const std::string &Text) {
  return "#ifdef __NVCC__\n#pragma nv_diagnostic push\n#pragma nv_diag_suppress 177\n#endif\n"
         "namespace {  // this file's: the regions' kernels and launchers\n\n" +
         Text +
         "}  // namespace\n"
         "#ifdef __NVCC__\n#pragma nv_diagnostic pop\n#endif\n\n";
}

FileRewrite TranslationUnitRewriter::run(ASTContext &Ctx,
                                         const DiagnosticSink &Report) {
  SourceManager &SM = Ctx.getSourceManager();
  DiagnosticsEngine &D = Ctx.getDiagnostics();
  std::vector<PragmaRecord> &Pragmas = S->Pragmas;
  FileRewrite Result;
  Result.Path = mainPath(SM);
  Result.Source = SM.getBufferData(SM.getMainFileID()).str();
  // The user's #line directives, as the compiler will read them (Clang
  // keeps a line table only once it has read one).
  if (SM.hasLineTable()) {
    const unsigned Lines = llvm::StringRef(Result.Source).count('\n') + 1;
    unsigned ExpectedLine = 1;
    std::string ExpectedFile;
    for (unsigned L = 1; L <= Lines; ++L) {
      PresumedLoc P = SM.getPresumedLoc(SM.translateLineCol(SM.getMainFileID(), L, 1));
      if (P.isInvalid())
        break;
      if (L == 1)
        ExpectedFile = P.getFilename();
      if (P.getLine() != ExpectedLine || ExpectedFile != P.getFilename())
        Result.LineMap.push_back({L, P.getLine(), P.getFilename()});
      ExpectedLine = P.getLine() + 1;
      ExpectedFile = P.getFilename();
    }
  }
  Result.Headers.assign(S->Directives.UserHeaders.begin(), S->Directives.UserHeaders.end());
  // Never rewrite a file we could not parse completely. A malformed clause
  // is an error too, but only of its own pragma, said here (its region
  // stays as written and the others are still rewritten).
  const bool ParseFailed = D.hasErrorOccurred();
  for (const PragmaRecord &P : Pragmas)
    for (const ClauseDiagnostic &C : P.Diagnostics)
      Report({C.Loc, C.Message, C.IsNote, std::nullopt});
  if (ParseFailed) {
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
  std::set<const PragmaRecord *> Diagnosed;
  // The generated code names the runtime's entities as tc::...: a file that
  // declares a namespace tc of its own would redefine them, and any other
  // entity named tc where the generated code or a region's function looks
  // names up would be chosen in their place, or make them ambiguous.
  if (!Finder.Regions.empty())
    if (const NamedDecl *D = conflictingTcDecl(Ctx, SM, Finder.Regions)) {
      const bool Namespace = isa<NamespaceDecl>(D);
      if (Namespace && D->getDeclContext()->isTranslationUnit())
        error(D->getLocation(), "namespace 'tc' is the namespace of tc-rewrite's runtime headers");
      else
        error(D->getLocation(), "the name 'tc' is the namespace of tc-rewrite's runtime headers");
      note(D->getLocation(), std::string("the rewritten regions call tc::...; rename this ") +
                                 (Namespace ? "namespace" : "declaration") +
                                 " (the file's regions stay as written)");
      for (const Region &R : Finder.Regions) {
        Result.RegionsRejected++;
        Outcomes.push_back(outcome(*R.Pragma));
      }
      Result.Regions = std::move(Outcomes);
      return Result;
    }
  std::set<const PragmaRecord *> Conflicting =
      conflictingRegions(SM, Finder.Regions, Pragmas, Diagnosed, error, note);
  // A region of an included file is that file's to rewrite: an error
  // there (the region would run as written, on the host), and the rest of
  // this file goes on.
  for (const PragmaRecord &P : Pragmas) {
    SourceLocation At = SM.getExpansionLoc(P.Loc);
    if (!SM.isWrittenInMainFile(At) && !SM.isInSystemHeader(At)) {
      error(P.Loc, "'#pragma tc' region in an included file is not rewritten");
      note(P.Loc, "tc-rewrite rewrites the files it is given; give it this file, or move "
                  "the region into the source file");
      Result.RegionsRejected++; // (left as written: the exit status says so)
    }
  }
  for (const PragmaRecord &P : Pragmas)
    if (P.Valid && !Finder.Found.count(&P) && !Diagnosed.count(&P) &&
        SM.isWrittenInMainFile(SM.getExpansionLoc(P.Loc))) {  // (a macro's _Pragma too)
      if (auto U = Finder.UnbracedBody.find(&P); U != Finder.UnbracedBody.end()) {
        error(P.Loc, std::string("'#pragma tc' before the unbraced body of '") + U->second +
                         "'");
        note(P.Loc, "the region's statement must be in a '{ }' block: put braces around the "
                    "pragma and its loop nest");
      } else if (std::optional<RegionError> E = adjacentStatementPragma(
                     SM, P.Loc, S->PP ? macroPragmas(*S->PP) : MacroPragmaLookup())) {
        // (Parsed with OpenMP, the loop is the directive's statement.)
        error(E->Loc, E->Message);
        note(E->Loc, E->Note);
      } else if (Finder.OutsideFunctions.count(&P)) {
        error(P.Loc, "'#pragma tc' in a lambda outside any function is not rewritten");
        note(P.Loc, "the region's kernel is defined before the function that holds it; move "
                    "the loop nest into a function, or define the lambda in one");
      } else {
        error(P.Loc, "'#pragma tc' does not precede a statement in a function body");
        note(P.Loc, "place it directly before a 'for' loop nest or a '{ }' block of nests");
      }
      Result.RegionsRejected++;
      Outcomes.push_back(outcome(P));
    }
  std::map<const FunctionDecl *, std::string> Definitions;
  std::map<std::string, unsigned> Counter;
  // Regions in templates are generated per instantiation (TemplateRegions.h).
  const auto Instances = instantiationsByPattern(Ctx);
  // A region of a template: generated for each instantiation, the entry
  // launchers renamed to one overloaded name. An instantiation that fails
  // is reported here, at the construct and then where it is requested, as
  // Clang reports errors in templates (the error returned is empty).
  // A region's error at its construct (else at the region), and its note
  // with the __restrict__ fix-it where that is the cure.
  auto report = [&](const RegionError &E, const Region &R, const std::string &Suffix) {
    SourceLocation Loc = E.Loc.isValid() ? E.Loc : R.S->getBeginLoc();
    error(Loc, E.Message + Suffix);
    if (!E.Note.empty())
      note(Loc, E.Note, restrictFixIt(*R.F, E));
  };
  auto processTemplate = [&](const Region &R, const std::string &Name, const std::string &Where,
                             const std::set<std::string> &UserMacros)
      -> llvm::Expected<GeneratedRegion> {
    auto It = Instances.find(R.F);
    if (It == Instances.end() || It->second.empty())
      return regionError(R.Pragma->Loc,
                         "'#pragma tc' region in a template that this file does not "
                         "instantiate",
                         "the region is generated for each instantiation in the file; "
                         "instantiate the template here (a call or an explicit "
                         "instantiation) or move the region out of the template");
    GeneratedRegion All;
    std::vector<std::pair<std::string, std::string>> Signatures; // instantiation, parameters
    const std::string Entry = "static void " + Name + "_launch(";
    for (size_t I = 0; I < It->second.size(); ++I) {
      const FunctionDecl &Inst = *It->second[I];
      std::string InstName = instantiationName(Inst);
      SourceLocation Requested = Inst.getPointOfInstantiation().isValid()
                                     ? Inst.getPointOfInstantiation()
                                     : Inst.getLocation();
      auto Requester = [&] {
        note(Requested, "in the instantiation '" + InstName + "' requested here");
      };
      const Stmt *Body = instantiatedStatement(Inst, *R.S);
      if (!Body)
        return regionError(R.Pragma->Loc,
                           "internal error: the region of '" + InstName + "' was not found",
                           "please report this as a bug");
      std::string Part = Name + "_" + std::to_string(I);
      auto Gen = process(Ctx, Region{R.Pragma, Body, &Inst}, Part, Where, Opts, UserMacros,
                         Result.Explain);
      if (!Gen) {
        llvm::handleAllErrors(Gen.takeError(), [&](const RegionError &E) {
          report(E, R, " (in the instantiation '" + InstName + "')");
          Requester();
        });
        return regionError(SourceLocation(), "", ""); // reported
      }
      // The entry launchers of the instantiations overload one name.
      std::string PartEntry = "static void " + Part + "_launch(";
      size_t At = Gen->Definitions.find(PartEntry);
      if (At == std::string::npos)
        return regionError(R.Pragma->Loc, "internal error: no launcher for '" + InstName + "'",
                           "please report this as a bug");
      Gen->Definitions.replace(At, PartEntry.size(), Entry);
      std::string Call = Name + Gen->Call.substr(Part.size());
      size_t ParamsEnd = Gen->Definitions.find(") {", At);
      // Overloads are told apart by their array parameters: an array of one
      // element type never converts to another's, where a scalar of one
      // type may convert equally well to two (int to float or long long).
      std::string Params;
      for (llvm::StringRef P : llvm::split(
               llvm::StringRef(Gen->Definitions).substr(At + Entry.size(),
                                                        ParamsEnd - At - Entry.size()),
               ", "))
        if (P.contains('*'))
          Params += P.str() + ", ";
      for (auto &[Other, OtherParams] : Signatures)
        if (OtherParams == Params) {
          error(Requested, "the instantiations '" + Other + "' and '" + InstName +
                               "' give the region's arrays the same types");
          note(R.Pragma->Loc, "each instantiation's launcher overloads one name, told apart "
                              "by the element types of the region's arrays");
          return regionError(SourceLocation(), "", "");
        }
      if (I > 0 && Call != All.Call) {
        error(Requested, "the region's call differs in the instantiation '" + InstName + "'");
        note(R.Pragma->Loc, "one call replaces the region for every instantiation: '" +
                                All.Call + "' and '" + Call + "'");
        return regionError(SourceLocation(), "", "");
      }
      Signatures.emplace_back(InstName, Params);
      All.Definitions += Gen->Definitions;
      All.Call = Call;
    }
    return All;
  };
  // The file's own names: the region's file-scope names must avoid them.
  std::set<std::string> FileNames =
      codeIdentifiersOf(SM.getBufferData(SM.getMainFileID()), Ctx.getLangOpts());
  if (S->PP)
    for (const std::string &Macro : userMacros(*S->PP))
      FileNames.insert(Macro);
  for (const Region &R : Finder.Regions) {
    RegionOutcome O = outcome(*R.Pragma);
    if (!R.Pragma->Valid || Conflicting.count(R.Pragma)) {
      Result.RegionsRejected++;
      Outcomes.push_back(std::move(O));
      continue;
    }
    // The function's name as an identifier: an operator's symbol
    // (`operator()`, `operator-`) becomes underscores.
    std::string Stem = R.F->getNameAsString();
    for (char &Ch : Stem)
      if (!isAlphanumeric(Ch) && Ch != '_')
        Ch = '_';
    std::string Name;
    do
      Name = "tc_" + Stem + "_" + std::to_string(Counter[Stem]++);
    while (stemIsTaken(FileNames, Name + "_"));
    PresumedLoc PL = SM.getPresumedLoc(R.Pragma->Loc);
    // The generated code quotes it in comments and string literals: a
    // quote, a backslash or a control character of a file name becomes _.
    std::string Where = llvm::sys::path::filename(PL.getFilename()).str() +
                        ":" + std::to_string(PL.getLine());
    for (char &Ch : Where)
      if (Ch == '"' || Ch == '\\' || static_cast<unsigned char>(Ch) < 0x20 || Ch == 0x7f)
        Ch = '_';
    // The region's definitions go before its function.
    std::set<std::string> UserMacros;
    if (S->PP)
      UserMacros = userMacros(*S->PP, SM.getExpansionLoc(definitionsAnchor(*R.F, SM)));
    if (std::optional<RegionError> E = placementError(SM, Ctx.getLangOpts(), R);
        E || (E = directiveError(SM, R, S->Directives)) ||
        (E = adjacentStatementPragma(SM, R.Pragma->Loc,
                                     S->PP ? macroPragmas(*S->PP) : MacroPragmaLookup()))) {
      report(*E, R, "");
      Result.RegionsRejected++;
      Outcomes.push_back(std::move(O));
      continue;
    }
    llvm::Expected<GeneratedRegion> Gen =
        R.F->isTemplated()
            ? processTemplate(R, Name, Where, UserMacros)
            : process(Ctx, R, Name, Where, Opts, UserMacros, Result.Explain);
    if (!Gen) {
      llvm::handleAllErrors(Gen.takeError(), [&](const RegionError &E) {
        if (!E.Message.empty()) // else reported per instantiation
          report(E, R, "");
      });
      Result.RegionsRejected++;
      Outcomes.push_back(std::move(O));
      continue;
    }
    // The definitions go before the function: inside a class body they
    // would become members. An out-of-line member definition is at
    // namespace scope, where they are free functions.
    if (const auto *Class = dyn_cast<CXXRecordDecl>(R.F->getLexicalDeclContext())) {
      if (R.F->getFriendObjectKind() != Decl::FOK_None)
        error(R.Pragma->Loc, "'#pragma tc' in a friend function defined inside a class");
      else
        error(R.Pragma->Loc, "'#pragma tc' in a member function defined inside its class");
      note(R.Pragma->Loc, Class->isLocalClass()
                              ? "a local class's functions cannot be defined outside it; "
                                "move the loop nest into a function at namespace scope"
                              : "define the function outside the class body");
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
  // Our #include goes after the file's last #include that comes before
  // every region's definitions, outside any conditional block and any
  // declaration (an `extern "C"` block, a namespace); without one, at the
  // file's start (after a byte order mark). Where a function's
  // definitions go there too, one insertion carries both.
  SourceLocation FileStart = SM.getLocForStartOfFile(SM.getMainFileID());
  if (SM.getBufferData(SM.getMainFileID()).starts_with("\xEF\xBB\xBF"))
    FileStart = FileStart.getLocWithOffset(3);
  // Where a function's code goes: the start of its declaration's line, or,
  // where a block comment ends on that line before the declaration (one
  // that may have started above it), after the comment, on a line of its
  // own (MidLine).
  struct CodePlace {
    SourceLocation At;
    bool MidLine = false;
  };
  auto PlaceOf = [&](const FunctionDecl &F) {
    SourceLocation Anchor = SM.getExpansionLoc(definitionsAnchor(F, SM));
    SourceLocation Line = lineStart(SM, Anchor);
    llvm::StringRef Before = SM.getBufferData(SM.getMainFileID())
                                 .slice(SM.getFileOffset(Line), SM.getFileOffset(Anchor));
    size_t End = Before.rfind("*/");
    return End == llvm::StringRef::npos ? CodePlace{Line}
                                        : CodePlace{Line.getLocWithOffset(End + 2), true};
  };
  std::optional<unsigned> FirstAnchor;
  for (auto &[F, Text] : Definitions) {
    unsigned Off = SM.getFileOffset(PlaceOf(*F).At);
    FirstAnchor = FirstAnchor ? std::min(*FirstAnchor, Off) : Off;
  }
  // What an #include must not be inside: a conditional block, or a
  // declaration of the main file's (an `extern "C"` block, a namespace).
  std::vector<SourceRange> Enclosing = S->Directives.Conditionals;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (D->isImplicit() || D->getBeginLoc().isInvalid())
      continue;
    SourceLocation B = SM.getExpansionLoc(D->getBeginLoc());
    if (SM.isWrittenInMainFile(B))
      Enclosing.push_back({B, SM.getExpansionRange(D->getEndLoc()).getEnd()});
  }
  auto AtFileScope = [&](SourceLocation L) {
    return llvm::none_of(Enclosing, [&](const SourceRange &R) {
      return SM.isBeforeInTranslationUnit(R.getBegin(), L) &&
             SM.isBeforeInTranslationUnit(L, R.getEnd());
    });
  };
  auto IncludeText = [&](SourceLocation At) {
    return runtimeInclude(S->PP ? userMacros(*S->PP, At) : std::set<std::string>());
  };
  std::optional<SourceLocation> IncludeAt;
  for (SourceLocation E : S->Directives.IncludeEnds) {
    SourceLocation End = directiveEnd(SM, E);
    if ((!FirstAnchor || SM.getFileOffset(End) <= *FirstAnchor) && AtFileScope(E))
      IncludeAt = End;
  }
  bool IncludeInDefinitions = false;
  for (auto &[F, Text] : Definitions) {
    Text = fileLocalScope(Text);
    if (inCLinkageBlock(*F))
      Text = "extern \"C++\" {  // the region's kernels and launchers\n\n" + Text + "}\n\n";
    const CodePlace Place = PlaceOf(*F);
    SourceLocation Begin = Place.At;
    if (Place.MidLine)
      Text = "\n" + Text;
    if (!IncludeAt && SM.getFileOffset(Begin) <= SM.getFileOffset(FileStart)) {
      Begin = FileStart;
      Text = IncludeText(FileStart) + "\n" + Text;
      IncludeInDefinitions = true;
    }
    add(Result.Replacements, tooling::Replacement(SM, Begin, 0, Text));
  }
  if (Result.RegionsRewritten && !IncludeInDefinitions) {
    if (IncludeAt) {
      std::string Include = IncludeText(*IncludeAt);
      Include.pop_back(); // the line's own newline ends it
      add(Result.Replacements, tooling::Replacement(SM, *IncludeAt, 0, "\n" + Include));
    } else {
      add(Result.Replacements, tooling::Replacement(SM, FileStart, 0, IncludeText(FileStart)));
    }
  }
  for (RegionOutcome &O : Outcomes)
    Result.Regions.push_back(std::move(O));
  llvm::sort(Result.Regions, [](const RegionOutcome &A, const RegionOutcome &B) {
    return A.PragmaOffset < B.PragmaOffset;
  });
  // A file whose lines end in CR LF gets its inserted lines so too.
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  if (size_t NL = Buffer.find('\n'); NL != llvm::StringRef::npos && NL > 0 && Buffer[NL - 1] == '\r') {
    tooling::Replacements CrLf;
    for (const tooling::Replacement &R : Result.Replacements) {
      std::string Text;
      for (char C : R.getReplacementText()) {
        if (C == '\n' && (Text.empty() || Text.back() != '\r'))
          Text += '\r';
        Text += C;
      }
      add(CrLf, tooling::Replacement(R.getFilePath(), R.getOffset(), R.getLength(), Text));
    }
    Result.Replacements = std::move(CrLf);
  }
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
