//===- CodeText.cpp -------------------------------------------------------===//
#include "CodeText.h"

namespace tc {

std::string indent(const std::string &Text, unsigned N) {
  std::string Pad(N, ' '), Out;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    std::string Line = Text.substr(Pos, End == std::string::npos ? End : End - Pos);
    Out += (Line.empty() ? "" : Pad + Line) + "\n";
    if (End == std::string::npos)
      break;
    Pos = End + 1;
  }
  return Out;
}

std::string dedent(const std::string &Text, unsigned N) {
  std::string Out;
  size_t Start = 0;
  while (Start < Text.size()) {
    size_t End = Text.find('\n', Start);
    End = End == std::string::npos ? Text.size() : End + 1;
    size_t Skip = 0;
    while (Skip < N && Start + Skip < End && Text[Start + Skip] == ' ')
      ++Skip;
    Out += Text.substr(Start + Skip, End - Start - Skip);
    Start = End;
  }
  return Out;
}

} // namespace tc
