//===- UnifiedDiff.h - line-based unified diff for --check ----------------===//
//
// The `diff -u` of two texts, for `tc-rewrite --check`: Myers' O((N+M)D)
// shortest edit script on lines, printed as hunks with three lines of
// context (GNU conventions: `@@ -l,s +l,s @@`, a size of 1 omitted, and
// "\ No newline at end of file" after a last line without one).
//
//===----------------------------------------------------------------------===//
#ifndef TC_TOOL_UNIFIEDDIFF_H
#define TC_TOOL_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace tc {

/// Empty when the texts are equal; otherwise the `---`/`+++` header lines
/// and the hunks.
std::string unifiedDiff(llvm::StringRef Old, llvm::StringRef New,
                        llvm::StringRef OldLabel, llvm::StringRef NewLabel,
                        unsigned Context = 3);

} // namespace tc

#endif
