//===- AstPrinter.cpp -----------------------------------------------------===//
#include "AstPrinter.h"
#include <isl/id.h>
#include <isl/val.h>
#include <cstdlib>

namespace tc {

static std::string valStr(isl_val *V) {
  char *S = isl_val_to_str(V);
  std::string R = S;
  free(S);
  isl_val_free(V);
  return R;
}

std::string printAstExpr(isl_ast_expr *E) {
  std::string R;
  switch (isl_ast_expr_get_type(E)) {
  case isl_ast_expr_id: {
    isl_id *Id = isl_ast_expr_get_id(E);
    R = isl_id_get_name(Id);
    isl_id_free(Id);
    return R;
  }
  case isl_ast_expr_int:
    return valStr(isl_ast_expr_get_val(E));
  case isl_ast_expr_op:
    break;
  default:
    return "/*?*/";
  }
  int N = isl_ast_expr_get_op_n_arg(E);
  std::vector<std::string> A;
  for (int I = 0; I < N; ++I) {
    isl_ast_expr *Arg = isl_ast_expr_get_op_arg(E, I);
    A.push_back(printAstExpr(Arg));
    isl_ast_expr_free(Arg);
  }
  auto Bin = [&](const char *Op) { return "(" + A[0] + " " + Op + " " + A[1] + ")"; };
  auto Nary = [&](const char *Fn) {
    std::string S = A.back();
    for (int I = N - 2; I >= 0; --I)
      S = std::string(Fn) + "(" + A[I] + ", " + S + ")";
    return S;
  };
  switch (isl_ast_expr_op_get_type(E)) {
  case isl_ast_expr_op_and: return Bin("&&");
  case isl_ast_expr_op_and_then: return Bin("&&");
  case isl_ast_expr_op_or: return Bin("||");
  case isl_ast_expr_op_or_else: return Bin("||");
  case isl_ast_expr_op_max: return Nary("tc::max");
  case isl_ast_expr_op_min: return Nary("tc::min");
  case isl_ast_expr_op_minus: return "(-" + A[0] + ")";
  case isl_ast_expr_op_add: return Bin("+");
  case isl_ast_expr_op_sub: return Bin("-");
  case isl_ast_expr_op_mul: return Bin("*");
  case isl_ast_expr_op_div: return Bin("/");
  case isl_ast_expr_op_fdiv_q: return "tc::floord(" + A[0] + ", " + A[1] + ")";
  case isl_ast_expr_op_pdiv_q: return Bin("/");
  case isl_ast_expr_op_pdiv_r: return Bin("%");
  case isl_ast_expr_op_zdiv_r: return Bin("%");
  case isl_ast_expr_op_cond:
  case isl_ast_expr_op_select:
    return "(" + A[0] + " ? " + A[1] + " : " + A[2] + ")";
  case isl_ast_expr_op_eq: return Bin("==");
  case isl_ast_expr_op_le: return Bin("<=");
  case isl_ast_expr_op_lt: return Bin("<");
  case isl_ast_expr_op_ge: return Bin(">=");
  case isl_ast_expr_op_gt: return Bin(">");
  case isl_ast_expr_op_call: {
    std::string S = A[0] + "(";
    for (int I = 1; I < N; ++I)
      S += (I > 1 ? ", " : "") + A[I];
    return S + ")";
  }
  default:
    return "/*unsupported isl op*/";
  }
}

std::optional<std::string> printCounterExpr(isl_ast_expr *E,
                                            const std::set<std::string> &SizeParams) {
  switch (isl_ast_expr_get_type(E)) {
  case isl_ast_expr_id: {
    std::string Name = printAstExpr(E);
    if (SizeParams.count(Name))
      return std::nullopt;
    return "unsigned(" + Name + ")";
  }
  case isl_ast_expr_int:
    return printAstExpr(E);
  case isl_ast_expr_op:
    break;
  default:
    return std::nullopt;
  }
  isl_ast_expr_op_type Op = isl_ast_expr_op_get_type(E);
  int N = isl_ast_expr_get_op_n_arg(E);
  // isl writes t - b as (-b) + t; the subtraction reads better.
  bool NegatedFirst = false;
  std::vector<std::string> A;
  for (int I = 0; I < N; ++I) {
    isl_ast_expr *Arg = isl_ast_expr_get_op_arg(E, I);
    isl_ast_expr *Operand = isl_ast_expr_copy(Arg);
    if (I == 0 && Op == isl_ast_expr_op_add && isl_ast_expr_get_type(Arg) == isl_ast_expr_op &&
        isl_ast_expr_op_get_type(Arg) == isl_ast_expr_op_minus) {
      NegatedFirst = true;
      isl_ast_expr_free(Operand);
      Operand = isl_ast_expr_get_op_arg(Arg, 0);
    }
    std::optional<std::string> S = printCounterExpr(Operand, SizeParams);
    isl_ast_expr_free(Operand);
    isl_ast_expr_free(Arg);
    if (!S)
      return std::nullopt;
    A.push_back(*S);
  }
  auto Bin = [&](const char *Sym) { return "(" + A[0] + " " + Sym + " " + A[1] + ")"; };
  switch (Op) {
  case isl_ast_expr_op_minus: return "(-" + A[0] + ")";
  case isl_ast_expr_op_add:
    return NegatedFirst ? "(" + A[1] + " - " + A[0] + ")" : Bin("+");
  case isl_ast_expr_op_sub: return Bin("-");
  case isl_ast_expr_op_mul: return Bin("*");
  case isl_ast_expr_op_pdiv_q: return Bin("/");
  case isl_ast_expr_op_pdiv_r: return Bin("%");
  default:
    return std::nullopt;
  }
}

static std::string strip(const std::string &S) {
  // Outer parentheses add nothing in a for/if header.
  if (S.size() > 2 && S.front() == '(' && S.back() == ')') {
    int Depth = 0;
    for (size_t I = 0; I < S.size(); ++I) {
      Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
      if (Depth == 0 && I + 1 < S.size())
        return S;
    }
    return S.substr(1, S.size() - 2);
  }
  return S;
}

/// Trip count of `for (c = Init; c <= Bound; ...)` with constants, else 0.
static long constantTripCount(isl_ast_expr *Init, isl_ast_expr *Cond) {
  if (isl_ast_expr_get_type(Init) != isl_ast_expr_int ||
      isl_ast_expr_get_type(Cond) != isl_ast_expr_op ||
      isl_ast_expr_op_get_type(Cond) != isl_ast_expr_op_le)
    return 0;
  isl_ast_expr *Bound = isl_ast_expr_get_op_arg(Cond, 1);
  long Trip = 0;
  if (isl_ast_expr_get_type(Bound) == isl_ast_expr_int) {
    isl_val *B = isl_ast_expr_get_val(Bound), *I = isl_ast_expr_get_val(Init);
    Trip = isl_val_get_num_si(B) - isl_val_get_num_si(I) + 1;
    isl_val_free(B);
    isl_val_free(I);
  }
  isl_ast_expr_free(Bound);
  return Trip;
}

bool AstPrinter::mentionsSize(isl_ast_expr *E) const {
  if (isl_ast_expr_get_type(E) == isl_ast_expr_id) {
    isl_id *Id = isl_ast_expr_get_id(E);
    bool R = SizeParams.count(isl_id_get_name(Id));
    isl_id_free(Id);
    return R;
  }
  if (isl_ast_expr_get_type(E) != isl_ast_expr_op)
    return false;
  for (int I = 0, N = isl_ast_expr_get_op_n_arg(E); I < N; ++I) {
    isl_ast_expr *Arg = isl_ast_expr_get_op_arg(E, I);
    bool R = mentionsSize(Arg);
    isl_ast_expr_free(Arg);
    if (R)
      return true;
  }
  return false;
}

void appendStatementText(const std::string &Pad, const std::string &Text, std::string &Out) {
  // Multi-line statement texts are indented as a whole.
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    std::string Line = Text.substr(Pos, End == std::string::npos ? End : End - Pos);
    Out += Line.empty() ? "\n" : Pad + Line + "\n";
    if (End == std::string::npos)
      break;
    Pos = End + 1;
  }
}

