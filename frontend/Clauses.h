//===- Clauses.h - the clauses of `#pragma tc` ------------------*- C++ -*-===//
//
// `#pragma tc [clause...]` steers code generation for the statement that
// follows. Every clause is optional; unset values are chosen by the kernel
// configuration rule (schedule/KernelConfig.h).
//
//   tile(BM, BN, BK)   block tile          warp(WM, WN)   warp tile
//   stages(S)          cp.async pipeline   split_k(P)     split-K factor
//   mma(m16n8k16)      target instruction  stream(expr)   launch stream
//   warp_split_k(P)    intra-block split-K: P warp groups share each k tile
//   sync               synchronise after the launch
//   temp(X, ...)       arrays that are scratch (dead after the region)
//   allow_tf32         fp32 operands may be rounded to tf32
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_CLAUSES_H
#define TC_ANALYSIS_CLAUSES_H

#include "clang/Basic/SourceLocation.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tc {

struct RegionClauses {
  std::optional<std::vector<int>> Tile; // BM, BN, BK
  std::optional<std::vector<int>> Warp; // WM, WN
  std::optional<int> Stages;
  std::optional<int> SplitK;
  std::optional<int> WarpSplitK;
  std::optional<std::string> Mma;
  std::optional<std::string> Stream; // spelling of the stream expression
  bool Sync = false;
  bool AllowTf32 = false;
  /// The arrays named in temp(...), each with where it is named.
  struct TempArray {
    std::string Name;
    clang::SourceLocation Loc;
  };
  std::vector<TempArray> Temp;
  /// Where each clause was written ("tile", "warp", ...), for diagnostics.
  std::map<std::string, clang::SourceLocation> Locs;
};

/// A malformed clause's error, or its note, said by whoever runs the
/// rewrite (the tool's diagnostics, or clang-tidy's): not through the
/// preprocessor's engine while the pragma is lexed, where clang-tidy's
/// consumer cannot take a diagnostic of its own kind.
struct ClauseDiagnostic {
  clang::SourceLocation Loc;
  std::string Message;
  bool IsNote = false;
};

/// One `#pragma tc` as seen by the preprocessor.
struct PragmaRecord {
  clang::SourceLocation Loc;    // of the `#` of the pragma line
  clang::SourceLocation EndLoc; // end of the pragma line
  RegionClauses Clauses;
  bool Valid = true; // false when a clause was malformed (Diagnostics say how)
  std::vector<ClauseDiagnostic> Diagnostics;
};

} // namespace tc

#endif
