//===- TcRewrite.cpp - the tc-rewrite command line ------------------------===//
//
//   tc-rewrite FILE... [-o OUT | -i] [--arch=sm_90a|sm_80|sm_86|sm_89]
//              [-p BUILD_DIR] [--explain] [-- CLANG_ARGS]
//
// Parses each file as CUDA (host side), rewrites every `#pragma tc` region
// into a tensor-core kernel launch and writes the result. Exit status: 0
// when every region was rewritten, 1 when a region was left as written (or
// a file did not parse), 2 for usage errors.
//
//===----------------------------------------------------------------------===//
#include "RegionRewriter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace clang::tooling;

static cl::OptionCategory Category("tc-rewrite options");
static cl::opt<std::string> Output("o", cl::desc("Write the rewritten file here"),
                                   cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> InPlace("i", cl::desc("Rewrite the files in place"),
                             cl::cat(Category));
static cl::opt<std::string> Arch("arch", cl::desc("Target GPU: sm_90a (default), sm_80, sm_86, sm_89"),
                                 cl::init("sm_90a"), cl::cat(Category));
static cl::opt<std::string> CudaPath("cuda-path",
                                     cl::desc("CUDA installation (default: $CUDA_PATH or " TC_DEFAULT_CUDA_PATH ")"),
                                     cl::cat(Category));
static cl::opt<bool> Explain("explain",
                             cl::desc("Print each region's isl model and schedule trees instead of rewriting"),
                             cl::cat(Category));
static cl::opt<bool> WarnOnly("warn-only",
                              cl::desc("Report regions that cannot be rewritten as warnings and exit 0 (pre-build use)"),
                              cl::cat(Category));
static cl::opt<bool> PrintIncludeDir("print-include-dir",
                                     cl::desc("Print the directory of the runtime headers (for -I) and exit"),
                                     cl::cat(Category));

/// The runtime headers: installed next to the tool, or the source tree's.
static std::string runtimeIncludeDir(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, (void *)&runtimeIncludeDir);
  SmallString<256> Installed(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "include");
  SmallString<256> Probe(Installed);
  sys::path::append(Probe, "tc", "tc.cuh");
  if (sys::fs::exists(Probe))
    return std::string(Installed);
  return TC_SOURCE_RUNTIME_HEADERS;
}

static std::string cudaPath() {
  if (!CudaPath.empty())
    return CudaPath;
  if (auto Env = sys::Process::GetEnv("CUDA_PATH"))
    return *Env;
  return TC_DEFAULT_CUDA_PATH;
}

/// Writes through a temporary in the same directory and a rename, so an
/// interrupted run never leaves a partial file.
static bool writeAtomically(StringRef Path, StringRef Text) {
  SmallString<256> Model(sys::path::parent_path(Path));
  if (Model.empty())
    Model = ".";
  sys::path::append(Model, "." + sys::path::filename(Path).str() + ".tc-%%%%%%");
  int FD;
  SmallString<256> Tmp;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Tmp)) {
    errs() << "tc-rewrite: cannot write next to '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      sys::fs::remove(Tmp);
      errs() << "tc-rewrite: write error on '" << Tmp << "'\n";
      return false;
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Path)) {
    sys::fs::remove(Tmp);
    errs() << "tc-rewrite: cannot replace '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  return true;
}

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "tc-rewrite " TC_VERSION " (Clang/LLVM " LLVM_VERSION_STRING ", isl)\n";
  });
  // Without -p or "--", take the files' flags from nothing rather than
  // searching for a compilation database.
  std::vector<const char *> Args(argv, argv + argc);
  bool HasDashDash = false, HasP = false;
  for (int I = 1; I < argc; ++I) {
    StringRef A(argv[I]);
    HasDashDash |= A == "--";
    HasP |= A == "-p" || A.starts_with("-p=") || A.starts_with("--p=");
  }
  if (!HasDashDash && !HasP)
    Args.push_back("--");
  int N = Args.size();
  auto Parser = CommonOptionsParser::create(N, Args.data(), Category, cl::ZeroOrMore,
                                            "tc-rewrite: rewrite '#pragma tc' loop nests into tensor-core kernels\n");
  if (!Parser) {
    errs() << toString(Parser.takeError());
    return 2;
  }
  std::string IncludeDir = runtimeIncludeDir(argv[0]);
  if (PrintIncludeDir) {
    outs() << IncludeDir << "\n";
    return 0;
  }
  const auto &Files = Parser->getSourcePathList();
  if (Files.empty()) {
    errs() << "tc-rewrite: no input files (see --help)\n";
    return 2;
  }
  auto TargetArch = tc::parseArch(Arch);
  if (!TargetArch) {
    errs() << "tc-rewrite: unknown --arch '" << Arch << "' (sm_90a, sm_80, sm_86, sm_89)\n";
    return 2;
  }
  if (!Output.empty() && (InPlace || Files.size() != 1)) {
    errs() << "tc-rewrite: -o takes exactly one input file and excludes -i\n";
    return 2;
  }
  if (!Explain && Output.empty() && !InPlace) {
    errs() << "tc-rewrite: say where the result goes: -o OUT or -i\n";
    return 2;
  }

  ClangTool Tool(Parser->getCompilations(), Files);
  std::string GpuArch = *TargetArch == tc::GpuArch::SM90a ? "sm_90a" : Arch.getValue();
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      {"-xcuda", "--cuda-host-only", "--cuda-path=" + cudaPath(),
       "--cuda-gpu-arch=" + GpuArch, "-resource-dir=" TC_CLANG_RESOURCE_DIR,
       "-I" + IncludeDir, "-Wno-unknown-cuda-version"},
      ArgumentInsertPosition::BEGIN));
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      "-Wno-unknown-cuda-version", ArgumentInsertPosition::END));

  tc::RewriteOptions Opts;
  Opts.Arch = *TargetArch;
  Opts.Explain = Explain;
  Opts.ErrorsAsWarnings = WarnOnly;
  tc::RewriteActionFactory Factory(Opts);
  int ToolStatus = Tool.run(&Factory);

  bool Failed = ToolStatus != 0;
  for (const std::string &File : Files) {
    SmallString<256> Abs(File);
    sys::fs::make_absolute(Abs);
    const tc::FileRewrite *R = nullptr;
    for (auto &[Path, Res] : Factory.Results) {
      SmallString<256> P(Path);
      sys::fs::make_absolute(P);
      sys::path::remove_dots(P, true);
      SmallString<256> A(Abs);
      sys::path::remove_dots(A, true);
      if (P == A)
        R = &Res;
    }
    if (!R || R->ParseFailed) {
      errs() << "tc-rewrite: '" << File << "' was not rewritten because it does not parse\n";
      Failed = true;
      continue;
    }
    if (Explain) {
      outs() << R->Explain;
      continue;
    }
    if (R->RegionsRejected && !WarnOnly)
      Failed = true;
    auto Buf = MemoryBuffer::getFile(File);
    if (!Buf) {
      errs() << "tc-rewrite: cannot read '" << File << "'\n";
      Failed = true;
      continue;
    }
    auto NewText = applyAllReplacements((*Buf)->getBuffer(), R->Replacements);
    if (!NewText) {
      errs() << "tc-rewrite: " << toString(NewText.takeError()) << "\n";
      Failed = true;
      continue;
    }
    std::string Target = Output.empty() ? File : Output.getValue();
    if (!writeAtomically(Target, *NewText))
      Failed = true;
  }
  return Failed ? 1 : 0;
}
