//===- TemplateRegions.cpp ------------------------------------------------===//
#include "TemplateRegions.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace tc {
namespace {

class InstantiationCollector : public RecursiveASTVisitor<InstantiationCollector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *F) {
    const FunctionDecl *Pattern = F->getTemplateInstantiationPattern();
    if (Pattern && Pattern != F && F->hasBody() && F->getBody() &&
        (Instances[Pattern].empty() || Instances[Pattern].back() != F))
      Instances[Pattern].push_back(F);
    return true;
  }
  std::map<const FunctionDecl *, std::vector<const FunctionDecl *>> Instances;
};

class StatementFinder : public RecursiveASTVisitor<StatementFinder> {
public:
  explicit StatementFinder(const Stmt &Pattern) : Pattern(Pattern) {}
  bool VisitStmt(Stmt *S) {
    if (!Found && S->getStmtClass() == Pattern.getStmtClass() &&
        S->getBeginLoc() == Pattern.getBeginLoc() && S->getEndLoc() == Pattern.getEndLoc())
      Found = S;
    return !Found;
  }
  const Stmt &Pattern;
  const Stmt *Found = nullptr;
};

} // namespace

std::map<const FunctionDecl *, std::vector<const FunctionDecl *>>
instantiationsByPattern(ASTContext &Ctx) {
  InstantiationCollector C;
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  // A function visited twice (through its template and its redeclaration
  // as an explicit instantiation) is listed once.
  for (auto &[Pattern, List] : C.Instances) {
    std::vector<const FunctionDecl *> Unique;
    for (const FunctionDecl *F : List) {
      bool Seen = false;
      for (const FunctionDecl *U : Unique)
        Seen |= U->getCanonicalDecl() == F->getCanonicalDecl();
      if (!Seen)
        Unique.push_back(F);
    }
    List = std::move(Unique);
  }
  return std::move(C.Instances);
}

const Stmt *instantiatedStatement(const FunctionDecl &Instance, const Stmt &S) {
  StatementFinder Finder(S);
  Finder.TraverseStmt(const_cast<Stmt *>(Instance.getBody()));
  return Finder.Found;
}

std::string instantiationName(const FunctionDecl &Instance) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  Instance.getNameForDiagnostic(OS, Instance.getASTContext().getPrintingPolicy(),
                                /*Qualified=*/true);
  return OS.str();
}

} // namespace tc
