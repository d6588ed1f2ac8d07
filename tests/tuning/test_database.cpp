#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "file_store.hpp"
#include "support/fixture.hpp"
#include "tuning/tuning_db.hpp"

using namespace tilecl;
using namespace tilecl::detail;
namespace fs = std::filesystem;

namespace {

TuningEntry entry(const std::string& op, const std::string& bucket, std::int64_t wg) {
  TuningEntry e;
  e.op = op;
  e.dtype = "float";
  e.bucket = bucket;
  e.source_hash = "0123456789abcdef";
  e.parameters = {"naive", {{"WG_X", wg}}};
  e.time_ms = 0.5;
  e.default_ms = 0.75;
  e.origin = "tune";
  e.date = utc_now();
  e.shape = "n=8192";
  return e;
}

std::string file_text(const fs::path& path) {
  std::ifstream file(path);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_SUITE("tuning.database") {
  TEST_CASE("tuning database: entries and failures round-trip through the file") {
    const fs::path path = test::temp_directory("db-roundtrip") + "/device.json";
    TuningDatabase database(path, *test::device().info);
    CHECK(database.load().entries.empty());  // missing file: empty, no error
    TuningRecords records;
    records.entries = {entry("axpy", "n<2^14", 64), entry("vector_add", "n<2^14", 128)};
    records.failures = {{"axpy", "float", "0123456789abcdef", "vector VEC=16 WPT=8", "CL_OUT_OF_RESOURCES"}};
    REQUIRE(database.merge(records));
    auto loaded = database.load();
    REQUIRE(loaded.entries.size() == 2);
    CHECK(loaded.entries[0].parameters == records.entries[0].parameters);
    CHECK(loaded.entries[1].op == "vector_add");
    CHECK(loaded.entries[0].origin == "tune");
    CHECK(loaded.entries[0].default_ms == doctest::Approx(0.75));
    REQUIRE(loaded.failures.size() == 1);
    CHECK(loaded.failures[0].config == "vector VEC=16 WPT=8");
    auto document = nlohmann::json::parse(file_text(path));
    CHECK(document["format"] == "tilecl-tuning");
    CHECK(document["version"] == kTuningDatabaseVersion);
    CHECK(document["device"]["fingerprint"] == test::device().info->fingerprint());
    CHECK(document["device"]["driver_version"] == test::device().info->driver_version);
  }

  TEST_CASE("tuning database: merging replaces the entry of the same key and keeps the others") {
    const fs::path path = test::temp_directory("db-merge") + "/device.json";
    TuningDatabase database(path, *test::device().info);
    database.merge({{entry("axpy", "n<2^14", 64), entry("axpy", "n<2^18", 64)}, {}});
    database.merge({{entry("axpy", "n<2^14", 256)}, {}});
    auto loaded = database.load();
    REQUIRE(loaded.entries.size() == 2);
    for (const auto& e : loaded.entries) CHECK(e.parameters.value("WG_X") == (e.bucket == "n<2^14" ? 256 : 64));
  }

  TEST_CASE("tuning database: concurrent writers in many threads lose no entry") {
    const fs::path path = test::temp_directory("db-threads") + "/device.json";
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        TuningDatabase database(path, *test::device().info);
        for (int i = 0; i < 5; ++i)
          database.merge({{entry("op" + std::to_string(t), "b" + std::to_string(i), 64)}, {}});
      });
    }
    for (auto& thread : threads) thread.join();
    CHECK(TuningDatabase(path, *test::device().info).load().entries.size() == 40);
  }

  TEST_CASE("tuning database: a number that is not a 64-bit integer where one belongs makes the file malformed") {
    // Found by fuzz_tuning_db: a float there was cast to an integer, undefined behaviour when out of range.
    const auto document = [](const std::string& version, const std::string& value) {
      return R"({"format": "tilecl-tuning", "version": )" + version + R"(, "device": {"fingerprint": ")" +
             test::device().info->fingerprint() +
             R"("}, "entries": [{"op": "axpy", "dtype": "float", "bucket": "b", "source": "s", "variant": "naive",)" +
             R"( "params": {"WG_X": )" + value + "}}]}";
    };
    TuningRecords records;
    std::string why;
    REQUIRE(TuningDatabase::from_json_text(document("1", "-64"), test::device().info, records, why) ==
            TuningDatabase::FileState::Valid);
    CHECK(records.entries.at(0).parameters.values.at("WG_X") == -64);
    // Pairs, not structured bindings: clang cannot capture those in a lambda (CAPTURE) before C++20.
    const std::vector<std::pair<std::string, std::string>> malformed{
        {"1", "1e30"},   {"1", "-1e30"}, {"1", "4.5"}, {"1", "18446744073709551615"},
        {"1", "\"64\""}, {"1e30", "64"}, {"1.0", "64"}};
    for (const auto& pair : malformed) {
      const std::string& version = pair.first;
      const std::string& value = pair.second;
      CAPTURE(version);
      CAPTURE(value);
      why.clear();
      CHECK(TuningDatabase::from_json_text(document(version, value), test::device().info, records, why) ==
            TuningDatabase::FileState::Corrupt);
      CHECK(why.find("malformed") != std::string::npos);
    }
  }

  TEST_CASE("tuning database: erase_entry drops one entry (and only one) under the writer lock") {
    const fs::path path = test::temp_directory("db-erase") + "/device.json";
    TuningDatabase database(path, *test::device().info);
    CHECK_FALSE(database.erase_entry("axpy", "float", "n<2^14"));  // no file
    REQUIRE(database.merge({{entry("axpy", "n<2^14", 64), entry("axpy", "n<2^18", 128)}, {}}));
    CHECK_FALSE(database.erase_entry("axpy", "double", "n<2^14"));
    CHECK(database.erase_entry("axpy", "float", "n<2^14"));
    const auto loaded = database.load();
    REQUIRE(loaded.entries.size() == 1);
    CHECK(loaded.entries[0].bucket == "n<2^18");
    CHECK_FALSE(database.erase_entry("axpy", "float", "n<2^14"));  // already gone
  }

  TEST_CASE("tuning database: the JSON nesting bound counts brackets outside strings only") {
    CHECK_FALSE(json_deeper_than(R"({"a": [[1]], "b": "[[[[[[[[[[[[\"{{{{{{{{{{{\\"})", 3));
    CHECK(json_deeper_than(R"({"a": [[[1]]]})", 3));
    CHECK_FALSE(json_deeper_than(R"({"a": [[[1]]]})", 4));
  }
}
