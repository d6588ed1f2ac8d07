#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cache_admin.hpp"
#include "support/fixture.hpp"
#include "tilecl/error.hpp"
#include "tuning/tuning_db.hpp"

using namespace tilecl;
using namespace tilecl::detail;

namespace {

TuningEntry sample_entry(const std::string& bucket) {
  TuningEntry entry;
  entry.op = "axpy";
  entry.dtype = "float";
  entry.bucket = bucket;
  entry.source_hash = "0123456789abcdef";
  entry.parameters = {"naive", {{"WG_X", 64}}};
  entry.origin = "tune";
  return entry;
}

}  // namespace

TEST_SUITE("tuning.cache_admin") {
  TEST_CASE("cache admin: export, clear and import bring the tuning databases back") {
    test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("admin"));
    const DeviceInfo& device = *test::device().info;
    REQUIRE(TuningDatabase(device).merge({{sample_entry("n<2^14"), sample_entry("n<2^18")}, {}}));
    auto listed = list_tuning_databases();
    REQUIRE(listed.size() == 1);
    CHECK(listed[0].entries == 2);
    CHECK(listed[0].fingerprint == device.fingerprint());
    CHECK(listed[0].problem.empty());

    const std::string bundle = test::temp_directory("admin-bundle") + "/bundle.json";
    CHECK(export_tuning(bundle) == 1);
    CHECK(clear_tuning_databases() >= 1);
    CHECK(TuningDatabase(device).load().entries.empty());
    CHECK(import_tuning(bundle) == 1);
    CHECK(TuningDatabase(device).load().entries.size() == 2);
    // Importing again merges: no duplicates.
    CHECK(import_tuning(bundle) == 1);
    CHECK(TuningDatabase(device).load().entries.size() == 2);
  }

  TEST_CASE("cache admin: a bundle whose device header was edited, or that is not a bundle, is refused") {
    test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("admin-bad"));
    const DeviceInfo& device = *test::device().info;
    REQUIRE(TuningDatabase(device).merge({{sample_entry("n<2^14")}, {}}));
    const std::string directory = test::temp_directory("admin-bad-bundle");
    const std::string bundle = directory + "/bundle.json";
    REQUIRE(export_tuning(bundle) == 1);
    std::ifstream in(bundle);
    nlohmann::json document = nlohmann::json::parse(in);
    document["databases"][0]["device"]["driver_version"] = "another driver";
    std::ofstream(directory + "/edited.json") << document.dump();
    CHECK_THROWS_AS(import_tuning(directory + "/edited.json"), Error);
    std::ofstream(directory + "/garbage.json") << "{\"format\": \"something else\"}";
    CHECK_THROWS_AS(import_tuning(directory + "/garbage.json"), Error);
  }

  TEST_CASE("cache admin: the program cache is listed per device and cleared") {
    test::ScopedEnv cache("TILECL_CACHE_DIR", test::temp_directory("admin-programs"));
    const auto result = test::run_command("TILECL_CACHE_DIR='" + std::string(std::getenv("TILECL_CACHE_DIR")) +
                                          "' TILECL_TUNE=off '" + test::probe_path() + "' axpy 100 2>/dev/null");
    REQUIRE(result.status == 0);
    auto programs = list_program_cache();
    REQUIRE(programs.size() == 1);
    CHECK(programs[0].fingerprint == test::device().info->fingerprint());
    CHECK(programs[0].files >= 1);
    CHECK(clear_program_cache_files() >= 1);
    CHECK(list_program_cache().empty());
  }
}
