// The #line directives of a rewrite (rewrite/LineDirectives.cpp): each
// source line keeps its number, each generated line gets the output's, and
// no directive lands inside a comment, a literal or a spliced line.
#include "LineDirectives.h"

#include <gtest/gtest.h>

using clang::tooling::Replacement;
using clang::tooling::Replacements;

namespace {

std::string rewrite(llvm::StringRef Source, std::vector<Replacement> List) {
  Replacements Rs;
  for (const Replacement &R : List)
    if (llvm::Error E = Rs.add(R)) {
      ADD_FAILURE() << llvm::toString(std::move(E));
      return "";
    }
  auto Out = tc::applyWithLineDirectives(Source, Rs, "src.cu", "out.cu");
  if (!Out) {
    ADD_FAILURE() << llvm::toString(Out.takeError());
    return "";
  }
  return *Out;
}

/// `Source` with its `old();` (which ends mid-line) replaced by `new();`.
std::string replaceOld(llvm::StringRef Source) {
  return rewrite(Source, {Replacement("src.cu", Source.find("old();"), 6, "new();")});
}

TEST(LineDirectivesTest, GeneratedBlockIsTheOutputsAndSourceResumes) {
  // A kernel inserted before line 2, a region (lines 3-4) replaced by a call.
  std::string Source = "int a;\nvoid f() {\n#pragma tc\n  for (;;) {}\n  g();\n}\n";
  size_t Region = Source.find("#pragma"), RegionEnd = Source.find("{}") + 2;
  EXPECT_EQ(rewrite(Source, {Replacement("src.cu", Source.find("void"), 0,
                                         "__global__ void k() {\n}\n\n"),
                             Replacement("src.cu", Region, RegionEnd - Region, "launch();")}),
            "int a;\n"
            "#line 3 \"out.cu\"\n"
            "__global__ void k() {\n}\n\n"
            "#line 2 \"src.cu\"\n"
            "void f() {\n"
            "launch();\n"
            "#line 5 \"src.cu\"\n"
            "  g();\n}\n");
}

TEST(LineDirectivesTest, IncludeInsertedAtALinesEnd) {
  std::string Source = "#include <a.h>\nint x;\nint y;\n";
  EXPECT_EQ(rewrite(Source, {Replacement("src.cu", Source.find('\n'), 0, "\n#include <tc.h>")}),
            "#include <a.h>\n#include <tc.h>\n#line 2 \"src.cu\"\nint x;\nint y;\n");
}

TEST(LineDirectivesTest, NotInsideACommentSpanningLines) {
  std::string Source = "void f() { old(); } /* a\n b */ int z;\nint w;\n";
  EXPECT_EQ(replaceOld(Source),
            "void f() { new(); } /* a\n b */ int z;\n#line 3 \"src.cu\"\nint w;\n");
}

TEST(LineDirectivesTest, NotAfterASplicedLine) {
  std::string Source = "void f() { old(); } // note \\\n still the note\nint w;\n";
  EXPECT_EQ(replaceOld(Source),
            "void f() { new(); } // note \\\n still the note\n#line 3 \"src.cu\"\nint w;\n");
}

TEST(LineDirectivesTest, NotInsideARawString) {
  std::string Source = "void f() { old(); } auto s = R\"x(\n)\"\n)x\";\nint w;\n";
  EXPECT_EQ(replaceOld(Source),
            "void f() { new(); } auto s = R\"x(\n)\"\n)x\";\n#line 4 \"src.cu\"\nint w;\n");
}

TEST(LineDirectivesTest, DigitSeparatorsAreNotCharacterLiterals) {
  std::string Source = "void f() { old(); } int n = 1'000;\nint w = 'a';\n";
  EXPECT_EQ(replaceOld(Source),
            "void f() { new(); } int n = 1'000;\n#line 2 \"src.cu\"\nint w = 'a';\n");
}

TEST(LineDirectivesTest, NoneWhereTheNextReplacementComesFirst) {
  std::string Source = "void f() { a(); b(); }\nint w;\n";
  EXPECT_EQ(rewrite(Source, {Replacement("src.cu", Source.find("a();"), 4, "x();"),
                             Replacement("src.cu", Source.find("b();"), 4, "y();")}),
            "void f() { x(); y(); }\n#line 2 \"src.cu\"\nint w;\n");
}

TEST(LineDirectivesTest, CrLfLines) {
  std::string Source = "#include <a.h>\r\nint x;\r\n";
  EXPECT_EQ(rewrite(Source, {Replacement("src.cu", Source.find('\r'), 0, "\r\n#include <tc.h>")}),
            "#include <a.h>\r\n#include <tc.h>\r\n#line 2 \"src.cu\"\r\nint x;\r\n");
}

TEST(LineDirectivesTest, PathsAreEscaped) {
  EXPECT_EQ(tc::lineDirectivePath("C:\\dir\\\"q\".cu"), "\"C:\\\\dir\\\\\\\"q\\\".cu\"");
}

} // namespace
