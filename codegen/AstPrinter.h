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
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tc {

/// C text of an isl AST expression (integer arithmetic; floor division and
/// min/max go through tc/isl_ast.cuh).
std::string printAstExpr(isl_ast_expr *E);

/// C text of a pipeline counter - a stage or the parity of its phase - in
/// 32-bit unsigned arithmetic: each name is converted to `unsigned`, so a
/// stage `(t - tc_k_begin) mod S` is a subtraction and a multiply-high, not
/// a 64-bit signed division on the main loop's critical path. Exact where
/// the value and the dividend of each division are in [0, 2^32): isl emits
/// `/` and `%` (pdiv) only for dividends it proved non-negative, and the
/// names left are k-tile indices, which the kernels' `int` loop iterators
/// hold. Without a value (use printAstExpr) where the expression names one
/// of `SizeParams` (a problem size may exceed 2^32) or has any other
/// operation (floord, min, max, conditions).
std::optional<std::string> printCounterExpr(isl_ast_expr *E,
                                            const std::set<std::string> &SizeParams);

/// The name of the statement a user node of isl's AST executes (the
/// tuple name of its domain, e.g. "S1").
std::string userStatementName(isl_ast_node *Node);

/// Appends a user statement's text as the printer does: each line of Text
/// after Pad (empty lines bare).
void appendStatementText(const std::string &Pad, const std::string &Text, std::string &Out);

class AstPrinter {
public:
  /// `Statements[i]` is the text of the user node annotated "stmt<i>";
  /// `SizeParams` are the parameters that make a loop's trip count unknown.
  AstPrinter(const std::vector<std::string> &Statements,
             std::set<std::string> SizeParams)
      : Statements(Statements), SizeParams(std::move(SizeParams)) {}
  /// Loops as a serial program wants them: 64-bit iterators (the trip
  /// counts are sizes), and no unrolling.
  AstPrinter &serialLoops() {
    Serial = true;
    return *this;
  }
  std::string print(isl_ast_node *Node, unsigned Indent) const;

private:
  void printNode(isl_ast_node *Node, unsigned Indent, std::string &Out) const;
  bool mentionsSize(isl_ast_expr *E) const;
  const std::vector<std::string> &Statements;
  std::set<std::string> SizeParams;
  bool Serial = false;
};

} // namespace tc

#endif
