//===- IslModel.h - isl sets and relations of a RegionModel --------------===//
//
// Compiled with -fexceptions: isl's C++ bindings throw isl::exception on
// any error, which callers turn into a diagnostic instead of an abort.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_ISLMODEL_H
#define TC_ANALYSIS_ISLMODEL_H

#include "Model.h"
#include <isl/cpp.h>
#include <map>
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
  // Dependences of the original program (isl_union_access_info).
  isl::union_map Flow, Anti, Output;

  static IslModel build(isl::ctx Ctx, const RegionModel &M);
  /// All dependences (flow, anti and output).
  isl::union_map dependences() const;
};

/// Prints the model in isl notation: domains, accesses, dependences.
std::string explainModel(const RegionModel &M, const IslModel &I);

} // namespace tc

#endif
