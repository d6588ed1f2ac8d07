#include <doctest/doctest.h>

#include "support/fixture.hpp"
#include "tilecl/error.hpp"
#include "tuning/search_space.hpp"

using namespace tilecl;
using namespace tilecl::detail;

TEST_SUITE("tuning.search_space") {
  TEST_CASE("search space: constraints prune candidates against the device's limits") {
    DeviceInfo small = *test::device().info;
    small.max_work_group_size = 64;
    SearchSpace space({{"tiled",
                        {{"WG_X", {16, 32, 64, 128}, ParameterKind::Launch}, {"TILE", {16, 32, 64}}},
                        {{"WG_X <= max work-group",
                          [](const Values& v, const DeviceInfo& d) {
                            return static_cast<std::size_t>(at(v, "WG_X")) <= d.max_work_group_size;
                          }},
                         {"TILE % WG_X == 0",
                          [](const Values& v, const DeviceInfo&) { return at(v, "TILE") % at(v, "WG_X") == 0; }}}}});
    auto configs = space.enumerate(small);
    // (16: 16,32,64) (32: 32,64) (64: 64) = 6
    CHECK(configs.size() == 6);
    for (const auto& config : configs) {
      CHECK(config.value("WG_X") <= 64);
      CHECK(config.value("TILE") % config.value("WG_X") == 0);
    }
  }

  TEST_CASE("search space: validation refuses unknown variants, missing or extra parameters and broken rules") {
    DeviceInfo device = *test::device().info;
    device.max_work_group_size = 256;
    SearchSpace space({{"a",
                        {{"WG_X", {64}, ParameterKind::Launch}},
                        {{"WG_X <= max work-group", [](const Values& v, const DeviceInfo& d) {
                            return static_cast<std::size_t>(at(v, "WG_X")) <= d.max_work_group_size;
                          }}}}});
    CHECK(space.validate({"a", {{"WG_X", 128}}}, device).empty());  // off the candidate list but legal
    CHECK(space.validate({"a", {{"WG_X", 4096}}}, device).find("max work-group") != std::string::npos);
    CHECK_FALSE(space.validate({"b", {{"WG_X", 64}}}, device).empty());
    CHECK_FALSE(space.validate({"a", {}}, device).empty());
    CHECK_FALSE(space.validate({"a", {{"WG_X", 64}, {"EXTRA", 1}}}, device).empty());
    CHECK_FALSE(space.validate({"a", {{"WG_X", -64}}}, device).empty());
  }

  TEST_CASE("search space: only build parameters become macros; launch-only changes keep the program") {
    SearchSpace space({{"v", {{"VEC", {4}}, {"WG_X", {64, 128}, ParameterKind::Launch}}, {}}});
    BuildOptions options;
    space.add_build_macros({"v", {{"VEC", 4}, {"WG_X", 64}}}, options);
    CHECK(options.render() == "-DVEC=4");
    CHECK(space.same_program({"v", {{"VEC", 4}, {"WG_X", 64}}}, {"v", {{"VEC", 4}, {"WG_X", 128}}}));
    CHECK_FALSE(space.same_program({"v", {{"VEC", 4}, {"WG_X", 64}}}, {"v", {{"VEC", 8}, {"WG_X", 64}}}));
  }

  TEST_CASE("parameters: text form round-trips and bad text is refused") {
    tuning::Parameters parameters{"regblock", {{"TILE_M", 64}, {"VEC", 4}}};
    CHECK(parameters.to_string() == "regblock TILE_M=64 VEC=4");
    CHECK(tuning::Parameters::parse(parameters.to_string()) == parameters);
    CHECK_THROWS_AS(tuning::Parameters::parse(""), Error);
    CHECK_THROWS_AS(tuning::Parameters::parse("v VEC"), Error);
    CHECK_THROWS_AS(tuning::Parameters::parse("v VEC=four"), Error);
    CHECK_THROWS_AS(parameters.value("WPT"), Error);
  }
}
