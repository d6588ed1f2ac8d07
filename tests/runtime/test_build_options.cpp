#include <doctest/doctest.h>

#include "build_options.hpp"
#include "tilecl/error.hpp"

using tilecl::detail::BuildOptions;

TEST_SUITE("runtime.build_options") {
  TEST_CASE("build options: macros render sorted by name, whatever the order they were added in") {
    BuildOptions first;
    first.define("TILE_M", 64).define("DTYPE", "float").define("VEC", 4).flag("-cl-mad-enable");
    BuildOptions second;
    second.flag("-cl-mad-enable").define("VEC", 4).define("DTYPE", "float").define("TILE_M", 64);
    CHECK(first.render() == "-DDTYPE=float -DTILE_M=64 -DVEC=4 -cl-mad-enable");
    CHECK(first == second);
  }

  TEST_CASE("build options: redefining a macro replaces its value, so different settings give different keys") {
    BuildOptions options;
    options.define("WPT", 2);
    const std::string before = options.render();
    options.define("WPT", 8);
    CHECK(options.render() == "-DWPT=8");
    CHECK(options.render() != before);
    CHECK(options.has("WPT"));
    CHECK_FALSE(options.has("VEC"));
  }

  TEST_CASE("build options: empty options render as an empty string") { CHECK(BuildOptions().render().empty()); }

  TEST_CASE("build options: invalid macro names and values that would need quoting are refused") {
    BuildOptions options;
    CHECK_THROWS_AS(options.define("1ABC", 1), tilecl::Error);
    CHECK_THROWS_AS(options.define("A B", 1), tilecl::Error);
    CHECK_THROWS_AS(options.define("", 1), tilecl::Error);
    CHECK_THROWS_AS(options.define("DTYPE", "unsigned int"), tilecl::Error);
    CHECK_THROWS_AS(options.flag("cl-mad-enable"), tilecl::Error);
    CHECK_NOTHROW(options.define("_OK_2", -3));
    CHECK(options.render() == "-D_OK_2=-3");
  }
}
