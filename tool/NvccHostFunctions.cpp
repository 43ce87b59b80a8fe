//===- NvccHostFunctions.cpp ----------------------------------------------===//
#include "NvccHostFunctions.h"

namespace tc {

llvm::StringRef nvccHostFunctionsPath() { return "/tc-rewrite-virtual/nvcc_host_functions.h"; }

// The signatures of crt/math_functions.hpp, with its results: the
// integer ones compare in the result type, the floating ones are fmaxf,
// fmax, fminf and fmin (a NaN argument gives the other).
llvm::StringRef nvccHostFunctionsHeader() {
  return R"(#pragma clang system_header
#if defined(__CUDA__) && !defined(__CUDA_ARCH__)
#define TC_NVCC_HOST_MAX_MIN(R, A, B)                                             \
  static inline __host__ R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }    \
  static inline __host__ R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }
TC_NVCC_HOST_MAX_MIN(int, int, int)
TC_NVCC_HOST_MAX_MIN(unsigned int, unsigned int, unsigned int)
TC_NVCC_HOST_MAX_MIN(unsigned int, int, unsigned int)
TC_NVCC_HOST_MAX_MIN(unsigned int, unsigned int, int)
TC_NVCC_HOST_MAX_MIN(long, long, long)
TC_NVCC_HOST_MAX_MIN(unsigned long, unsigned long, unsigned long)
TC_NVCC_HOST_MAX_MIN(unsigned long, long, unsigned long)
TC_NVCC_HOST_MAX_MIN(unsigned long, unsigned long, long)
TC_NVCC_HOST_MAX_MIN(long long, long long, long long)
TC_NVCC_HOST_MAX_MIN(unsigned long long, unsigned long long, unsigned long long)
TC_NVCC_HOST_MAX_MIN(unsigned long long, long long, unsigned long long)
TC_NVCC_HOST_MAX_MIN(unsigned long long, unsigned long long, long long)
#undef TC_NVCC_HOST_MAX_MIN
static inline __host__ float max(float a, float b) { return __builtin_fmaxf(a, b); }
static inline __host__ float min(float a, float b) { return __builtin_fminf(a, b); }
static inline __host__ double max(double a, double b) { return __builtin_fmax(a, b); }
static inline __host__ double min(double a, double b) { return __builtin_fmin(a, b); }
static inline __host__ double max(float a, double b) { return __builtin_fmax(a, b); }
static inline __host__ double min(float a, double b) { return __builtin_fmin(a, b); }
static inline __host__ double max(double a, float b) { return __builtin_fmax(a, b); }
static inline __host__ double min(double a, float b) { return __builtin_fmin(a, b); }
#endif
)";
}

} // namespace tc
