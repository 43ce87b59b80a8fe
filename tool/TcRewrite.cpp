//===- TcRewrite.cpp - the tc-rewrite command line ------------------------===//
//
//   tc-rewrite FILE... (-o OUT | -i | --export-fixes=YAML) [--check]
//              [--arch=sm_90a|sm_80|sm_86|sm_89] [-p BUILD_DIR] [-j N]
//              [--mma-path=auto|sync|wgmma] [--explain] [--warn-only]
//              [--cuda-path=DIR] [-- CLANG_ARGS]
//
// Parses each file as CUDA (host side), rewrites every `#pragma tc` region
// into a tensor-core kernel launch and writes the result. Exit status: 0
// when every region was rewritten (with --check: and every output was up
// to date), 1 when a region was left as written, a file did not parse, a
// write failed or (--check) an output is stale, 2 for usage errors.
//
//===----------------------------------------------------------------------===//
#include "CompileArgs.h"
#include "NvccHostFunctions.h"
#include "LineDirectives.h"
#include "RegionRewriter.h"
#include "UnifiedDiff.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <unistd.h>
#include <set>

using namespace llvm;
using namespace clang::tooling;

static cl::OptionCategory Category("tc-rewrite options");
static cl::opt<std::string> Output("o", cl::desc("Write the rewritten file here"),
                                   cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> InPlace("i", cl::desc("Rewrite the files in place"),
                             cl::cat(Category));
static cl::opt<bool> Check("check",
                           cl::desc("Write nothing; exit 1 and print a unified diff when the "
                                    "output (-o) or the file (-i) is not the rewrite"),
                           cl::cat(Category));
static cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the rewrite as clang Replacements (YAML, for clang-apply-replacements)"),
    cl::value_desc("file.yaml"), cl::cat(Category));
static cl::opt<std::string> DependencyFile(
    "dependency-file",
    cl::desc("With -o: write a Makefile rule of the output's inputs (the file and the "
             "headers it includes that are not system headers) here, as -MD -MF would "
             "(CMake's DEPFILE)"),
    cl::value_desc("file.d"), cl::cat(Category));
static cl::opt<bool> LineDirectives(
    "line-directives",
    cl::desc("With -o: #line directives in the output, so that compilers and debuggers "
             "report the user's code at its lines in the source and the generated code "
             "at its own in the output"),
    cl::cat(Category));
static cl::opt<unsigned> Jobs("j", cl::desc("Process N files in parallel (0: one per core)"),
                              cl::value_desc("N"), cl::init(1), cl::Prefix,
                              cl::cat(Category));
// Threads that generate a region's kernels (0: one per core; with -j over
// several files, 1). Hidden: for measuring.
static cl::opt<unsigned> KernelThreads("kernel-threads", cl::init(0), cl::Hidden,
                                       cl::cat(Category));
static cl::opt<std::string> Arch("arch", cl::desc("Target GPU: sm_90a (default), sm_80, sm_86, sm_89"),
                                 cl::init("sm_90a"), cl::cat(Category));
static cl::opt<std::string> MmaPath(
    "mma-path",
    cl::desc("Main-loop instruction family where a region has no mma clause: auto (default: "
             "wgmma on sm_90a where the region allows it, else mma.sync), sync, wgmma"),
    cl::init("auto"), cl::cat(Category));
static cl::opt<std::string> CudaPath("cuda-path",
                                     cl::desc("CUDA installation (default: $CUDA_PATH or " TC_DEFAULT_CUDA_PATH ")"),
                                     cl::cat(Category));
static cl::list<std::string> TuningDb(
    "tuning-db",
    cl::desc("Measured kernel choices (a tuning database a program built with -DTC_TUNING "
             "wrote): each launcher lists the kernel measured fastest for each GPU and shape "
             "bucket; repeat for several files"),
    cl::value_desc("file.json"), cl::cat(Category));
static cl::opt<bool> Explain("explain",
                             cl::desc("Print each region's isl model and schedule trees instead of rewriting"),
                             cl::cat(Category));
static cl::opt<bool> WarnOnly("warn-only",
                              cl::desc("Report regions that cannot be rewritten as warnings and exit 0 (pre-build use)"),
                              cl::cat(Category));
