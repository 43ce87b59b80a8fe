//===- UnifiedDiff.cpp ----------------------------------------------------===//
#include "UnifiedDiff.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <vector>

using llvm::StringRef;

namespace tc {
namespace {

/// Lines with their terminating '\n' (the last one may lack it), so that a
/// missing final newline is a difference.
std::vector<StringRef> splitLines(StringRef Text) {
  std::vector<StringRef> Lines;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    size_t Len = NL == StringRef::npos ? Text.size() : NL + 1;
    Lines.push_back(Text.take_front(Len));
    Text = Text.drop_front(Len);
  }
  return Lines;
}

enum class Op { Equal, Delete, Insert };
struct Edit {
  Op Kind;
  unsigned OldIndex; // line of A (Equal, Delete)
  unsigned NewIndex; // line of B (Equal, Insert)
};

/// Myers' greedy shortest edit script from A[Lo..) to B[Lo..), both
/// without their common prefix and suffix. Beyond MaxD differences
/// (quadratic memory), everything is deleted and inserted.
std::vector<Edit> middleScript(const std::vector<StringRef> &A,
                               const std::vector<StringRef> &B, unsigned ABegin,
                               unsigned AEnd, unsigned BBegin, unsigned BEnd) {
  const int N = AEnd - ABegin, M = BEnd - BBegin;
  const int Max = N + M;
  const int MaxD = 6000;
  std::vector<Edit> Script;
  auto fallback = [&] {
    Script.clear();
    for (int I = 0; I < N; ++I)
      Script.push_back({Op::Delete, unsigned(ABegin + I), unsigned(BBegin)});
    for (int J = 0; J < M; ++J)
      Script.push_back({Op::Insert, unsigned(AEnd), unsigned(BBegin + J)});
    return Script;
  };
  if (N == 0 || M == 0)
    return fallback();
  auto eq = [&](int X, int Y) { return A[ABegin + X] == B[BBegin + Y]; };

  std::vector<int> V(2 * Max + 3, 0);
  const int Off = Max + 1;
  // Trace[D] holds V[-D..D] as it was before step D.
  std::vector<std::vector<int>> Trace;
  int FinalD = -1;
  for (int D = 0; D <= Max; ++D) {
    if (D > MaxD)
      return fallback();
    Trace.emplace_back(V.begin() + Off - D, V.begin() + Off + D + 1);
    for (int K = -D; K <= D; K += 2) {
      int X;
      if (K == -D || (K != D && V[Off + K - 1] < V[Off + K + 1]))
        X = V[Off + K + 1]; // down: insertion
      else
        X = V[Off + K - 1] + 1; // right: deletion
      int Y = X - K;
      while (X < N && Y < M && eq(X, Y)) {
        ++X;
        ++Y;
      }
      V[Off + K] = X;
      if (X >= N && Y >= M) {
        FinalD = D;
        break;
      }
    }
    if (FinalD >= 0)
      break;
  }

  // Backtrack from (N, M).
  std::vector<Edit> Reversed;
  int X = N, Y = M;
  for (int D = FinalD; D > 0; --D) {
    const std::vector<int> &PV = Trace[D];
    auto at = [&](int K) { return PV[K + D]; };
    int K = X - Y;
    int PrevK = (K == -D || (K != D && at(K - 1) < at(K + 1))) ? K + 1 : K - 1;
    int PrevX = at(PrevK);
    int PrevY = PrevX - PrevK;
    while (X > PrevX && Y > PrevY) {
      --X;
      --Y;
      Reversed.push_back({Op::Equal, unsigned(ABegin + X), unsigned(BBegin + Y)});
    }
    if (X == PrevX) {
      --Y;
      Reversed.push_back({Op::Insert, unsigned(ABegin + X), unsigned(BBegin + Y)});
    } else {
      --X;
      Reversed.push_back({Op::Delete, unsigned(ABegin + X), unsigned(BBegin + Y)});
    }
    X = PrevX;
    Y = PrevY;
  }
  while (X > 0 && Y > 0) {
    --X;
    --Y;
    Reversed.push_back({Op::Equal, unsigned(ABegin + X), unsigned(BBegin + Y)});
  }
  Script.assign(Reversed.rbegin(), Reversed.rend());
  return Script;
}

std::vector<Edit> editScript(const std::vector<StringRef> &A,
                             const std::vector<StringRef> &B) {
  unsigned Prefix = 0;
  while (Prefix < A.size() && Prefix < B.size() && A[Prefix] == B[Prefix])
    ++Prefix;
  unsigned Suffix = 0;
  while (Suffix < A.size() - Prefix && Suffix < B.size() - Prefix &&
         A[A.size() - 1 - Suffix] == B[B.size() - 1 - Suffix])
    ++Suffix;
  std::vector<Edit> Script;
  for (unsigned I = 0; I < Prefix; ++I)
    Script.push_back({Op::Equal, I, I});
  std::vector<Edit> Middle = middleScript(A, B, Prefix, A.size() - Suffix,
                                          Prefix, B.size() - Suffix);
  Script.insert(Script.end(), Middle.begin(), Middle.end());
  for (unsigned I = Suffix; I > 0; --I)
    Script.push_back({Op::Equal, unsigned(A.size() - I), unsigned(B.size() - I)});
  return Script;
}

void printRange(llvm::raw_ostream &OS, unsigned Start, unsigned Count) {
  // GNU diff: the first line of the range (1-based), or the line before an
  // empty range; a count of 1 is omitted.
  if (Count == 0)
    OS << Start << ",0";
  else if (Count == 1)
    OS << Start + 1;
  else
    OS << Start + 1 << "," << Count;
}

void printLine(llvm::raw_ostream &OS, char Prefix, StringRef Line) {
  OS << Prefix << Line;
  if (!Line.ends_with("\n"))
    OS << "\n\\ No newline at end of file\n";
}

} // namespace

