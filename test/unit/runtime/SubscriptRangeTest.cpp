//===- SubscriptRangeTest.cpp - tc/subscript_range.cuh: no 32-bit wrap ----===//
//
// The launchers' test that subscripts the source computes in 32-bit
// unsigned arithmetic stay in [0, 2^32), on the host: the last element
// below 2^32 fits, one past it does not; a negative flat index, a
// product or sum beyond 64 bits, and a statically shaped dimension's
// bounds are each caught; so is a value of the sizes out of range.
#include "tc/subscript_range.cuh"
#include "gtest/gtest.h"

namespace {

using tc::IndexRange;
using tc::Subscripts;
using tc::subscripts_fit;

TEST(SubscriptRangeTest, FlatIndexUpToTheTypesLastValue) {
  // i in [0, M - 1] with stride K, k in [0, K - 1]: the last is M K - 1.
  const long long K = 1ll << 16;
  const IndexRange Fits[] = {{0, (1ll << 16) - 1, K}, {0, K - 1, 1}}; // M K = 2^32
  EXPECT_TRUE(subscripts_fit<32>(Subscripts::kFlat, Fits));
  const IndexRange Wraps[] = {{0, 1ll << 16, K}, {0, K - 1, 1}}; // one row more
  EXPECT_FALSE(subscripts_fit<32>(Subscripts::kFlat, Wraps));
}

TEST(SubscriptRangeTest, LargeStrideOfFewRowsWraps) {
  // `A[i * lda + k]` with lda = 2^31, three rows: row 2 starts at 2^32.
  const IndexRange Dims[] = {{0, 2, 1ll << 31}, {0, 15, 1}};
  EXPECT_FALSE(subscripts_fit<32>(Subscripts::kFlat, Dims));
  const IndexRange TwoRows[] = {{0, 1, 1ll << 31}, {0, 15, 1}};
  EXPECT_TRUE(subscripts_fit<32>(Subscripts::kFlat, TwoRows));
}

TEST(SubscriptRangeTest, NegativeFlatIndexDoesNotFit) {
  // A negative stride (a signed size converted to unsigned in the source).
  const IndexRange Dims[] = {{0, 3, -5}, {0, 15, 1}};
  EXPECT_FALSE(subscripts_fit<32>(Subscripts::kFlat, Dims));
  const IndexRange Offset[] = {{-1, 3, 8}, {0, 7, 1}};
  EXPECT_FALSE(subscripts_fit<32>(Subscripts::kFlat, Offset));
}

TEST(SubscriptRangeTest, BeyondSixtyFourBitsDoesNotFit) {
  const IndexRange Dims[] = {{0, 1ll << 40, 1ll << 40}, {0, 0, 1}};
  EXPECT_FALSE(subscripts_fit<32>(Subscripts::kFlat, Dims));
  const IndexRange Sum[] = {{0, 1ll << 62, 1}, {0, 1ll << 62, 1}, {0, 1ll << 62, 1}};
  EXPECT_FALSE(subscripts_fit<32>(Subscripts::kFlat, Sum));
}

TEST(SubscriptRangeTest, EachDimensionOfAShapedArray) {
  // `A[i + 2 * o][k]`: the first subscript alone must fit, whatever the
  // flat index (the array's rows are 64 elements).
  const IndexRange Fits[] = {{0, (1ll << 32) - 1, 64}, {0, 63, 1}};
  EXPECT_TRUE(subscripts_fit<32>(Subscripts::kEach, Fits));
  EXPECT_FALSE(subscripts_fit<32>(Subscripts::kFlat, Fits));
  const IndexRange Wraps[] = {{0, 1ll << 32, 64}, {0, 63, 1}};
  EXPECT_FALSE(subscripts_fit<32>(Subscripts::kEach, Wraps));
}

TEST(SubscriptRangeTest, ValueOfTheSizes) {
  using tc::value_fits;
  // `N + D` over unsigned: 2^32 - 1 fits, 2^32 wraps to 0 in the source.
  EXPECT_TRUE(value_fits<32>({{1, {0xFFFFFFF0ll}}, {1, {0xFll}}}));
  EXPECT_FALSE(value_fits<32>({{1, {0xFFFFFFF0ll}}, {1, {0x10ll}}}));
  // `lo + 1` with lo = UINT_MAX.
  EXPECT_FALSE(value_fits<32>({{1, {}}, {1, {0xFFFFFFFFll}}}));
  // `M * 2u`, and a product beyond 64 bits.
  EXPECT_TRUE(value_fits<32>({{2, {0x7FFFFFFFll}}}));
  EXPECT_FALSE(value_fits<32>({{2, {0x80000000ll}}}));
  EXPECT_FALSE(value_fits<32>({{1, {1ll << 40, 1ll << 40}}}));
  // A negative value (a signed size converted) does not fit either.
  EXPECT_FALSE(value_fits<32>({{1, {5}}, {1, {-6}}}));
}

} // namespace
