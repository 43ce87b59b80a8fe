//===- AliasCheckTest.cpp - tc/alias_check.cuh: overlapping arrays --------===//
//
// The launchers' overlap test on the host: the bytes of an array's
// accesses from the bounds of its subscripts, and whether two such ranges
// share a byte. Adjacent arrays must not count as overlapping (the kernels
// would be given up for nothing); one shared element must.
#include "tc/alias_check.cuh"
#include "gtest/gtest.h"
#include <cstdint>

namespace {

using tc::accessed_bytes;
using tc::ByteRange;
using tc::IndexRange;
using tc::overlap;

TEST(AliasCheckTest, RowMajorMatrixCoversItsElements) {
  alignas(16) static unsigned char Pool[4096];
  // A 10 x 20 fp16 matrix with row pitch 24: rows 0..9, columns 0..19.
  const IndexRange Dims[] = {{0, 9, 24}, {0, 19, 1}};
  ByteRange R = accessed_bytes(Pool, 2, Dims);
  EXPECT_EQ(R.begin, reinterpret_cast<std::uintptr_t>(Pool));
  EXPECT_EQ(R.end, reinterpret_cast<std::uintptr_t>(Pool) + 2 * (9 * 24 + 19 + 1));
}

TEST(AliasCheckTest, AdjacentArraysDoNotOverlapOneSharedElementDoes) {
  alignas(16) static unsigned char Pool[4096];
  const IndexRange A[] = {{0, 7, 8}, {0, 7, 1}}; // 64 floats
  const IndexRange C[] = {{0, 3, 4}, {0, 3, 1}}; // 16 floats
  ByteRange RA = accessed_bytes(Pool, 4, A);
  EXPECT_FALSE(overlap(RA, accessed_bytes(Pool + 256, 4, C)));
  EXPECT_FALSE(overlap(accessed_bytes(Pool + 256, 4, C), RA));
  EXPECT_TRUE(overlap(RA, accessed_bytes(Pool + 252, 4, C)));
  EXPECT_TRUE(overlap(accessed_bytes(Pool + 252, 4, C), RA));
  // C inside A.
  EXPECT_TRUE(overlap(RA, accessed_bytes(Pool + 64, 4, C)));
}

TEST(AliasCheckTest, ArrayEndingWhereAnotherBeginsDoesNotOverlap) {
  alignas(16) static unsigned char Pool[4096];
  const IndexRange Row[] = {{0, 15, 1}}; // 16 fp16 elements, 32 bytes
  EXPECT_FALSE(overlap(accessed_bytes(Pool + 32, 2, Row), accessed_bytes(Pool + 64, 2, Row)));
  EXPECT_TRUE(overlap(accessed_bytes(Pool + 34, 2, Row), accessed_bytes(Pool + 64, 2, Row)));
}

TEST(AliasCheckTest, NegativeStridesAndOffsetsAreBounded) {
  alignas(16) static unsigned char Pool[4096];
  unsigned char *Base = Pool + 1024;
  // Subscripts -4 .. 3 with stride -2: elements at -6 .. 8.
  const IndexRange Dims[] = {{-4, 3, -2}};
  ByteRange R = accessed_bytes(Base, 4, Dims);
  EXPECT_EQ(R.begin, reinterpret_cast<std::uintptr_t>(Base) - 4 * 6);
  EXPECT_EQ(R.end, reinterpret_cast<std::uintptr_t>(Base) + 4 * 9);
}

TEST(AliasCheckTest, EmptyDimensionStillGivesABoundedRange) {
  alignas(16) static unsigned char Pool[4096];
  // K = 0: the bounds of the reduction's subscript are 0 and -1; the range
  // is larger than the accesses (never smaller), and finite.
  const IndexRange Dims[] = {{0, 4, 8}, {0, -1, 1}};
  ByteRange R = accessed_bytes(Pool + 512, 2, Dims);
  EXPECT_LE(R.begin, reinterpret_cast<std::uintptr_t>(Pool + 512));
  EXPECT_GE(R.end, reinterpret_cast<std::uintptr_t>(Pool + 512) + 2 * (4 * 8));
}

} // namespace
