//===- SmallIntegerArithmeticTest.cpp - integer prologues in fp32 ---------===//
#include "SmallIntegerArithmetic.h"
#include "gtest/gtest.h"

using namespace tc;

namespace {

ExprPtr read(unsigned Id) {
  ExprPtr R = ExprNode::make(ExprNode::Read, "");
  R->AccessId = Id;
  return R;
}
ExprPtr cast(const std::string &Type, ExprPtr E) {
  return ExprNode::make(ExprNode::Cast, Type, {std::move(E)});
}
ExprPtr binary(const std::string &Op, ExprPtr L, ExprPtr R) {
  return ExprNode::make(ExprNode::Binary, Op, {std::move(L), std::move(R)});
}
ExprPtr integer(double Value, bool Unsigned = false) {
  ExprPtr L = ExprNode::make(ExprNode::Literal, std::to_string(long(Value)) + (Unsigned ? "u" : ""));
  L->Value = Value;
  L->IsInteger = true;
  L->IsUnsigned = Unsigned;
  return L;
}

// R0 is the 8-bit weight (unsigned char), R1 an array of Types[1], R2 an int.
std::string printed(const ExprPtr &E, const std::string &R1Type = "signed char") {
  ExprPtr F = smallIntegerArithmeticInFloat(E, [&](unsigned Id) -> std::string {
    return Id == 0 ? "unsigned char" : Id == 1 ? R1Type : "int";
  });
  ExprPrinter P;
  P.PrintRead = [](unsigned Id) { return "r" + std::to_string(Id); };
  P.PrintIterator = [](const std::string &S) { return S; };
  return P.print(*F);
}

TEST(SmallIntegerArithmeticTest, NarrowTypes) {
  EXPECT_EQ(narrowIntegerRange("signed char")->Min, -128);
  EXPECT_EQ(narrowIntegerRange("unsigned short")->Max, 65535);
  EXPECT_FALSE(narrowIntegerRange("int"));
  EXPECT_FALSE(narrowIntegerRange("float"));
}

// w + shift[j], both 8-bit, promoted to int: in fp32.
TEST(SmallIntegerArithmeticTest, SumOfBytesInFloat) {
  ExprPtr Sum = binary("+", cast("int", read(0)), cast("int", read(1)));
  EXPECT_EQ(printed(cast("float", Sum)),
            "static_cast<float>((static_cast<float>(r0) + static_cast<float>(r1)))");
  // At the root (its user converts it) too, and under a conversion to double.
  EXPECT_EQ(printed(Sum), "(static_cast<float>(r0) + static_cast<float>(r1))");
  // A product can be -0 in fp32 (0 * -3), never in int: + 0.0f.
  EXPECT_EQ(printed(cast("double", binary("*", cast("int", read(0)), integer(-3)))),
            "static_cast<double>(((static_cast<float>(r0) * static_cast<float>(-3)) + 0.0f))");
  // A conversion to char that keeps the value (0..127 either signedness).
  EXPECT_EQ(printed(binary("-", cast("char", read(1)), integer(1)), "bool"),
            "(static_cast<float>(r1) - static_cast<float>(1))");
  // 16-bit products stay below 2^24: 255 * 32767.
  EXPECT_EQ(printed(binary("*", cast("int", read(0)), cast("int", read(1))), "short"),
            "((static_cast<float>(r0) * static_cast<float>(r1)) + 0.0f)");
}

TEST(SmallIntegerArithmeticTest, OtherArithmeticAsWritten) {
  const ExprPtr W = cast("int", read(0));
  const ExprPtr Written[] = {
      // an int array: its values are not known to be small
      binary("+", W, read(2)),
      // unsigned arithmetic wraps (w - 3u is 2^32 - 3 + w below 3)
      binary("-", cast("unsigned int", read(0)), integer(3, true)),
      binary("-", W, integer(3, true)),
      // integer division and shifts are not fp32's
      binary("/", W, integer(2)),
      binary("<<", W, integer(2)),
      // a narrowing conversion wraps; bool keeps only w != 0; char wraps
      // 128..255 where signed, negative values where unsigned
      binary("+", cast("signed char", W), integer(1)),
      binary("+", cast("char", W), integer(1)),
      binary("+", cast("char", read(1)), integer(1)),
      binary("+", cast("bool", W), integer(1)),
      // beyond 2^24: 16-bit by 16-bit
      binary("*", cast("int", read(1)), cast("int", read(1))),
  };
  for (const ExprPtr &E : Written) {
    ExprPrinter P;
    P.PrintRead = [](unsigned Id) { return "r" + std::to_string(Id); };
    P.PrintIterator = [](const std::string &S) { return S; };
    const char *Type = E == Written[9] ? "short" : "signed char";
    EXPECT_EQ(printed(cast("float", E), Type), "static_cast<float>(" + P.print(*E) + ")");
  }
  // A bare read is the float element ((float)w stripped of its
  // conversion): -(float)w is float arithmetic, -0 at w = 0, as written.
  EXPECT_EQ(printed(ExprNode::make(ExprNode::Unary, "-", {read(0)})), "(-r0)");
  // A single read is not rewritten (there is no arithmetic to save).
  EXPECT_EQ(printed(cast("float", cast("int", read(0)))),
            "static_cast<float>(static_cast<int>(r0))");
  // Integer division above, the sum under it in fp32 would change it: the
  // sum is rewritten only where its value goes to float.
  ExprPtr Half = binary("/", binary("+", cast("int", read(0)), cast("int", read(1))), integer(2));
  EXPECT_EQ(printed(cast("float", Half)),
            "static_cast<float>(((static_cast<int>(r0) + static_cast<int>(r1)) / 2))");
}

} // namespace
