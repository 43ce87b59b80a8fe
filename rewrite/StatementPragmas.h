//===- StatementPragmas.h - other tools' pragmas on a region's statement --===//
//
// `#pragma omp parallel for`, `#pragma unroll`, `#pragma clang loop ...` and
// the like apply to the statement that follows them. Next to a region's
// `#pragma tc` (before it, or between it and its loop) such a pragma
// applies to the loop that the rewrite replaces by a launch: the rewritten
// file would not compile (OpenMP wants a loop after its directive) or would
// silently drop what the pragma asked for. Compiled without OpenMP, Clang
// ignores the directive and the region is found as usual; with it, the
// loop is OpenMP's statement and the region is not found at all: both
// cases are told apart here, from the main file's text.
//
//===----------------------------------------------------------------------===//
#ifndef TC_REWRITE_STATEMENTPRAGMAS_H
#define TC_REWRITE_STATEMENTPRAGMAS_H

#include "RegionError.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include <functional>
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tc {

/// The name of the pragma of the directive line `Line` (`#pragma omp
/// parallel for` -> "omp", `#pragma clang loop unroll(full)` -> "clang
/// loop") where it applies to the next statement; nullopt for any other
/// line, `#pragma tc` and pragmas of the file (`once`, `GCC diagnostic`,
/// `message`, ...).
std::optional<std::string> statementPragmaName(llvm::StringRef Line);

/// The statement pragma (statementPragmaName) that the line `Line`, a
/// macro's invocation alone (`OMP_FOR`, `PRAGMA(omp parallel for)`),
/// expands to, where the macro is defined at Loc; nullopt for another line.
using MacroPragmaLookup = std::function<std::optional<std::string>(
    llvm::StringRef Line, clang::SourceLocation Loc)>;

/// A statement pragma on the lines next to the `#pragma tc` at `TcPragma`
/// (a `#` of the main file): on the lines before it up to the previous
/// code, or on those after it up to its statement, skipping blank lines,
/// comments and other pragmas; with `Macros`, also a macro's invocation
/// that expands to one, where the code starts. The error is at that
/// pragma, its note says what to do.
std::optional<RegionError> adjacentStatementPragma(const clang::SourceManager &SM,
                                                   clang::SourceLocation TcPragma,
                                                   const MacroPragmaLookup &Macros = {});

/// MacroPragmaLookup over the macros of PP: an object-like macro whose
/// expansion holds `_Pragma("...")` (through other macros too), or a
/// function-like one whose expansion is `_Pragma(#x)` of its argument.
MacroPragmaLookup macroPragmas(clang::Preprocessor &PP);

} // namespace tc

#endif
