//===- IslLibraryTest.cpp - the tool runs libisl's isl ---------------------===//
//
// libLLVM.so exports a second isl (Polly's bundled copy, another build of
// another revision). The tool is compiled against libisl-dev's headers, so
// its isl calls must reach libisl: the link line puts libisl before
// clang-cpp and LLVM (model/CMakeLists.txt). Were LLVM first, the linker
// would bind every isl symbol to libLLVM and drop libisl altogether.
#include "gtest/gtest.h"
#include <dlfcn.h>
#include <isl/ctx.h>
#include <isl/version.h>
#include <string>

namespace {

TEST(IslLibraryTest, IslCallsReachLibisl) {
  Dl_info Info{};
  ASSERT_NE(dladdr(reinterpret_cast<void *>(&isl_ctx_alloc), &Info), 0);
  ASSERT_NE(Info.dli_fname, nullptr);
  const std::string Library = Info.dli_fname;
  EXPECT_NE(Library.find("libisl"), std::string::npos) << Library;
  EXPECT_EQ(Library.find("libLLVM"), std::string::npos) << Library;
  // libisl-dev's build (GMP integers), not Polly's (IMath).
  EXPECT_EQ(std::string(isl_version()).find("IMath"), std::string::npos) << isl_version();
}

} // namespace
