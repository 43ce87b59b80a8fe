//===- StatusTest.cpp - tc/status.cuh: launchers' errors ------------------===//
#include "tc/status.cuh"
#include "gtest/gtest.h"
#include <string>

namespace {

std::string Seen;
void record(const tc::Error &E) { Seen = std::string(E.where) + ": " + E.message; }

TEST(StatusTest, ErrorIsQueryableAndReset) {
  EXPECT_EQ(tc::get_last_error().status, tc::Status::Success);
  tc::report_error(tc::Status::AssumptionViolated, "f.cu:3", "ldc >= N");
  EXPECT_EQ(tc::peek_at_last_error().status, tc::Status::AssumptionViolated);
  tc::Error E = tc::get_last_error();
  EXPECT_EQ(E.status, tc::Status::AssumptionViolated);
  EXPECT_STREQ(E.where, "f.cu:3");
  EXPECT_STREQ(E.message, "ldc >= N");
  EXPECT_EQ(tc::get_last_error().status, tc::Status::Success);
}

TEST(StatusTest, HandlerSeesEachErrorUntilRemoved) {
  EXPECT_EQ(tc::set_error_handler(record), nullptr);
  tc::report_error(tc::Status::AssumptionViolated, "g.cu:9", "M == 0");
  EXPECT_EQ(Seen, "g.cu:9: M == 0");
  EXPECT_EQ(tc::set_error_handler(nullptr), record);
  Seen.clear();
  tc::report_error(tc::Status::AssumptionViolated, "g.cu:9", "M == 0");
  EXPECT_EQ(Seen, "");
  (void)tc::get_last_error();
}

TEST(StatusTest, AbortOnErrorAborts) {
  EXPECT_DEATH(tc::abort_on_error({tc::Status::AssumptionViolated, "h.cu:1", "x"}),
               "h.cu:1: x");
}

TEST(StatusTest, GridLimits) {
  EXPECT_TRUE(tc::grid_fits(1, 1, 1));
  EXPECT_TRUE(tc::grid_fits(2147483647LL, 65535, 65535));
  EXPECT_FALSE(tc::grid_fits(2147483648LL, 1, 1));
  // 2^24 tiles of 128 columns start at columns up to 2^31 - 128; one more
  // tile passes an int.
  EXPECT_TRUE(tc::tile_origins_fit(16777215LL, 128));
  EXPECT_FALSE(tc::tile_origins_fit(16777217LL, 128));
  EXPECT_TRUE(tc::tile_origins_fit(0, 128));
  EXPECT_FALSE(tc::grid_fits(1, 65536, 1));   // M > 65535 * 128 rows
  EXPECT_FALSE(tc::grid_fits(1, 1, 65536));   // batch * splits
  EXPECT_FALSE(tc::grid_fits(0, 1, 1));
  EXPECT_FALSE(tc::grid_fits(1, -1, 1));
}

} // namespace
