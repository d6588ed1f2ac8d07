// Test runner: prints the device and the seed, keeps caches in a private temp directory, and runs ops
// without first-use tuning (suites that test tuning switch it on themselves).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "support/fixture.hpp"

namespace {

// Counts the test cases that ran, so that a suite filter matching nothing fails instead of passing.
struct RunCounter : public doctest::IReporter {
  static inline int test_cases = 0;
  explicit RunCounter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override { ++test_cases; }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("run_counter", 1, RunCounter);

}  // namespace

int main(int argc, char** argv) {
  const bool own_cache = std::getenv("TILECL_CACHE_DIR") == nullptr;
  std::string cache;
  if (own_cache) {
    cache = tilecl::test::temp_directory("cache");
    ::setenv("TILECL_CACHE_DIR", cache.c_str(), 1);
  }
  ::setenv("TILECL_TUNE", "off", 0);

  int status = 0;
  try {
    auto& d = tilecl::test::device();
    std::cout << "[tilecl tests] device: " << d.info->device_name << " (" << d.info->platform_name << ", "
              << d.info->driver_version << ")  seed: " << tilecl::test::seed()
              << "  (reproduce with TILECL_TEST_SEED=" << tilecl::test::seed()
              << ")\n[tilecl tests] probe: " << tilecl::test::probe_path() << "  kernel sources: "
              << (tilecl::test::source_directory().empty() ? "(none found)" : tilecl::test::source_directory())
              << std::endl;
    doctest::Context context(argc, argv);
    status = context.run();
    if (status == 0 && RunCounter::test_cases == 0 && !context.shouldExit()) {
      std::cerr << "[tilecl tests] no test case matched the filter: a suite name does not match its file" << std::endl;
      status = 1;
    }
  } catch (const std::exception& error) {
    std::cerr << "[tilecl tests] cannot start: " << error.what() << std::endl;
    status = 1;
  }
  if (own_cache) {
    std::error_code ignored;
    std::filesystem::remove_all(cache, ignored);
  }
  return status;
}
