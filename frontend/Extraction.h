//===- Extraction.h - Clang AST of a region -> RegionModel ----------------===//
#ifndef TC_ANALYSIS_EXTRACTION_H
#define TC_ANALYSIS_EXTRACTION_H

#include "Model.h"
#include "RegionError.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace tc {

/// Reads the statement annotated by a `#pragma tc` (a `for` nest or a block
/// of nests) into a RegionModel. Fails with a RegionError located at the
/// first construct outside the affine, side-effect-free subset.
llvm::Expected<RegionModel> extractRegion(clang::ASTContext &Ctx,
                                          const clang::FunctionDecl &F,
                                          const clang::Stmt &Region,
                                          const RegionClauses &Clauses);

} // namespace tc

#endif
