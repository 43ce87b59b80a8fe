//===- StatementPragmas.cpp -----------------------------------------------===//
#include "StatementPragmas.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace tc {
namespace {

/// The identifier at the start of S (after blanks), and S after it.
llvm::StringRef nextWord(llvm::StringRef &S) {
  S = S.ltrim();
  size_t N = 0;
  while (N < S.size() && isAsciiIdentifierContinue(S[N]))
    ++N;
  llvm::StringRef Word = S.take_front(N);
  S = S.drop_front(N);
  return Word;
}

enum class LineKind { Skipped, StatementPragma, Code };

/// What a line between a `#pragma tc` and the code around it is: blank, a
/// comment or a pragma of the file (skipped), a statement pragma, or code
/// (or another directive), where the search stops.
LineKind classify(llvm::StringRef Line) {
  Line = Line.trim();
  if (Line.empty() || Line.starts_with("//") || Line.starts_with("/*") ||
      Line.starts_with("*"))
    return LineKind::Skipped;
  if (statementPragmaName(Line))
    return LineKind::StatementPragma;
  llvm::StringRef Rest = Line;
  if (Rest.consume_front("#") && nextWord(Rest) == "pragma")
    return LineKind::Skipped;
  return LineKind::Code;
}

RegionError errorAt(const SourceManager &SM, FileID File, llvm::StringRef Buffer,
                    llvm::StringRef Line, bool BeforeRegion) {
  const size_t Hash = Line.data() - Buffer.data() + Line.find('#');
  const std::string Name = *statementPragmaName(Line);
  return RegionError(SM.getComposedLoc(File, Hash),
                     "'#pragma " + Name + "' applies to the loop that the '#pragma tc' region " +
                         (BeforeRegion ? "after" : "before") + " it replaces",
                     "the region becomes a kernel launch, to which the directive cannot "
                     "apply: remove the directive, or remove '#pragma tc' to keep the loop");
}

} // namespace

std::optional<std::string> statementPragmaName(llvm::StringRef Line) {
  Line = Line.trim();
  if (!Line.consume_front("#") || nextWord(Line) != "pragma")
    return std::nullopt;
  const llvm::StringRef First = nextWord(Line);
  // Loop and parallelism pragmas of OpenMP, OpenACC, CUDA, Clang and GCC.
  for (llvm::StringRef Single : {"omp", "acc", "unroll", "nounroll", "ivdep", "simd", "vector",
                                 "novector", "loop_count"})
    if (First == Single)
      return First.str();
  const llvm::StringRef Second = nextWord(Line);
  if ((First == "clang" && Second == "loop") ||
      (First == "GCC" && (Second == "unroll" || Second == "ivdep" || Second == "novector")))
    return (First + " " + Second).str();
  return std::nullopt;
}

std::optional<RegionError> adjacentStatementPragma(const SourceManager &SM,
                                                   SourceLocation TcPragma) {
  if (TcPragma.isInvalid() || !TcPragma.isFileID())
    return std::nullopt;
  const auto [File, Offset] = SM.getDecomposedLoc(TcPragma);
  bool Invalid = false;
  const llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset > Buffer.size())
    return std::nullopt;
  const size_t LineBegin = Buffer.rfind('\n', Offset) == llvm::StringRef::npos
                               ? 0
                               : Buffer.rfind('\n', Offset) + 1;
  // Before the pragma, nearest line first.
  llvm::SmallVector<llvm::StringRef> Lines;
  Buffer.take_front(LineBegin).split(Lines, '\n');
  for (auto Line = Lines.rbegin(); Line != Lines.rend(); ++Line) {
    const LineKind K = classify(*Line);
    if (K == LineKind::StatementPragma)
      return errorAt(SM, File, Buffer, *Line, /*BeforeRegion=*/true);
    if (K == LineKind::Code)
      break;
  }
  // After it, from the line after the pragma's own (continued) line.
  Lines.clear();
  Buffer.drop_front(Offset).split(Lines, '\n');
  size_t First = 0;
  while (First < Lines.size() && Lines[First].rtrim().ends_with("\\"))
    ++First;
  for (size_t I = First + 1; I < Lines.size(); ++I) {
    const LineKind K = classify(Lines[I]);
    if (K == LineKind::StatementPragma)
      return errorAt(SM, File, Buffer, Lines[I], /*BeforeRegion=*/false);
    if (K == LineKind::Code)
      break;
  }
  return std::nullopt;
}

} // namespace tc
