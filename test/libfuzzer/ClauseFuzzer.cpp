//===- ClauseFuzzer.cpp - libFuzzer target: the `#pragma tc` clauses ------===//
//
// tc-fuzz-clauses: the input (its first line; a '\r' ends it too) is the
// text after `#pragma tc` of one pragma, preprocessed with TcPragmaHandler
// (frontend/PragmaHandler.cpp) registered as the tool registers it. A line
// of known clauses follows it. Findings, besides sanitizer reports:
//  - a pragma kept as valid whose clause values break the parser's own
//    rules (tile: 3 sizes, warp: 2, sizes in 1..4096, non-empty mma/stream,
//    temp names unique);
//  - a pragma marked invalid without an error diagnostic;
//  - the following pragma not parsed as written (the parser must skip to
//    the end of a bad line and leave the next one alone).
//
// A few macros are defined first, so that clauses written through macros
// (and _Pragma) are reached too.
//
//===----------------------------------------------------------------------===//
#include "FuzzUtil.h"
#include "PragmaHandler.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Preprocessor.h"
#include <cstdint>
#include <set>

using namespace clang;

namespace {

const char *const Prelude = "#define TC_SIZE 64\n"
                            "#define TC_SIZES 128, 128, 32\n"
                            "#define TC_TILE tile(64, 64, 32)\n"
                            "#define TC_LPAREN (\n"
                            "#define TC_EMPTY\n"
                            "#define TC_PRAGMA(x) _Pragma(#x)\n"
                            "#define TC_STREAM s\n";
// The fuzzed pragma is on line 8; this line of known clauses follows it.
const unsigned SentinelLine = 9;
const char *const Sentinel = "#pragma tc tile(32, 64, 16) stream(s) sync\n";

/// Lexes the whole file with the `#pragma tc` handler registered.
class LexAction : public PreprocessorFrontendAction {
public:
  explicit LexAction(std::vector<tc::PragmaRecord> &Out) : Out(Out) {}

protected:
  void ExecuteAction() override {
    Preprocessor &PP = getCompilerInstance().getPreprocessor();
    PP.AddPragmaHandler(new tc::TcPragmaHandler(Out));
    PP.EnterMainSourceFile();
    Token Tok;
    do
      PP.Lex(Tok);
    while (Tok.isNot(tok::eof));
    SM = &getCompilerInstance().getSourceManager();
    check();
  }

private:
  void check();

  std::vector<tc::PragmaRecord> &Out;
  SourceManager *SM = nullptr;

public:
  std::string Code;
  tc::fuzz::DiagCollector *Diags = nullptr;
};

bool validSize(int V) { return V >= 1 && V <= 4096; }

void LexAction::check() {
  auto fail = [&](const std::string &What) { tc::fuzz::fail(What, Code); };
  unsigned Invalid = 0;
  for (const tc::PragmaRecord &R : Out) {
    const tc::RegionClauses &C = R.Clauses;
    if (tc::fuzz::verbose()) {
      PresumedLoc PL = SM->getPresumedLoc(R.Loc);
      llvm::errs() << "pragma at line " << (PL.isValid() ? PL.getLine() : 0)
                   << (R.Valid ? " valid" : " invalid") << ":";
      if (C.Tile)
        llvm::errs() << " tile(" << (*C.Tile)[0] << "," << (*C.Tile)[1] << ","
                     << (*C.Tile)[2] << ")";
      if (C.Warp)
        llvm::errs() << " warp(" << (*C.Warp)[0] << "," << (*C.Warp)[1] << ")";
      if (C.Stages)
        llvm::errs() << " stages(" << *C.Stages << ")";
      if (C.SplitK)
        llvm::errs() << " split_k(" << *C.SplitK << ")";
      if (C.WarpSplitK)
        llvm::errs() << " warp_split_k(" << *C.WarpSplitK << ")";
      if (C.Mma)
        llvm::errs() << " mma(" << *C.Mma << ")";
      if (C.Stream)
        llvm::errs() << " stream(" << *C.Stream << ")";
      if (C.Sync)
        llvm::errs() << " sync";
      if (C.AllowTf32)
        llvm::errs() << " allow_tf32";
      for (const auto &T : C.Temp)
        llvm::errs() << " temp:" << T.Name;
      llvm::errs() << "\n";
    }
    if (!R.Loc.isValid())
      fail("a pragma record without a location");
    if (!R.Valid) {
      ++Invalid;
      continue;
    }
    if (C.Tile && (C.Tile->size() != 3 || !llvm::all_of(*C.Tile, validSize)))
      fail("a valid pragma with a malformed tile");
    if (C.Warp && (C.Warp->size() != 2 || !llvm::all_of(*C.Warp, validSize)))
      fail("a valid pragma with a malformed warp");
    for (const std::optional<int> *V : {&C.Stages, &C.SplitK, &C.WarpSplitK})
      if (*V && !validSize(**V))
        fail("a valid pragma with an out-of-range integer clause");
    for (const std::optional<std::string> *S : {&C.Mma, &C.Stream})
      if (*S && llvm::StringRef(**S).trim().empty())
        fail("a valid pragma with an empty mma/stream clause");
    std::set<std::string> Names;
    for (const auto &T : C.Temp)
      if (T.Name.empty() || !Names.insert(T.Name).second || !T.Loc.isValid())
        fail("a valid pragma with a bad temp list");
    if (!R.EndLoc.isValid())
      fail("a valid pragma without an end location");
  }
  if (Invalid > Diags->Errors)
    fail("a pragma marked invalid without an error diagnostic");
  // The line after the fuzzed one: as written, unless the fuzzed line
  // reached into it (a trailing backslash, an open comment).
  for (const tc::PragmaRecord &R : Out) {
    if (!R.Loc.isFileID() || SM->getFileID(R.Loc) != SM->getMainFileID() ||
        SM->getSpellingLineNumber(R.Loc) != SentinelLine)
      continue;
    const tc::RegionClauses &C = R.Clauses;
    if (!R.Valid || !C.Tile || *C.Tile != std::vector<int>{32, 64, 16} ||
        C.Warp || C.Stages || C.SplitK || C.WarpSplitK || C.Mma ||
        C.Stream != std::optional<std::string>("s") || !C.Sync ||
        C.AllowTf32 || !C.Temp.empty())
      fail("the pragma after the fuzzed one was not parsed as written");
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef In(reinterpret_cast<const char *>(Data), Size);
  In = In.take_until([](char C) { return C == '\n' || C == '\r'; });
  std::string Code = std::string(Prelude) + "#pragma tc " + In.str() + "\n" +
                     Sentinel + "int after_the_pragmas;\n";
  std::vector<tc::PragmaRecord> Records;
  tc::fuzz::DiagCollector Diags;
  auto Action = std::make_unique<LexAction>(Records);
  Action->Code = Code;
  Action->Diags = &Diags;
  tc::fuzz::runOnCode(std::move(Action), Code, Diags);
  return 0;
}
