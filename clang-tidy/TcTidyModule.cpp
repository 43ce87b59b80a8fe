//===- TcTidyModule.cpp - clang-tidy plugin: the `tc-` checks -------------===//
//
//   clang-tidy -load=<prefix>/lib/libTcTidyModule.so -checks=-*,tc-tensorize
//              FILE.cu -- -xcuda --cuda-host-only -I<runtime headers> ...
//
// See TensorizeCheck.h. The module registers itself in clang-tidy's module
// registry when clang-tidy loads the library.
//
//===----------------------------------------------------------------------===//
#include "TensorizeCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace tc::tidy {

class TcModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<TensorizeCheck>("tc-tensorize");
  }
};

} // namespace tc::tidy

static clang::tidy::ClangTidyModuleRegistry::Add<tc::tidy::TcModule>
    Registration("tc-module", "tc-rewrite: #pragma tc regions into tensor-core kernels");
