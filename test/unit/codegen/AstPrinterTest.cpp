//===- AstPrinterTest.cpp - isl AST -> CUDA text ---------------------------===//
#include "AstPrinter.h"
#include "IslModel.h"
#include "gtest/gtest.h"
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

using namespace tc;

namespace {

/// Annotates every user node with "stmt0" (the tool names statement texts
/// the same way in its at_each_domain callback).
isl_ast_node *annotate(isl_ast_node *Node, isl_ast_build *Build, void *User) {
  isl_ctx *Ctx = isl_ast_node_get_ctx(Node);
  return isl_ast_node_set_annotation(Node, isl_id_alloc(Ctx, "stmt0", nullptr));
}

/// An isl AST for `Schedule` (a schedule map) under `Context`.
struct Ast {
  isl_ast_node *Node = nullptr;
  Ast(isl::ctx Ctx, const std::string &Context, const std::string &Schedule,
      bool Annotate = true) {
    isl_ast_build *B =
        isl_ast_build_from_context(isl_set_read_from_str(Ctx.get(), Context.c_str()));
    if (Annotate)
      B = isl_ast_build_set_at_each_domain(B, annotate, nullptr);
    Node = isl_ast_build_node_from_schedule_map(
        B, isl_union_map_read_from_str(Ctx.get(), Schedule.c_str()));
    isl_ast_build_free(B);
  }
  ~Ast() { isl_ast_node_free(Node); }
};

/// isl's AST expression of an affine function under `Context`.
std::string exprText(isl::ctx Ctx, const std::string &Context,
                     const std::string &PwAff) {
  isl_ast_build *B =
      isl_ast_build_from_context(isl_set_read_from_str(Ctx.get(), Context.c_str()));
  isl_ast_expr *E = isl_ast_build_expr_from_pw_aff(
      B, isl_pw_aff_read_from_str(Ctx.get(), PwAff.c_str()));
  std::string S = printAstExpr(E);
  isl_ast_expr_free(E);
  isl_ast_build_free(B);
  return S;
}

/// printCounterExpr's text of an affine function, or "(none)".
std::string counterText(isl::ctx Ctx, const std::string &Context, const std::string &PwAff,
                        const std::set<std::string> &Sizes = {}) {
  isl_ast_build *B =
      isl_ast_build_from_context(isl_set_read_from_str(Ctx.get(), Context.c_str()));
  isl_ast_expr *E = isl_ast_build_expr_from_pw_aff(
      B, isl_pw_aff_read_from_str(Ctx.get(), PwAff.c_str()));
  std::optional<std::string> S = printCounterExpr(E, Sizes);
  isl_ast_expr_free(E);
  isl_ast_build_free(B);
  return S ? *S : "(none)";
}

class AstPrinterTest : public ::testing::Test {
protected:
  ~AstPrinterTest() override { isl_ctx_free(Ctx.release()); }
  isl::ctx Ctx = makeIslContext();
  std::vector<std::string> Stmts{"body(c0);"};
};

TEST_F(AstPrinterTest, ParametricLoopIsNotUnrolled) {
  Ast A(Ctx, "[N] -> { : N >= 0 }", "[N] -> { S[i] -> [i] : 0 <= i < N }");
  ASSERT_TRUE(A.Node);
  std::string Out = AstPrinter(Stmts, {"N"}).print(A.Node, 0);
  EXPECT_EQ(Out, "for (int c0 = 0; c0 < N; c0 += 1) {\n"
                 "  body(c0);\n"
                 "}\n");
  EXPECT_EQ(Out.find("#pragma unroll"), std::string::npos);
}

TEST_F(AstPrinterTest, LoopIsUnrolledWhenItsBoundIsNotASize) {
  // The same loop, when N is not declared a problem size.
  Ast A(Ctx, "[N] -> { : N >= 0 }", "[N] -> { S[i] -> [i] : 0 <= i < N }");
  std::string Out = AstPrinter(Stmts, {}).print(A.Node, 0);
  EXPECT_EQ(Out.rfind("#pragma unroll\nfor (int c0 = 0; c0 < N; c0 += 1) {\n", 0), 0u)
      << Out;
}

TEST_F(AstPrinterTest, ConstantLoopIsUnrolled) {
  Ast A(Ctx, "{ : }", "{ S[i] -> [i] : 0 <= i < 4 }");
  ASSERT_TRUE(A.Node);
  std::string Out = AstPrinter(Stmts, {"N"}).print(A.Node, 2);
  EXPECT_EQ(Out, "  #pragma unroll\n"
                 "  for (int c0 = 0; c0 <= 3; c0 += 1) {\n"
                 "    body(c0);\n"
                 "  }\n");
}

TEST_F(AstPrinterTest, NestWithMixedBounds) {
  // The outer loop runs to N (not unrolled), the inner one to 8 (unrolled).
  Ast A(Ctx, "[N] -> { : N >= 0 }",
        "[N] -> { S[i, j] -> [i, j] : 0 <= i < N and 0 <= j < 8 }");
  std::vector<std::string> Body{"body(c0, c1);"};
  std::string Out = AstPrinter(Body, {"N"}).print(A.Node, 0);
  EXPECT_EQ(Out, "for (int c0 = 0; c0 < N; c0 += 1) {\n"
                 "  #pragma unroll\n"
                 "  for (int c1 = 0; c1 <= 7; c1 += 1) {\n"
                 "    body(c0, c1);\n"
                 "  }\n"
                 "}\n");
}

TEST_F(AstPrinterTest, BoundDependingOnASizeThroughAnOuterLoop) {
  // A tiled loop: the inner bound mentions N through min(...).
  Ast A(Ctx, "[N] -> { : N >= 0 }",
        "[N] -> { S[i] -> [floor(i / 16), i] : 0 <= i < N }");
  std::string Out = AstPrinter(Stmts, {"N"}).print(A.Node, 0);
  EXPECT_EQ(Out.find("#pragma unroll"), std::string::npos) << Out;
  EXPECT_EQ(Out,
            "for (int c0 = 0; c0 <= tc::floord((N - 1), 16); c0 += 1) {\n"
            "  for (int c1 = 16 * c0; c1 <= tc::min((N - 1), ((16 * c0) + 15)); "
            "c1 += 1) {\n"
            "    body(c0);\n"
            "  }\n"
            "}\n");
}

TEST_F(AstPrinterTest, TiledConstantLoopIsUnrolledAtBothLevels) {
  // Bounds that mention only outer iterators still have constant trip counts.
  Ast A(Ctx, "{ : }", "{ S[i] -> [floor(i / 16), i] : 0 <= i < 64 }");
  std::string Out = AstPrinter(Stmts, {"N"}).print(A.Node, 0);
  EXPECT_EQ(Out, "#pragma unroll\n"
                 "for (int c0 = 0; c0 <= 3; c0 += 1) {\n"
                 "  #pragma unroll\n"
                 "  for (int c1 = 16 * c0; c1 <= ((16 * c0) + 15); c1 += 1) {\n"
                 "    body(c0);\n"
                 "  }\n"
                 "}\n");
}

TEST_F(AstPrinterTest, MultiLineStatementsAreIndentedAsAWhole) {
  Ast A(Ctx, "{ : }", "{ S[i] -> [i] : 0 <= i < 2 }");
  std::vector<std::string> Body{"a(c0);\n\nb(c0);"};
  std::string Out = AstPrinter(Body, {}).print(A.Node, 0);
  EXPECT_NE(Out.find("  a(c0);\n\n  b(c0);\n"), std::string::npos) << Out;
}

TEST_F(AstPrinterTest, UnannotatedStatement) {
  Ast A(Ctx, "{ : }", "{ S[i] -> [i] : 0 <= i < 2 }", /*Annotate=*/false);
  std::string Out = AstPrinter(Stmts, {}).print(A.Node, 0);
  EXPECT_NE(Out.find("/* statement without text */"), std::string::npos) << Out;
}

TEST_F(AstPrinterTest, ConditionAndBlock) {
  // A loop, then a statement guarded by a condition on N.
  Ast A(Ctx, "[N] -> { : N >= 0 }",
        "[N] -> { S[i] -> [0, i] : 0 <= i < N; T[] -> [1, 0] : N >= 5 }");
  std::string Out = AstPrinter(Stmts, {"N"}).print(A.Node, 0);
  EXPECT_EQ(Out, "for (int c1 = 0; c1 < N; c1 += 1) {\n"
                 "  body(c0);\n"
                 "}\n"
                 "if (N >= 5) {\n"
                 "  body(c0);\n"
                 "}\n");
}

TEST_F(AstPrinterTest, Expressions) {
  EXPECT_EQ(exprText(Ctx, "[N] -> { : }", "[N] -> { [(N + 3)] }"), "(N + 3)");
  EXPECT_EQ(exprText(Ctx, "[N] -> { : }", "[N] -> { [(2 * N - 1)] }"),
            "((2 * N) - 1)");
  // Floor division of a possibly negative value needs tc::floord ...
  EXPECT_EQ(exprText(Ctx, "[N] -> { : }", "[N] -> { [(floor(N / 4))] }"),
            "tc::floord(N, 4)");
  // ... of a non-negative one, plain C division.
  EXPECT_EQ(exprText(Ctx, "[N] -> { : N >= 0 }", "[N] -> { [(floor(N / 4))] }"),
            "(N / 4)");
  // A piecewise minimum is a selection (loop bounds use tc::min, above).
  EXPECT_EQ(exprText(Ctx, "[N, M] -> { : }", "[N, M] -> { [(min(N, M))] }"),
            "((M >= N) ? N : M)");
  EXPECT_EQ(exprText(Ctx, "[N, M] -> { : }", "[N, M] -> { [(max(N, M))] }"),
            "((N >= M) ? N : M)");
  EXPECT_EQ(exprText(Ctx, "[N] -> { : }", "[N] -> { [(-N)] }"), "(-N)");
  EXPECT_EQ(exprText(Ctx, "[N] -> { : }", "[N] -> { [(7)] }"), "7");
}

TEST_F(AstPrinterTest, CountersInUnsignedArithmetic) {
  // A stage and its phase's parity: the use t - b of the stages, b <= t.
  const char *Context = "[t, b] -> { : 0 <= b <= t }";
  EXPECT_EQ(counterText(Ctx, Context, "[t, b] -> { [((t - b) mod 9)] }"),
            "((unsigned(t) - unsigned(b)) % 9)");
  EXPECT_EQ(counterText(Ctx, Context, "[t, b] -> { [(floor((t - b) / 9) mod 2)] }"),
            "(((unsigned(t) - unsigned(b)) / 9) - (2 * ((unsigned(t) - unsigned(b)) / 18)))");
  // A dividend that may be negative needs floord: no unsigned text.
  EXPECT_EQ(counterText(Ctx, "[t, b] -> { : }", "[t, b] -> { [((t - b) mod 9)] }"), "(none)");
  // Nor a problem size, which may exceed 2^32.
  EXPECT_EQ(counterText(Ctx, "[K] -> { : K >= 0 }", "[K] -> { [(floor((K + 63) / 64) mod 4)] }",
                        {"K"}),
            "(none)");
  EXPECT_EQ(counterText(Ctx, "[t] -> { : t >= 0 }", "[t] -> { [(t mod 4)] }", {"K"}),
            "(unsigned(t) % 4)");
}

} // namespace
