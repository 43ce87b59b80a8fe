//===- RegionTestUtil.h - parse a snippet and extract its region ---------===//
//
// Shared by the unit tests that need a RegionModel: the snippet is parsed
// with Clang (no CUDA headers; a tiny `__half` stand-in is prepended), the
// named function is found, and the first `for` statement of its body (the
// statement a `#pragma tc` would annotate) is handed to extractRegion.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TEST_UNIT_REGIONTESTUTIL_H
#define TC_TEST_UNIT_REGIONTESTUTIL_H

#include "Extraction.h"
#include "IslBuild.h"
#include "IslModel.h"
#include "MatmulIdiom.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <memory>
#include <optional>
#include <string>

namespace tc {
namespace test {

/// Stand-ins for cuda_fp16.h: Extraction recognises the record by its
/// name, and takes only the libraries' functions (declared in system
/// headers), so they are a system header's, as the real ones are.
inline const char *HalfHeader =
    "struct __half { __half(float); operator float() const; };\n"
    "float __half2float(__half);\n"
    "__half __float2half(float);\n"
    "float fmaxf(float, float); float fminf(float, float); float expf(float);\n"
    "float tanhf(float); float logf(float); float rsqrtf(float); float sqrtf(float);\n"
    "float powf(float, float); float erff(float);\n";
inline const char *HalfPrelude = "#include <tc_test_fp16.h>\n";

/// `Code` parsed as C++ with `Args`, HalfPrelude's header on the system
/// include path.
inline std::unique_ptr<clang::ASTUnit> buildTestAST(const std::string &Code,
                                                    std::vector<std::string> Args) {
  Args.push_back("-isystem/tc-test-system");
  return clang::tooling::buildASTFromCodeWithArgs(
      Code, Args, "input.cc", "clang-tool", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(),
      {{"/tc-test-system/tc_test_fp16.h", HalfHeader}});
}

/// Number of lines of HalfPrelude (snippet line N is file line N + this).
inline unsigned preludeLines() {
  unsigned N = 0;
  for (const char *P = HalfPrelude; *P; ++P)
    N += *P == '\n';
  return N;
}

/// 1-based line of the first occurrence of `Needle` in `Code` (0 if absent).
inline unsigned lineOf(const std::string &Code, const std::string &Needle) {
  size_t Pos = Code.find(Needle);
  if (Pos == std::string::npos)
    return 0;
  unsigned Line = 1;
  for (size_t I = 0; I < Pos; ++I)
    Line += Code[I] == '\n';
  return Line;
}

/// An isl context freed at the end of its scope. Declare it before every
/// isl object that uses it (members and locals are destroyed in reverse).
struct OwnedIslCtx {
  isl::ctx Ctx = makeIslContext();
  OwnedIslCtx() = default;
  OwnedIslCtx(OwnedIslCtx &&O) : Ctx(O.Ctx.release()) {}
  OwnedIslCtx(const OwnedIslCtx &) = delete;
  OwnedIslCtx &operator=(const OwnedIslCtx &) = delete;
  OwnedIslCtx &operator=(OwnedIslCtx &&) = delete;
  ~OwnedIslCtx() {
    if (Ctx.get())
      isl_ctx_free(Ctx.release());
  }
};

/// What went wrong, copied out of a RegionError.
struct ErrorInfo {
  std::string Message;
  std::string Note;
  clang::SourceLocation Loc;
  bool IsRegionError = false;
};

/// The result of extracting the region of one snippet.
struct Extracted {
  std::unique_ptr<clang::ASTUnit> AST;
  std::string Code; // the whole parsed file, prelude included
  const clang::FunctionDecl *Function = nullptr;
  const clang::Stmt *Region = nullptr;
  std::optional<RegionModel> Model;
  std::optional<ErrorInfo> Error;

