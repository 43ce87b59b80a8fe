//===- IslModel.h - isl sets and relations of a RegionModel --------------===//
//
// Compiled with -fexceptions: isl's C++ bindings throw isl::exception on
// any error, which callers turn into a diagnostic instead of an abort.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_ISLMODEL_H
#define TC_ANALYSIS_ISLMODEL_H

#include "Model.h"
#include "RegionError.h"
#include <isl/cpp.h>
#include <map>
#include <set>
#include <optional>
#include <sstream>

namespace tc {

/// Text of any isl object, in isl notation.
template <typename T> std::string islStr(const T &Obj) {
  std::ostringstream OS;
  OS << Obj;
  return OS.str();
}

/// An isl context whose errors are reported as C++ exceptions.
isl::ctx makeIslContext();

/// Marks the sizes of `M` that offset a subscript or condition of a
/// statement that runs while they are negative (Parameter::MayBeNegative):
/// `off` in `C[i * 64 + j + off]`, a loop's lower bound. The others are
/// assumed >= 0: a loop's extent (no statement reading it runs otherwise),
/// a stride (a negative leading dimension fails the rows' own conditions,
/// `N <= ldc`). Where isl fails, every size is marked.
void markSignedParameters(RegionModel &M);

/// Flow (read after write), anti (write after read) and output (write
/// after write) dependences of accesses executed in Schedule's order.
struct Dependences {
  isl::union_map Flow, Anti, Output;
  /// The reads no write of the region must precede (the flow analysis's
  /// reads without a must source): their values may be from before it.
  isl::union_map LiveInReads;
};

struct IslModel {
  isl::set Context;
  isl::union_set Domains;
  std::map<std::string, isl::set> Domain;         // per statement
  std::map<std::string, isl::map> Write;          // per statement
  std::map<std::string, std::vector<isl::map>> Reads;
  // The same relations before restriction to the domain: what an access
  // depends on ("involves") is read off these.
  std::map<std::string, isl::map> RawWrite;
  std::map<std::string, std::vector<isl::map>> RawReads;
  isl::union_map Writes, AllReads;
  isl::union_map Schedule;                        // original order

  /// Parameter values the model assumes (e.g. N <= ldc, so that the rows
  /// of a written array do not overlap); checked by the launcher.
  isl::set Assumptions;

  static IslModel build(isl::ctx Ctx, const RegionModel &M);
  /// With assumptions from rowAssumptions(): domains and dependences are
  /// computed for parameter values that satisfy them.
  static IslModel build(isl::ctx Ctx, const RegionModel &M, const isl::set &Assumed);
  /// Dependences of the original program (isl_union_access_info),
  /// computed at the first call: most models (a kernel's own, built again
  /// in its context) never ask, and the analysis is most of a build.
  const Dependences &dependenceKinds() const;
  /// All dependences (flow, anti and output).
  isl::union_map dependences() const;
  /// The arrays (by their names in the model) some read of which may see a
  /// value from before the region: no write of the region precedes it for
  /// certain (isl's flow analysis: the reads without a must source).
  std::set<std::string> liveInArrays() const;

private:
  mutable std::optional<Dependences> Deps;
};

/// A delinearised subscript C[i][j] of an array the region writes is only
/// the element at i * ldc + j if 0 <= j < ldc: otherwise two subscripts may
/// name the same memory and isl would miss a dependence. Returns the
/// parameter values for which every such subscript stays inside its row, or
/// a RegionError at a subscript that never does.
llvm::Expected<isl::set> rowAssumptions(isl::ctx Ctx, const RegionModel &M);

/// S (or each map of U) with each size of known value (Parameter::Value)
/// fixed to it and projected out: code built from it does not name the
/// size, which is no kernel argument.
isl::set withKnownSizes(isl::set S, const RegionModel &M);
isl::union_map withKnownSizes(const isl::union_map &U, const RegionModel &M);

Dependences dependencesOf(const isl::union_map &Reads, const isl::union_map &Writes,
                          const isl::union_map &Schedule);

/// Each statement's instances -> its position in the region's original
/// (textual) order, the 2d+1 schedule of scheduleMap (IslBuild.h).
isl::union_map originalSchedule(isl::ctx Ctx, const RegionModel &M);

/// Whether an access relation depends on its input dimension Pos (the
/// statement's loop at that depth).
bool involves(const isl::map &Access, unsigned Pos);

/// Prints the model in isl notation: domains, accesses, dependences.
std::string explainModel(const RegionModel &M, const IslModel &I);

} // namespace tc

#endif
