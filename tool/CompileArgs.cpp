//===- CompileArgs.cpp ----------------------------------------------------===//
#include "CompileArgs.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include <algorithm>
#include <cstring>

using namespace llvm;
using clang::tooling::CommandLineArguments;

namespace tc {
namespace {

enum class Action {
  Drop,          // no value; removed
  DropValue,     // takes a value; both removed
  HostOptions,   // -Xcompiler A,B: A and B are host (= Clang) options
  Std,           // --std X: -std=X
  Optimize,      // --optimize X: -OX
  Debug,         // --debug: -g
  NoExceptions,  // --no-exceptions: -fno-exceptions
  M64,           // --m64, --machine 64: -m64 (machine takes a value)
  Silence,       // --disable-warnings: -w
  ClangList,     // takes a comma-separated list, each item given to Clang
                 // with the prefix in Clang (e.g. --include-path a,b: -Ia -Ib)
  ClangValue,    // takes a value, given to Clang as Clang=value
};

struct NvccOption {
  const char *Long;  // without "--"; nullptr when none
  const char *Short; // without "-"; nullptr when none
  Action Act;
  const char *Clang = nullptr; // ClangList prefix / ClangValue option
};

// nvcc 13's options (nvcc --help). Options Clang spells the same way in their
// short form (-D, -I, -U, -isystem, -include, -O2, -g, -c, -w, -std=,
// -M*, -o, -Wno-deprecated-declarations, -ftemplate-depth=) are only listed
// for their long forms; Clang's own dependency and output options are
// removed by the ClangTool's default adjusters.
const NvccOption Options[] = {
    // Compilation phases and outputs.
    {"cuda", "cuda", Action::Drop},
    {"cubin", "cubin", Action::Drop},
    {"fatbin", "fatbin", Action::Drop},
    {"ptx", "ptx", Action::Drop},
    {"optix-ir", "optix-ir", Action::Drop},
    {"ltoir", "ltoir", Action::Drop},
    {"preprocess", "E", Action::Drop},
    {"generate-dependencies", nullptr, Action::Drop},
    {"generate-nonsystem-dependencies", nullptr, Action::Drop},
    {"generate-dependencies-with-compile", nullptr, Action::Drop},
    {"generate-nonsystem-dependencies-with-compile", nullptr, Action::Drop},
    {"dependency-output", nullptr, Action::DropValue},
    {"generate-dependency-targets", nullptr, Action::Drop},
    {"dependency-target-name", nullptr, Action::DropValue},
    {"compile", nullptr, Action::Drop},
    {"device-c", "dc", Action::Drop},
    {"device-w", "dw", Action::Drop},
    {"device-link", "dlink", Action::Drop},
    {"link", "link", Action::Drop},
    {"lib", "lib", Action::Drop},
    {"run", "run", Action::Drop},
    {"output-file", nullptr, Action::DropValue},
    {"objdir-as-tempdir", "objtemp", Action::Drop},
    {"output-directory", "odir", Action::DropValue},
    // Files and paths.
    {"pre-include", nullptr, Action::ClangList, "-include"},
    {"library", nullptr, Action::DropValue},
    {"define-macro", nullptr, Action::ClangList, "-D"},
    {"undefine-macro", nullptr, Action::ClangList, "-U"},
    {"include-path", nullptr, Action::ClangList, "-I"},
    {"system-include", nullptr, Action::ClangList, "-isystem"},
    {"library-path", nullptr, Action::DropValue},
    {"compiler-bindir", "ccbin", Action::DropValue},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", Action::Drop},
    {"archiver-binary", "arbin", Action::DropValue},
    {"cudart", "cudart", Action::DropValue},
    {"cudadevrt", "cudadevrt", Action::DropValue},
    {"libdevice-directory", "ldir", Action::DropValue},
    {"target-directory", "target-dir", Action::DropValue},
    {"use-local-env", "use-local-env", Action::Drop},
    {"force-cl-env-setup", "force-cl-env-setup", Action::Drop},
    // Compilation behaviour.
    {"profile", "pg", Action::Drop},
    {"debug", nullptr, Action::Debug},
    {"device-debug", "G", Action::Drop},
    {"generate-line-info", "lineinfo", Action::Drop},
    {"optimization-info", "opt-info", Action::DropValue},
    {"optimize", nullptr, Action::Optimize},
    {"Ofast-compile", "Ofc", Action::DropValue},
    {"dopt", "dopt", Action::DropValue},
    {"dlink-time-opt", "dlto", Action::Drop},
    {"lto", "lto", Action::Drop},
    {"gen-opt-lto", "gen-opt-lto", Action::Drop},
    {"ftemplate-backtrace-limit", "ftemplate-backtrace-limit", Action::ClangValue,
     "-ftemplate-backtrace-limit"},
    {"ftemplate-depth", "ftemplate-depth", Action::ClangValue, "-ftemplate-depth"},
    {"no-exceptions", "noeh", Action::NoExceptions},
    {"shared", nullptr, Action::Drop},
    {"x", "x", Action::DropValue}, // the tool parses as CUDA (-xcuda)
    {"std", "std", Action::Std},
    {"no-host-device-initializer-list", "nohdinitlist", Action::Drop},
    {"no-host-device-move-forward", "nohdmoveforward", Action::Drop},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", Action::Drop},
    {"extended-lambda", "extended-lambda", Action::Drop},
    {"expt-extended-lambda", "expt-extended-lambda", Action::Drop},
    {"machine", "m", Action::M64},
    {"m64", "m64", Action::M64},
    {"compiler-options", "Xcompiler", Action::HostOptions},
    {"linker-options", "Xlinker", Action::DropValue},
    {"archive-options", "Xarchive", Action::DropValue},
    {"ptxas-options", "Xptxas", Action::DropValue},
    {"nvlink-options", "Xnvlink", Action::DropValue},
    {"static-global-template-stub", "static-global-template-stub", Action::DropValue},
    {"device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility",
     Action::DropValue},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler", Action::Drop},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", Action::Drop},
    {"forward-unknown-opts", "forward-unknown-opts", Action::Drop},
    {"dont-use-profile", "noprof", Action::Drop},
    {"dryrun", "dryrun", Action::Drop},
    {"verbose", "v", Action::Drop},
    {"threads", "t", Action::DropValue},
    {"split-compile", "split-compile", Action::DropValue},
    {"split-compile-extended", "split-compile-extended", Action::DropValue},
    {"fdevice-syntax-only", "fdevice-syntax-only", Action::Drop},
    {"fdevice-time-trace", "fdevice-time-trace", Action::DropValue},
    {"keep", "keep", Action::Drop},
    {"keep-dir", "keep-dir", Action::DropValue},
    {"save-temps", "save-temps", Action::Drop},
    {"clean-targets", "clean", Action::Drop},
    {"time", "time", Action::DropValue},
    {"run-args", "run-args", Action::DropValue},
    {"input-drive-prefix", "idp", Action::DropValue},
    {"dependency-drive-prefix", "ddp", Action::DropValue},
    {"drive-prefix", "dp", Action::DropValue},
    {"no-align-double", nullptr, Action::Drop},
    {"no-device-link", "nodlink", Action::Drop},
    // Device code: the tool chooses with --arch.
    {"gpu-architecture", "arch", Action::DropValue},
    {"gpu-code", "code", Action::DropValue},
    {"generate-code", "gencode", Action::DropValue},
    {"relocatable-device-code", "rdc", Action::DropValue},
    {"entries", "e", Action::DropValue},
    {"maxrregcount", "maxrregcount", Action::DropValue},
    {"use_fast_math", "use_fast_math", Action::Drop},
    {"ftz", "ftz", Action::DropValue},
    {"prec-div", "prec-div", Action::DropValue},
    {"prec-sqrt", "prec-sqrt", Action::DropValue},
    {"fmad", "fmad", Action::DropValue},
    {"extra-device-vectorization", "extra-device-vectorization", Action::Drop},
    {"default-stream", "default-stream", Action::DropValue},
    {"keep-device-functions", "keep-device-functions", Action::Drop},
    {"source-in-ptx", "src-in-ptx", Action::Drop},
    {"restrict", "restrict", Action::Drop},
    // Diagnostics.
    {"disable-warnings", nullptr, Action::Silence},
    {"Wreorder", nullptr, Action::Drop},
    {"Wdefault-stream-launch", "Wdefault-stream-launch", Action::Drop},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", Action::Drop},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", Action::Drop},
    {"Wno-deprecated-declarations", nullptr, Action::Drop},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", Action::Drop},
    {"Werror", "Werror", Action::DropValue}, // nvcc's takes a list of kinds
    {"resource-usage", "res-usage", Action::Drop},
    {"extensible-whole-program", "ewp", Action::Drop},
    {"no-compress", "no-compress", Action::Drop},
    {"qpp-config", "qpp-config", Action::Drop},
    {"compile-as-tools-patch", "astoolspatch", Action::Drop},
    {"list-gpu-code", "code-ls", Action::Drop},
    {"list-gpu-arch", "arch-ls", Action::Drop},
    {"display-error-number", "err-no", Action::Drop},
    {"no-display-error-number", "no-err-no", Action::Drop},
    {"diag-error", "diag-error", Action::DropValue},
    {"diag-suppress", "diag-suppress", Action::DropValue},
    {"diag-warn", "diag-warn", Action::DropValue},
    {"host-linker-script", "hls", Action::DropValue},
    {"augment-host-linker-script", "aug-hls", Action::Drop},
    {"relocatable-link", "r", Action::Drop},
    {"brief-diagnostics", "brief-diag", Action::DropValue},
    {"jump-table-density", "jtd", Action::DropValue},
    {"relocatable-ptx", "reloc-ptx", Action::Drop},
    {"device-stack-protector", "device-stack-protector", Action::DropValue},
    {"compress-mode", "compress-mode", Action::DropValue},
    {"frandom-seed", "frandom-seed", Action::DropValue},
    {"sanitize", "sanitize", Action::DropValue},
    {"jobserver", "jobserver", Action::Drop},
    {"help", "h", Action::Drop},
    {"version", "V", Action::Drop},
    {"options-file", "optf", Action::DropValue},
};

