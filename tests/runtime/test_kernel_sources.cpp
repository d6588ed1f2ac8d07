#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "kernel_sources.hpp"
#include "support/fixture.hpp"
#include "tilecl/error.hpp"

using namespace tilecl;
using tilecl::test::device;

TEST_SUITE("runtime.kernel_sources") {
  TEST_CASE("kernel sources: every family is embedded and compiles alone, with no options, on the test device") {
    const auto families = detail::kernel_families();
    REQUIRE_FALSE(families.empty());
    for (const auto& family : families) {
      CAPTURE(family);
      const auto source = detail::kernel_source(family);
      CHECK(source.origin == "embedded");
      cl::Program program(device().context, source.text);
      try {
        program.build({device().device}, "");
      } catch (const cl::Error&) {
        FAIL(family << " does not compile alone:\n" << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device().device));
      }
      // Every kernel the build step found exists in the program.
      const auto names = detail::kernel_names(family);
      CHECK_FALSE(names.empty());
      for (const auto& name : names) {
        CAPTURE(name);
        CHECK_NOTHROW(cl::Kernel(program, name.c_str()));
      }
    }
  }

  TEST_CASE("kernel sources: kernel names follow <family>_... and are unique across families") {
    std::set<std::string> seen;
    for (const auto& family : detail::kernel_families()) {
      for (const auto& name : detail::kernel_names(family)) {
        CHECK_MESSAGE(name.rfind(family + "_", 0) == 0, name << " should start with " << family << "_");
        CHECK_MESSAGE(seen.insert(name).second, name << " is defined twice");
      }
    }
  }

  TEST_CASE("kernel sources: the embedded text is the file in kernels/ after the common header") {
    REQUIRE_MESSAGE(!test::source_directory().empty(), "no kernels/ found: set TILECL_TEST_SOURCE_DIR");
    for (const auto& family : detail::kernel_families()) {
      std::ifstream file(test::source_directory() + "/kernels/" + family + ".cl");
      REQUIRE(file);
      std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      const auto source = detail::kernel_source(family);
      CHECK(source.text.find(text) != std::string::npos);
      CHECK(source.text.find("TILECL_CAT") != std::string::npos);
    }
  }

  TEST_CASE("kernel sources: TILECL_KERNEL_DIR reads the sources from disk instead") {
    REQUIRE_MESSAGE(!test::source_directory().empty(), "no kernels/ found: set TILECL_TEST_SOURCE_DIR");
    const std::string directory = test::temp_directory("kernels");
    std::filesystem::copy(test::source_directory() + "/kernels", directory,
                          std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
    {
      std::ofstream edit(directory + "/elementwise.cl", std::ios::app);
      edit << "\n/* edited by a kernel developer */\n";
    }
    const auto embedded = detail::kernel_source("elementwise");
    test::ScopedEnv kernel_dir("TILECL_KERNEL_DIR", directory);
    const auto from_disk = detail::kernel_source("elementwise");
    CHECK(from_disk.origin == directory + "/elementwise.cl");
    CHECK(from_disk.text.find("edited by a kernel developer") != std::string::npos);
    CHECK(from_disk.hash != embedded.hash);  // so cached binaries of the old text are not reused
  }

  TEST_CASE("kernel sources: an unknown family or a missing file is a clear error") {
    CHECK_THROWS_AS(detail::kernel_source("no_such_family"), tilecl::Error);
    test::ScopedEnv kernel_dir("TILECL_KERNEL_DIR", test::temp_directory("empty"));
    CHECK_THROWS_AS(detail::kernel_source("elementwise"), tilecl::Error);
  }
}
