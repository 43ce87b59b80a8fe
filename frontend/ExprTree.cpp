//===- ExprTree.cpp -------------------------------------------------------===//
#include "ExprTree.h"
#include "PureFunctions.h"

namespace tc {

ExprPtr ExprNode::make(Kind K, std::string Text, std::vector<ExprPtr> Ops) {
  auto E = std::make_shared<ExprNode>();
  E->K = K;
  E->Text = std::move(Text);
  E->Ops = std::move(Ops);
  return E;
}

std::string ExprPrinter::print(const ExprNode &E) const {
  auto It = Named.find(&E);
  if (It != Named.end())
    return It->second;
  switch (E.K) {
  case ExprNode::Read:
    return PrintRead(E.AccessId);
  case ExprNode::Scalar:
    return PrintScalar(E.Text);
  case ExprNode::Iterator:
    return "(" + PrintIterator(E.Text) + ")";
  case ExprNode::Literal:
    return E.Text;
  case ExprNode::Unary:
    return "(" + E.Text + print(*E.Ops[0]) + ")";
  case ExprNode::Binary:
    return "(" + print(*E.Ops[0]) + " " + E.Text + " " + print(*E.Ops[1]) + ")";
  case ExprNode::Conditional:
    return "(" + print(*E.Ops[0]) + " ? " + print(*E.Ops[1]) + " : " +
           print(*E.Ops[2]) + ")";
  case ExprNode::Cast:
    return "static_cast<" + E.Text + ">(" + print(*E.Ops[0]) + ")";
  case ExprNode::Call: {
    std::string S = (QualifiedCalls ? "::" : "") + E.Text + "(";
    for (size_t I = 0; I < E.Ops.size(); ++I)
      S += (I ? ", " : "") + print(*E.Ops[I]);
    return S + ")";
  }
  }
  return "";
}

std::string describe(const ExprNode &E) {
  switch (E.K) {
  case ExprNode::Read:
    return "R" + std::to_string(E.AccessId);
  case ExprNode::Scalar:
  case ExprNode::Iterator:
  case ExprNode::Literal:
    return E.Text;
  case ExprNode::Cast:
    return "cvt<" + E.Text + ">(" + describe(*E.Ops[0]) + ")";
  default: {
    static const char *Names[][2] = {{"+", "add"}, {"-", "sub"}, {"*", "mul"},
                                     {"/", "div"}, {">", "gt"},  {"<", "lt"}};
    std::string Name = E.Text;
    for (auto &N : Names)
      if (E.Text == N[0])
        Name = N[1];
    if (E.K == ExprNode::Conditional)
      Name = "select";
    std::string S = Name + "(";
    for (size_t I = 0; I < E.Ops.size(); ++I)
      S += (I ? ", " : "") + describe(*E.Ops[I]);
    return S + ")";
  }
  }
}

const ExprNode *stripConversions(const ExprNode *E) {
  while (E) {
    if (E->K == ExprNode::Cast && (E->Text == "float" || E->Text == "double"))
      E = E->Ops[0].get();
    else if (E->K == ExprNode::Call && E->Ops.size() == 1 && isConversionToFloat(E->Text))
      E = E->Ops[0].get();
    else
      break;
  }
  return E;
}

bool isPositiveZeroLiteral(const ExprNode *E) {
  E = stripConversions(E);
  return E && E->K == ExprNode::Literal && E->IsPositiveZero;
}

} // namespace tc