bool takesValue(Action A) {
  switch (A) {
  case Action::Drop:
  case Action::Debug:
  case Action::NoExceptions:
  case Action::Silence:
    return false;
  case Action::M64: // --machine 64 takes one, --m64 does not: see below
  default:
    return true;
  }
}

const NvccOption *lookup(StringRef Name, bool IsLong) {
  for (const NvccOption &O : Options) {
    const char *N = IsLong ? O.Long : O.Short;
    if (N && Name == N)
      return &O;
  }
  return nullptr;
}

void splitList(StringRef Value, SmallVectorImpl<StringRef> &Items) {
  Value.split(Items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
}

} // namespace

bool isNvccCommand(const CommandLineArguments &Args) {
  if (Args.empty())
    return false;
  StringRef Name = sys::path::filename(Args[0]);
  Name.consume_back(".exe");
  return Name == "nvcc";
}

CommandLineArguments translateNvccCommand(const CommandLineArguments &Args) {
  if (!isNvccCommand(Args))
    return Args;
  CommandLineArguments Out;
  Out.push_back("clang++");
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "--") { // the rest are inputs
      Out.insert(Out.end(), Args.begin() + I, Args.end());
      break;
    }
    if (!A.starts_with("-") || A == "-") {
      Out.push_back(A.str());
      continue;
    }
    bool IsLong = A.starts_with("--");
    StringRef Body = A.drop_front(IsLong ? 2 : 1);
    auto [Name, Joined] = Body.split('=');
    bool HasJoined = Body.contains('=');
    const NvccOption *O = lookup(Name, IsLong);
    if (!O) {
      // `-xcu`: the language joined to -x.
      if (!IsLong && A.starts_with("-x") && A.size() > 2)
        continue;
      Out.push_back(A.str());
      continue;
    }
    bool NeedsValue = takesValue(O->Act) && !(O->Act == Action::M64 && Name != "machine" && Name != "m");
    std::string Value;
    if (NeedsValue) {
      if (HasJoined)
        Value = Joined.str();
      else if (I + 1 < Args.size())
        Value = Args[++I];
    }
    switch (O->Act) {
    case Action::Drop:
    case Action::DropValue:
      break;
    case Action::HostOptions: {
      SmallVector<StringRef, 4> Items;
      splitList(Value, Items);
      for (StringRef Item : Items)
        Out.push_back(Item.str());
      break;
    }
    case Action::Std:
      Out.push_back("-std=" + Value);
      break;
    case Action::Optimize:
      Out.push_back("-O" + Value);
      break;
    case Action::Debug:
      Out.push_back("-g");
      break;
    case Action::NoExceptions:
      Out.push_back("-fno-exceptions");
      break;
    case Action::M64:
      Out.push_back("-m64");
      break;
    case Action::Silence:
      Out.push_back("-w");
      break;
    case Action::ClangList: {
      SmallVector<StringRef, 4> Items;
      splitList(Value, Items);
      for (StringRef Item : Items) {
        if (StringRef(O->Clang).size() > 2) { // -include, -isystem: separate
          Out.push_back(O->Clang);
          Out.push_back(Item.str());
        } else {
          Out.push_back(std::string(O->Clang) + Item.str());
        }
      }
      break;
    }
    case Action::ClangValue:
      Out.push_back(std::string(O->Clang) + "=" + Value);
      break;
    }
  }
  return Out;
}

