#include <doctest/doctest.h>

#include <cctype>

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
}
