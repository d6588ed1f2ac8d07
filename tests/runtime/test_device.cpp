#include <doctest/doctest.h>

#include <cctype>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "hash.hpp"
#include "support/fixture.hpp"
#include "tilecl/device.hpp"
#include "tilecl/error.hpp"

using tilecl::test::device;

TEST_SUITE("runtime.device") {
  TEST_CASE("device: the fingerprint is 16 hex digits and stable across queries") {
    const auto& info = *device().info;
    const std::string fingerprint = info.fingerprint();
    REQUIRE(fingerprint.size() == 16);
    for (char c : fingerprint) CHECK(std::isxdigit(static_cast<unsigned char>(c)));
    CHECK(tilecl::device_info(device().device).fingerprint() == fingerprint);
    CHECK(&tilecl::device_info(device().device) == &info);  // queried once, then cached
  }

  TEST_CASE("device: the fingerprint changes with the driver version and with the device name") {
    tilecl::DeviceInfo info = *device().info;
    const std::string original = info.fingerprint();
    info.driver_version += ".1";
    CHECK(info.fingerprint() != original);
    info = *device().info;
    info.device_name = "another device";
    CHECK(info.fingerprint() != original);
    info = *device().info;
    info.max_work_group_size += 1;  // limits are not identity
    CHECK(info.fingerprint() == original);
    // The per-thread memo of the last fingerprint: every identifying field, alternated, in one thread.
    const std::vector<std::function<void(tilecl::DeviceInfo&)>> changes{[](tilecl::DeviceInfo& d) { d.platform_name += "x"; },
                                                                        [](tilecl::DeviceInfo& d) { d.platform_version += "x"; },
                                                                        [](tilecl::DeviceInfo& d) { d.device_name += "x"; },
                                                                        [](tilecl::DeviceInfo& d) { d.device_vendor += "x"; },
                                                                        [](tilecl::DeviceInfo& d) { d.device_version += "x"; },
                                                                        [](tilecl::DeviceInfo& d) { d.driver_version += "x"; },
                                                                        [](tilecl::DeviceInfo& d) { d.opencl_c_version += "x"; },
                                                                        [](tilecl::DeviceInfo& d) { d.compute_units += 1; }};
    std::set<std::string> seen{original};
    for (const auto& change : changes) {
      tilecl::DeviceInfo changed = *device().info;
      change(changed);
      const std::string fingerprint = changed.fingerprint();
      CHECK(fingerprint == tilecl::detail::hash_hex(changed.identity_text()));
      CHECK(device().info->fingerprint() == original);  // and back
      CHECK(seen.insert(fingerprint).second);
    }
  }

  TEST_CASE("device: identity and limits are read from the device") {
    const auto& info = *device().info;
    CHECK_FALSE(info.platform_name.empty());
    CHECK_FALSE(info.device_name.empty());
    CHECK_FALSE(info.driver_version.empty());
    CHECK(info.opencl_c_version.find("OpenCL C") != std::string::npos);
    CHECK(info.compute_units > 0);
    CHECK(info.max_work_group_size > 0);
    CHECK(info.local_memory_bytes > 0);
    CHECK(info.preferred_work_group_multiple >= 1);
    CHECK(info.identity_text().find("driver_version=" + info.driver_version) != std::string::npos);
  }

  TEST_CASE("device: selection by index and by name substring, and a clear error when nothing matches") {
    const auto& info = *device().info;
    cl::Device by_name = tilecl::select_device("", info.device_name.substr(0, 4));
    CHECK(tilecl::device_info(by_name).device_name.substr(0, 4) == info.device_name.substr(0, 4));
    CHECK_NOTHROW(tilecl::select_device("0", "0"));
    try {
      tilecl::select_device("no such platform at all", "");
      FAIL("expected an error");
    } catch (const tilecl::Error& error) {
      CHECK(error.status() == CL_DEVICE_NOT_FOUND);
      CHECK(std::string(error.what()).find("available") != std::string::npos);
    }
    CHECK_THROWS_AS(tilecl::select_device("0", "99"), tilecl::Error);
  }

  TEST_CASE("device: --device P:D splits into platform and device selectors") {
    CHECK(tilecl::split_device_selector("1:2") == std::make_pair(std::string("1"), std::string("2")));
    CHECK(tilecl::split_device_selector("nvidia") == std::make_pair(std::string("nvidia"), std::string()));
    CHECK(tilecl::split_device_selector(":h200") == std::make_pair(std::string(), std::string("h200")));
  }

  TEST_CASE("device: selection by type, from the argument and from TILECL_DEVICE, and the errors of a type absent") {
    const auto& info = *device().info;
    const cl_device_type type = info.is_gpu()   ? CL_DEVICE_TYPE_GPU
                                : info.is_cpu() ? CL_DEVICE_TYPE_CPU
                                                : CL_DEVICE_TYPE_ACCELERATOR;
    const char* word = info.is_gpu() ? "Gpu" : info.is_cpu() ? "CPU" : "accelerator";  // any case
    CHECK((tilecl::device_info(tilecl::select_device(type)).type & type) != 0);
    CHECK((tilecl::device_info(tilecl::select_device("", word)).type & type) != 0);
    {
      tilecl::test::ScopedEnv chosen("TILECL_DEVICE", word);
      CHECK((tilecl::device_info(tilecl::select_device()).type & type) != 0);
    }
    CHECK_THROWS_WITH_AS(tilecl::select_device(CL_DEVICE_TYPE_ALL), doctest::Contains("CL_INVALID_DEVICE_TYPE"),
                         tilecl::Error);

    // A type no platform has: refused with what there is.
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    cl_device_type present = 0;
    for (const auto& platform : platforms) {
      std::vector<cl::Device> devices;
      platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
      for (const auto& each : devices) present |= each.getInfo<CL_DEVICE_TYPE>();
    }
    for (const auto& [absent, name] : {std::pair{CL_DEVICE_TYPE_ACCELERATOR, "accelerator"},
                                       std::pair{CL_DEVICE_TYPE_GPU, "GPU"}, std::pair{CL_DEVICE_TYPE_CPU, "CPU"}}) {
      if ((present & absent) != 0) continue;
      try {
        tilecl::select_device(absent);
        FAIL("a device of a type no platform has was selected");
      } catch (const tilecl::Error& error) {
        CHECK(error.status() == CL_DEVICE_NOT_FOUND);
        CHECK(std::string(error.what()).find(std::string("no ") + name + " device; available: [0] ") !=
              std::string::npos);
      }
    }
  }

  TEST_CASE("device: error names cover the codes of later OpenCL versions and of the ICD loader") {
    CHECK(tilecl::cl_error_name(-1001) == "CL_PLATFORM_NOT_FOUND_KHR");
    CHECK(tilecl::cl_error_name(-70) == "CL_INVALID_DEVICE_QUEUE");
    CHECK(tilecl::cl_error_name(-12345) == "CL_UNKNOWN_ERROR(-12345)");
    CHECK(std::string(tilecl::Error("select_device", "platform", -1001, "none").what()) ==
          "tilecl::select_device: platform: none [CL_PLATFORM_NOT_FOUND_KHR]");
  }
}
