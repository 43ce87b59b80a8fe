//===- PragmaHandler.cpp - clause parser for `#pragma tc` -----------------===//
#include "PragmaHandler.h"
#include "clang/Lex/LiteralSupport.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace tc {
namespace {

const char *const kClauseHelp =
    "clauses are tile(BM,BN,BK), warp(WM,WN), stages(S), split_k(P), "
    "warp_split_k(P), mma(m16n8k16), stream(expr), sync, temp(...), allow_tf32";

class ClauseParser {
public:
  ClauseParser(Preprocessor &PP, PragmaRecord &R) : PP(PP), R(R) {}

  void parse() {
    PP.Lex(Tok);
    while (Tok.isNot(tok::eod)) {
      if (!Tok.is(tok::identifier) && !Tok.isAnyIdentifier()) {
        error(Tok.getLocation(), "expected a clause name in '#pragma tc'",
              kClauseHelp);
        return;
      }
      std::string Name = PP.getSpelling(Tok);
      SourceLocation NameLoc = Tok.getLocation();
      // Which of two values was meant is not ours to guess.
      if (auto First = R.Clauses.Locs.find(Name); First != R.Clauses.Locs.end()) {
        SourceLocation FirstLoc = First->second;
        error(NameLoc, "clause '" + Name + "' is given twice in '#pragma tc'", "");
        note(FirstLoc, "'" + Name + "' is first given here");
        return;
      }
      R.Clauses.Locs[Name] = NameLoc;
      PP.Lex(Tok);
      if (Name == "sync") {
        R.Clauses.Sync = true;
      } else if (Name == "allow_tf32") {
        R.Clauses.AllowTf32 = true;
      } else if (Name == "tile" || Name == "warp") {
        unsigned Want = Name == "tile" ? 3 : 2;
        std::vector<int> V;
        if (!parseIntList(NameLoc, Name, V))
          return;
        if (V.size() != Want) {
          error(NameLoc, "clause '" + Name + "' takes " + std::to_string(Want) +
                             " sizes, " + std::to_string(V.size()) + " given",
                Name == "tile" ? "write tile(BM, BN, BK), e.g. tile(128, 128, 32)"
                               : "write warp(WM, WN), e.g. warp(64, 64)");
          return;
        }
        (Name == "tile" ? R.Clauses.Tile : R.Clauses.Warp) = V;
      } else if (Name == "stages" || Name == "split_k" || Name == "warp_split_k") {
        std::vector<int> V;
        if (!parseIntList(NameLoc, Name, V))
          return;
        if (V.size() != 1) {
          error(NameLoc, "clause '" + Name + "' takes one integer", "");
          return;
        }
        (Name == "stages"    ? R.Clauses.Stages
         : Name == "split_k" ? R.Clauses.SplitK
                             : R.Clauses.WarpSplitK) = V[0];
      } else if (Name == "mma" || Name == "stream") {
        std::string Text;
        if (!parseBalancedText(NameLoc, Name, Text))
          return;
        (Name == "mma" ? R.Clauses.Mma : R.Clauses.Stream) = Text;
      } else if (Name == "temp") {
        if (!parseArrayNames(NameLoc, Name))
          return;
      } else {
        error(NameLoc, "unknown clause '" + Name + "' in '#pragma tc'",
              kClauseHelp);
        return;
      }
      if (Tok.is(tok::comma))
        PP.Lex(Tok);
    }
    R.EndLoc = Tok.getLocation();
  }

private:
  bool expectLParen(SourceLocation NameLoc, const std::string &Name) {
    if (Tok.isNot(tok::l_paren)) {
      error(Tok.getLocation(), "expected '(' after '" + Name + "'", "");
      return false;
    }
    PP.Lex(Tok);
    return true;
  }

  /// `( item, item, ... )`: Item checks and records the current token; the
  /// list's punctuation is checked here.
  bool parseList(SourceLocation NameLoc, const std::string &Name,
                 llvm::function_ref<bool()> Item) {
    if (!expectLParen(NameLoc, Name))
      return false;
    while (true) {
      if (!Item())
        return false;
      PP.Lex(Tok);
      if (Tok.is(tok::comma)) {
        PP.Lex(Tok);
        continue;
      }
      if (Tok.is(tok::r_paren)) {
        PP.Lex(Tok);
        return true;
      }
      error(Tok.getLocation(), "expected ',' or ')' in clause '" + Name + "'", "");
      return false;
    }
  }

