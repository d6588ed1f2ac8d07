#include <doctest/doctest.h>

#include <chrono>
#include <climits>
#include <cstring>
#include <limits>
#include <thread>

#include "checks.hpp"
#include "kernel_sources.hpp"
#include "ops/reduce.hpp"
#include "reference/reduce_reference.hpp"
#include "support/fixture.hpp"
#include "support/guarded_buffer.hpp"
#include "sweeps/shapes.hpp"
#include "tilecl/error.hpp"
#include "tilecl/reduce.hpp"
#include "tilecl/runtime.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/op_registry.hpp"
#include "workspace.hpp"

using namespace tilecl;
using tilecl::detail::Config;
using tilecl::test::device;

namespace {

constexpr ReduceOp kOps[] = {ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max, ReduceOp::ArgMin, ReduceOp::ArgMax};

bool is_arg(ReduceOp op) { return op == ReduceOp::ArgMin || op == ReduceOp::ArgMax; }

// Lengths around every vector width, chunk, work-group and pass boundary, primes, and one large enough for
// several passes.
const std::vector<std::size_t> kLengths{1, 2, 3, 7, 17, 255, 256, 257, 1000, 4097, 65537, 100003, (1u << 20) + 3};

// PoCL compiles each kernel of a program at its first launch (about half a second per kernel, and every
// reduce program runs two), so the settings below are chosen to cover every variant, op, element type and pass
// structure with few programs, and later tests reuse them.
//
// One setting per variant, with the ops that matter for it: small work-groups (many passes at the larger
// lengths), a misaligned vector path with grid-stride loops, and the device's own chunked default (as a CPU
// default). The vector and chunked variants run every op; the one-element-per-item baselines three each.
struct Setting {
  Config config;
  std::vector<ReduceOp> ops;
};
std::vector<Setting> base_settings() {
  DeviceInfo as_cpu = *device().info;
  as_cpu.type = CL_DEVICE_TYPE_CPU;
  const std::vector<ReduceOp> all(std::begin(kOps), std::end(kOps));
  return {{{"interleaved", {{"WG_X", 16}}}, {ReduceOp::Sum, ReduceOp::Min, ReduceOp::ArgMax}},
          {{"sequential", {{"WG_X", 8}}}, {ReduceOp::Sum, ReduceOp::Max, ReduceOp::ArgMin}},
          {{"vector", {{"WG_X", 16}, {"VEC", 4}, {"WPT", 2}, {"USE_SUBGROUPS", 0}, {"GROUPS_PER_CU", 1}}}, all},
          {detail::reduce_default_config(detail::dtype_of<float>(), ReduceOp::Sum, as_cpu), all}};
}

// Further settings, each with one op: large work-groups, every vector width, odd work per item, thousands of
// work-groups, tiny chunks (four passes), chunks that leave a ragged tail, launch sizes left to the driver.
struct Extra {
  Config config;
  ReduceOp op;
};
std::vector<Extra> extra_configs() {
  return {
      {{"vector", {{"WG_X", 256}, {"VEC", 4}, {"WPT", 4}, {"USE_SUBGROUPS", 0}, {"GROUPS_PER_CU", 8}}}, ReduceOp::Sum},
      {{"vector", {{"WG_X", 64}, {"VEC", 16}, {"WPT", 1}, {"USE_SUBGROUPS", 0}, {"GROUPS_PER_CU", 1000}}},
       ReduceOp::ArgMin},
      {{"vector", {{"WG_X", 128}, {"VEC", 1}, {"WPT", 3}, {"USE_SUBGROUPS", 0}, {"GROUPS_PER_CU", 2}}}, ReduceOp::Max},
      {{"chunked", {{"VEC", 1}, {"WPT", 1}, {"WG_X", 64}}}, ReduceOp::ArgMax},
      {{"chunked", {{"VEC", 8}, {"WPT", 5}, {"WG_X", 0}}}, ReduceOp::Min},
      {{"sequential", {{"WG_X", 256}}}, ReduceOp::ArgMax}};
}

// Data for an op: sums get values in [-1, 1]; extremes get small integers, so ties are everywhere and the
// first-index rule is exercised.
template <typename T>
std::vector<T> data_for(ReduceOp op, std::size_t count, std::mt19937_64& random) {
  if (op == ReduceOp::Sum) {
    if constexpr (std::is_integral_v<T>)
      return test::random_vector<T>(count, random, -1000000, 1000000);
    else
      return test::random_vector<T>(count, random, -1.0, 1.0);
  }
  auto values = test::random_vector<std::int32_t>(count, random, -20, 20);
  return std::vector<T>(values.begin(), values.end());
}

// The expected result: a double for sums and extremes, an index for argmin/argmax.
template <typename T>
double expected(ReduceOp op, const T* x, std::size_t n) {
  switch (op) {
    case ReduceOp::Sum:
      return static_cast<double>(reference::sum(x, n));
    case ReduceOp::Min:
      return static_cast<double>(reference::min_value(x, n));
    case ReduceOp::Max:
      return static_cast<double>(reference::max_value(x, n));
    case ReduceOp::ArgMin:
      return static_cast<double>(reference::argmin(x, n));
    case ReduceOp::ArgMax:
      return static_cast<double>(reference::argmax(x, n));
  }
  return 0;
}

// Runs one reduction into a poisoned result between guard regions and returns the result (widened); checks
// that the guards are untouched.
template <typename T, typename Result>
double reduce_into_guarded(const Config* config, ReduceOp op, std::size_t n, const cl::Buffer& x, std::size_t x_offset,
                           cl::CommandQueue& q) {
  test::GuardedBuffer<Result> result(1);
  cl::Event event = config ? detail::reduce_with<T>(*config, q, op, n, x, x_offset, result.buffer(), result.offset())
                           : reduce<T>(q, op, n, x, x_offset, result.buffer(), result.offset());
  REQUIRE(event() != nullptr);
  event.wait();
  result.check_guards(std::string("reduce result (") + to_string(op) + ")");
  return static_cast<double>(result.read()[0]);
}

template <typename T>
double reduce_into_poison(const Config* config, ReduceOp op, std::size_t n, const cl::Buffer& x, std::size_t x_offset,
                          cl::CommandQueue* queue = nullptr) {
  cl::CommandQueue& q = queue ? *queue : device().queue;
  return is_arg(op) ? reduce_into_guarded<T, std::int32_t>(config, op, n, x, x_offset, q)
                    : reduce_into_guarded<T, detail::ComputeType<T>>(config, op, n, x, x_offset, q);
}

// Sums are compared within a tolerance of sum |x| (the order of additions differs from the reference's);
// everything else exactly.
template <typename T>
void check_result(ReduceOp op, double got, const T* x, std::size_t n) {
  const double want = expected(op, x, n);
  if (op == ReduceOp::Sum && std::is_floating_point_v<T>) {
    const double tolerance = (std::is_same_v<T, float> ? 2e-6 : 1e-13) * reference::sum_abs(x, n);
    CHECK_MESSAGE(std::abs(got - want) <= tolerance, "sum is " << got << ", expected " << want);
  } else if (std::isnan(want)) {
    CHECK_MESSAGE(std::isnan(got), to_string(op) << " is " << got << ", expected NaN");
  } else {
    CHECK_MESSAGE(got == want, to_string(op) << " is " << got << ", expected " << want);
  }
}

// Half input is reduced in float: the reference reduces the stored values widened to float (exactly), with
// float's bounds (values rounded to half once, when the test stores them; no rounding to half after).
template <typename T>
void check_stored(ReduceOp op, double got, const std::vector<T>& values, std::size_t offset, std::size_t n) {
  if constexpr (test::is_float16_v<T>) {
    const std::vector<float> widened(values.begin(), values.end());
    check_result<float>(op, got, widened.data() + offset, n);
  } else {
    check_result<T>(op, got, values.data() + offset, n);
  }
}

template <typename T>
void check_reduce(const Config* config, ReduceOp op, std::size_t n, std::size_t x_offset) {
  auto random = test::random_engine(std::string("reduce") + to_string(op) + std::to_string(n));
  const auto values = data_for<T>(op, x_offset + n + 5, random);
  cl::Buffer x = test::to_device(values);
  check_stored<T>(op, reduce_into_poison<T>(config, op, n, x, x_offset), values, x_offset, n);
}

// reduce_value or reduce_index (the public calls to the host) of n elements at `offset`.
template <typename T>
void check_to_host(ReduceOp op, std::size_t n, std::size_t offset) {
  auto random = test::random_engine(std::string("host") + detail::dtype_of<T>().name + to_string(op));
  const auto values = data_for<T>(op, n + offset, random);
  cl::Buffer x = test::to_device(values);
  const double got = is_arg(op) ? static_cast<double>(reduce_index<T>(device().queue, op, n, x, offset))
                                : static_cast<double>(reduce_value<T>(device().queue, op, n, x, offset));
  check_stored<T>(op, got, values, offset, n);
}

template <typename E>
void expect_error(E&& call, const std::string& op, const std::string& argument, const std::string& status) {
  try {
    call();
    FAIL("expected tilecl::Error for " << argument);
  } catch (const Error& error) {
    CHECK(error.op() == op);
    CHECK(error.argument() == argument);
    CHECK(error.status_name() == status);
    CHECK(std::string(error.what()).find("tilecl::" + op) == 0);
  }
}

// The test shim that stands in for cl_khr_subgroups on devices without it: sub-groups of one work-item.
const char* const kSubGroupShim = R"CLC(
#define get_sub_group_size() 1u
#define get_num_sub_groups() ((uint)get_local_size(0))
#define get_sub_group_id() ((uint)get_local_id(0))
#define get_sub_group_local_id() 0u
#define sub_group_reduce_add(x) (x)
#define sub_group_reduce_min(x) (x)
#define sub_group_reduce_max(x) (x)
#define sub_group_any(p) ((p) != 0)
)CLC";

}  // namespace

