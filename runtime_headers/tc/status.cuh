// tc/status.cuh - errors of the generated launchers, reported as CUDA
// reports its own: a queryable state and an optional handler.
//
// A launcher that cannot serve its sizes (a grid beyond CUDA's limits)
// does not launch: it records the error and returns; the program asks for
// it as it asks cudaGetLastError. (Sizes where a written array's rows
// overlap, ldc < N, run the loops as written on one thread instead.)
//
//   gemm(...);                        // the rewritten function
//   tc::Error e = tc::get_last_error();  // and resets it to success
//   if (e.status != tc::Status::Success) ... e.where, e.message ...
//
// tc::set_error_handler(h) also calls h at each error, in the launcher's
// thread; tc::abort_on_error prints the error and aborts, for programs that
// prefer to stop. The state is one per thread, the handler one per
// program, both shared by every translation unit (inline functions).
#pragma once

#include <cstdio>
#include <cstdlib>

namespace tc {

enum class Status {
  Success = 0,
  AssumptionViolated, // a run-time condition of a kernel does not hold
  GridTooLarge,       // the output needs more blocks than a CUDA grid holds
  LaunchFailed,       // no kernel of the region could be launched (cudaGetLastError says why)
};

struct Error {
  Status status = Status::Success;
  const char *where = "";   // "file.cu:LINE" of the region's pragma
  const char *message = ""; // what does not hold (a string literal)
};

using ErrorHandler = void (*)(const Error &);

namespace detail {
inline Error &last_error() {
  static thread_local Error e;
  return e;
}
inline ErrorHandler &error_handler() {
  static ErrorHandler h = nullptr;
  return h;
}
} // namespace detail

/// The last error of this thread's launchers, which is then reset.
inline Error get_last_error() {
  Error e = detail::last_error();
  detail::last_error() = Error{};
  return e;
}

/// The last error of this thread's launchers, kept.
inline Error peek_at_last_error() { return detail::last_error(); }

/// Installs `h` (nullptr: none) and returns the previous handler.
inline ErrorHandler set_error_handler(ErrorHandler h) {
  ErrorHandler previous = detail::error_handler();
  detail::error_handler() = h;
  return previous;
}

/// A handler that prints the error and aborts the process.
inline void abort_on_error(const Error &e) {
  std::fprintf(stderr, "%s: %s\n", e.where, e.message);
  std::abort();
}

/// Whether a grid of x * y * z blocks fits CUDA's limits (2^31 - 1 along
/// x, 65535 along y and z); a dim3 built from larger counts wraps.
inline bool grid_fits(long long x, long long y, long long z) {
  return x >= 1 && y >= 1 && z >= 1 && x <= 2147483647LL && y <= 65535 && z <= 65535;
}

/// Whether `tiles` tiles of `extent` rows (columns) each start at indices
/// an int holds: the text kernels compute a tile's first row (column) in
/// 32 bits.
inline bool tile_origins_fit(long long tiles, long long extent) {
  return tiles >= 0 && extent >= 1 && tiles <= 2147483647LL / extent;
}

/// The message of a launcher's error `status` (a string literal).
inline const char *status_message(Status status) {
  switch (status) {
  case Status::Success:
    return "";
  case Status::AssumptionViolated:
    return "'#pragma tc' region: a run-time condition of its kernel does not hold";
  case Status::GridTooLarge:
    return "'#pragma tc' region: the output needs more thread blocks than a CUDA grid holds";
  case Status::LaunchFailed:
    break;
  }
  return "'#pragma tc' region: its kernel could not be launched (cudaGetLastError says why)";
}

/// Called by the launchers: records the error and calls the handler.
inline void report_error(Status status, const char *where, const char *message) {
  detail::last_error() = Error{status, where, message};
  if (ErrorHandler h = detail::error_handler())
    h(detail::last_error());
}

/// Reports `status` of a launch, where it is not Success, with its
/// status_message.
inline void report_status(Status status, const char *where) {
  if (status != Status::Success)
    report_error(status, where, status_message(status));
}

} // namespace tc
