// tc/launch_facts.cuh - the one place where a launcher reads the device and
// the environment for its choices.
//
// The choices themselves (tile_choice.cuh and the other *_choice.cuh
// headers) are pure functions of the shape, DeviceFacts and ChoiceOptions.
// A generated launcher calls launch_facts() once and passes what it
// returns on. The SM count is the current device's at the launch (asked
// once per device and kept: a program may cudaSetDevice between launches);
// the switches are read once per process, since the environment is.
// (What depends on a kernel as well - the clusters of it that fit,
// cluster_capacity_on in cluster_parts.cuh - the launcher measures beside
// this, kept by the ordinal of these facts.)
#pragma once

#include <atomic>
#ifdef TC_DEBUG_SWITCHES
#include <cstdlib>
#endif

#include <cuda_runtime.h>

#include "device_facts.cuh"
#include "per_device.cuh"

namespace tc {

struct LaunchFacts {
  DeviceFacts device;
  ChoiceOptions options;
};

// The SMs of device `device`, kept per device (the first 64; any other is
// asked each time). 1 should the query fail (its error is left to the launch).
__host__ inline int device_multiprocessors(int device) {
  constexpr int kKept = 64;
  static std::atomic<int> kept[kKept];  // 0: not asked yet
  if (device >= 0 && device < kKept) {
    const int sms = kept[device].load(std::memory_order_relaxed);
    if (sms > 0)
      return sms;
  }
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      sms < 1)
    sms = 1;
  if (device >= 0 && device < kKept)
    kept[device].store(sms, std::memory_order_relaxed);
  return sms;
}

#ifdef TC_DEBUG_SWITCHES
// Whether the environment turns a feature off: `name`=0.
__host__ inline bool turned_off_in_environment(const char *name) {
  const char *value = std::getenv(name);
  return value && value[0] == '0' && value[1] == '\0';
}
#endif

// The switches of this build: all on, or (TC_DEBUG_SWITCHES) as the
// environment sets them.
__host__ inline ChoiceOptions launch_options() {
  ChoiceOptions o;
#ifdef TC_DEBUG_SWITCHES
  o.fitted_tiles = !turned_off_in_environment("TC_FITTED_TILES");
  o.fitted_widths = !turned_off_in_environment("TC_FITTED_WIDTHS");
  o.square_heights = !turned_off_in_environment("TC_SQUARE_HEIGHTS");
  o.persistent_tiles = !turned_off_in_environment("TC_PERSISTENT");
  o.cluster_parts = !turned_off_in_environment("TC_CLUSTER_PARTS");
  o.stream_units = !turned_off_in_environment("TC_STREAM_K");
  o.tile_pairs = !turned_off_in_environment("TC_TILE_PAIRS");
  o.decode_kernels = !turned_off_in_environment("TC_DECODE");
#endif
  return o;
}

// The name of device `device` (cudaDeviceProp::name), kept per device; ""
// should the query fail.
__host__ inline const char *device_name(int device) {
  struct Name {
    char text[256] = {};
  };
  static PerDevice<Name> *names = new PerDevice<Name>;  // never destroyed: launches at exit
  static thread_local Name other;                       // a device past the kept ones
  auto query = [device] {
    Name n;
    cudaDeviceProp properties;
    if (cudaGetDeviceProperties(&properties, device) == cudaSuccess)
      for (int i = 0; i + 1 < int(sizeof n.text) && properties.name[i]; ++i)
        n.text[i] = properties.name[i];
    return n;
  };
  if (device >= 0 && device < PerDevice<Name>::kKeptDevices) {
    names->get(device, query);
    return names->kept[device].text;
  }
  other = query();
  return other.text;
}

// `device` with its name (DeviceFacts::name), which only a launcher with a
// tuning table asks for: the query takes a while the first time.
__host__ inline DeviceFacts named(DeviceFacts device) {
  device.name = device_name(device.ordinal);
  return device;
}

#ifdef TC_TUNING
// The candidate every launch of this thread runs, whatever its shape
// (ChoiceOptions::kernel): tuning.cuh sets it while it times each kernel.
__host__ inline int &tuning_kernel() {
  static thread_local int kernel = kNotTuned;
  return kernel;
}
#endif

// The facts of a launch on the current device.
__host__ inline LaunchFacts launch_facts() {
  static const ChoiceOptions options = launch_options();
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess)
    device = 0;
  LaunchFacts f;
  f.device.multiprocessors = device_multiprocessors(device);
  f.device.ordinal = device;
  f.options = options;
#ifdef TC_TUNING
  f.options.kernel = tuning_kernel();
#endif
  return f;
}

}  // namespace tc
