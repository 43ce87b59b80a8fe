//===- RegionError.h - why a region cannot be rewritten ------------------===//
#ifndef TC_ANALYSIS_REGIONERROR_H
#define TC_ANALYSIS_REGIONERROR_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/Support/Error.h"
#include <string>

namespace tc {

/// A located reason for leaving a region as written: the construct that
/// cannot be handled, a message, and a note saying what would be needed.
class RegionError : public llvm::ErrorInfo<RegionError> {
public:
  static char ID;
  RegionError(clang::SourceLocation Loc, std::string Message, std::string Note)
      : Loc(Loc), Message(std::move(Message)), Note(std::move(Note)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  clang::SourceLocation Loc;
  std::string Message;
  std::string Note;
};

inline llvm::Error regionError(clang::SourceLocation Loc, std::string Message,
                               std::string Note = "") {
  return llvm::make_error<RegionError>(Loc, std::move(Message), std::move(Note));
}

} // namespace tc

#endif
