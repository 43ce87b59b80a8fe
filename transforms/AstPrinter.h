//===- AstPrinter.h - isl AST -> CUDA text --------------------------------===//
//
// Prints the loops, conditions and blocks that isl generated, and each
// user statement as the text that code generation attached to it (an
// annotation set in the AST build's at_each_domain callback). Loops with
// bounds free of problem sizes get `#pragma unroll`, so register arrays
// are only ever indexed with compile-time constants.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_ASTPRINTER_H
#define TC_TRANSFORMS_ASTPRINTER_H

#include <isl/ast.h>
#include <set>
#include <string>
#include <vector>

namespace tc {

/// C text of an isl AST expression (integer arithmetic; floor division and
/// min/max go through tc/isl_ast.cuh).
std::string printAstExpr(isl_ast_expr *E);

class AstPrinter {
public:
  /// `Statements[i]` is the text of the user node annotated "stmt<i>";
  /// `SizeParams` are the parameters that make a loop's trip count unknown.
  AstPrinter(const std::vector<std::string> &Statements,
             std::set<std::string> SizeParams)
      : Statements(Statements), SizeParams(std::move(SizeParams)) {}
  std::string print(isl_ast_node *Node, unsigned Indent) const;

private:
  void printNode(isl_ast_node *Node, unsigned Indent, std::string &Out) const;
  bool mentionsSize(isl_ast_expr *E) const;
  const std::vector<std::string> &Statements;
  std::set<std::string> SizeParams;
};

} // namespace tc

#endif
