//===- CodeText.h - indentation of generated code text --------------------===//
#ifndef TC_TRANSFORMS_CODETEXT_H
#define TC_TRANSFORMS_CODETEXT_H

#include <string>

namespace tc {

/// Text with each non-empty line indented by N spaces; every line ends in
/// a newline.
std::string indent(const std::string &Text, unsigned N);

/// Text with up to N leading spaces taken from each line.
std::string dedent(const std::string &Text, unsigned N);

} // namespace tc

#endif
