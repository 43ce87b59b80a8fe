//===- Dequantize.cpp -----------------------------------------------------===//
#include "Dequantize.h"
#include "Epilogue.h"

namespace tc {

namespace {

/// A printer of the source's expressions in the packed operand's
/// reduction: its row as tc_row, k as tc_k.
ExprPrinter sourcePrinter(const DequantizedOperand &D) {
  const RegionModel &Source = D.Model.asWritten();
  const Statement &R = Source.Stmts[D.Reduction];
  auto Iter = [&D](const std::string &It) {
    return It == D.IterRow ? std::string("tc_row") : It == D.IterK ? std::string("tc_k") : It;
  };
  ExprPrinter P;
  P.PrintIterator = Iter;
  P.PrintRead = [&Source, &R, Iter](unsigned Id) { return printAccess(Source, R.Reads[Id], Iter); };
  return P;
}

/// `<Comment>struct <Name> {` and the members, one a line.
std::string functorHead(const std::string &Name, const std::string &Comment,
                        const std::vector<FunctorMember> &Members) {
  std::string S = Comment + "struct " + Name + " {\n";
  for (const FunctorMember &M : Members)
    S += "  " + M.Type + M.Name + ";\n";
  return S;
}

} // namespace

std::string dequantizeFunctor(const DequantizedOperand &D, const std::string &Name,
                              const std::string &Comment,
                              const std::vector<FunctorMember> &Members) {
  return functorHead(Name, Comment, Members) +
         "  __device__ auto operator()(long long tc_row, long long tc_k) const {\n" +
         "    return " + sourcePrinter(D).print(*D.Value) + ";\n  }\n};\n\n";
}

std::string nibbleGroupsFunctor(const DequantizedOperand &D, const std::string &Name,
                                const std::string &Comment,
                                const std::vector<FunctorMember> &Members) {
  const NibbleGroups &G = *D.Groups;
  const ExprPrinter P = sourcePrinter(D);
  const std::string Zero =
      G.Zero ? std::string(G.ZeroAdded ? "-" : "") + "static_cast<float>(" + P.print(*G.Zero) + ")"
             : "0.0f";
  std::string Scale;
  for (const ExprPtr &F : G.Scale)
    Scale += (Scale.empty() ? "" : " * ") + ("static_cast<float>(" + P.print(*F) + ")");
  if (Scale.empty())
    Scale = "1.0f";
  std::string S = functorHead(Name, Comment, Members) +
                  "  __device__ tc::decode::NibbleGroup operator()(long long tc_row, long long "
                  "tc_group) const {\n";
  // (z and s read k only at k / GroupSize: the group's first k is as good.)
  if (G.GroupSize)
    S += "    const long long tc_k = tc_group * " + std::to_string(G.GroupSize) + ";\n";
  else
    S += "    (void)tc_group;  // (one group: the row's)\n";
  return S + "    return {::__float2half(" + Zero + "), ::__float2half(" + Scale + ")};\n  }\n};\n\n";
}

std::string copyDeclarations(const DequantizedOperand &D) {
  const Array &Copy = D.Model.Arrays[D.Copy];
  return "  " + Copy.ElemSpelling + " *" + Copy.Name + " = nullptr;  // (made below)\n" +
         "  long long " + D.LeadingDimension + " = 0;\n";
}

std::string dequantizeStep(const DequantizedOperand &D, const std::string &Rows,
                           const std::string &Columns, const std::string &Functor,
                           const std::string &Members, const std::string &Where) {
  const Array &Copy = D.Model.Arrays[D.Copy];
  const std::string Elem = Copy.ElemSpelling;
  auto Fail = [&](const std::string &Why) {
    return "    tc::report_error(tc::Status::LaunchFailed, \"" + Where + "\", \"" + Why +
           "\");\n    return;\n";
  };
  return "  // The packed 4-bit operand, dequantised into a " + Elem +
         " copy the kernels read\n"
         "  // (tc/packed.cuh); the kernels below multiply the copy.\n"
         "  " + D.LeadingDimension + " = tc::dequantized_leading_dimension(" + Columns + ");\n"
         "  const tc::DequantizedBuffer tc_copy_buffer = tc::dequantized_buffer(\n"
         "      tc_stream, sizeof(" + Elem + ") * (size_t)(" + Rows + ") * (size_t)" +
         D.LeadingDimension + ");\n"
         "  if (!tc_copy_buffer.data) {\n" +
         Fail("no device memory for the dequantised copy of its packed 4-bit operand") +
         "  }\n"
         "  const tc::ReleasedAtExit tc_copy_release{tc_copy_buffer, tc_stream};\n"
         "  " + Copy.Name + " = static_cast<" + Elem + " *>(tc_copy_buffer.data);\n"
         "  if (!tc::dequantize_operand<" + Elem + ">(" + Rows + ", " + Columns + ", " +
         Functor + "{" + Members + "}, " + Copy.Name + ", " + D.LeadingDimension +
         ", tc_stream)) {\n" +
         Fail("the kernel that dequantises its packed 4-bit operand did not launch") + "  }\n";
}

} // namespace tc
