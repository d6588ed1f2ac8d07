// What the multi-device suites share: sets of queues over the platform's devices (CTest runs the suites with
// POCL_DEVICES="pthread pthread basic": two identical PoCL devices and one of another driver, so another
// fingerprint), in one context or one context each, and host arrays with guard elements around the region a
// call may write.
#pragma once

#include <doctest/doctest.h>

#include <CL/opencl.hpp>
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "support/fixture.hpp"
#include "tilecl/device.hpp"
#include "tilecl/error.hpp"
#include "tilecl/multi_device.hpp"

namespace tilecl::test::multi {

// The test device's platform's devices, those with the test device's name first (so sets of two are alike
// where the platform allows), then the others.
inline const std::vector<cl::Device>& platform_devices() {
  static const std::vector<cl::Device> devices = [] {
    const cl::Device first = device().device;
    const auto name = first.getInfo<CL_DEVICE_NAME>();
    std::vector<cl::Device> all;
    cl::Platform(first.getInfo<CL_DEVICE_PLATFORM>()).getDevices(CL_DEVICE_TYPE_ALL, &all);
    std::stable_partition(all.begin(), all.end(),
                          [&](const cl::Device& d) { return d.getInfo<CL_DEVICE_NAME>() == name; });
    return all;
  }();
  return devices;
}

// `count` devices: distinct ones while the platform has them, then the first ones again (several queues on one
// device).
inline std::vector<cl::Device> devices(std::size_t count, std::size_t skip = 0) {
  const auto& all = platform_devices();
  std::vector<cl::Device> chosen;
  for (std::size_t i = 0; i < count; ++i) chosen.push_back(all[(skip + i) % all.size()]);
  return chosen;
}

// `count` devices alike (the test device's name), repeating them when the platform has fewer: compiles once per
// program for all of them (one fingerprint), so the broad sweeps stay cheap.
inline std::vector<cl::Device> alike(std::size_t count) {
  const auto& all = platform_devices();
  const auto name = all.front().getInfo<CL_DEVICE_NAME>();
  std::vector<cl::Device> same;
  for (const auto& d : all)
    if (d.getInfo<CL_DEVICE_NAME>() == name) same.push_back(d);
  std::vector<cl::Device> chosen;
  for (std::size_t i = 0; i < count; ++i) chosen.push_back(same[i % same.size()]);
  return chosen;
}

// One queue per device: all in one context (a device named twice appears once in it), or each in its own.
inline std::vector<cl::CommandQueue> queues(const std::vector<cl::Device>& chosen, bool shared_context) {
  std::vector<cl::CommandQueue> result;
  if (shared_context) {
    std::vector<cl::Device> distinct;
    for (const auto& d : chosen)
      if (std::none_of(distinct.begin(), distinct.end(), [&](const cl::Device& e) { return e() == d(); }))
        distinct.push_back(d);
    cl::Context context(distinct);
    for (const auto& d : chosen) result.emplace_back(context, d);
  } else {
    for (const auto& d : chosen) result.emplace_back(cl::Context(d), d);
  }
  return result;
}

inline std::string describe(const std::vector<cl::Device>& chosen, bool shared_context) {
  std::string text =
      std::to_string(chosen.size()) + (shared_context ? " devices, one context:" : " devices, own contexts:");
  for (const auto& d : chosen) text += " " + d.getInfo<CL_DEVICE_NAME>().substr(0, 7);
  return text;
}

// The call raises tilecl::Error naming `argument`, with `status`.
inline void expect_error(const std::function<void()>& call, const std::string& argument, cl_int status) {
  try {
    call();
    FAIL("no error for " << argument);
  } catch (const Error& error) {
    CHECK(error.argument() == argument);
    CHECK(error.status() == status);
  }
}

// A host array: `guard` sentinel elements, the region, `guard` sentinels. Elements of the region that a call
// must not write (padding) hold the sentinel too; check_untouched() compares every element the test did not
// expect to change.
template <typename T>
class GuardedHost {
 public:
  static constexpr std::size_t kGuard = 23;
  GuardedHost(std::size_t count, T sentinel) : values_(count + 2 * kGuard, sentinel), sentinel_(sentinel) {}
  T* data() { return values_.data() + kGuard; }
  const T* data() const { return values_.data() + kGuard; }
  T& operator[](std::size_t i) { return values_[kGuard + i]; }
  const T& operator[](std::size_t i) const { return values_[kGuard + i]; }
  std::size_t size() const { return values_.size() - 2 * kGuard; }
  // The guards still hold the sentinel, bit for bit.
  void check_guards(const std::string& what) const {
    std::size_t touched = 0;
    for (std::size_t i = 0; i < values_.size(); ++i) {
      if (i == kGuard) i += size();
      if (i >= values_.size()) break;
      if (std::memcmp(&values_[i], &sentinel_, sizeof(T)) != 0) ++touched;
    }
    CHECK_MESSAGE(touched == 0, what << ": " << touched << " guard elements were written");
  }

 private:
  std::vector<T> values_;
  T sentinel_;
};

}  // namespace tilecl::test::multi