static cl::opt<bool> PrintIncludeDir("print-include-dir",
                                     cl::desc("Print the directory of the runtime headers (for -I) and exit"),
                                     cl::cat(Category));
// Tests only: simulates another program editing a file between its parse
// and the in-place write.
static cl::opt<std::string> TestingEditBeforeWrite("testing-edit-before-write",
                                                   cl::Hidden, cl::cat(Category));

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
/// interrupted run never leaves a partial file (the temporary is removed on
/// errors and on fatal signals). With \p Unchanged, the file is only
/// replaced while its content still equals it (it was not edited since it
/// was read); the mode of an existing file is kept, and a symbolic link is
/// written through.
static bool writeAtomically(StringRef Path, StringRef Text,
                            const std::string *Unchanged = nullptr) {
  // `-` is standard output; a device, a pipe or a socket (or a link to
  // one: /dev/stdout) is written as it is, which a rename would replace
  // with a file.
  if (Path == "-") {
    outs() << Text;
    outs().flush();
    return !outs().has_error();
  }
  sys::fs::file_status Followed;
  if (!sys::fs::status(Path, Followed, /*Follow=*/true) &&
      llvm::is_contained({sys::fs::file_type::character_file, sys::fs::file_type::block_file,
                          sys::fs::file_type::fifo_file, sys::fs::file_type::socket_file},
                         Followed.type())) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
    if (!EC) {
      OS << Text;
      OS.close();
      EC = OS.error();
      OS.clear_error();
    }
    if (EC)
      errs() << "tc-rewrite: cannot write '" << Path << "': " << EC.message() << "\n";
    return !EC;
  }
  // A link is followed, so that the file it names is replaced, not the
  // link; one to a file yet to be made (a dangling link) too.
  SmallString<256> Target(Path);
  for (int Hops = 0; Hops < 40 && sys::fs::is_symlink_file(Target); ++Hops) {
    char Buf[4096];
    ssize_t N = ::readlink(Target.c_str(), Buf, sizeof Buf);
    if (N <= 0 || N == static_cast<ssize_t>(sizeof Buf))
      break;
    StringRef To(Buf, static_cast<size_t>(N));
    SmallString<256> Next;
    if (!sys::path::is_absolute(To))
      Next = sys::path::parent_path(Target);
    sys::path::append(Next, To);
    Target = Next;
  }
  // The replacement keeps the file's mode and, where this process may give
  // it, its owner and group.
  std::optional<sys::fs::file_status> Existing;
  sys::fs::file_status Status;
  if (!sys::fs::status(Target, Status) && sys::fs::exists(Status))
    Existing = Status;

  SmallString<256> Model(sys::path::parent_path(Target));
  if (Model.empty())
    Model = ".";
  sys::path::append(Model, "." + sys::path::filename(Target).str() + ".tc-%%%%%%");
  int FD;
  SmallString<256> Tmp;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Tmp)) {
    errs() << "tc-rewrite: cannot write next to '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  sys::RemoveFileOnSignal(Tmp);
  auto discard = [&] {
    sys::fs::remove(Tmp);
    sys::DontRemoveFileOnSignal(Tmp);
  };
  if (Existing)
    (void)sys::fs::changeFileOwnership(FD, Existing->getUser(), Existing->getGroup());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      discard();
      errs() << "tc-rewrite: cannot write '" << Path << "': " << EC.message() << "\n";
      return false;
    }
  }
  if (Existing)
    (void)sys::fs::setPermissions(Tmp, Existing->permissions());
  if (Unchanged) {
    if (!TestingEditBeforeWrite.empty()) {
      std::error_code EC;
      raw_fd_ostream Edit(Target, EC, sys::fs::OF_Append);
      Edit << TestingEditBeforeWrite;
    }
    auto Now = MemoryBuffer::getFile(Target, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Now || (*Now)->getBuffer() != *Unchanged) {
      discard();
      errs() << "tc-rewrite: '" << Path
             << "' changed since it was read; not overwritten (run again)\n";
      return false;
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Target)) {
    discard();
    errs() << "tc-rewrite: cannot replace '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  sys::DontRemoveFileOnSignal(Tmp);
  return true;
}