  bool parseIntList(SourceLocation NameLoc, const std::string &Name,
                    std::vector<int> &Out) {
    return parseList(NameLoc, Name, [&] {
      if (Tok.isNot(tok::numeric_constant)) {
        error(Tok.getLocation(),
              "expected a positive integer in clause '" + Name + "'",
              "sizes must be integer literals, or macros that expand to one (a "
              "pragma's clauses are read before the program's constants)");
        return false;
      }
      std::string Spelling = PP.getSpelling(Tok);
      // Any spelling of an integer literal: 128, 0x80, 128u. (A malformed
      // one gets the error below, not the parser's as well.)
      DiagnosticsEngine &Diags = PP.getDiagnostics();
      const bool Suppressed = Diags.getSuppressAllDiagnostics();
      Diags.setSuppressAllDiagnostics(true);
      NumericLiteralParser Literal(Spelling, Tok.getLocation(), PP.getSourceManager(),
                                   PP.getLangOpts(), PP.getTargetInfo(), Diags);
      Diags.setSuppressAllDiagnostics(Suppressed);
      llvm::APInt Value(64, 0);
      if (Literal.hadError || !Literal.isIntegerLiteral() || Literal.GetIntegerValue(Value) ||
          Value.isZero() || Value.ugt(4096)) {
        error(Tok.getLocation(),
              "invalid size '" + Spelling + "' in clause '" + Name + "'",
              "sizes must be integers from 1 to 4096");
        return false;
      }
      Out.push_back(int(Value.getZExtValue()));
      return true;
    });
  }

  /// temp(X, Y, ...): each name once, at least one.
  bool parseArrayNames(SourceLocation NameLoc, const std::string &Name) {
    return parseList(NameLoc, Name, [&] {
      if (!Tok.is(tok::identifier)) {
        error(Tok.getLocation(), "expected an array name in clause '" + Name + "'",
              "write temp(X) or temp(X, Y): the arrays the region writes whose values are "
              "dead after it");
        return false;
      }
      std::string Array = PP.getSpelling(Tok);
      for (const RegionClauses::TempArray &Seen : R.Clauses.Temp)
        if (Seen.Name == Array) {
          error(Tok.getLocation(), "'" + Array + "' is named twice in clause '" + Name + "'",
                "");
          note(Seen.Loc, "'" + Array + "' is first named here");
          return false;
        }
      R.Clauses.Temp.push_back({Array, Tok.getLocation()});
      return true;
    });
  }

  bool parseBalancedText(SourceLocation NameLoc, const std::string &Name,
                         std::string &Out) {
    if (!expectLParen(NameLoc, Name))
      return false;
    int Depth = 1;
    while (Tok.isNot(tok::eod)) {
      if (Tok.is(tok::l_paren))
        ++Depth;
      if (Tok.is(tok::r_paren) && --Depth == 0) {
        PP.Lex(Tok);
        if (llvm::StringRef(Out).trim().empty()) {
          error(NameLoc, "clause '" + Name + "' needs an argument", "");
          return false;
        }
        return true;
      }
      // The launch evaluates the expression once, where the source (its
      // pragma ignored) never does: an increment or assignment in it
      // would be an effect the program did not have.
      if (Tok.isOneOf(tok::plusplus, tok::minusminus, tok::equal, tok::plusequal,
                      tok::minusequal, tok::starequal, tok::slashequal, tok::percentequal,
                      tok::ampequal, tok::pipeequal, tok::caretequal, tok::lesslessequal,
                      tok::greatergreaterequal)) {
        error(Tok.getLocation(),
              "'" + PP.getSpelling(Tok) + "' in clause '" + Name + "' is a side effect",
              "the launch evaluates the clause once, where the loops as written never do; "
              "compute the value before the region");
        return false;
      }
      if (!Out.empty() && Tok.hasLeadingSpace())
        Out += ' ';
      Out += PP.getSpelling(Tok);
      PP.Lex(Tok);
    }
    error(Tok.getLocation(), "expected ')' to close clause '" + Name + "'", "");
    return false;
  }

  void error(SourceLocation Loc, const std::string &Msg,
             const std::string &Note) {
    R.Diagnostics.push_back({Loc, Msg, /*IsNote=*/false});
    if (!Note.empty())
      note(Loc, Note);
    R.Valid = false;
    // Skip the rest of the line so the next pragma parses on its own.
    while (Tok.isNot(tok::eod))
      PP.Lex(Tok);
  }

  void note(SourceLocation Loc, const std::string &Msg) {
    R.Diagnostics.push_back({Loc, Msg, /*IsNote=*/true});
  }

  Preprocessor &PP;
  PragmaRecord &R;
  Token Tok;
};

} // namespace

void TcPragmaHandler::HandlePragma(Preprocessor &PP, PragmaIntroducer Intro,
                                   Token &FirstToken) {
  PragmaRecord R;
  R.Loc = Intro.Loc;
  ClauseParser(PP, R).parse();
  Records.push_back(std::move(R));
}

} // namespace tc
