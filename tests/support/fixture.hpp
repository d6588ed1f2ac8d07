// What every test shares: the device under test (TILECL_PLATFORM / TILECL_DEVICE), a reproducible random
// seed (TILECL_TEST_SEED; printed at start), random data that is never all zeros, poison values, and host
// comparison helpers. Outputs with guard regions on both sides: support/guarded_buffer.hpp.
#pragma once

#include <doctest/doctest.h>

#include <CL/opencl.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "tilecl/device.hpp"
#include "tilecl/types.hpp"

namespace tilecl::test {

struct TestDevice {
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  const DeviceInfo* info;
};

// The device the suite runs on, created once.
TestDevice& device();

// The suite's seed, and a generator derived from it and a salt (so each test has its own stream).
std::uint64_t seed();
std::mt19937_64 random_engine(const std::string& salt);

// Path of the second-process helper (tests/support/probe.cpp): $TILECL_TEST_PROBE, else beside the test
// executable, else where the build put it. The directory holding the kernel sources (kernels/*.cl) the
// embedded copies are compared with: $TILECL_TEST_SOURCE_DIR, else test-data/ beside the executable (the build
// copies kernels/ there), else the source tree; empty when none has them. Both are relative to the executable
// first, so a test folder copied to another machine runs every suite. A fresh temp directory.
std::string probe_path();
std::string source_directory();
std::string temp_directory(const std::string& name);

// Runs a shell command; returns its exit status and stdout.
struct CommandResult {
  int status;
  std::string output;
};
CommandResult run_command(const std::string& command);

// How many warnings the library has printed so far in this process (src/log.hpp) that mention `text` (a
// file or directory path, usually): a damage is reported once when this grows by exactly one.
std::size_t reports_mentioning(const std::string& text);

// Grows the op's workspace `name` on the test device to at least `bytes` and writes it from the host, for test
// cases also run under oclgrind: its uninitialized-value checker keeps stale shadow state for a buffer address that
// an earlier, smaller buffer had, and then calls a workspace that only kernels write uninitialized.
void prepare_workspace_for_oclgrind(const std::string& name, std::size_t bytes);

// Whether file permissions bind this process. They do not for root (CAP_DAC_OVERRIDE reads and writes through
// chmod 000 and read-only directories); tests of unreadable or read-only files then use another way or skip.
bool file_permissions_enforced();

// The prefix that runs a command as the unprivileged user nobody (setpriv), or empty when this process cannot
// (it is not root, or setpriv is missing).
std::string as_nobody();

// Runs the probe (tests/support/probe.cpp) as `env <environment> probe <args>`, as nobody when `unprivileged`,
// and returns the JSON report it prints; fails the test case when it prints none (exit status 1 with a report
// means a wrong result: the report says so).
nlohmann::json probe_report(const std::string& environment, const std::string& args, bool unprivileged = false);

// Sets an environment variable for the scope of the object, restoring the previous value after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  bool had_value_;
  std::string old_value_;
};

// The 16-bit float storage types (tilecl/types.hpp): floating values, not arithmetic types.
template <typename T>
inline constexpr bool is_float16_v = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

// Random values: floats uniform in [low, high) (half and bfloat16: rounded from them), never all zero; integers
// uniform in [low, high].
template <typename T>
std::vector<T> random_vector(std::size_t count, std::mt19937_64& random, double low = -1.0, double high = 1.0) {
  std::vector<T> values(count);
  if constexpr (std::is_floating_point_v<T> || is_float16_v<T>) {
    std::uniform_real_distribution<double> distribution(low, high);
    for (auto& value : values) value = static_cast<T>(distribution(random));
  } else {
    std::uniform_int_distribution<long long> distribution(static_cast<long long>(low), static_cast<long long>(high));
    for (auto& value : values) value = static_cast<T>(distribution(random));
  }
  return values;
}

// A value no correct kernel writes: NaN for floating types, a fixed odd pattern for integers.
template <typename T>
T poison() {
  if constexpr (is_float16_v<T>)
    return T::from_bits(0x7e5a);  // a NaN in both formats
  else if constexpr (std::is_floating_point_v<T>)
    return std::numeric_limits<T>::quiet_NaN();
  else
    return static_cast<T>(0x5a5a5a5a);
}

template <typename T>
bool is_poison(T value) {
  if constexpr (is_float16_v<T>)
    return std::isnan(static_cast<float>(value));
  else if constexpr (std::is_floating_point_v<T>)
    return std::isnan(value);
  else
    return value == poison<T>();
}

template <typename T>
cl::Buffer to_device(const std::vector<T>& values) {
  auto& d = device();
  cl::Buffer buffer(d.context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, values.size()) * sizeof(T));
  if (!values.empty()) d.queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, values.size() * sizeof(T), values.data());
  return buffer;
}

template <typename T>
std::vector<T> from_device(const cl::Buffer& buffer, std::size_t count) {
  std::vector<T> values(count);
  if (count > 0) device().queue.enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(T), values.data());
  return values;
}

// Relative-and-absolute closeness: |got - want| <= tolerance * max(1, |want|).
inline bool close(double got, double want, double tolerance) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::abs(got - want) <= tolerance * std::max(1.0, std::abs(want));
}

// Checks every element of `got` against `want`; reports the first few mismatches with their index.
template <typename T>
void check_all_close(const std::vector<T>& got, const std::vector<double>& want, double tolerance,
                     const std::string& what) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!close(static_cast<double>(got[i]), want[i], tolerance)) {
      if (bad < 5) FAIL_CHECK(what << ": element " << i << " is " << +got[i] << ", expected " << want[i]);
      ++bad;
    }
  }
  CHECK_MESSAGE(bad == 0, what << ": " << bad << " of " << got.size() << " elements differ");
}

}  // namespace tilecl::test
