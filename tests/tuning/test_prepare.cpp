#include <doctest/doctest.h>

#include "program_cache.hpp"
#include "support/fixture.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/prepare.hpp"
#include "tilecl/runtime.hpp"
#include "tuning/op_registry.hpp"

using namespace tilecl;
using tilecl::test::device;

namespace {

// A private cache directory, a tuning mode, and nothing in memory: every test starts cold.
struct ColdState {
  test::ScopedEnv cache;
  test::ScopedEnv mode;
  ColdState(const std::string& name, const std::string& tune_mode)
      : cache("TILECL_CACHE_DIR", test::temp_directory(name)), mode("TILECL_TUNE", tune_mode) {
    tuning::clear();
    clear_program_cache();
  }
  ~ColdState() { tuning::clear(); }
};

bool program_is_built(const std::string& op, const std::string& dtype, const std::string& shape,
                      const tuning::Parameters& parameters) {
  auto subject = detail::find_tunable_op(op).make_subject(dtype, shape);
  return detail::ProgramCache::instance().contains(device().context, device().device, subject->family(),
                                                   subject->build_options(parameters));
}

}  // namespace

TEST_SUITE("tuning.prepare") {
  TEST_CASE("prepare: tunes and builds ahead, so the first call in the bucket neither tunes nor compiles") {
    ColdState state("prepare-first-use", "first-use");
    const auto before = statistics();
    const Prepared prepared = prepare(device().queue, "axpy", "float", "3000");
    CHECK(statistics().tunings - before.tunings == 1);
    CHECK(prepared.choice.origin == tuning::Origin::FirstUse);
    CHECK(prepared.choice.bucket == "n<2^14");
    CHECK(prepared.timed_shape == "n=8192");
    CHECK(prepared.milliseconds > 0);
    CHECK(program_is_built("axpy", "float", "3000", prepared.choice.parameters));
    // What a call in the bucket then uses, and what it costs: no tuning, no compile, a right answer.
    CHECK(tuning::parameters_for(device().queue, "axpy", "float", "5000").parameters == prepared.choice.parameters);
    auto random = test::random_engine("prepare");
    auto x = test::random_vector<float>(5000, random), y = test::random_vector<float>(5000, random);
    cl::Buffer x_buffer = test::to_device(x), y_buffer = test::to_device(y);
    const auto warm = statistics();
    axpy<float>(device().queue, 5000, -1.5f, x_buffer, 0, y_buffer, 0).wait();
    CHECK(statistics().tunings == warm.tunings);
    CHECK(statistics().compiles == warm.compiles);
    CHECK(statistics().disk_hits == warm.disk_hits);
    std::vector<double> want(5000);
    for (std::size_t i = 0; i < want.size(); ++i) want[i] = -1.5 * x[i] + y[i];
    test::check_all_close(test::from_device<float>(y_buffer, 5000), want, 1e-6, "axpy after prepare");
    // A second prepare of the bucket finds everything in memory.
    const Prepared again = prepare(device().queue, "axpy", "float", "2^13");
    CHECK(again.choice.parameters == prepared.choice.parameters);
    CHECK(statistics().tunings == warm.tunings);
  }

  TEST_CASE("prepare: with tuning off it builds the default, as the call would use it (gemm, float)") {
    ColdState state("prepare-off", "off");
    const auto before = statistics();
    const Prepared prepared = prepare(device().queue, "gemm", "float", "100x200x300");
    CHECK(prepared.choice.origin == tuning::Origin::Default);
    CHECK(statistics().tunings == before.tunings);
    CHECK(statistics().compiles + statistics().disk_hits > before.compiles + before.disk_hits);
    CHECK(program_is_built("gemm", "float", "100x200x300", prepared.choice.parameters));
  }

  TEST_CASE("prepare: unknown names and malformed shapes are errors naming them") {
    ColdState state("prepare-errors", "off");
    CHECK_THROWS_WITH_AS(prepare(device().queue, "frobnicate", "float", "100"), doctest::Contains("axpy"), Error);
    CHECK_THROWS_WITH_AS(prepare(device().queue, "axpy", "int32", "100"), doctest::Contains("int32"), Error);
    CHECK_THROWS_WITH_AS(prepare(device().queue, "gemm_batched", "bfloat16", "100"), doctest::Contains("bfloat16"),
                         Error);
    CHECK_THROWS_WITH_AS(prepare(device().queue, "gemm", "float", "12x"), doctest::Contains("12x"), Error);
    if (!device().info->fp64)
      CHECK_THROWS_WITH_AS(prepare(device().queue, "axpy", "double", "100"), doctest::Contains("CL_INVALID_DEVICE"),
                           Error);
    CHECK_THROWS_AS(prepare(cl::CommandQueue(), "axpy", "float", "100"), Error);
  }
}
