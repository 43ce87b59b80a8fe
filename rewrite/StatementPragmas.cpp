//===- StatementPragmas.cpp -----------------------------------------------===//
#include "StatementPragmas.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <string>
#include <vector>

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
  if ((Rest.consume_front("#") && nextWord(Rest) == "pragma") || Line.starts_with("_Pragma"))
    return LineKind::Skipped;
  return LineKind::Code;
}

RegionError errorAt(const SourceManager &SM, FileID File, llvm::StringRef Buffer,
                    llvm::StringRef Line, const std::string &Name, bool BeforeRegion) {
  const size_t Hash =
      Line.data() - Buffer.data() + Line.size() - Line.ltrim().size();
  return RegionError(SM.getComposedLoc(File, Hash),
                     "'#pragma " + Name + "' applies to the loop that the '#pragma tc' region " +
                         (BeforeRegion ? "after" : "before") + " it replaces",
                     "the region becomes a kernel launch, to which the directive cannot "
                     "apply: remove the directive, or remove '#pragma tc' to keep the loop");
}

} // namespace

std::optional<std::string> statementPragmaName(llvm::StringRef Line) {
  Line = Line.trim();
  // `_Pragma("omp parallel for")` is `#pragma omp parallel for`.
  if (Line.consume_front("_Pragma")) {
    Line = Line.ltrim();
    if (!Line.consume_front("("))
      return std::nullopt;
    Line = Line.ltrim();
    if (!Line.consume_front("\""))
      return std::nullopt;
    Line = Line.take_until([](char C) { return C == '"'; });
  } else if (!Line.consume_front("#") || nextWord(Line) != "pragma") {
    return std::nullopt;
  }
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
                                                   SourceLocation TcPragma,
                                                   const MacroPragmaLookup &Macros) {
  if (TcPragma.isInvalid() || !TcPragma.isFileID())
    return std::nullopt;
  const auto [File, Offset] = SM.getDecomposedLoc(TcPragma);
  bool Invalid = false;
  const llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset > Buffer.size())
    return std::nullopt;
  // Logical lines: a line that ends in a backslash goes on in the next.
  struct Logical {
    llvm::StringRef First; // the first physical line (its `#`)
    std::string Text;      // the whole, the splices removed
  };
  std::vector<Logical> Lines;
  size_t At = 0, Own = 0; // Own: the logical line of the `#pragma tc`
  bool Continues = false;
  while (At <= Buffer.size()) {
    size_t End = Buffer.find('\n', At);
    if (End == llvm::StringRef::npos)
      End = Buffer.size();
    llvm::StringRef Physical = Buffer.slice(At, End).rtrim('\r');
    if (!Continues)
      Lines.push_back({Physical, ""});
    Continues = Physical.ends_with("\\");
    Lines.back().Text += (Continues ? Physical.drop_back() : Physical).str();
    if (At <= Offset && Offset <= End)
      Own = Lines.size() - 1;
    At = End + 1;
  }
  auto Found = [&](const Logical &L, bool BeforeRegion) {
    return errorAt(SM, File, Buffer, L.First, *statementPragmaName(L.Text), BeforeRegion);
  };
  // Code that is a macro expanding to a statement pragma.
  auto ThroughMacro = [&](const Logical &L, bool BeforeRegion) -> std::optional<RegionError> {
    if (!Macros)
      return std::nullopt;
    std::optional<std::string> Name = Macros(L.Text, TcPragma);
    if (!Name)
      return std::nullopt;
    RegionError E = errorAt(SM, File, Buffer, L.First, *Name, BeforeRegion);
    llvm::StringRef Macro = llvm::StringRef(L.Text).trim();
    E.Message += " (through the macro '" + Macro.take_until([](char C) {
                   return C == '(' || isWhitespace(C);
                 }).str() + "')";
    return E;
  };
  for (size_t I = Own; I-- > 0;) {
    const LineKind K = classify(Lines[I].Text);
    if (K == LineKind::StatementPragma)
      return Found(Lines[I], /*BeforeRegion=*/true);
    if (K == LineKind::Code) {
      if (std::optional<RegionError> E = ThroughMacro(Lines[I], /*BeforeRegion=*/true))
        return E;
      break;
    }
  }
  for (size_t I = Own + 1; I < Lines.size(); ++I) {
    const LineKind K = classify(Lines[I].Text);
    if (K == LineKind::StatementPragma)
      return Found(Lines[I], /*BeforeRegion=*/false);
    if (K == LineKind::Code)
      return ThroughMacro(Lines[I], /*BeforeRegion=*/false);
  }
  return std::nullopt;
}

MacroPragmaLookup macroPragmas(Preprocessor &PP) {
  return [&PP](llvm::StringRef Line, SourceLocation Loc) -> std::optional<std::string> {
    // The line: NAME or NAME(ARGUMENT), nothing else.
    llvm::StringRef Rest = Line.trim();
    const llvm::StringRef Name = nextWord(Rest);
    if (Name.empty() || isDigit(Name.front()))
      return std::nullopt;
    Rest = Rest.trim();
    std::optional<llvm::StringRef> Argument;
    if (Rest.consume_front("(") && Rest.consume_back(")"))
      Argument = Rest.trim();
    else if (!Rest.empty() && Rest != ";")
      return std::nullopt;
    // The pragma a macro's expansion holds, through other macros (a few
    // levels: a definition may name itself).
    std::function<std::optional<std::string>(llvm::StringRef, int)> Expand =
        [&](llvm::StringRef Macro, int Depth) -> std::optional<std::string> {
      auto Found = PP.getIdentifierTable().find(Macro);
      const IdentifierInfo *II =
          Found != PP.getIdentifierTable().end() ? Found->getValue() : nullptr;
      if (!II || !II->hasMacroDefinition() || Depth > 4)
        return std::nullopt;
      const MacroInfo *MI = PP.getMacroDefinitionAtLoc(II, Loc).getMacroInfo();
      if (!MI)
        MI = PP.getMacroInfo(II);
      if (!MI)
        return std::nullopt;
      llvm::ArrayRef<Token> Tokens = MI->tokens();
      for (size_t T = 0; T < Tokens.size(); ++T) {
        const Token &Tok = Tokens[T];
        if (Tok.is(tok::identifier) && Tok.getIdentifierInfo()->getName() == "_Pragma" &&
            T + 2 < Tokens.size() && Tokens[T + 1].is(tok::l_paren)) {
          const Token &Operand = Tokens[T + 2];
          if (Operand.is(tok::string_literal) && Operand.getLiteralData())
            return statementPragmaName(
                "_Pragma(" + std::string(Operand.getLiteralData(), Operand.getLength()) + ")");
          // `_Pragma(#x)` of a function-like macro: the argument's text.
          if (Operand.is(tok::hash) && Argument && MI->isFunctionLike())
            return statementPragmaName("#pragma " + Argument->str());
        }
        if (Tok.is(tok::identifier))
          if (auto Inner = Expand(Tok.getIdentifierInfo()->getName(), Depth + 1))
            return Inner;
      }
      return std::nullopt;
    };
    return Expand(Name, 0);
  };
}

} // namespace tc
