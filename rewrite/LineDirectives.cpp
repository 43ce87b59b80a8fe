//===- LineDirectives.cpp -------------------------------------------------===//
#include "LineDirectives.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tc {

std::string lineDirectivePath(StringRef Path) {
  std::string Literal = "\"";
  for (char C : Path) {
    if (C == '"' || C == '\\')
      Literal += '\\';
    Literal += C;
  }
  return Literal + "\"";
}

namespace {

clang::LangOptions cudaLanguage() {
  clang::LangOptions L;
  L.CPlusPlus = L.CPlusPlus11 = L.CPlusPlus14 = L.CPlusPlus17 = L.CPlusPlus20 = 1;
  L.LineComment = 1;
  L.Digraphs = 1;
  L.CUDA = 1;
  return L;
}

/// The line starts of `Text` (0-terminated at Text.size()) from `From` on at
/// which a directive may go: each follows a newline that no token (comments
/// and literals are tokens here) contains and that no backslash splices.
class SafeLineStarts {
public:
  explicit SafeLineStarts(StringRef Text) : Text(Text) {}

  /// The first such line start at or after `From` and before `Before`, or
  /// npos. `From` must not lie inside a token.
  size_t first(size_t From, size_t Before) const {
    clang::Lexer Lex(clang::SourceLocation(), Language, Text.data(), Text.data() + From,
                     Text.data() + Text.size());
    Lex.SetCommentRetentionState(true);
    size_t Gap = From; // the end of the last token: whitespace from here on
    while (Gap < Before) {
      clang::Token Tok;
      bool AtEnd = Lex.LexFromRawLexer(Tok);
      size_t End = static_cast<size_t>(Lex.getBufferLocation() - Text.data());
      size_t Start = AtEnd ? Text.size() : End - Tok.getLength();
      for (size_t NL = Text.find('\n', Gap); NL < Start && NL < Before;
           NL = Text.find('\n', NL + 1))
        if (!spliced(NL))
          return NL + 1 < Before ? NL + 1 : StringRef::npos;
      if (AtEnd)
        break;
      Gap = End;
    }
    return StringRef::npos;
  }

private:
  /// Whether the newline at `NL` joins its line to the next (a backslash
  /// before it, spaces allowed, as the compilers accept).
  bool spliced(size_t NL) const {
    size_t I = NL;
    while (I > 0 && (Text[I - 1] == '\r' || Text[I - 1] == ' ' || Text[I - 1] == '\t'))
      --I;
    return I > 0 && Text[I - 1] == '\\';
  }

  StringRef Text;
  clang::LangOptions Language = cudaLanguage();
};

} // namespace

/// Whether something that needs its source line follows `From` on its
/// line in Text (before `Limit`, the next replacement): code, a splice
/// that joins the next line to it, or a comment that ends on a later line
/// (code may follow it there). Not blanks, a line comment, or comments
/// that end on the line.
static bool textFollowsOnLine(StringRef Text, size_t From, size_t Limit) {
  for (size_t I = From; I < Text.size() && I < Limit;) {
    char C = Text[I];
    if (C == '\n')
      return false;
    if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++I;
    } else if (Text.substr(I).starts_with("//")) {
      return false;
    } else if (Text.substr(I).starts_with("/*")) {
      size_t Close = Text.find("*/", I + 2);
      if (Close == StringRef::npos)
        return false;
      if (Text.slice(I, Close).contains('\n'))
        return true;
      I = Close + 2;
    } else {
      return true;
    }
  }
  return false;
}

size_t nextLineStartOutsideTokens(StringRef Text, size_t From) {
  size_t At = SafeLineStarts(Text).first(From, Text.size() + 1);
  return At == StringRef::npos ? Text.size() : At;
}

Expected<std::string> applyWithLineDirectives(StringRef Source,
                                              const clang::tooling::Replacements &Replacements,
                                              StringRef SourcePath, StringRef OutputPath,
                                              ArrayRef<PresumedLines> LineMap) {
  // The lexer reads up to a terminating 0.
  const std::string Text = Source.str();
  const SafeLineStarts Safe(Text);
  size_t FirstNL = Source.find('\n');
  const char *EOL = FirstNL != StringRef::npos && FirstNL > 0 && Source[FirstNL - 1] == '\r'
                        ? "\r\n"
                        : "\n";
  const std::string SourceName = lineDirectivePath(SourcePath),
                    OutputName = lineDirectivePath(OutputPath);
  std::string Out;
  size_t OutLines = 0; // newlines in Out
  auto Append = [&](StringRef S) {
    Out += S;
    OutLines += S.count('\n');
  };
  auto AtLineStart = [&] { return Out.empty() || Out.back() == '\n'; };
  // The source's line (1-based) of its offset `At`.
  auto SourceLine = [&](size_t At) { return Source.take_front(At).count('\n') + 1; };
  auto Directive = [&](size_t Line, const std::string &Name) {
    Append(("#line " + Twine(Line) + " " + Name + EOL).str());
  };
  // A directive back to the source's physical line L: as its own #line
  // directives number it.
  auto SourceDirective = [&](size_t L) {
    const PresumedLines *Last = nullptr;
    for (const PresumedLines &P : LineMap)
      if (P.Physical <= L)
        Last = &P;
    if (!Last)
      return Directive(L, SourceName);
    Directive(Last->Presumed + (L - Last->Physical), lineDirectivePath(Last->File));
  };

  size_t Cursor = 0; // the source's text before it is in Out
  const std::vector<clang::tooling::Replacement> List(Replacements.begin(), Replacements.end());
  for (size_t I = 0; I < List.size(); ++I) {
    const clang::tooling::Replacement &R = List[I];
    size_t Offset = R.getOffset(), End = Offset + R.getLength();
    if (Offset < Cursor || End > Source.size())
      return createStringError(inconvertibleErrorCode(),
                               "replacement at offset " + Twine(Offset) +
                                   " lies outside the file or overlaps another");
    Append(Source.slice(Cursor, Offset));
    StringRef Replacement = R.getReplacementText();
    if (AtLineStart() && Replacement.count('\n') > 1)
      Directive(OutLines + 2, OutputName);
    Append(Replacement);
    Cursor = End;
    // The source's text goes on from End, in the output's current line
    // unless the replacement ended one.
    size_t Next = I + 1 < List.size() ? List[I + 1].getOffset() : Source.size() + 1;
    if (AtLineStart()) {
      if (End < Source.size() || Replacement.count('\n') > 1)
        SourceDirective(SourceLine(End));
      continue;
    }
    // Code after the replaced lines on the last of them (`} x = __LINE__;`,
    // or after a splice or a comment that ends on a later line) would
    // share the replacement's output line, and its number: it goes on a
    // line of its own, at its column, numbered as in the source.
    if (SourceLine(End) != SourceLine(Offset) && textFollowsOnLine(Source, End, Next)) {
      Append(EOL);
      SourceDirective(SourceLine(End));
      size_t LineStart = Source.rfind('\n', End - 1);
      Append(std::string(End - (LineStart == StringRef::npos ? 0 : LineStart + 1), ' '));
      continue;
    }
    size_t Resume = Safe.first(End, std::min(Next, Source.size()));
    if (Resume == StringRef::npos)
      continue;
    Append(Source.slice(Cursor, Resume));
    Cursor = Resume;
    SourceDirective(SourceLine(Resume));
  }
  Append(Source.substr(Cursor));
  return Out;
}

} // namespace tc