clang::tooling::CommandLineArguments
expandNvccOptionsFiles(const clang::tooling::CommandLineArguments &Args, StringRef Directory) {
  if (!isNvccCommand(Args))
    return Args;
  CommandLineArguments Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    std::string File;
    if ((A == "--options-file" || A == "-optf") && I + 1 < Args.size())
      File = Args[++I];
    else if (A.consume_front("--options-file=") || A.consume_front("-optf="))
      File = A.str();
    else {
      Out.push_back(Args[I]);
      continue;
    }
    SmallString<256> Path(File);
    if (sys::path::is_relative(Path))
      sys::path::make_absolute(Directory, Path);
    auto Buffer = MemoryBuffer::getFile(Path);
    if (!Buffer) { // left for the translation to drop
      Out.push_back("--options-file");
      Out.push_back(File);
      continue;
    }
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 32> Tokens;
    cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens);
    for (const char *T : Tokens)
      Out.push_back(T);
  }
  return Out;
}

CommandLineArguments withoutDiagnosticsFormat(const CommandLineArguments &Args) {
  CommandLineArguments Out;
  // Arguments I and on, each maybe behind -Xclang (the frontend's spelling:
  // `-Xclang -fdiagnostics-format -Xclang sarif`): the option's own, and the
  // index past its value, or 0 where it is not the option.
  auto Option = [&](size_t I) -> size_t {
    const bool Xclang = Args[I] == "-Xclang" && I + 1 < Args.size();
    const size_t O = Xclang ? I + 1 : I;
    if (StringRef(Args[O]).starts_with("-fdiagnostics-format="))
      return O + 1;
    if (Args[O] != "-fdiagnostics-format")
      return 0;
    // The value, behind its own -Xclang where the option had one.
    const size_t V = Xclang && O + 1 < Args.size() && Args[O + 1] == "-Xclang" ? O + 2 : O + 1;
    return std::min(V + 1, Args.size());
  };
  for (size_t I = 0; I < Args.size();) {
    if (size_t Past = Option(I)) {
      I = Past;
      continue;
    }
    Out.push_back(Args[I++]);
  }
  return Out;
}

clang::tooling::ArgumentsAdjuster getNvccTranslatingAdjuster() {
  return [](const CommandLineArguments &Args, StringRef) {
    return translateNvccCommand(Args);
  };
}

} // namespace tc
