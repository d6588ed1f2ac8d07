#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "binary_cache.hpp"
#include "support/fixture.hpp"

using namespace tilecl;
namespace fs = std::filesystem;

namespace {

// Runs the probe (a float axpy in a fresh process) with the given cache directory; returns its report.
nlohmann::json probe_axpy(const std::string& cache_directory, const std::string& extra_env = "") {
  const std::string command = "TILECL_CACHE_DIR='" + cache_directory + "' TILECL_TUNE=off " + extra_env + " '" +
                              test::probe_path() + "' axpy 1000 2>/dev/null";
  auto result = test::run_command(command);
  REQUIRE_MESSAGE(result.status == 0, command << " -> " << result.output);
  return nlohmann::json::parse(result.output);
}

std::vector<fs::path> cached_binaries(const std::string& cache_directory) {
  std::vector<fs::path> files;
  if (!fs::exists(cache_directory + "/programs")) return files;
  for (const auto& entry : fs::recursive_directory_iterator(cache_directory + "/programs"))
    if (entry.path().extension() == ".bin") files.push_back(entry.path());
  return files;
}

}  // namespace

TEST_SUITE("runtime.binary_cache") {
  TEST_CASE("binary cache: a file decodes only for its own key, intact") {
    const std::vector<unsigned char> binary{1, 2, 3, 4, 5, 250, 0, 7};
    const detail::CachedProgram program{{"family_a", "family_b"}, binary};
    const auto file = detail::encode_binary_file("key text", program);
    std::string why;
    auto decoded = detail::decode_binary_file(file, "key text", why);
    REQUIRE(decoded.has_value());
    CHECK(decoded->binary == binary);
    CHECK(decoded->kernels == program.kernels);

    auto renamed = detail::encode_binary_file("key text", {{"family_a", "family_c"}, binary});
    std::copy(file.end() - static_cast<std::ptrdiff_t>(binary.size()) - 8, file.end(),
              renamed.end() - static_cast<std::ptrdiff_t>(binary.size()) - 8);  // the checksum of the other names
    CHECK_FALSE(detail::decode_binary_file(renamed, "key text", why).has_value());
    CHECK(why.find("checksum") != std::string::npos);

    CHECK_FALSE(detail::decode_binary_file(file, "another key", why).has_value());
    CHECK(why.find("another key") != std::string::npos);

    auto damaged = file;
    damaged.back() ^= 0x40;
    CHECK_FALSE(detail::decode_binary_file(damaged, "key text", why).has_value());
    CHECK(why.find("checksum") != std::string::npos);

    auto truncated = file;
    truncated.resize(truncated.size() - 3);
    CHECK_FALSE(detail::decode_binary_file(truncated, "key text", why).has_value());

    auto bad_magic = file;
    bad_magic[0] = 'X';
    CHECK_FALSE(detail::decode_binary_file(bad_magic, "key text", why).has_value());

    auto other_format = file;
    other_format[8] = 99;
    CHECK_FALSE(detail::decode_binary_file(other_format, "key text", why).has_value());

    CHECK_FALSE(detail::decode_binary_file({}, "key text", why).has_value());
  }

  TEST_CASE("binary cache: the key changes with the driver, the source, the options and the library format") {
    DeviceInfo device = *test::device().info;
    const auto base = detail::make_binary_key(device, "gemm", "source1", "-DVEC=4");
    CHECK(detail::make_binary_key(device, "gemm", "source2", "-DVEC=4").text != base.text);
    CHECK(detail::make_binary_key(device, "gemm", "source1", "-DVEC=8").text != base.text);
    CHECK(base.text.find("format=") != std::string::npos);
    CHECK(base.text.find("library=tilecl") != std::string::npos);
    device.driver_version = "another driver";
    CHECK(detail::make_binary_key(device, "gemm", "source1", "-DVEC=4").text != base.text);
  }

  TEST_CASE("binary cache: a second process finds the program on disk and does not compile") {
    const std::string cache = test::temp_directory("binary-cache-hit");
    auto cold = probe_axpy(cache);
    CHECK(cold["correct"] == true);
    CHECK(cold["compiles"].get<int>() >= 1);
    CHECK(cold["disk_writes"].get<int>() >= 1);
    CHECK_FALSE(cached_binaries(cache).empty());

    auto warm = probe_axpy(cache);
    CHECK(warm["correct"] == true);
    CHECK(warm["compiles"].get<int>() == 0);
    CHECK(warm["disk_hits"].get<int>() >= 1);
    MESSAGE("first call: cold " << cold["first_call_ms"].get<double>() << " ms, warm "
                                << warm["first_call_ms"].get<double>() << " ms");
  }

  TEST_CASE("binary cache: TILECL_CACHE=off writes nothing") {
    const std::string cache = test::temp_directory("binary-cache-off");
    auto report = probe_axpy(cache, "TILECL_CACHE=off");
    CHECK(report["correct"] == true);
    CHECK(report["disk_writes"].get<int>() == 0);
    CHECK(cached_binaries(cache).empty());
  }

  TEST_CASE("binary cache: concurrent writers of one entry leave a valid file") {
    const std::string cache = test::temp_directory("binary-cache-race");
    std::string command;
    for (int i = 0; i < 4; ++i)
      command +=
          "TILECL_CACHE_DIR='" + cache + "' TILECL_TUNE=off '" + test::probe_path() + "' axpy 1000 >/dev/null 2>&1 & ";
    command += "wait";
    CHECK(test::run_command(command).status == 0);
    auto report = probe_axpy(cache);
    CHECK(report["correct"] == true);
    CHECK(report["compiles"].get<int>() == 0);
    CHECK(report["disk_rejects"].get<int>() == 0);
    for (const auto& entry : fs::recursive_directory_iterator(cache))
      CHECK_MESSAGE(entry.path().string().find(".tmp.") == std::string::npos, "left over: " << entry.path());
  }
}
