//===- CompileArgs.h - compile commands from a database, made parseable ---===//
//
// Commands in a compile_commands.json are for nvcc or for clang. tc-rewrite
// parses the file as CUDA host code with Clang, so an nvcc command is
// translated first: device-only options (-gencode, -arch, -Xptxas, ...) and
// nvcc-only switches (--expt-relaxed-constexpr, -x cu, ...) are dropped,
// host-compiler options (-Xcompiler A,B) are unwrapped, and the long forms
// of ordinary options (--include-path, --define-macro, --std, ...) become
// Clang's. The tool's own options (-xcuda, --cuda-host-only, --cuda-gpu-arch,
// -I<runtime headers>, ...) are added after this translation.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TOOL_COMPILEARGS_H
#define TC_TOOL_COMPILEARGS_H

#include "clang/Tooling/ArgumentsAdjusters.h"

namespace tc {

/// True when the command's compiler (argv[0]) is nvcc.
bool isNvccCommand(const clang::tooling::CommandLineArguments &Args);

/// The translation of an nvcc command line into a clang one (argv[0]
/// becomes "clang++"); other commands are returned unchanged.
clang::tooling::CommandLineArguments
translateNvccCommand(const clang::tooling::CommandLineArguments &Args);

/// translateNvccCommand as an arguments adjuster.
clang::tooling::ArgumentsAdjuster getNvccTranslatingAdjuster();

/// An nvcc command with its options files (`--options-file F`, `-optf F`,
/// which CMake's Makefile generators use for the include directories)
/// spliced in, F read relative to `Directory` (the command's); other
/// commands, and files that cannot be read, are left as they are.
clang::tooling::CommandLineArguments
expandNvccOptionsFiles(const clang::tooling::CommandLineArguments &Args,
                       llvm::StringRef Directory);

/// The command without `-fdiagnostics-format=F` (or `-fdiagnostics-format
/// F`, each word maybe behind `-Xclang`): tc-rewrite reports the regions it
/// refuses as clang's text does,
/// and clang 22's SARIF printer crashed the tool on a CUDA file (it opens a
/// second run for the second source file a CUDA action begins).
clang::tooling::CommandLineArguments
withoutDiagnosticsFormat(const clang::tooling::CommandLineArguments &Args);

} // namespace tc

#endif