std::string userStatementName(isl_ast_node *Node) {
  isl_ast_expr *Call = isl_ast_node_user_get_expr(Node);
  isl_ast_expr *Callee = isl_ast_expr_get_op_arg(Call, 0);
  isl_id *Id = isl_ast_expr_get_id(Callee);
  std::string Name = isl_id_get_name(Id);
  isl_id_free(Id);
  isl_ast_expr_free(Callee);
  isl_ast_expr_free(Call);
  return Name;
}

std::string AstPrinter::print(isl_ast_node *Node, unsigned Indent) const {
  std::string Out;
  printNode(Node, Indent, Out);
  return Out;
}

void AstPrinter::printNode(isl_ast_node *Node, unsigned Indent,
                           std::string &Out) const {
  std::string Pad(Indent, ' ');
  switch (isl_ast_node_get_type(Node)) {
  case isl_ast_node_block: {
    isl_ast_node_list *L = isl_ast_node_block_get_children(Node);
    for (int I = 0, N = isl_ast_node_list_n_ast_node(L); I < N; ++I) {
      isl_ast_node *C = isl_ast_node_list_get_ast_node(L, I);
      printNode(C, Indent, Out);
      isl_ast_node_free(C);
    }
    isl_ast_node_list_free(L);
    return;
  }
  case isl_ast_node_for: {
    isl_ast_expr *It = isl_ast_node_for_get_iterator(Node);
    isl_ast_expr *Init = isl_ast_node_for_get_init(Node);
    isl_ast_expr *Cond = isl_ast_node_for_get_cond(Node);
    isl_ast_expr *Inc = isl_ast_node_for_get_inc(Node);
    std::string I = printAstExpr(It);
    // Full unrolling keeps register arrays indexed by constants; long loops
    // that index no registers (the staged epilogue) are unrolled partially.
    if (!Serial && !mentionsSize(Init) && !mentionsSize(Cond))
      Out += Pad + (constantTripCount(Init, Cond) > 32 ? "#pragma unroll 4\n"
                                                       : "#pragma unroll\n");
    Out += Pad + "for (" + (Serial ? "long long " : "int ") + I + " = " + strip(printAstExpr(Init)) + "; " +
           strip(printAstExpr(Cond)) + "; " + I + " += " + printAstExpr(Inc) +
           ") {\n";
    isl_ast_expr_free(It);
    isl_ast_expr_free(Init);
    isl_ast_expr_free(Cond);
    isl_ast_expr_free(Inc);
    isl_ast_node *Body = isl_ast_node_for_get_body(Node);
    printNode(Body, Indent + 2, Out);
    isl_ast_node_free(Body);
    Out += Pad + "}\n";
    return;
  }
  case isl_ast_node_if: {
    isl_ast_expr *Cond = isl_ast_node_if_get_cond(Node);
    Out += Pad + "if (" + strip(printAstExpr(Cond)) + ") {\n";
    isl_ast_expr_free(Cond);
    isl_ast_node *Then = isl_ast_node_if_get_then_node(Node);
    printNode(Then, Indent + 2, Out);
    isl_ast_node_free(Then);
    if (isl_ast_node_if_has_else_node(Node) == isl_bool_true) {
      Out += Pad + "} else {\n";
      isl_ast_node *Else = isl_ast_node_if_get_else_node(Node);
      printNode(Else, Indent + 2, Out);
      isl_ast_node_free(Else);
    }
    Out += Pad + "}\n";
    return;
  }
  case isl_ast_node_user: {
    isl_id *Id = isl_ast_node_get_annotation(Node);
    std::string Text = "/* statement without text */";
    if (Id) {
      int Index = std::atoi(isl_id_get_name(Id) + 4); // "stmt<N>"
      if (Index >= 0 && size_t(Index) < Statements.size())
        Text = Statements[Index];
      isl_id_free(Id);
    }
    appendStatementText(Pad, Text, Out);
    return;
  }
  case isl_ast_node_mark: {
    isl_ast_node *C = isl_ast_node_mark_get_node(Node);
    printNode(C, Indent, Out);
    isl_ast_node_free(C);
    return;
  }
  default:
    Out += Pad + "/* unsupported isl AST node */\n";
  }
}

} // namespace tc
