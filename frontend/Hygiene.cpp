//===- Hygiene.cpp --------------------------------------------------------===//
#include "Hygiene.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

namespace tc {

static constexpr llvm::StringLiteral Prefix = "__tc_u", Suffix = "__";

std::string userNamePlaceholder(unsigned N) {
  return (Prefix + llvm::Twine(N) + Suffix).str();
}

/// N of a placeholder, if `Id` is one.
static std::optional<unsigned> placeholderIndex(llvm::StringRef Id) {
  if (!Id.consume_front(Prefix) || !Id.consume_back(Suffix) || Id.empty())
    return std::nullopt;
  unsigned N;
  if (Id.getAsInteger(10, N) || (Id.size() > 1 && Id.front() == '0'))
    return std::nullopt;
  return N;
}

bool isUserNamePlaceholder(llvm::StringRef Id) { return placeholderIndex(Id).has_value(); }

static bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Calls F(Begin, End) on each identifier of Text.
template <typename Fn> static void forEachIdentifier(llvm::StringRef Text, Fn F) {
  for (size_t I = 0; I < Text.size();) {
    if (!isIdentifierChar(Text[I])) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Text.size() && isIdentifierChar(Text[J]))
      ++J;
    if (!llvm::isDigit(Text[I])) {
      F(I, J);
    } else {
      // isl writes a coefficient against its name (`2i`): a placeholder
      // after the digits is a name of its own.
      size_t D = I;
      while (D < J && llvm::isDigit(Text[D]))
        ++D;
      if (Text.slice(D, J).starts_with("__tc_u"))
        F(D, J);
    }
    I = J;
  }
}

std::string bindPlaceholders(llvm::StringRef Text, const std::vector<std::string> &Names) {
  std::string R;
  R.reserve(Text.size());
  size_t Done = 0;
  forEachIdentifier(Text, [&](size_t B, size_t E) {
    auto N = placeholderIndex(Text.slice(B, E));
    if (!N || *N >= Names.size())
      return;
    R += Text.slice(Done, B);
    R += Names[*N];
    Done = E;
  });
  R += Text.substr(Done);
  return R;
}

std::set<std::string> identifiersOf(llvm::StringRef Text) {
  std::set<std::string> R;
  forEachIdentifier(Text, [&](size_t B, size_t E) { R.insert(Text.slice(B, E).str()); });
  return R;
}

std::set<std::string> codeIdentifiersOf(llvm::StringRef Text,
                                        const clang::LangOptions &LangOpts) {
  return codeIdentifiersOf(Text, LangOpts, /*Qualified=*/true);
}

std::set<std::string> codeIdentifiersOf(llvm::StringRef Text,
                                        const clang::LangOptions &LangOpts, bool Qualified) {
  // Clang's raw lexer, not a hand-written stripper: raw strings, line
  // splices and digraphs are lexed as the compiler will lex them.
  std::string Buffer = Text.str(); // null-terminated, as the lexer needs
  clang::Lexer L(clang::SourceLocation(), LangOpts, Buffer.data(), Buffer.data(),
                 Buffer.data() + Buffer.size());
  std::set<std::string> R;
  clang::Token T;
  bool End, AfterScope = false;
  do {
    End = L.LexFromRawLexer(T);
    bool Skip = AfterScope && !Qualified;
    AfterScope = T.is(clang::tok::coloncolon);
    if (!T.is(clang::tok::raw_identifier) || Skip)
      continue;
    std::string Id = T.getRawIdentifier().str();
    if (T.needsCleaning()) { // a name continued over a line splice
      std::string Clean;
      for (size_t I = 0; I < Id.size(); ++I) {
        size_t J = I + 1;
        while (Id[I] == '\\' && J < Id.size() && llvm::StringRef(" \t\v\f").contains(Id[J]))
          ++J; // Clang takes backslash, blanks, newline as a splice too
        if (Id[I] == '\\' && J < Id.size() && (Id[J] == '\n' || Id[J] == '\r')) {
          I = Id[J] == '\r' && J + 1 < Id.size() && Id[J + 1] == '\n' ? J + 1 : J;
          continue;
        }
        Clean += Id[I];
      }
      Id = std::move(Clean);
    }
    R.insert(Id);
  } while (!End);
  return R;
}

namespace {
clang::LangOptions cudaLangOptions() {
  clang::LangOptions LangOpts;
  LangOpts.CPlusPlus = LangOpts.CPlusPlus11 = LangOpts.CPlusPlus14 =
      LangOpts.CPlusPlus17 = LangOpts.LineComment = LangOpts.Digraphs = true;
  LangOpts.CUDA = true;
  return LangOpts;
}
} // namespace

std::set<std::string> codeIdentifiersOf(llvm::StringRef Text) {
  return codeIdentifiersOf(Text, cudaLangOptions());
}

std::set<std::string> unqualifiedIdentifiersOf(llvm::StringRef Text) {
  return codeIdentifiersOf(Text, cudaLangOptions(), /*Qualified=*/false);
}

