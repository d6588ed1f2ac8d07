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

  TEST_CASE("search space: the first configs of each variant, a program's launch neighbours, the combinations") {
    DeviceInfo small = *test::device().info;
    small.max_work_group_size = 64;
    const Constraint fits{"WG_X <= max work-group", [](const Values& v, const DeviceInfo& d) {
                            return static_cast<std::size_t>(at(v, "WG_X")) <= d.max_work_group_size;
                          }};
    const Constraint divides{"TILE % WG_X == 0",
                             [](const Values& v, const DeviceInfo&) { return at(v, "TILE") % at(v, "WG_X") == 0; }};
    SearchSpace space(
        {{"tiled", {{"WG_X", {128, 16, 32, 64}, ParameterKind::Launch}, {"TILE", {16, 32, 64}}}, {fits, divides}},
         {"naive", {{"WG_X", {8, 4}, ParameterKind::Launch}}, {fits}}});
    CHECK(space.combinations() == 4 * 3 + 2);
    const auto all = space.enumerate(small);
    REQUIRE(all.size() == 6 + 2);
    // The first `per_variant` configs of each variant in enumerate's order (the 128 lane fails the device).
    const auto firsts = space.enumerate(small, 1);
    REQUIRE(firsts.size() == 2);
    CHECK(firsts[0] == all[0]);
    CHECK(firsts[0] == Config{"tiled", {{"WG_X", 16}, {"TILE", 16}}});
    CHECK(firsts[1] == Config{"naive", {{"WG_X", 8}}});
    CHECK(space.enumerate(small, 2).size() == 4);
    // A program's configs: the build parameters held, the launch parameters over the candidates that hold.
    const auto tile64 = space.same_program_configs({"tiled", {{"WG_X", 32}, {"TILE", 64}}}, small);
    CHECK(tile64 == std::vector<Config>{{"tiled", {{"WG_X", 16}, {"TILE", 64}}},
                                        {"tiled", {{"WG_X", 32}, {"TILE", 64}}},
                                        {"tiled", {{"WG_X", 64}, {"TILE", 64}}}});
    const auto tile16 = space.same_program_configs({"tiled", {{"WG_X", 16}, {"TILE", 16}}}, small);
    CHECK(tile16 == std::vector<Config>{{"tiled", {{"WG_X", 16}, {"TILE", 16}}}});
    CHECK(space.same_program_configs({"naive", {{"WG_X", 4}}}, small).size() == 2);
    CHECK(space.same_program_configs({"other", {{"WG_X", 4}}}, small).empty());
    CHECK(space.same_program_configs({"tiled", {{"WG_X", 16}}}, small).empty());  // no TILE: no program
    // Saturation instead of overflow.
    std::vector<Parameter> many;
    for (int p = 0; p < 40; ++p) many.push_back({"P" + std::to_string(p), {1, 2, 3, 4}});
    CHECK(SearchSpace({{"huge", many, {}}, {"huge2", many, {}}}).combinations() ==
          std::numeric_limits<std::uint64_t>::max());
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
