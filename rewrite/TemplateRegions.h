//===- TemplateRegions.h - regions in templates, per instantiation --------===//
//
// A region inside a function template (or a member function of a class
// template) is dependent where it is written: its element types are
// template parameters. The region is checked and generated once per
// instantiation in the translation unit, on the instantiated body, and the
// launchers of the instantiations overload one name, which the rewritten
// template calls (RegionRewriter.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_TEMPLATEREGIONS_H
#define TC_TRANSFORMS_TEMPLATEREGIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <map>
#include <vector>

namespace tc {

/// The instantiations with a body of each templated function of the
/// translation unit, by their pattern, in the order the AST holds them.
std::map<const clang::FunctionDecl *, std::vector<const clang::FunctionDecl *>>
instantiationsByPattern(clang::ASTContext &Ctx);

/// The statement of Instance's body instantiated from the pattern's
/// statement S (the same class of statement over the same source range),
/// or null.
const clang::Stmt *instantiatedStatement(const clang::FunctionDecl &Instance,
                                         const clang::Stmt &S);

/// `gemm<__half>`: the instantiation's name with its template arguments.
std::string instantiationName(const clang::FunctionDecl &Instance);

} // namespace tc

#endif