/// `Target: Input Headers...` as Make and Ninja read a dependency file
/// (spaces and `#` escaped, `$` doubled).
static std::string dependencyRule(StringRef Target, StringRef Input,
                                  const std::vector<std::string> &Headers) {
  auto Escaped = [](StringRef Path) {
    std::string E;
    for (char Ch : Path) {
      if (Ch == ' ' || Ch == '#')
        E += '\\';
      if (Ch == '$')
        E += '$';
      E += Ch;
    }
    return E;
  };
  std::string Rule = Escaped(Target) + ": \\\n  " + Escaped(Input);
  for (const std::string &H : Headers)
    Rule += " \\\n  " + Escaped(H);
  return Rule + "\n";
}

namespace {

/// Sends the compiler's "N errors generated." to the file's buffer.
class VerboseToAction : public clang::WrapperFrontendAction {
public:
  VerboseToAction(std::unique_ptr<clang::FrontendAction> A, raw_ostream &OS)
      : WrapperFrontendAction(std::move(A)), OS(OS) {}

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.setVerboseOutputStream(OS);
    return WrapperFrontendAction::BeginInvocation(CI);
  }

private:
  raw_ostream &OS;
};

class BufferedFactory : public FrontendActionFactory {
public:
  BufferedFactory(tc::RewriteActionFactory &Inner, raw_ostream &OS)
      : Inner(Inner), OS(OS) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<VerboseToAction>(Inner.create(), OS);
  }

private:
  tc::RewriteActionFactory &Inner;
  raw_ostream &OS;
};

/// One input file: parsed and rewritten by its own ClangTool, so that
/// several can run in parallel.
struct FileJob {
  std::string File;
  std::string Diagnostics; // compiler output, when buffered (-j)
  std::optional<tc::FileRewrite> Result;
  bool NoCommand = false;
  bool ToolFailed = false; // the compiler reported an error
};

} // namespace

static std::string absolutePath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// Whether paths A and B name one file: the same path, or one file
/// through a link (both exist).
static bool sameFile(StringRef A, StringRef B) {
  if (absolutePath(A) == absolutePath(B))
    return true;
  bool Equal = false;
  return !sys::fs::equivalent(A, B, Equal) && Equal;
}

static void runJob(FileJob &Job, const CompilationDatabase &DB,
                   const std::vector<std::string> &Prepend,
                   const tc::RewriteOptions &Opts, bool Buffered) {
  ClangTool Tool(DB, {Job.File}, std::make_shared<clang::PCHContainerOperations>(),
                 // Each tool its own working directory (not the process's).
                 vfs::createPhysicalFileSystem());
  // nvcc's options files (CMake's Makefile generators put the include
  // directories there), read in the command's directory.
  std::string Directory;
  for (const CompileCommand &C : DB.getCompileCommands(absolutePath(Job.File)))
    Directory = C.Directory;
  Tool.appendArgumentsAdjuster([Directory](const CommandLineArguments &Args, StringRef) {
    return tc::expandNvccOptionsFiles(Args, Directory);
  });
  Tool.appendArgumentsAdjuster(tc::getNvccTranslatingAdjuster());
  // Found in a system directory, so that it is a system header (not an
  // input the --dependency-file names).
  Tool.mapVirtualFile(tc::nvccHostFunctionsPath(), tc::nvccHostFunctionsHeader());
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      {"-isystem", sys::path::parent_path(tc::nvccHostFunctionsPath()).str(), "-include",
       sys::path::filename(tc::nvccHostFunctionsPath()).str()},
      ArgumentInsertPosition::END));
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(Prepend, ArgumentInsertPosition::BEGIN));
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster("-Wno-unknown-cuda-version", ArgumentInsertPosition::END));
  // (Last: the user's extra arguments come in above.)
  Tool.appendArgumentsAdjuster([](const CommandLineArguments &Args, StringRef) {
    return tc::withoutDiagnosticsFormat(Args);
  });
  // Each refused region is an error: the default limit of 20 would hide the
  // later regions' diagnostics. A limit the user passes still wins.
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster("-ferror-limit=0", ArgumentInsertPosition::BEGIN));

  tc::RewriteActionFactory Factory(Opts);
  if (Buffered) {
    raw_string_ostream OS(Job.Diagnostics);
    clang::DiagnosticOptions DiagOpts;
    clang::TextDiagnosticPrinter Printer(OS, DiagOpts);
    Tool.setDiagnosticConsumer(&Printer);
    BufferedFactory Wrapped(Factory, OS);
    // ClangTool prints this line itself, unbuffered: print it in order.
    Tool.setPrintErrorMessage(false);
    Job.ToolFailed = Tool.run(&Wrapped) != 0;
    if (Job.ToolFailed)
      OS << "Error while processing " << absolutePath(Job.File) << ".\n";
  } else {
    Job.ToolFailed = Tool.run(&Factory) != 0;
  }
  // One main file per tool; with several commands for it, the last one's.
  if (!Factory.Results.empty())
    Job.Result = std::move(Factory.Results.begin()->second);
}

