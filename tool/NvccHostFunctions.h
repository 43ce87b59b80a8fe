//===- NvccHostFunctions.h - host functions nvcc declares and Clang not ---===//
//
// nvcc's headers declare CUDA's integer and floating max/min for host code
// too (crt/math_functions.hpp: static inline __host__ __device__); Clang's
// CUDA headers declare them for device code only. A region that nvcc
// compiles (`C[i][j] = max(acc, 0.0f);`) would not parse. The tool parses
// each file with a header of the host declarations nvcc has, in a system
// header of its own, so that they are the library's functions.
//
//===----------------------------------------------------------------------===//
#ifndef TC_TOOL_NVCCHOSTFUNCTIONS_H
#define TC_TOOL_NVCCHOSTFUNCTIONS_H

#include "llvm/ADT/StringRef.h"

namespace tc {

/// Where the header is mapped (a virtual file) and included from.
llvm::StringRef nvccHostFunctionsPath();

/// The header's text.
llvm::StringRef nvccHostFunctionsHeader();

} // namespace tc

#endif
