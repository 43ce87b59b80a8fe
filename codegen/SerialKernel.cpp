//===- SerialKernel.cpp ---------------------------------------------------===//
#include "SerialKernel.h"
#include "AstPrinter.h"
#include "Epilogue.h"
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/map.h>

namespace tc {

/// `W = value;` for statement S, each iterator printed by Iter; the
/// region's locals (scalars expanded over their loops in the model) are
/// one variable each, as they are in the source.
static std::string statementText(const RegionModel &M, const Statement &S,
                                 const std::function<std::string(const std::string &)> &Iter) {
  auto Target = [&](const Access &A) {
    const Array &Arr = M.Arrays[A.ArrayId];
    return Arr.IsLocalScalar ? Arr.Name : printAccess(M, A, Iter);
  };
  ExprPrinter P;
  P.PrintIterator = Iter;
  P.PrintRead = [&](unsigned Id) { return Target(S.Reads[Id]); };
  return Target(S.Write) + " = " + P.print(*S.Value) + ";\n";
}

std::string serialBody(const RegionModel &M, const IslModel &I, unsigned Indent) {
  isl::union_map Schedule = withKnownSizes(I.Schedule, M);
  isl::set Context = withKnownSizes(I.Context, M);
  std::vector<std::string> Texts;
  isl::ast_build Build = isl::ast_build::from_context(Context);
  Build = Build.set_at_each_domain([&](isl::ast_node Node, isl::ast_build B) {
    std::string Name = userStatementName(Node.get());
    // The statement's domain point as a function of the AST's iterators.
    isl::map Sched = isl::manage(isl_map_from_union_map(B.schedule().release()));
    isl::pw_multi_aff Point =
        isl::manage(isl_pw_multi_aff_from_map(isl_map_reverse(Sched.release())));
    const Statement *Found = nullptr;
    for (const Statement &S : M.Stmts)
      if (S.Name == Name)
        Found = &S;
    if (!Found) {
      Texts.push_back("/* no statement " + Name + " */\n");
    } else {
      const Statement &S = *Found;
      std::vector<std::string> Its = M.iterators(S);
      std::map<std::string, std::string> At;
      for (size_t D = 0; D < Its.size(); ++D)
        At[Its[D]] = printAstExpr(B.expr_from(Point.at(int(D))).get());
      Texts.push_back(statementText(M, S, [&](const std::string &It) {
        auto Found = At.find(It);
        return Found == At.end() ? It : Found->second;
      }));
    }
    std::string Tag = "stmt" + std::to_string(Texts.size() - 1);
    return isl::manage(isl_ast_node_set_annotation(
        Node.release(), isl_id_alloc(B.ctx().get(), Tag.c_str(), nullptr)));
  });
  isl::ast_node Ast = Build.node_from_schedule_map(Schedule);
  return AstPrinter(Texts, {}).serialLoops().print(Ast.get(), Indent);
}

std::string serialKernel(const RegionModel &M, const IslModel &I, const std::string &Name,
                         const std::vector<KernelParameter> &Params) {
  std::string S = "__global__ void __launch_bounds__(1) " + Name + "(";
  for (size_t P = 0; P < Params.size(); ++P)
    S += (P ? ", " : "") + Params[P].Type + (Params[P].Type.back() == '*' ? "" : " ") +
         Params[P].Name;
  S += ") {\n";
  for (const Array &A : M.Arrays)
    if (A.IsLocalScalar)
      S += "  " + A.ElemSpelling + " " + A.Name + "{};\n";
  return S + serialBody(M, I, 2) + "}\n";
}

} // namespace tc