TEST_SUITE("ops.reduce") {
  TEST_CASE("reduce: a warm call takes its program and first kernel from the thread's memo entry") {
    std::mt19937_64 random(21);
    const std::vector<float> values = test::random_vector<float>(1000, random);
    cl::Buffer x = test::to_device(values);
    double want = 0;
    for (float value : values) want += value;
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Max}) {
      CAPTURE(to_string(op));
      reduce_value<float>(device().queue, op, 1000, x, 0);  // resolves and builds
      reset_statistics();
      const float got = reduce_value<float>(device().queue, op, 1000, x, 0);
      CHECK(statistics().memory_hits == 0);  // the program came with the memo entry, not from the program cache
      CHECK(statistics().compiles == 0);
      if (op == ReduceOp::Sum) CHECK(got == doctest::Approx(want).epsilon(1e-4));
      if (op == ReduceOp::Max) CHECK(got == *std::max_element(values.begin(), values.end()));
    }
  }

  TEST_CASE("reduce: small inputs take one launch (one work-group writes the result), larger ones two or more") {
    // The vector variant with 16 lanes of 4: up to 16 * 4 * 8 elements in one work-group. Every op and destination
    // at lengths on both sides is compared with the reference by the cases below (kLengths, tiny lengths).
    const Config config = base_settings()[2].config;
    const auto& dtype = detail::dtype_of<float>();
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::ArgMin}) {
      CHECK(detail::reduce_launches(config, dtype, op, *device().info, 1) == 1);
      CHECK(detail::reduce_launches(config, dtype, op, *device().info, 512) == 1);
      CHECK(detail::reduce_launches(config, dtype, op, *device().info, 513) == 2);
      CHECK(detail::reduce_launches(config, dtype, op, *device().info, std::size_t{1} << 24) >= 2);
      for (std::size_t n : {std::size_t{512}, std::size_t{513}}) check_reduce<float>(&config, op, n, 3);
    }
  }

  TEST_CASE("reduce: every variant matches the reference for every op at awkward lengths and offsets (float)") {
    for (const auto& setting : base_settings()) {
      CAPTURE(setting.config.to_string());
      for (ReduceOp op : setting.ops) {
        CAPTURE(to_string(op));
        for (std::size_t n : kLengths) {
          CAPTURE(n);
          check_reduce<float>(&setting.config, op, n, n % 5);
        }
      }
    }
  }

  TEST_CASE("reduce: further settings of every variant match the reference (float)") {
    for (const auto& extra : extra_configs()) {
      CAPTURE(extra.config.to_string());
      CAPTURE(to_string(extra.op));
      for (std::size_t n : kLengths) {
        CAPTURE(n);
        check_reduce<float>(&extra.config, extra.op, n, (n + 1) % 4);
      }
    }
  }

  TEST_CASE("reduce: int32 and double through every op and every variant") {
    const std::vector<std::size_t> lengths{1, 5, 257, 4097, 100003, (1u << 20) + 1};
    // int32: every op through the public API (the device's defaults), the vector variant for sums (uint lanes).
    const Config int_vector{"vector",
                            {{"WG_X", 64}, {"VEC", 4}, {"WPT", 2}, {"USE_SUBGROUPS", 0}, {"GROUPS_PER_CU", 4}}};
    // double: three ops through the public API, the other two through the vector variant (double comparisons
    // give long lanes) and the interleaved one.
    const Config double_vector{"vector",
                               {{"WG_X", 64}, {"VEC", 2}, {"WPT", 2}, {"USE_SUBGROUPS", 0}, {"GROUPS_PER_CU", 4}}};
    const Config double_interleaved{"interleaved", {{"WG_X", 16}}};
    for (std::size_t n : lengths) {
      CAPTURE(n);
      for (ReduceOp op : kOps) {
        CAPTURE(to_string(op));
        check_reduce<std::int32_t>(nullptr, op, n, 1);
      }
      check_reduce<std::int32_t>(&int_vector, ReduceOp::Sum, n, 2);
      if (!device().info->fp64) continue;
      for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Max, ReduceOp::ArgMin}) {
        CAPTURE(to_string(op));
        check_reduce<double>(nullptr, op, n, 3);
      }
      check_reduce<double>(&double_vector, ReduceOp::ArgMax, n, 1);
      check_reduce<double>(&double_interleaved, ReduceOp::Min, n, 2);
    }
  }

  TEST_CASE("reduce: half storage through every variant and op at awkward lengths and offsets, results in float") {
    const std::vector<std::size_t> lengths{1, 2, 3, 7, 17, 257, 4097, 100003, (1u << 20) + 3};
    std::vector<Setting> settings = base_settings();
    const std::vector<ReduceOp> all(std::begin(kOps), std::end(kOps));
    // The defaults for half on this device and on a GPU (16-byte loads: VEC 8), and 16-wide chunks.
    DeviceInfo as_gpu = *device().info;
    as_gpu.type = CL_DEVICE_TYPE_GPU;
    as_gpu.local_memory_is_dedicated = true;
    settings.push_back({detail::reduce_default_config(detail::dtype_of<half>(), ReduceOp::Sum, as_gpu), all});
    settings.push_back({{"chunked", {{"VEC", 16}, {"WPT", 3}, {"WG_X", 8}}}, {ReduceOp::Sum, ReduceOp::ArgMin}});
    for (const auto& setting : settings) {
      CAPTURE(setting.config.to_string());
      for (ReduceOp op : setting.ops) {
        CAPTURE(to_string(op));
        for (std::size_t n : lengths) {
          CAPTURE(n);
          check_reduce<half>(&setting.config, op, n, n % 5);
        }
      }
    }
    for (ReduceOp op : kOps) {
      CAPTURE(to_string(op));
      for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
        CAPTURE(n);
        check_reduce<half>(nullptr, op, n, 1);
        check_to_host<half>(op, n, 3);
      }
    }
  }

  TEST_CASE("reduce: the tuning entries verify half settings (tilecl tune --dtype half)") {
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::ArgMin}) {
      CAPTURE(to_string(op));
      auto subject = detail::find_tunable_op(detail::reduce_tuning_name(op)).make_subject("half", "2^17");
      CHECK(subject->key().dtype == "half");
      subject->prepare(device().queue, 3);
      cl::CommandQueue queue = device().queue;
      for (const auto& setting : base_settings()) CHECK(subject->verify(queue, setting.config).empty());
    }
  }

  TEST_CASE("reduce: half: NaN and infinities, a sum beyond half's range, n = 0 and bad arguments") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<half> values(3001, half(60000.0f));  // the sum (1.8e8) is far beyond half's largest value
    cl::Buffer big = test::to_device(values);
    const double big_sum = reduce_value<half>(device().queue, ReduceOp::Sum, 3001, big, 0);
    CHECK(std::abs(big_sum - 60000.0 * 3001) <= 2e-6 * 60000.0 * 3001);
    values[2000] = half(-inf);
    values[1000] = half(nan);
    values[2500] = half(nan);
    cl::Buffer x = test::to_device(values);
    CHECK(std::isnan(reduce_value<half>(device().queue, ReduceOp::Min, 3001, x, 0)));
    CHECK(reduce_index<half>(device().queue, ReduceOp::ArgMax, 3001, x, 0) == 1000);
    CHECK(reduce_index<half>(device().queue, ReduceOp::ArgMin, 1000, x, 1001) == 999);
    CHECK(reduce_value<half>(device().queue, ReduceOp::Min, 1000, x, 1001) == -inf);
    // n = 0: the sum is a float 0, written between guards.
    test::GuardedBuffer<float> result(1);
    reduce<half>(device().queue, ReduceOp::Sum, 0, x, 0, result.buffer(), result.offset()).wait();
    CHECK(result.read()[0] == 0.0f);
    result.check_guards("half sum of nothing");
    // Sizes count 2-byte elements in x and 4-byte floats in the result.
    cl::Buffer six_bytes = test::to_device(std::vector<half>(3, half(1.0f)));
    expect_error([&] { reduce<half>(device().queue, ReduceOp::Sum, 10, x, 0, six_bytes, 1); }, "reduce", "result",
                 "CL_INVALID_BUFFER_SIZE");
    CHECK_NOTHROW(
        reduce<half>(device().queue, ReduceOp::Max, 3, six_bytes, 0, result.buffer(), result.offset()).wait());
    expect_error([&] { reduce_value<half>(device().queue, ReduceOp::Max, 4, six_bytes, 0); }, "reduce_value", "x",
                 "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { reduce_value<half>(device().queue, ReduceOp::ArgMax, 4, x, 0); }, "reduce_value", "op",
                 "CL_INVALID_VALUE");
    // Floats 20.. of x's buffer are its halves 40..: inside the 100 halves read.
    expect_error([&] { reduce<half>(device().queue, ReduceOp::Sum, 100, x, 0, x, 20); }, "reduce", "result",
                 "CL_MEM_COPY_OVERLAP");
    CHECK_NOTHROW(reduce<half>(device().queue, ReduceOp::Sum, 100, x, 0, x, 50).wait());  // bytes 200..204: after
  }

  TEST_CASE("reduce: the public API for every op and type, into the caller's buffer and to the host") {
    for (ReduceOp op : kOps) {
      CAPTURE(to_string(op));
      for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
        CAPTURE(n);
        check_reduce<float>(nullptr, op, n, 0);
        check_to_host<float>(op, n, 2);
      }
    }
    // int32 to the host, and a double index.
    auto random = test::random_engine("host-int");
    const auto ints = data_for<std::int32_t>(ReduceOp::Max, 5000, random);
    cl::Buffer x = test::to_device(ints);
    CHECK(reduce_value<std::int32_t>(device().queue, ReduceOp::Max, 5000, x, 0) ==
          reference::max_value(ints.data(), 5000));
    CHECK(reduce_index<std::int32_t>(device().queue, ReduceOp::ArgMin, 4990, x, 10) ==
          reference::argmin(ints.data() + 10, 4990));
  }

  TEST_CASE("reduce: sums at the bench sweep's lengths, scaled down (seeds 1-4)") {
    // The same random streams as `tilecl bench --sweep` (bench/sweeps/shapes.hpp), lengths up to 2^20.
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      auto random = bench::sweeps::sweep_random(seed, "sum", "float");
      for (int i = 0; i < 8; ++i) {
        const std::size_t n = bench::sweeps::draw_vector_length(random, std::size_t{1} << 20);
        CAPTURE(seed);
        CAPTURE(n);
        check_reduce<float>(nullptr, ReduceOp::Sum, n, static_cast<std::size_t>(i % 3));
      }
    }
  }

  TEST_CASE("reduce: float sum of 2^26 random values is within 1e-6 relative of a double reference") {
    const std::size_t n = std::size_t{1} << 26;
    std::mt19937_64 random = test::random_engine("accuracy");
    std::vector<float> values(n);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (auto& value : values) value = unit(random);
    const double want = reference::sum(values.data(), n);
    cl::Buffer x = test::to_device(values);
    auto relative = [&](float got) { return std::abs(static_cast<double>(got) - want) / want; };
    const float got = reduce_value<float>(device().queue, ReduceOp::Sum, n, x, 0);
    CHECK_MESSAGE(relative(got) <= 1e-6, "public API: relative error " << relative(got));
    // Every variant keeps the promise too, among them the GPU default (run on PoCL here).
    std::vector<Config> configs{extra_configs()[0].config};
    for (const auto& setting : base_settings()) configs.push_back(setting.config);
    for (const Config& config : configs) {
      CAPTURE(config.to_string());
      test::GuardedBuffer<float> result(1);
      detail::reduce_with<float>(config, device().queue, ReduceOp::Sum, n, x, 0, result.buffer(), result.offset())
          .wait();
      result.check_guards("sum");
      const float sum = result.read()[0];
      CHECK_MESSAGE(relative(sum) <= 1e-6, "relative error " << relative(sum));
    }
  }

  TEST_CASE("reduce: NaN propagates through min and max; argmin and argmax give the first NaN") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::size_t n = 5003;
    for (std::vector<std::size_t> nans : {std::vector<std::size_t>{0}, {n / 2}, {n - 1}, {n - 1, 17, 4000}}) {
      CAPTURE(nans.front());
      auto random = test::random_engine("nan");
      auto values = test::random_vector<float>(n, random, -5.0, 5.0);
      for (auto i : nans) values[i] = nan;
      cl::Buffer x = test::to_device(values);
      const double first_nan = static_cast<double>(*std::min_element(nans.begin(), nans.end()));
      // Every variant and setting: the NaN wins whichever lane, work-item or work-group it reaches the tree in.
      std::vector<Setting> settings = base_settings();
      for (const auto& extra : extra_configs()) settings.push_back({extra.config, {extra.op}});
      for (const auto& setting : settings) {
        CAPTURE(setting.config.to_string());
        for (ReduceOp op : setting.ops) {
          if (op == ReduceOp::Sum) continue;
          CAPTURE(to_string(op));
          const double got = reduce_into_poison<float>(&setting.config, op, n, x, 0);
          if (is_arg(op))
            CHECK(got == first_nan);
          else
            CHECK(std::isnan(got));
        }
      }
      CHECK(std::isnan(reduce_value<float>(device().queue, ReduceOp::Sum, n, x, 0)));
    }
    // Infinities are ordinary values; all +inf gives argmin 0 (ties: the first index).
    std::vector<float> infinite(300, inf);
    cl::Buffer all_inf = test::to_device(infinite);
    CHECK(reduce_index<float>(device().queue, ReduceOp::ArgMin, 300, all_inf, 0) == 0);
    CHECK(reduce_value<float>(device().queue, ReduceOp::Min, 300, all_inf, 0) == inf);
    infinite[100] = -inf;
    infinite[200] = -inf;
    cl::Buffer mixed = test::to_device(infinite);
    CHECK(reduce_index<float>(device().queue, ReduceOp::ArgMin, 300, mixed, 0) == 100);
    CHECK(reduce_index<float>(device().queue, ReduceOp::ArgMax, 300, mixed, 0) == 0);
    CHECK(reduce_value<float>(device().queue, ReduceOp::Max, 300, mixed, 0) == inf);
    if (device().info->fp64) {
      std::vector<double> doubles(2000, 1.0);
      doubles[1500] = std::numeric_limits<double>::quiet_NaN();
      doubles[700] = -std::numeric_limits<double>::infinity();
      cl::Buffer x = test::to_device(doubles);
      CHECK(std::isnan(reduce_value<double>(device().queue, ReduceOp::Max, 2000, x, 0)));
      CHECK(reduce_index<double>(device().queue, ReduceOp::ArgMin, 2000, x, 0) == 1500);
      CHECK(reduce_index<double>(device().queue, ReduceOp::ArgMin, 1500, x, 0) == 700);
    }
  }

  TEST_CASE("reduce: int32 sums wrap modulo 2^32; INT_MIN and INT_MAX are ordinary extremes") {
    auto random = test::random_engine("overflow");
    auto values = test::random_vector<std::int32_t>(100003, random, INT_MAX - 1000, INT_MAX);
    cl::Buffer x = test::to_device(values);
    const std::int32_t wrapped = reference::sum(values.data(), values.size());
    CHECK(reduce_value<std::int32_t>(device().queue, ReduceOp::Sum, values.size(), x, 0) == wrapped);
    const Config vector{"vector", {{"WG_X", 64}, {"VEC", 4}, {"WPT", 2}, {"USE_SUBGROUPS", 0}, {"GROUPS_PER_CU", 4}}};
    CHECK(reduce_into_poison<std::int32_t>(&vector, ReduceOp::Sum, values.size(), x, 0) == wrapped);
    // 2^31 + 2^31 wraps to 0 exactly.
    std::vector<std::int32_t> halves{INT_MIN, INT_MIN};
    cl::Buffer halves_buffer = test::to_device(halves);
    CHECK(reduce_value<std::int32_t>(device().queue, ReduceOp::Sum, 2, halves_buffer, 0) == 0);
    std::vector<std::int32_t> extremes(1000, 5);
    extremes[10] = INT_MIN;
    extremes[900] = INT_MIN;
    extremes[20] = INT_MAX;
    cl::Buffer e = test::to_device(extremes);
    CHECK(reduce_value<std::int32_t>(device().queue, ReduceOp::Min, 1000, e, 0) == INT_MIN);
    CHECK(reduce_value<std::int32_t>(device().queue, ReduceOp::Max, 1000, e, 0) == INT_MAX);
    CHECK(reduce_index<std::int32_t>(device().queue, ReduceOp::ArgMin, 1000, e, 0) == 10);
    CHECK(reduce_index<std::int32_t>(device().queue, ReduceOp::ArgMax, 1000, e, 0) == 20);
    std::vector<std::int32_t> all_max(100, INT_MAX), all_min(100, INT_MIN);
    cl::Buffer max_buffer = test::to_device(all_max), min_buffer = test::to_device(all_min);
    CHECK(reduce_index<std::int32_t>(device().queue, ReduceOp::ArgMin, 100, max_buffer, 0) == 0);
    CHECK(reduce_index<std::int32_t>(device().queue, ReduceOp::ArgMax, 100, min_buffer, 0) == 0);
  }

  TEST_CASE("reduce: n = 0 writes 0 for a sum; min, max, argmin and argmax of nothing are errors") {
    test::GuardedBuffer<float> guarded(4);
    cl::Buffer& result = guarded.buffer();
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    cl::Event event = reduce<float>(device().queue, ReduceOp::Sum, 0, tiny, 0, result, guarded.offset() + 2);
    REQUIRE(event() != nullptr);
    event.wait();
    const auto got = guarded.read();
    CHECK(got[2] == 0.0f);
    CHECK(std::isnan(got[1]));
    CHECK(std::isnan(got[3]));
    guarded.check_guards("sum of nothing");
    test::GuardedBuffer<std::int32_t> int_result(2);
    reduce<std::int32_t>(device().queue, ReduceOp::Sum, 0, tiny, 0, int_result.buffer(), int_result.offset() + 1)
        .wait();
    CHECK(int_result.read()[1] == 0);
    int_result.check_guards("int32 sum of nothing");
    CHECK(reduce_value<float>(device().queue, ReduceOp::Sum, 0, tiny, 0) == 0.0f);
    for (ReduceOp op : {ReduceOp::Min, ReduceOp::Max, ReduceOp::ArgMin, ReduceOp::ArgMax}) {
      CAPTURE(to_string(op));
      expect_error([&] { reduce<float>(device().queue, op, 0, tiny, 0, result, 0); }, "reduce", "n",
                   "CL_INVALID_VALUE");
    }
    expect_error([&] { reduce_value<float>(device().queue, ReduceOp::Max, 0, tiny, 0); }, "reduce_value", "n",
                 "CL_INVALID_VALUE");
    expect_error([&] { reduce_index<float>(device().queue, ReduceOp::ArgMax, 0, tiny, 0); }, "reduce_index", "n",
                 "CL_INVALID_VALUE");
  }

  TEST_CASE("reduce: bad arguments raise tilecl::Error naming the argument") {
    cl::Buffer small(device().context, CL_MEM_READ_WRITE, 100 * sizeof(float));
    cl::Buffer large(device().context, CL_MEM_READ_WRITE, 1000 * sizeof(float));
    cl::CommandQueue queue = device().queue;
    expect_error([&] { reduce<float>(queue, ReduceOp::Sum, 100, small, 1, large, 0); }, "reduce", "x",
                 "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { reduce<float>(queue, ReduceOp::Sum, 10, large, 0, small, 100); }, "reduce", "result",
                 "CL_INVALID_BUFFER_SIZE");
    // argmin/argmax results are int32: offset 199 of a 200-element int32 range fits even for doubles.
    cl::Buffer indices(device().context, CL_MEM_READ_WRITE, 200 * sizeof(std::int32_t));
    CHECK_NOTHROW(reduce<float>(queue, ReduceOp::ArgMax, 10, large, 0, indices, 199).wait());
    expect_error([&] { reduce<float>(queue, ReduceOp::ArgMax, 10, large, 0, indices, 200); }, "reduce", "result",
                 "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { reduce<float>(queue, ReduceOp::Sum, 100, large, 0, large, 99); }, "reduce", "result",
                 "CL_MEM_COPY_OVERLAP");
    CHECK_NOTHROW(reduce<float>(queue, ReduceOp::Sum, 100, large, 0, large, 100).wait());
    expect_error([&] { reduce<float>(queue, ReduceOp::ArgMin, 100, large, 0, large, 50); }, "reduce", "result",
                 "CL_MEM_COPY_OVERLAP");
    expect_error([&] { reduce<float>(queue, ReduceOp::Sum, std::size_t{1} << 31, large, 0, small, 0); }, "reduce", "n",
                 "CL_INVALID_VALUE");
    expect_error([&] { reduce<float>(queue, static_cast<ReduceOp>(42), 10, large, 0, small, 0); }, "reduce", "op",
                 "CL_INVALID_VALUE");
    expect_error([&] { reduce<float>(queue, ReduceOp::Sum, 10, large, ~std::size_t{0} - 4, small, 0); }, "reduce", "x",
                 "CL_INVALID_VALUE");
    cl::Buffer null_buffer;
    expect_error([&] { reduce<float>(queue, ReduceOp::Sum, 10, null_buffer, 0, small, 0); }, "reduce", "x",
                 "CL_INVALID_MEM_OBJECT");
    expect_error([&] { reduce<float>(queue, ReduceOp::Sum, 10, large, 0, null_buffer, 0); }, "reduce", "result",
                 "CL_INVALID_MEM_OBJECT");
    cl::Context other(device().device);
    cl::Buffer foreign(other, CL_MEM_READ_WRITE, 1000 * sizeof(float));
    expect_error([&] { reduce<float>(queue, ReduceOp::Sum, 10, foreign, 0, small, 0); }, "reduce", "x",
                 "CL_INVALID_CONTEXT");
    // Values and indices go to the host through the function made for them.
    expect_error([&] { reduce_value<float>(queue, ReduceOp::ArgMax, 10, large, 0); }, "reduce_value", "op",
                 "CL_INVALID_VALUE");
    expect_error([&] { reduce_index<std::int32_t>(queue, ReduceOp::Sum, 10, large, 0); }, "reduce_index", "op",
                 "CL_INVALID_VALUE");
    expect_error([&] { reduce_value<float>(queue, ReduceOp::Sum, 1000, large, 1); }, "reduce_value", "x",
                 "CL_INVALID_BUFFER_SIZE");
    // Configurations that break the search space's rules; sub-groups need the device's cl_khr_subgroups.
    const Config odd{"sequential", {{"WG_X", 96}}};
    expect_error([&] { detail::reduce_with<float>(odd, queue, ReduceOp::Sum, 10, large, 0, small, 0); }, "reduce",
                 "config", "CL_INVALID_VALUE");
    const Config subgroups{"vector",
                           {{"WG_X", 64}, {"VEC", 4}, {"WPT", 1}, {"USE_SUBGROUPS", 1}, {"GROUPS_PER_CU", 1}}};
    if (!device().info->subgroups)
      expect_error([&] { detail::reduce_with<float>(subgroups, queue, ReduceOp::Sum, 10, large, 0, small, 0); },
                   "reduce", "config", "CL_INVALID_VALUE");
    const Config too_big{"interleaved", {{"WG_X", static_cast<std::int64_t>(device().info->max_work_group_size) * 2}}};
    CHECK_THROWS_AS(detail::reduce_with<float>(too_big, queue, ReduceOp::Sum, 10, large, 0, small, 0), Error);
  }

  TEST_CASE("reduce: double on a device without fp64 is refused with a clear error") {
    DeviceInfo no_fp64 = *device().info;
    no_fp64.fp64 = false;
    try {
      detail::check_dtype_supported("reduce", detail::dtype_of<double>(), no_fp64);
      FAIL("expected an error");
    } catch (const Error& error) {
      CHECK(error.argument() == "dtype");
      CHECK(error.status_name() == "CL_INVALID_DEVICE");
    }
  }

  TEST_CASE("reduce: passes are ordered by events, on out-of-order queues and across threads sharing the workspace") {
    const std::size_t n = (1u << 20) + 3;
    auto random = test::random_engine("ordering");
    const auto values = data_for<float>(ReduceOp::ArgMax, n, random);
    cl::Buffer x = test::to_device(values);
    const double want = expected(ReduceOp::ArgMax, values.data(), n);
    // Four passes (a chunk of one element leaves 2^20 partials), each waiting for the one before.
    const Config many_passes{"chunked", {{"VEC", 1}, {"WPT", 1}, {"WG_X", 64}}};
    try {
      cl::CommandQueue out_of_order(device().context, device().device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
      for (int repeat = 0; repeat < 3; ++repeat)
        CHECK(reduce_into_poison<float>(&many_passes, ReduceOp::ArgMax, n, x, 0, &out_of_order) == want);
    } catch (const cl::Error&) {
      MESSAGE("the device has no out-of-order queues; skipped that part");
    }
    // Threads on queues of their own share one workspace per (context, device).
    std::vector<std::thread> threads;
    std::vector<std::int64_t> got(4, -1);
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        cl::CommandQueue queue(device().context, device().device);
        for (int repeat = 0; repeat < 3; ++repeat)
          got[t] = static_cast<std::int64_t>(reduce_index<float>(queue, ReduceOp::ArgMax, n - t, x, t));
      });
    }
    for (auto& thread : threads) thread.join();
    for (int t = 0; t < 4; ++t) CHECK(got[t] == static_cast<std::int64_t>(reference::argmax(values.data() + t, n - t)));
  }

  TEST_CASE("reduce: the wait list holds the first pass back (and a sum of nothing's fill)") {
    const std::size_t n = 100003;
    auto random = test::random_engine("wait");
    const auto before = data_for<float>(ReduceOp::ArgMax, n, random);
    const auto after = data_for<float>(ReduceOp::ArgMax, n, random);
    cl::Buffer x = test::to_device(before);
    test::GuardedBuffer<std::int32_t> result(1);
    cl::UserEvent gate(device().context);
    const std::vector<cl::Event> wait{gate};
    cl::Event done = reduce<float>(device().queue, ReduceOp::ArgMax, n, x, 0, result.buffer(), result.offset(), &wait);
    // Submitted and given time to run: it must still be waiting for the gate.
    device().queue.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE);
    cl::CommandQueue other(device().context, device().device);
    other.enqueueWriteBuffer(x, CL_TRUE, 0, n * sizeof(float), after.data());
    gate.setStatus(CL_COMPLETE);
    done.wait();
    CHECK(result.read()[0] == static_cast<std::int32_t>(reference::argmax(after.data(), n)));
    result.check_guards("argmax after the gate");
    // n = 0: the fill waits too.
    test::GuardedBuffer<float> sum(1);
    cl::UserEvent second(device().context);
    const std::vector<cl::Event> second_wait{second};
    cl::Event fill = reduce<float>(device().queue, ReduceOp::Sum, 0, x, 0, sum.buffer(), sum.offset(), &second_wait);
    device().queue.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(fill.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE);
    second.setStatus(CL_COMPLETE);
    fill.wait();
    CHECK(sum.read()[0] == 0.0f);
    sum.check_guards("sum of nothing after the gate");
  }

  TEST_CASE(
      "reduce: the defaults and search space follow the device's properties; sub-groups only with the extension") {
    DeviceInfo gpu = *device().info;
    gpu.type = CL_DEVICE_TYPE_GPU;
    gpu.local_memory_is_dedicated = true;
    gpu.local_memory_bytes = 48 * 1024;
    gpu.max_work_group_size = 1024;
    gpu.compute_units = 132;
    gpu.subgroups = false;
    DeviceInfo cpu = gpu;
    cpu.type = CL_DEVICE_TYPE_CPU;
    cpu.local_memory_is_dedicated = false;
    cpu.native_vector_width_float = 8;
    cpu.native_vector_width_double = 4;
    cpu.preferred_work_group_multiple = 8;
    for (const detail::DTypeInfo* dtype :
         {&detail::dtype_of<float>(), &detail::dtype_of<double>(), &detail::dtype_of<std::int32_t>()}) {
      CAPTURE(dtype->name);
      for (ReduceOp op : kOps) {
        for (const DeviceInfo* info : {&gpu, &cpu}) {
          const Config preferred = detail::reduce_default_config(*dtype, op, *info);
          const auto space = detail::reduce_search_space(*dtype, op, *info);
          CHECK(space.validate(preferred, *info).empty());
          const auto all = space.enumerate(*info);
          REQUIRE_FALSE(all.empty());
          CHECK(all.front() == preferred);
          CHECK(all.size() < 1000);
          for (const auto& config : all)
            if (config.variant == "vector") CHECK(config.value("USE_SUBGROUPS") == 0);
        }
      }
      const Config on_gpu = detail::reduce_default_config(*dtype, ReduceOp::Sum, gpu);
      CHECK(on_gpu.variant == "vector");
      CHECK(on_gpu.value("VEC") * static_cast<std::int64_t>(dtype->size) == 16);
      const Config on_cpu = detail::reduce_default_config(*dtype, ReduceOp::Sum, cpu);
      CHECK(on_cpu.variant == "chunked");
      CHECK(on_cpu.value("VEC") == (dtype->size == 8 ? 4 : 8));
    }
    DeviceInfo with_subgroups = gpu;
    with_subgroups.subgroups = true;
    std::size_t subgroup_configs = 0;
    for (const auto& config : detail::reduce_search_space(detail::dtype_of<float>(), ReduceOp::Sum, with_subgroups)
                                  .enumerate(with_subgroups))
      if (config.variant == "vector" && config.value("USE_SUBGROUPS") == 1) ++subgroup_configs;
    CHECK(subgroup_configs > 0);
  }

  TEST_CASE("reduce: the sub-group path is correct with one-item sub-groups (a shim stands in for the extension)") {
    // The vector kernel and reduce_partials with USE_SUBGROUPS = 1, built with the shim prepended and launched
    // as one work-group each: pass 1 alone (P1 = 1), and reduce_partials over host-made partials.
    const std::string source = std::string(kSubGroupShim) + detail::kernel_source("reduce").text;
    const std::size_t n = 3001, partials = 777;
    auto random = test::random_engine("subgroups");
    // Sum, a NaN-aware extreme and an index: the three sub-group code paths.
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Max, ReduceOp::ArgMin}) {
      CAPTURE(to_string(op));
      const auto values = data_for<float>(op, n, random);
      std::vector<std::int32_t> partial_indices(partials);
      for (std::size_t i = 0; i < partials; ++i) partial_indices[i] = static_cast<std::int32_t>(partials - i);
      cl::Program program(device().context, source);
      const std::string options = "-DDTYPE=float -DREDUCE_OP=" + std::to_string(static_cast<int>(op)) +
                                  " -DWG_X=64 -DVEC=4 -DWPT=2 -DUSE_SUBGROUPS=1";
      try {
        program.build({device().device}, options.c_str());
      } catch (const cl::Error&) {
        FAIL(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device().device));
      }
      cl::Buffer x = test::to_device(values), indices = test::to_device(partial_indices);
      test::GuardedBuffer<float> value_out(2);
      test::GuardedBuffer<std::int32_t> index_out(2);
      const cl_ulong value_at = value_out.offset(), index_at = index_out.offset();
      cl::Kernel vector(program, "reduce_vector");
      vector.setArg(0, static_cast<cl_int>(n - 1));
      vector.setArg(1, x);
      vector.setArg(2, cl_ulong{1});
      vector.setArg(3, value_out.buffer());
      vector.setArg(4, value_at);
      vector.setArg(5, index_out.buffer());
      vector.setArg(6, index_at);
      device().queue.enqueueNDRangeKernel(vector, cl::NullRange, cl::NDRange(64), cl::NDRange(64));
      cl::Kernel partials_kernel(program, "reduce_partials");
      const std::vector<cl_int> partial_args{static_cast<cl_int>(partials), static_cast<cl_int>(partials)};
      partials_kernel.setArg(0, partial_args[0]);
      partials_kernel.setArg(1, partial_args[1]);
      partials_kernel.setArg(2, x);
      partials_kernel.setArg(3, cl_ulong{0});
      partials_kernel.setArg(4, indices);
      partials_kernel.setArg(5, cl_ulong{0});
      partials_kernel.setArg(6, value_out.buffer());
      partials_kernel.setArg(7, value_at + 1);
      partials_kernel.setArg(8, index_out.buffer());
      partials_kernel.setArg(9, index_at + 1);
      device().queue.enqueueNDRangeKernel(partials_kernel, cl::NullRange, cl::NDRange(64), cl::NDRange(64));
      const auto got_values = value_out.read();
      const auto got_indices = index_out.read();
      value_out.check_guards("sub-group values");
      index_out.check_guards("sub-group indices");
      const double pass_one = is_arg(op) ? static_cast<double>(got_indices[0]) : got_values[0];
      check_result<float>(op, pass_one, values.data() + 1, n - 1);
      // reduce_partials: the pairs (values[i], partials - i); ties go to the smaller carried index.
      if (is_arg(op)) {
        std::size_t best = 0;
        for (std::size_t i = 1; i < partials; ++i) {
          const bool better = op == ReduceOp::ArgMin ? values[i] < values[best] : values[i] > values[best];
          if (better || (values[i] == values[best] && partial_indices[i] < partial_indices[best])) best = i;
        }
        CHECK(got_indices[1] == partial_indices[best]);
      } else {
        check_result<float>(op, got_values[1], values.data(), partials);
      }
    }
  }

  TEST_CASE("reduce: the tuning entries verify every variant and reject malformed shapes") {
    for (ReduceOp op : kOps) {
      CAPTURE(to_string(op));
      const auto& entry = detail::find_tunable_op(detail::reduce_tuning_name(op));
      auto subject = entry.make_subject("float", "2^16");
      CHECK(subject->key().bucket == "n<2^18");
      subject->prepare(device().queue, 11);
      cl::CommandQueue queue = device().queue;
      for (const auto& setting : base_settings()) {
        if (std::find(setting.ops.begin(), setting.ops.end(), op) == setting.ops.end()) continue;
        CAPTURE(setting.config.to_string());
        CHECK(subject->verify(queue, setting.config).empty());
      }
    }
    CHECK_THROWS_AS(detail::find_tunable_op("reduce_sum").make_subject("float", "12x"), Error);
    CHECK_THROWS_AS(detail::find_tunable_op("reduce_sum").make_subject("uint8", "100"), Error);
    const auto choice = tuning::parameters_for(device().queue, "reduce_argmax", "float", "2^25");
    CHECK(choice.parameters ==
          detail::reduce_default_config(detail::dtype_of<float>(), ReduceOp::ArgMax, *device().info));
    CHECK(choice.bucket == "n>=2^22");
  }
}

TEST_SUITE("ops.reduce") {
  TEST_CASE("reduce: tiny lengths under every variant and op (also run under oclgrind)") {
    // The settings of the sweeps above (no extra compiles on PoCL); 4100 elements give the chunked default two
    // whole chunks and a tail.
    for (const auto& setting : base_settings()) {
      CAPTURE(setting.config.to_string());
      for (ReduceOp op : setting.ops) {
        CAPTURE(to_string(op));
        for (std::size_t n : {1, 13, 300}) check_reduce<float>(&setting.config, op, n, 1);
        if (setting.config.variant == "chunked") check_reduce<float>(&setting.config, op, 4100, 3);
      }
    }
    // Half storage through the vector and chunked variants (element, aligned-vector and unaligned loads).
    for (const auto& setting : {base_settings()[2], base_settings()[3]})
      for (ReduceOp op : {ReduceOp::Sum, ReduceOp::ArgMax})
        for (std::size_t n : {13, 300}) check_reduce<half>(&setting.config, op, n, 3);
  }
}
