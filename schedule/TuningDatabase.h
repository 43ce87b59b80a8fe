//===- TuningDatabase.h - measured kernel choices for a region's launcher -===//
//
// A program built with -DTC_TUNING and run with TC_TUNING_DB=FILE times
// each kernel of every launch's region at the shapes it runs
// (runtime_headers/tc/tuning.cuh) and writes the times to FILE. A rewrite
// given such files (`--tuning-db`) lists in each launcher, for every GPU
// and shape bucket measured for a region of its kind (tuningKey), the
// kernel that ran fastest there; tc::choose_kernel takes it before its
// rules. The format: docs/tuning.md.
//
//===----------------------------------------------------------------------===//
#ifndef TC_SCHEDULE_TUNINGDATABASE_H
#define TC_SCHEDULE_TUNINGDATABASE_H

#include "KernelConfig.h"
#include "MatmulIdiom.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace tc {

/// One measured launch: the milliseconds of each kernel of the region's
/// launcher (Ms[i] of Kernels[i]; negative where it did not run).
struct TuningMeasurement {
  std::string Gpu;    // cudaDeviceProp::name
  std::string Region; // tuningKey of the measured region
  int64_t M = 0, N = 0, K = 0;
  std::vector<std::string> Kernels;
  std::vector<double> Ms;
};

struct TuningDatabase {
  std::vector<TuningMeasurement> Measurements;

  /// The measurements of the database files at Paths, in order. An error
  /// names the file and what is wrong with it.
  static llvm::Expected<TuningDatabase> load(llvm::ArrayRef<std::string> Paths);
  /// Adds the measurements of one file's text (Origin: its name, for
  /// errors).
  llvm::Error parse(llvm::StringRef Text, llvm::StringRef Origin);
};

/// tc::shape_bucket (tc/tuned_choice.cuh): 2 floor(log2 X), plus one from
/// 1.5 times that power of two on; -1 below 1.
int shapeBucket(int64_t X);

/// What a region's measurements are filed under: the target, the operand
/// and output types and orders, the idiom's parts that change its kernels
/// (operand prologues, a sum of products), and a hash of its kernels'
/// configurations (the default C and its alternatives Alts). Regions of
/// one key have the same kernels, so one's measurements serve the other.
std::string tuningKey(const RegionModel &M, const MatmulIdiom &Idiom, const KernelConfig &C,
                      const std::vector<AlternativeKernel> &Alts);

/// The measured choice for one GPU and shape bucket.
struct TunedEntry {
  std::string Gpu;
  int BucketM = 0, BucketN = 0, BucketK = 0;
  /// Index among the launcher's candidates; -1: its own kernel.
  int Kernel = -1;
  std::string KernelName;
  unsigned Shapes = 0; // the bucket's measurements it is chosen over
  double Ms = 0;       // its geometric mean time over them
};

/// The names of a launcher's kernels in a database: "default" for its own,
/// then its candidates' (their suffixes: "fitted", "wide192", ...).
std::vector<std::string> tuningKernelNames(const std::vector<AlternativeKernel> &Alts);

/// The table of a launcher whose kernels are named Kernels (its own
/// first, then its candidates in order) for the measurements filed under
/// Key: per GPU and bucket, the kernel of the least geometric-mean time
/// over the bucket's measurements among those that ran in every one of
/// them. Ordered by GPU, then bucket.
std::vector<TunedEntry> tunedEntries(const TuningDatabase &DB, llvm::StringRef Key,
                                     llvm::ArrayRef<std::string> Kernels);

/// A region's launcher as the tuning sees it: what its measurements are
/// filed under, its kernels' names, and the measured choices.
struct RegionTuning {
  std::string Key;
  std::vector<std::string> Kernels;
  std::vector<TunedEntry> Entries;
};

/// For --explain: the key and kernels, and each measured choice.
std::string explainTuning(const RegionTuning &T);

} // namespace tc

#endif
