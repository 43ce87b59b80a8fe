// tc/per_device.cuh - a value a launcher works out once per device.
//
// What depends on the device (a kernel attribute set in its context, the
// clusters of a kernel that fit) must be found again after cudaSetDevice:
// PerDevice<T> keeps one T for each of the first kKeptDevices devices,
// computed on the first get() for that device; on any other device, every
// get() computes it.
#pragma once

#include <mutex>

namespace tc {

template <class T>
struct PerDevice {
  static constexpr int kKeptDevices = 64;
  std::once_flag done[kKeptDevices];
  T kept[kKeptDevices] = {};

  // The value for device `ordinal`, `compute()` the first time.
  template <class Compute>
  __host__ T get(int ordinal, Compute &&compute) {
    if (ordinal < 0 || ordinal >= kKeptDevices)
      return compute();
    std::call_once(done[ordinal], [&] { kept[ordinal] = compute(); });
    return kept[ordinal];
  }
};

}  // namespace tc
