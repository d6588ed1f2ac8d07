// Test runner: prints the device and the seed, keeps caches in a private temp directory, and runs ops
// without first-use tuning (suites that test tuning switch it on themselves).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "support/fixture.hpp"

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
              << "  (reproduce with TILECL_TEST_SEED=" << tilecl::test::seed() << ")" << std::endl;
    doctest::Context context(argc, argv);
    status = context.run();
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
