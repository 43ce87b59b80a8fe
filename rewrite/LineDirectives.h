//===- LineDirectives.h - the rewrite's lines mapped to their source -----===//
//
// A rewritten file compiled in place of its source (a pre-build step) would
// have the compiler report the user's code at the lines it moved to in the
// output, and `__FILE__` / `__LINE__` name the output. With `#line`
// directives, as parser generators write them, the user's lines keep their
// source's file and line numbers (diagnostics, asserts, debug line tables)
// and the generated code keeps the output's own.
//
//===----------------------------------------------------------------------===//
#ifndef TC_REWRITE_LINEDIRECTIVES_H
#define TC_REWRITE_LINEDIRECTIVES_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace tc {

/// From physical line Physical of a source on (up to the next entry), each
/// line L is line Presumed + (L - Physical) of File: what the source's own
/// `#line` directives make of its lines.
struct PresumedLines {
  unsigned Physical, Presumed;
  std::string File;
};

/// `Replacements` applied to `Source` (the text of the file `SourcePath`),
/// with `#line` directives:
///   - before a replacement of more than one line that starts a line of the
///     output (the generated kernels, launchers and the region's launch),
///     `#line N "OutputPath"`: its lines are the output's own;
///   - after each replacement, at the first line start from which the
///     source's text continues, `#line L "SourcePath"`: that line is the
///     source's line L again.
/// A directive goes only where a line starts outside a comment, a literal
/// or a spliced line; where none does before the next replacement, the
/// lines in between keep the numbers they get. The source's own text is
/// never changed but in one way: code that follows a replacement of
/// several source lines on the last of them (`} x = __LINE__;`) goes on a
/// line of its own, at its column, after its line's directive. Lines end
/// as the source's first does (CR LF or LF). Where the source has `#line`
/// directives of its own (LineMap, in order), a directive back to the
/// source gives the line and file they give (`#line 100 "model.tc"`).
llvm::Expected<std::string>
applyWithLineDirectives(llvm::StringRef Source, const clang::tooling::Replacements &Replacements,
                        llvm::StringRef SourcePath, llvm::StringRef OutputPath,
                        llvm::ArrayRef<PresumedLines> LineMap = {});

/// The offset of the first line start at or after `From` in `Text` (whose
/// byte at Text.size() is 0) that follows a newline outside comments,
/// literals and spliced lines, or Text.size() if none does; `From` must
/// not lie inside a token. Where a directive that starts before `From`
/// ends, or a line may be inserted.
size_t nextLineStartOutsideTokens(llvm::StringRef Text, size_t From);

/// `Path` as a string literal for a `#line` directive.
std::string lineDirectivePath(llvm::StringRef Path);

} // namespace tc

#endif
