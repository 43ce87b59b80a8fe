//===- Hygiene.h - names the generator cannot confuse with the user's ----===//
//
// The region's names (parameters, scalars, arrays, iterators) meet two
// namespaces that the user does not control: isl's (whose parser reads a
// tuple variable that shares a parameter's name as that parameter, and has
// keywords such as `min` and `mod`) and the generated code's (kernel locals,
// isl's loop iterators `c0`, the runtime's functions). Matching by spelling
// lets a user's `k` capture a schedule's tuple variable `k` and silently
// change the kernel.
//
// So the model never carries a user's spelling past extraction: each named
// entity is replaced by a placeholder `__tc_u<N>__`, a reserved identifier
// that no other name of the generator or isl takes. Once a region's code is
// generated, the placeholders are bound: in the definitions to the user's
// spelling where nothing the generator emitted and no user macro has that
// spelling (else to the first free `<spelling>_<n>`), and in the call that
// replaces the region (whose arguments are evaluated in the user's scope)
// and in diagnostics to the spelling itself.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_HYGIENE_H
#define TC_ANALYSIS_HYGIENE_H

#include "Model.h"
#include "clang/Basic/LangOptions.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <set>
#include <string>

namespace tc {

/// The placeholder of the N-th user name of a region.
std::string userNamePlaceholder(unsigned N);

/// Whether `Id` is an identifier of the placeholder form.
bool isUserNamePlaceholder(llvm::StringRef Id);

/// Replaces every user name in `M` (parameters, scalars, arrays, loop
/// iterators, and each reference to them: strides, subscripts, bounds,
/// expression leaves, temp clause) by its placeholder, and records the
/// spellings in `M.UserNames`.
void usePlaceholderNames(RegionModel &M);

/// `Text` with each placeholder replaced by `Names[N]`; placeholders
/// without an entry are kept.
std::string bindPlaceholders(llvm::StringRef Text,
                             const std::vector<std::string> &Names);

/// The identifiers of C or isl text (letters, digits and '_', not starting
/// with a digit), comments and string literals included.
std::set<std::string> identifiersOf(llvm::StringRef Text);

/// The identifiers of C++ code outside its comments and literals, as
/// Clang's raw lexer sees them (no macro expansion), under `LangOpts` or
/// CUDA C++17.
std::set<std::string> codeIdentifiersOf(llvm::StringRef Text,
                                        const clang::LangOptions &LangOpts);
std::set<std::string> codeIdentifiersOf(llvm::StringRef Text);
/// With Qualified false, without the names that follow `::`.
std::set<std::string> codeIdentifiersOf(llvm::StringRef Text,
                                        const clang::LangOptions &LangOpts, bool Qualified);

/// The identifiers of CUDA C++ code that a name in scope could capture:
/// codeIdentifiersOf without those after `::` (`tc::sm90::Major::K` is
/// found in its enum whatever the user's `K` is; macros, which rewrite
/// qualified names too, are set aside around the code instead).
std::set<std::string> unqualifiedIdentifiersOf(llvm::StringRef Text);

/// The identifier the definitions build the name of a user's entity from:
/// its spelling, or for a member read as a size (`d.m`, `p->dims.m`,
/// `this->m`) the path without `this`, joined by '_' (`d_m`, `p_dims_m`,
/// `m`); for a size converted as the source converts it
/// (`static_cast<int>(n)`), the operand's and the type's (`n_as_int`).
std::string definitionBase(llvm::StringRef Spelling);

/// The names the definitions give to the user's entities: each spelling,
/// unless `Taken` holds it or an earlier entity took it, then the first
/// free `<spelling>_<n>`.
std::vector<std::string> definitionNames(const std::vector<std::string> &Spellings,
                                         const std::set<std::string> &Taken);

} // namespace tc

#endif
