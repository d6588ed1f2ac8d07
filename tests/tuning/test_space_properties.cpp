// A property of every search space: any configuration -- drawn at random within and just beyond each parameter's
// range, its extremes included -- is either refused by validation with a reason, or runs correctly (verified
// against the host reference) in bounded time. A hand-edited tuning database or an override can hold any values,
// so no accepted value may overflow, fail to build or take unbounded time.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>

#include "support/fixture.hpp"
#include "tilecl/error.hpp"
#include "tuning/op_registry.hpp"

using namespace tilecl;
using tilecl::detail::Config;
using tilecl::test::device;

namespace {

// A value for `parameter`: its bounds, one past them, a candidate, or anything in between.
std::int64_t draw_value(const detail::Parameter& parameter, std::mt19937_64& random) {
  std::uniform_int_distribution<int> kind(0, 7);
  switch (kind(random)) {
    case 0:
      return parameter.low;
    case 1:
      return parameter.high;
    case 2:
      return parameter.low - 1;
    case 3:
      return parameter.high + 1;
    case 4:
      return std::int64_t{1} << std::uniform_int_distribution<int>(0, 62)(random);  // absurd, overflow bait
    default: {
      const auto& candidates = parameter.candidates;
      if (kind(random) % 2 == 0 && !candidates.empty())
        return candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(random)];
      return std::uniform_int_distribution<std::int64_t>(parameter.low, parameter.high)(random);
    }
  }
}

Config draw_config(const detail::SearchSpace& space, std::mt19937_64& random) {
  const auto& variants = space.variants();
  const auto& variant = variants[std::uniform_int_distribution<std::size_t>(0, variants.size() - 1)(random)];
  Config config{variant.variant, {}};
  for (const auto& parameter : variant.parameters) config.values[parameter.name] = draw_value(parameter, random);
  return config;
}

}  // namespace

TEST_SUITE("tuning.space_properties") {
  TEST_CASE("search spaces: random configurations, extremes included, are refused or run correctly") {
    auto random = test::random_engine("space-properties");
    // Draws per op; TILECL_TEST_SPACE_DRAWS raises it for a longer hunt by hand.
    const char* wanted = std::getenv("TILECL_TEST_SPACE_DRAWS");
    const int draws = wanted != nullptr ? std::atoi(wanted) : 12;
    int accepted = 0, refused = 0;
    for (const auto& op : detail::tunable_op_registry()) {
      CAPTURE(op.description.name);
      auto subject = op.make_subject(op.description.dtypes.front(), op.description.default_shapes.front());
      const auto space = subject->search_space(*device().info);
      subject->prepare(device().queue, 1);
      for (int i = 0; i < draws; ++i) {
        const Config config = draw_config(space, random);
        CAPTURE(config.to_string());
        const std::string why = space.validate(config, *device().info);
        if (!why.empty()) {
          ++refused;
          continue;
        }
        ++accepted;
        const auto start = std::chrono::steady_clock::now();
        cl::CommandQueue queue = device().queue;
        // Called outside CHECK, which would catch the exception itself and count it as a failure.
        std::string verified;
        try {
          verified = subject->verify(queue, config);
        } catch (const Error& error) {
          // The one refusal that only the built kernel can make: a work-group above the kernel's own
          // CL_KERNEL_WORK_GROUP_SIZE (NVIDIA gives some kernels 256 of the device's 1024).
          CHECK_MESSAGE(error.status() == CL_INVALID_WORK_GROUP_SIZE, error.what());
        }
        CHECK(verified == "");
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK_MESSAGE(seconds < 120, "an accepted configuration took " << seconds << " s to build and verify");
      }
    }
    MESSAGE("search-space properties: " << accepted << " accepted and verified, " << refused << " refused");
    CHECK(accepted > 0);
    CHECK(refused > 0);
  }

  TEST_CASE("search spaces: skinny gemm accumulators that would overflow a CPU worker's stack are refused there") {
    // Seed 4053305191 drew this one: 4 MiB of accumulators per work-group crashed PoCL's worker thread.
    const Config big{"skinny_n", {{"SPLIT", 4}, {"VEC", 16}, {"WG_X", 1024}, {"WG_Y", 1}, {"WPT_M", 16}, {"WPT_N", 4}}};
    DeviceInfo cpu = *device().info;
    cpu.type = CL_DEVICE_TYPE_CPU, cpu.local_memory_is_dedicated = false, cpu.max_work_group_size = 4096;
    cpu.max_work_item_sizes = {4096, 4096, 4096}, cpu.local_memory_bytes = 1 << 21;
    DeviceInfo gpu = cpu;
    gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true, gpu.local_memory_bytes = 48 * 1024;
    gpu.max_work_group_size = 1024, gpu.max_work_item_sizes = {1024, 1024, 64};
    auto subject = detail::find_tunable_op("gemm").make_subject("float", "1000x8x1000");
    const std::string on_cpu = subject->search_space(cpu).validate(big, cpu);
    CHECK(on_cpu.find("1 MiB") != std::string::npos);
    CHECK(subject->search_space(gpu).validate(big, gpu) == "");
    Config small = big;
    small.values["WG_X"] = 64;  // 256 KiB
    CHECK(subject->search_space(cpu).validate(small, cpu) == "");
  }
}
