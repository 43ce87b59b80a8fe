//===- PragmaHandler.h - records `#pragma tc` and parses its clauses ------===//
#ifndef TC_ANALYSIS_PRAGMAHANDLER_H
#define TC_ANALYSIS_PRAGMAHANDLER_H

#include "Clauses.h"
#include "clang/Lex/Pragma.h"
#include <vector>

namespace tc {

/// Collects every `#pragma tc` of a translation unit in source order. Clause
/// errors are reported at the offending token; the pragma is then kept but
/// marked invalid so that its region is left as written.
class TcPragmaHandler : public clang::PragmaHandler {
public:
  explicit TcPragmaHandler(std::vector<PragmaRecord> &Out)
      : clang::PragmaHandler("tc"), Records(Out) {}
  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;

private:
  std::vector<PragmaRecord> &Records;
};

} // namespace tc

#endif