static std::optional<std::string> readFile(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

int main(int argc, const char **argv) {
  sys::PrintStackTraceOnErrorSignal(argv[0]);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "tc-rewrite " TC_VERSION " (Clang/LLVM " LLVM_VERSION_STRING ", isl)\n";
  });
  // Without -p or "--", take the files' flags from nothing rather than
  // searching for a compilation database.
  std::vector<const char *> Args(argv, argv + argc);
  bool HasDashDash = false, HasP = false;
  std::optional<std::string> BuildDir;
  for (int I = 1; I < argc && !HasDashDash; ++I) {
    StringRef A(argv[I]);
    HasDashDash |= A == "--";
    if (A == "-p" || A == "--p") {
      HasP = true;
      if (I + 1 < argc)
        BuildDir = argv[I + 1];
    } else if (A.starts_with("-p=") || A.starts_with("--p=")) {
      HasP = true;
      BuildDir = A.split('=').second.str();
    }
  }
  if (!HasDashDash && !HasP)
    Args.push_back("--");
  // Flags after "--" that stop clang before it compiles (only preprocess)
  // leave the driver without the compile job the flags are taken from:
  // clang then parses the files without any of them ("Running without
  // flags."), a rewrite of other code.
  for (int I = 1, After = 0; I < argc; ++I) {
    StringRef A(argv[I]);
    if (!After) {
      After = A == "--";
      continue;
    }
    if (A == "-M" || A == "-MM" || A == "-E" || A == "--preprocess" || A == "-###" ||
        A == "--dependencies" || A == "--user-dependencies") {
      errs() << "tc-rewrite: '" << A << "' after '--' stops clang before it compiles, so "
             << "the files would be parsed without their flags; pass the flags of a compile "
                "(-MD and -MMD are fine)\n";
      return 2;
    }
  }
  // A named build directory without a database would have the files parsed
  // without their flags (their -D and -I): a rewrite of other code.
  if (BuildDir) {
    std::string Why;
    if (!CompilationDatabase::autoDetectFromDirectory(*BuildDir, Why)) {
      errs() << "tc-rewrite: -p " << *BuildDir
             << ": no compilation database (compile_commands.json) there or in a parent "
                "directory\n";
      return 2;
    }
  }
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
  // Each file once, however often (and by whatever path) it is named: a
  // second job on it would repeat its fixes (--export-fixes) or find it
  // changed under -i.
  std::vector<std::string> Files;
  {
    std::set<std::string> Seen;
    for (const std::string &F : Parser->getSourcePathList()) {
      SmallString<256> Real;
      if (sys::fs::real_path(F, Real))
        Real = absolutePath(F);
      if (Seen.insert(std::string(Real)).second)
        Files.push_back(F);
    }
  }
  if (Files.empty()) {
    errs() << "tc-rewrite: no input files (see --help)\n";
    return 2;
  }
  // A file that cannot be read is a usage error, said once, before clang
  // would report it as a failed compile job.
  for (const std::string &F : Files) {
    auto Readable = MemoryBuffer::getFile(F, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Readable) {
      errs() << "tc-rewrite: cannot read '" << F << "': " << Readable.getError().message()
             << "\n";
      return 2;
    }
  }
  auto TargetArch = tc::parseArch(Arch);
  if (!TargetArch) {
    errs() << "tc-rewrite: unknown --arch '" << Arch << "' (sm_90a, sm_80, sm_86, sm_89)\n";
    return 2;
  }
  auto MmaPreference = tc::parseMmaPreference(MmaPath);
  if (!MmaPreference) {
    errs() << "tc-rewrite: unknown --mma-path '" << MmaPath << "' (auto, sync, wgmma)\n";
    return 2;
  }
  if (!sys::fs::is_directory(cudaPath())) {
    errs() << "tc-rewrite: no CUDA installation at '" << cudaPath()
           << "' (--cuda-path, else $CUDA_PATH, else " << TC_DEFAULT_CUDA_PATH << ")\n";
    return 2;
  }
  if (!DependencyFile.empty() && Output.empty()) {
    errs() << "tc-rewrite: --dependency-file names the inputs of -o OUT\n";
    return 2;
  }
  if (LineDirectives && Output.empty()) {
    errs() << "tc-rewrite: --line-directives maps the lines of -o OUT to its source\n";
    return 2;
  }
  if (!Output.empty() && (InPlace || Files.size() != 1)) {
    errs() << "tc-rewrite: -o takes exactly one input file and excludes -i\n";
    return 2;
  }
  if (LineDirectives && sameFile(Output, Files[0])) {
    errs() << "tc-rewrite: --line-directives needs an output other than the source '" << Files[0]
           << "'\n";
    return 2;
  }
  // A file written besides the result must be none of the inputs nor the
  // result, which it would replace.
  for (const auto &[Flag, Path] : {std::pair<const char *, const std::string &>{
                                       "--dependency-file", DependencyFile},
                                   {"--export-fixes", ExportFixes}}) {
    if (Path.empty())
      continue;
    for (const std::string &F : Files)
      if (sameFile(Path, F)) {
        errs() << "tc-rewrite: " << Flag << "=" << Path << " names the input '" << F
               << "', which it would replace\n";
        return 2;
      }
    if (!Output.empty() && sameFile(Path, Output)) {
      errs() << "tc-rewrite: " << Flag << "=" << Path << " names the output -o " << Output
             << ", which it would replace\n";
      return 2;
    }
  }
  if (!DependencyFile.empty() && !ExportFixes.empty() && sameFile(DependencyFile, ExportFixes)) {
    errs() << "tc-rewrite: --dependency-file and --export-fixes name the same file\n";
    return 2;
  }
  if (Check && Output.empty() && !InPlace) {
    errs() << "tc-rewrite: --check compares with -o OUT or (-i) the file itself\n";
    return 2;
  }
  if (Check && !ExportFixes.empty()) {
    errs() << "tc-rewrite: --check writes nothing; it excludes --export-fixes\n";
    return 2;
  }
  if (!Explain && Output.empty() && !InPlace && ExportFixes.empty()) {
    errs() << "tc-rewrite: say where the result goes: -o OUT, -i or --export-fixes=FILE\n";
    return 2;
  }

  std::string GpuArch = *TargetArch == tc::GpuArch::SM90a ? "sm_90a" : Arch.getValue();
  std::vector<std::string> Prepend = {
      "-xcuda", "--cuda-host-only", "--cuda-path=" + cudaPath(),
      "--cuda-gpu-arch=" + GpuArch, "-resource-dir=" TC_CLANG_RESOURCE_DIR,
      "-I" + IncludeDir, "-Wno-unknown-cuda-version"};
  tc::RewriteOptions Opts;
  Opts.Arch = *TargetArch;
  Opts.Mma = *MmaPreference;
  Opts.Explain = Explain;
  Opts.ErrorsAsWarnings = WarnOnly;
  if (!TuningDb.empty()) {
    auto Loaded = tc::TuningDatabase::load(TuningDb);
    if (!Loaded) {
      errs() << "tc-rewrite: " << toString(Loaded.takeError()) << "\n";
      return 2;
    }
    Opts.Tuning = std::make_shared<const tc::TuningDatabase>(std::move(*Loaded));
  }

  const CompilationDatabase &DB = Parser->getCompilations();
  std::vector<FileJob> JobList(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    JobList[I].File = Files[I];
    JobList[I].NoCommand = DB.getCompileCommands(absolutePath(Files[I])).empty();
  }
  unsigned Threads = Jobs == 0 ? hardware_concurrency().compute_thread_count()
                               : Jobs.getValue();
  Threads = std::min<unsigned>(Threads, Files.size());
  bool Buffered = Threads > 1;
  // Files in parallel: each generates its regions' kernels one at a time.
  Opts.KernelThreads = Buffered ? 1 : KernelThreads.getValue();
  std::optional<DefaultThreadPool> Pool;
  std::vector<std::shared_future<void>> Done(JobList.size());
  if (Buffered) {
    Pool.emplace(hardware_concurrency(Threads));
    for (size_t I = 0; I < JobList.size(); ++I)
      if (!JobList[I].NoCommand)
        Done[I] = Pool->async([&, I] { runJob(JobList[I], DB, Prepend, Opts, true); });
  }

  bool Failed = false;
  std::vector<Replacement> Fixes;
  for (size_t I = 0; I < JobList.size(); ++I) {
    FileJob &Job = JobList[I];
    const std::string &File = Job.File;
    if (Job.NoCommand) {
      errs() << "tc-rewrite: no compile command for '" << File
             << "' in the compilation database\n";
      Failed = true;
      continue;
    }
    if (Buffered) {
      Done[I].wait();
      errs() << Job.Diagnostics;
    } else {
      runJob(Job, DB, Prepend, Opts, false);
    }
    Failed |= Job.ToolFailed;
    const tc::FileRewrite *R = Job.Result ? &*Job.Result : nullptr;
    if (!R || R->ParseFailed) {
      errs() << "tc-rewrite: '" << File << "' was not rewritten because it does not parse\n";
      Failed = true;
      continue;
    }
    if (R->RegionsRejected && !WarnOnly)
      Failed = true;
    if (Explain) {
      outs() << R->Explain;
      continue;
    }
    std::string Target = Output.empty() ? File : Output.getValue();
    bool SameFile = InPlace || absolutePath(Target) == absolutePath(File);
    auto NewText = LineDirectives
                       ? tc::applyWithLineDirectives(
                             R->Source, R->Replacements, absolutePath(File),
                             Target == "-" ? std::string("<stdout>") : absolutePath(Target),
                             R->LineMap)
                       : applyAllReplacements(R->Source, R->Replacements);
    if (!NewText) {
      errs() << "tc-rewrite: " << toString(NewText.takeError()) << "\n";
      Failed = true;
      continue;
    }
    if (Check) {
      std::optional<std::string> Current = readFile(Target);
      if (!Current || *Current != *NewText) {
        outs() << tc::unifiedDiff(Current ? *Current : "", *NewText, Target,
                                  Target + " (rewritten)");
        outs().flush();
        errs() << "tc-rewrite: '" << Target << "' "
               << (!Current  ? std::string("does not exist")
                   : SameFile ? std::string("is not rewritten")
                              : "is not the current rewrite of '" + File + "'")
               << "\n";
        Failed = true;
      }
      continue;
    }
    if (!ExportFixes.empty())
      Fixes.insert(Fixes.end(), R->Replacements.begin(), R->Replacements.end());
    // A file rewritten in place into its own text is left alone: a new
    // modification time would rebuild what depends on it (clang-format -i
    // does the same).
    if ((!Output.empty() || InPlace) && !(SameFile && *NewText == R->Source))
      if (!writeAtomically(Target, *NewText, SameFile ? &R->Source : nullptr))
        Failed = true;
    if (!DependencyFile.empty() &&
        !writeAtomically(DependencyFile, dependencyRule(Output, absolutePath(File), R->Headers)))
      Failed = true;
  }
  if (Pool)
    Pool->wait();

  if (!ExportFixes.empty() && !Check && !Explain) {
    TranslationUnitReplacements TUR;
    TUR.MainSourceFile = Files.size() == 1 ? absolutePath(Files[0]) : "";
    TUR.Replacements = std::move(Fixes);
    std::string Yaml;
    raw_string_ostream OS(Yaml);
    yaml::Output Out(OS);
    Out << TUR;
    OS.flush();
    if (!writeAtomically(ExportFixes, Yaml))
      Failed = true;
  }
  return Failed ? 1 : 0;
}