std::string unifiedDiff(StringRef Old, StringRef New, StringRef OldLabel,
                        StringRef NewLabel, unsigned Context) {
  if (Old == New)
    return "";
  std::vector<StringRef> A = splitLines(Old), B = splitLines(New);
  std::vector<Edit> Script = editScript(A, B);

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "--- " << OldLabel << "\n+++ " << NewLabel << "\n";
  size_t I = 0;
  while (I < Script.size()) {
    // The next change, and the hunk around it: changes separated by at most
    // 2 * Context equal lines share a hunk.
    while (I < Script.size() && Script[I].Kind == Op::Equal)
      ++I;
    if (I == Script.size())
      break;
    size_t Begin = I >= Context ? I - Context : 0;
    size_t End = I;
    while (true) {
      while (End < Script.size() && Script[End].Kind != Op::Equal)
        ++End;
      size_t Gap = End;
      while (Gap < Script.size() && Script[Gap].Kind == Op::Equal)
        ++Gap;
      if (Gap < Script.size() && Gap - End <= 2 * Context) {
        End = Gap;
        continue;
      }
      End = std::min(Script.size(), End + Context);
      break;
    }
    unsigned OldStart = Script[Begin].OldIndex, NewStart = Script[Begin].NewIndex;
    unsigned OldCount = 0, NewCount = 0;
    for (size_t J = Begin; J < End; ++J) {
      OldCount += Script[J].Kind != Op::Insert;
      NewCount += Script[J].Kind != Op::Delete;
    }
    OS << "@@ -";
    printRange(OS, OldStart, OldCount);
    OS << " +";
    printRange(OS, NewStart, NewCount);
    OS << " @@\n";
    for (size_t J = Begin; J < End; ++J) {
      const Edit &E = Script[J];
      switch (E.Kind) {
      case Op::Equal:
        printLine(OS, ' ', A[E.OldIndex]);
        break;
      case Op::Delete:
        printLine(OS, '-', A[E.OldIndex]);
        break;
      case Op::Insert:
        printLine(OS, '+', B[E.NewIndex]);
        break;
      }
    }
    I = End;
  }
  return Out;
}

} // namespace tc
