//===- TuningDatabaseTest.cpp - reading tuning databases, choosing kernels ===//
#include "TuningDatabase.h"
#include "tc/tuned_choice.cuh"
#include "gtest/gtest.h"

namespace {

using tc::TuningDatabase;

const char *const kDatabase = R"({
  "tc_tuning_database": 1,
  "entries": [
    {"gpu": "G", "region": "R", "shape": [4096, 4096, 4096],
     "kernels": ["default", "wide", "narrow"], "ms": [1.0, 0.8, 2.0]},
    {"gpu": "G", "region": "R", "shape": [5000, 5000, 5000],
     "kernels": ["default", "wide", "narrow"], "ms": [1.0, 1.5, 0.5]},
    {"gpu": "G", "region": "R", "shape": [64, 64, 64],
     "kernels": ["default", "wide", "narrow"], "ms": [0.1, -1, 0.05]},
    {"gpu": "H", "region": "R", "shape": [64, 64, 64],
     "kernels": ["default"], "ms": [0.1]},
    {"gpu": "G", "region": "other", "shape": [64, 64, 64],
     "kernels": ["default", "wide"], "ms": [1, 0.1]}
  ]
})";

TuningDatabase parsed(const char *Text) {
  TuningDatabase DB;
  EXPECT_FALSE(bool(DB.parse(Text, "test")));
  return DB;
}

TEST(TuningDatabaseTest, ShapeBucketsAgreeWithTheRuntime) {
  for (int64_t X : {0LL, 1LL, 2LL, 3LL, 5LL, 6LL, 7LL, 100LL, 4095LL, 4096LL, 6143LL, 6144LL,
                    1LL << 40, (1LL << 40) + (1LL << 39)})
    EXPECT_EQ(tc::shapeBucket(X), tc::shape_bucket(X)) << X;
}

TEST(TuningDatabaseTest, GeometricMeanOverTheBucket) {
  TuningDatabase DB = parsed(kDatabase);
  ASSERT_EQ(DB.Measurements.size(), 5u);
  // 4096^3 and 5000^3 share bucket 24: default 1.0, wide sqrt(0.8 * 1.5)
  // = 1.095, narrow 1.0: the first of the least, default. 64^3: wide did
  // not run there, narrow (0.05) wins.
  auto Entries = tc::tunedEntries(DB, "R", {"default", "wide", "narrow"});
  ASSERT_EQ(Entries.size(), 3u);
  EXPECT_EQ(Entries[0].Gpu, "G");
  EXPECT_EQ(Entries[0].BucketM, 12);
  EXPECT_EQ(Entries[0].KernelName, "narrow");
  EXPECT_EQ(Entries[0].Kernel, 1);
  EXPECT_EQ(Entries[1].BucketM, 24);
  EXPECT_EQ(Entries[1].KernelName, "default");
  EXPECT_EQ(Entries[1].Kernel, -1);
  EXPECT_EQ(Entries[1].Shapes, 2u);
  EXPECT_EQ(Entries[2].Gpu, "H");
}

TEST(TuningDatabaseTest, OnlyTheLaunchersKernels) {
  TuningDatabase DB = parsed(kDatabase);
  // A launcher without `narrow` takes wide at bucket 24 (1.095 > 1.0: no,
  // default), and at 64^3 default, the only one that ran.
  auto Entries = tc::tunedEntries(DB, "R", {"default", "wide"});
  ASSERT_EQ(Entries.size(), 3u);
  EXPECT_EQ(Entries[0].KernelName, "default");
  EXPECT_EQ(Entries[1].KernelName, "default");
  // Another key's measurements are not this region's.
  EXPECT_TRUE(tc::tunedEntries(DB, "unknown", {"default"}).empty());
  auto Other = tc::tunedEntries(DB, "other", {"default", "wide"});
  ASSERT_EQ(Other.size(), 1u);
  EXPECT_EQ(Other[0].Kernel, 0);
}

TEST(TuningDatabaseTest, Errors) {
  TuningDatabase DB;
  auto Message = [&](const char *Text) {
    llvm::Error E = DB.parse(Text, "db.json");
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  EXPECT_EQ(Message("[]"), "tuning database 'db.json': not a JSON object");
  EXPECT_EQ(Message(R"({"tc_tuning_database": 1})"),
            "tuning database 'db.json': no \"entries\" array");
  EXPECT_EQ(Message(R"({"tc_tuning_database": 1, "entries": [{"gpu": 1}]})"),
            "tuning database 'db.json': entry 0: \"gpu\" and \"region\" must be strings");
  EXPECT_EQ(Message(R"({"tc_tuning_database": 1, "entries": [{"gpu": "G", "region": "R",
              "shape": [0, 1, 1], "kernels": ["default"], "ms": [1]}]})"),
            "tuning database 'db.json': entry 0: \"shape\" must hold positive integers");
  EXPECT_EQ(Message(R"({"tc_tuning_database": 1, "entries": [{"gpu": "G", "region": "R",
              "shape": [1, 1, 1], "kernels": ["default", "wide"], "ms": [1, 1e400]}]})"),
            "tuning database 'db.json': entry 0: a time of \"ms\" is not finite");
  EXPECT_EQ(Message(R"({"tc_tuning_database": 1, "entries": [{"gpu": "G", "region": "R",
              "shape": [1, 1, 1], "kernels": ["wide", "wide"], "ms": [1, 2]}]})"),
            "tuning database 'db.json': entry 0: \"kernels\" names 'wide' twice");
}

// A file nested deeper than a database is refused before JSON parsing,
// which recurses once a level (50,000 levels overflowed the stack).
TEST(TuningDatabaseTest, DeepNestingIsAnError) {
  TuningDatabase DB;
  const std::string Deep = std::string(100000, '[') + std::string(100000, ']');
  llvm::Error E = DB.parse(Deep, "deep.json");
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "tuning database 'deep.json': nested 100000 levels deep (a tuning database nests "
            "three)");
  // Brackets inside strings are not nesting.
  const std::string InName = R"({"tc_tuning_database": 1, "entries": [{"gpu": "[[[[[[[[[[)" +
                             std::string(100, '[') + R"({", "region": "R",
              "shape": [1, 1, 1], "kernels": ["default"], "ms": [1]}]})";
  llvm::Error Named = DB.parse(InName, "name.json");
  EXPECT_FALSE(bool(Named));
  llvm::consumeError(std::move(Named));
}

} // namespace