std::string definitionBase(llvm::StringRef Spelling) {
  if (Spelling.consume_front("static_cast<") && Spelling.consume_back(")")) {
    auto [Type, Operand] = Spelling.split(">(");
    std::string Base = definitionBase(Operand) + "_as_";
    for (char C : Type)
      Base += clang::isAsciiIdentifierContinue(C) ? C : '_';
    return Base;
  }
  Spelling.consume_front("this->");
  std::string Base;
  bool Computed = false; // a size computed from others
  for (size_t I = 0; I < Spelling.size(); ++I) {
    if (Spelling[I] == '.' || Spelling.substr(I).starts_with("->")) {
      Base += '_';
      I += Spelling[I] == '-';
      continue;
    }
    // A size computed from others (`K / 2`, `(K + 127) / 128`): its
    // operators in words, other characters one '_' each run.
    if (Spelling[I] == '/' || Spelling.substr(I).starts_with(">>")) {
      Base += Spelling[I] == '/' ? "_div_" : "_shr_";
      I += Spelling[I] == '>';
      Computed = true;
      continue;
    }
    if (!clang::isAsciiIdentifierContinue(Spelling[I])) {
      if (!Base.empty() && Base.back() != '_')
        Base += '_';
      Computed = true;
      continue;
    }
    Base += Spelling[I];
  }
  if (!Computed)
    return Base;
  // (No leading '_': `_K` is reserved.)
  while (!Base.empty() && (Base.front() == '_' || clang::isDigit(Base.front())))
    Base.erase(Base.begin());
  while (Base.find("__") != std::string::npos)
    Base.replace(Base.find("__"), 2, "_");
  while (!Base.empty() && Base.back() == '_')
    Base.pop_back();
  return Base.empty() ? "tc_size" : Base;
}

std::vector<std::string> definitionNames(const std::vector<std::string> &Spellings,
                                         const std::set<std::string> &Taken) {
  std::set<std::string> Used;
  std::vector<std::string> R;
  for (const std::string &Spelling : Spellings) {
    const std::string S = definitionBase(Spelling);
    std::string Name = S;
    for (unsigned N = 1; Taken.count(Name) || Used.count(Name); ++N)
      Name = S + "_" + std::to_string(N);
    Used.insert(Name);
    R.push_back(Name);
  }
  return R;
}

namespace {

/// The renaming of one region's model.
class Renamer {
public:
  explicit Renamer(RegionModel &M) : M(M) {}

  void run() {
    for (Parameter &P : M.Params)
      P.Name = name(P.Name);
    for (ScalarInput &S : M.Scalars)
      S.Name = name(S.Name);
    for (Array &A : M.Arrays)
      A.Name = name(A.Name);
    for (Loop &L : M.Loops)
      L.Iterator = name(L.Iterator);
    for (Array &A : M.Arrays)
      for (Polynomial &P : A.Strides)
        P = rename(P);
    for (RegionModel::NarrowValue &V : M.NarrowValues) {
      V.Value = rename(V.Value);
      for (std::string &It : V.Iterators)
        It = renamed(It);
      if (!V.StartOf.empty())
        V.StartOf = renamed(V.StartOf);
    }
    for (Loop &L : M.Loops) {
      L.Lower = rename(L.Lower);
      L.UpperExclusive = rename(L.UpperExclusive);
      L.Shift = rename(L.Shift);
    }
    for (Statement &S : M.Stmts) {
      rename(S.Write);
      for (Access &A : S.Reads)
        rename(A);
      for (AffineExpr &G : S.Guards)
        G = rename(G);
      rename(S.Value.get());
    }
    for (RegionClauses::TempArray &T : M.Clauses.Temp)
      T.Name = renamed(T.Name);
  }

private:
  /// A new placeholder for the entity spelled `Spelling`.
  std::string name(const std::string &Spelling) {
    std::string P = userNamePlaceholder(M.UserNames.size());
    M.UserNames.push_back(Spelling);
    Map.emplace(Spelling, P);
    return P;
  }
  std::string renamed(const std::string &Name) const {
    auto It = Map.find(Name);
    return It == Map.end() ? Name : It->second;
  }
  AffineExpr rename(const AffineExpr &E) const { return E.renamed(Map); }
  Polynomial rename(const Polynomial &P) const {
    Polynomial R;
    for (auto &[Mono, C] : P.Terms) {
      Polynomial::Monomial N;
      for (const std::string &S : Mono)
        N.push_back(renamed(S));
      llvm::sort(N);
      R.Terms[N] += C;
    }
    return R;
  }
  void rename(Access &A) const {
    for (AffineExpr &E : A.Index)
      E = rename(E);
  }
  /// Expression trees share subtrees (a let-binding's value at each use).
  void rename(ExprNode *E) {
    if (!E || !Seen.insert(E).second)
      return;
    if (E->K == ExprNode::Scalar || E->K == ExprNode::Iterator)
      E->Text = renamed(E->Text);
    for (auto &Op : E->Ops)
      rename(Op.get());
  }

  RegionModel &M;
  std::map<std::string, std::string> Map;
  llvm::DenseSet<const ExprNode *> Seen;
};

} // namespace

void usePlaceholderNames(RegionModel &M) { Renamer(M).run(); }

} // namespace tc