  bool ok() const { return Model.has_value(); }
  /// Line of a location in the parsed file.
  unsigned line(clang::SourceLocation L) const {
    return AST->getSourceManager().getSpellingLineNumber(L);
  }
  /// Line (in the parsed file) of the first occurrence of `Needle`.
  unsigned lineOf(const std::string &Needle) const {
    return test::lineOf(Code, Needle);
  }
};

/// Copies a RegionError (or any other error) into an ErrorInfo, consuming it.
inline ErrorInfo takeError(llvm::Error E) {
  ErrorInfo Info;
  llvm::handleAllErrors(
      std::move(E),
      [&](const RegionError &RE) {
        Info.Message = RE.Message;
        Info.Note = RE.Note;
        Info.Loc = RE.Loc;
        Info.IsRegionError = true;
      },
      [&](const llvm::ErrorInfoBase &EI) { Info.Message = EI.message(); });
  return Info;
}

/// isl's text of the object Build makes in a context of its own.
template <typename F> std::string islText(F Build) {
  isl::ctx Ctx = makeIslContext();
  std::string Text;
  try {
    Text = islStr(Build(Ctx));
  } catch (const isl::exception &E) {
    Text = std::string("isl error: ") + E.what();
  }
  isl_ctx_free(Ctx.release());
  return Text;
}
/// The model's sets and relations (IslBuild.h) as isl prints them.
inline std::string domainText(const RegionModel &M, const Statement &S) {
  return islText([&](isl::ctx C) { return domainSet(C, M, S); });
}
inline std::string accessText(const RegionModel &M, const Statement &S, const Access &A) {
  return islText([&](isl::ctx C) { return accessMap(C, M, S, A); });
}
inline std::string scheduleText(const RegionModel &M, const Statement &S, unsigned Depth) {
  return islText([&](isl::ctx C) { return scheduleMap(C, M, S, Depth); });
}
inline std::string contextText(const RegionModel &M) {
  return islText([&](isl::ctx C) { return contextSet(C, M); });
}

/// Parses `Snippet` (after the __half prelude) as C++17 and extracts the
/// region of function `FunctionName`: the first `for` or `{ }` block of
/// its body.
inline Extracted extract(const std::string &Snippet,
                         const std::string &FunctionName = "gemm",
                         const RegionClauses &Clauses = {}) {
  Extracted R;
  R.Code = std::string(HalfPrelude) + Snippet;
  R.AST = buildTestAST(R.Code, {"-xc++", "-std=c++17", "-Wno-unused-value"});
  if (!R.AST)
    return R;
  for (const clang::Decl *D :
       R.AST->getASTContext().getTranslationUnitDecl()->decls()) {
    const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D);
    if (!FD || FD->getNameAsString() != FunctionName || !FD->hasBody())
      continue;
    R.Function = FD;
    const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(FD->getBody());
    for (const clang::Stmt *S : Body->body())
      if (llvm::isa<clang::ForStmt>(S) || llvm::isa<clang::CompoundStmt>(S)) {
        R.Region = S;
        break;
      }
  }
  if (!R.Function || !R.Region)
    return R;
  auto M = extractRegion(R.AST->getASTContext(), *R.Function, *R.Region,
                         Clauses);
  if (M)
    R.Model = std::move(*M);
  else
    R.Error = takeError(M.takeError());
  return R;
}

/// The canonical GEMM of samples/gemm.cu (scalar accumulator).
inline const char *CanonicalGemm =
    "void gemm(int M, int N, int K, const __half *__restrict__ A,\n"
    "          const __half *__restrict__ B, __half *__restrict__ C) {\n"
    "  for (int i = 0; i < M; ++i)\n"
    "    for (int j = 0; j < N; ++j) {\n"
    "      float acc = 0.0f;\n"
    "      for (int k = 0; k < K; ++k)\n"
    "        acc += __half2float(A[i * K + k]) * __half2float(B[k * N + j]);\n"
    "      C[i * N + j] = __float2half(acc);\n"
    "    }\n"
    "}\n";

} // namespace test
} // namespace tc

#endif
