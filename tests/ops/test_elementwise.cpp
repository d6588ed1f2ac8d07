#include <doctest/doctest.h>

#include <cmath>

#include "checks.hpp"
#include "ops/elementwise.hpp"
#include "support/fixture.hpp"
#include "support/guarded_buffer.hpp"
#include "sweeps/shapes.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/error.hpp"
#include "tuning/op_registry.hpp"

using namespace tilecl;
using tilecl::detail::Config;
using tilecl::test::device;

namespace {

const std::vector<std::size_t> kLengths{1, 2, 3, 7, 1023, 1025, (1u << 20) + 3};
constexpr std::size_t kGuard = 37;

// Settings of both variants beyond the defaults: every vector width, strided and contiguous, odd work per item.
std::vector<Config> configs_to_sweep() {
  const auto& info = *device().info;
  std::vector<Config> configs{detail::elementwise_default_config(detail::dtype_of<float>(), info),
                              {"naive", {{"WG_X", 0}}},
                              {"naive", {{"WG_X", 64}}}};
  for (std::int64_t vec : {1, 2, 4, 8, 16})
    for (std::int64_t strided : {0, 1})
      configs.push_back(
          {"vector", {{"VEC", vec}, {"WPT", vec == 4 ? 3 : 2}, {"USE_STRIDED", strided}, {"WG_X", strided ? 64 : 0}}});
  return configs;
}

template <typename T>
double tolerance() {
  return std::is_same_v<T, float> ? 2e-6 : 1e-14;
}

// Half results (documented in include/tilecl/elementwise.hpp): the float result rounded once to half, so within
// 2^-11 |exact| (to nearest) + 2^-25 (half's subnormal spacing / 2), plus the float arithmetic's 2^-24 relative error
// of each operation on operands of magnitude `scale` (2^-23 scale covers two). Elements outside the op's range
// (bound 0) must be untouched.
constexpr double kHalfUlp = 1.0 / 2048, kFloatUlp = 1.0 / 16777216;
double half_bound(double want, double scale) { return kHalfUlp * std::abs(want) + 2 * kFloatUlp * scale + kFloatUlp; }

template <typename T>
void check_result(const std::vector<T>& got, const std::vector<double>& want, const std::vector<double>& bounds,
                  const std::string& what) {
  if constexpr (test::is_float16_v<T>) {
    REQUIRE(got.size() == want.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double value = static_cast<float>(got[i]);
      const bool ok = std::isnan(want[i]) ? std::isnan(value) : std::abs(value - want[i]) <= bounds[i];
      if (!ok && bad++ < 5)
        FAIL_CHECK(what << ": element " << i << " is " << value << ", expected " << want[i] << " +- " << bounds[i]);
    }
    CHECK_MESSAGE(bad == 0, what << ": " << bad << " of " << got.size() << " elements outside the bound");
  } else {
    test::check_all_close(got, want, tolerance<T>(), what);
  }
}

template <typename T>
void check_axpy(const Config* config, std::size_t n, std::size_t x_offset, std::size_t y_offset) {
  auto random = test::random_engine("axpy" + std::to_string(n));
  const detail::ComputeType<T> alpha = -1.375;
  auto x = test::random_vector<T>(x_offset + n + kGuard, random);
  auto y = test::random_vector<T>(y_offset + n + kGuard, random);
  cl::Buffer x_buffer = test::to_device(x);
  test::GuardedBuffer<T> y_out(y);
  const std::size_t y_at = y_out.offset() + y_offset;
  if (config)
    detail::axpy_with<T>(*config, device().queue, n, alpha, x_buffer, x_offset, y_out.buffer(), y_at).wait();
  else
    axpy<T>(device().queue, n, alpha, x_buffer, x_offset, y_out.buffer(), y_at).wait();
  std::vector<double> want(y.begin(), y.end());  // outside [y_offset, y_offset + n): untouched
  std::vector<double> bounds(want.size());       // zeros: outside the range, exact
  for (std::size_t i = 0; i < n; ++i) {
    const double product = static_cast<double>(alpha) * static_cast<double>(x[x_offset + i]);
    want[y_offset + i] = product + static_cast<double>(y[y_offset + i]);
    bounds[y_offset + i] = half_bound(want[y_offset + i], std::abs(product) + std::abs(want[y_offset + i]));
  }
  check_result(y_out.read(), want, bounds, "axpy");
  y_out.check_guards("axpy y");
  // x is read only.
  test::check_all_close(test::from_device<T>(x_buffer, x.size()), std::vector<double>(x.begin(), x.end()), 0, "x");
}

template <typename T>
void check_vector_add(const Config* config, std::size_t n, std::size_t offset) {
  auto random = test::random_engine("add" + std::to_string(n));
  auto a = test::random_vector<T>(offset + n + kGuard, random);
  auto b = test::random_vector<T>(n + kGuard, random);
  test::GuardedBuffer<T> c(offset + 2 + n + kGuard);
  cl::Buffer a_buffer = test::to_device(a), b_buffer = test::to_device(b);
  const std::size_t c_offset = offset + 2;
  const std::size_t c_at = c.offset() + c_offset;
  if (config)
    detail::vector_add_with<T>(*config, device().queue, n, a_buffer, offset, b_buffer, 0, c.buffer(), c_at).wait();
  else
    vector_add<T>(device().queue, n, a_buffer, offset, b_buffer, 0, c.buffer(), c_at).wait();
  c.check_guards("vector_add c");
  auto got = c.read();
  std::vector<double> want(c.size(), std::numeric_limits<double>::quiet_NaN());  // the rest keeps its poison
  std::vector<double> bounds(want.size());                                       // zeros: outside the range, exact
  for (std::size_t i = 0; i < n; ++i) {
    want[c_offset + i] = static_cast<double>(a[offset + i]) + static_cast<double>(b[i]);
    bounds[c_offset + i] = half_bound(want[c_offset + i], std::abs(want[c_offset + i]));
  }
  check_result(got, want, bounds, "vector_add");
}

// Settings for half: the default, naive, and every vector width (vload_halfn / vstore_halfn_rte), strided or not.
std::vector<Config> half_configs() {
  DeviceInfo gpu = *device().info;  // the default an H200-like GPU gets, run here
  gpu.type = CL_DEVICE_TYPE_GPU, gpu.local_memory_is_dedicated = true;
  std::vector<Config> configs{detail::elementwise_default_config(detail::dtype_of<half>(), *device().info),
                              detail::elementwise_default_config(detail::dtype_of<half>(), gpu),
                              {"naive", {{"WG_X", 64}}}};
  for (std::int64_t vec : {1, 2, 4, 8, 16})
    configs.push_back({"vector",
                       {{"VEC", vec},
                        {"WPT", vec == 8 ? 3 : 2},
                        {"USE_STRIDED", vec % 4 == 0 ? 1 : 0},
                        {"WG_X", vec % 4 == 0 ? 32 : 0}}});
  return configs;
}

}  // namespace

TEST_SUITE("ops.elementwise") {
  TEST_CASE("elementwise: axpy matches the host reference for every variant and setting at awkward lengths") {
    for (const auto& config : configs_to_sweep()) {
      CAPTURE(config.to_string());
      for (std::size_t n : kLengths) {
        CAPTURE(n);
        check_axpy<float>(&config, n, 5, 3);
      }
    }
  }

  TEST_CASE("elementwise: vector_add matches the host reference for every variant and setting at awkward lengths") {
    for (const auto& config : configs_to_sweep()) {
      CAPTURE(config.to_string());
      for (std::size_t n : kLengths) {
        CAPTURE(n);
        check_vector_add<float>(&config, n, 1);
      }
    }
  }

  TEST_CASE("elementwise: double precision through the public API, and through every variant") {
    if (!device().info->fp64) return;  // the refusal is tested below
    for (std::size_t n : kLengths) {
      CAPTURE(n);
      check_axpy<double>(nullptr, n, 1, 0);
      check_vector_add<double>(nullptr, n, 3);
    }
    for (std::int64_t vec : {1, 2, 4, 8, 16}) {
      Config config{"vector", {{"VEC", vec}, {"WPT", 2}, {"USE_STRIDED", 1}, {"WG_X", 32}}};
      CAPTURE(config.to_string());
      check_axpy<double>(&config, 1025, 2, 1);
    }
  }

  TEST_CASE("elementwise: half storage through every variant and the public API, within the documented bound") {
    for (const auto& config : half_configs()) {
      CAPTURE(config.to_string());
      for (std::size_t n : kLengths) {
        CAPTURE(n);
        check_axpy<half>(&config, n, 3, 1);
        check_vector_add<half>(&config, n, 5);
      }
    }
    for (std::size_t n : {std::size_t{1}, std::size_t{13}, std::size_t{4099}}) {
      CAPTURE(n);
      check_axpy<half>(nullptr, n, 0, 2);
      check_vector_add<half>(nullptr, n, 1);
    }
  }

  TEST_CASE("elementwise: the tuning entries verify half settings (tilecl tune --dtype half)") {
    for (const char* name : {"axpy", "vector_add"}) {
      CAPTURE(name);
      auto subject = detail::find_tunable_op(name).make_subject("half", "100000");
      CHECK(subject->key().dtype == "half");
      subject->prepare(device().queue, 5);
      cl::CommandQueue queue = device().queue;
      for (const auto& config : {half_configs()[0], half_configs()[5]}) CHECK(subject->verify(queue, config).empty());
    }
  }

  TEST_CASE("elementwise: half rounds to nearest even, overflows to infinity and keeps NaN") {
    // 1 + 2^-11 is a tie (to even: 1); 1 + 3 * 2^-11 rounds up to 1 + 2^-9; 40000 + 40000 overflows; NaN stays.
    const float tie = std::ldexp(1.0f, -11);
    const std::vector<half> a{half(1.0f), half(1.0f), half(40000.0f), half(std::nanf("")), half(-2.0f)};
    const std::vector<half> b{half(tie), half(3 * tie), half(40000.0f), half(1.0f), half(0.5f)};
    test::GuardedBuffer<half> c(a.size());
    cl::Buffer a_buffer = test::to_device(a), b_buffer = test::to_device(b);
    vector_add<half>(device().queue, a.size(), a_buffer, 0, b_buffer, 0, c.buffer(), c.offset()).wait();
    const auto got = c.read();
    CHECK(static_cast<float>(got[0]) == 1.0f);
    CHECK(static_cast<float>(got[1]) == 1.0f + 4 * tie);
    CHECK(std::isinf(static_cast<float>(got[2])));
    CHECK(std::isnan(static_cast<float>(got[3])));
    CHECK(static_cast<float>(got[4]) == -1.5f);
    c.check_guards("half vector_add");
    // axpy: 1 + 3 * 2^-12 (alpha a float) is 3/4 of half's spacing above 1: rounded once, up to 1 + 2^-10.
    test::GuardedBuffer<half> y(std::vector<half>{half(1.0f), half(1.0f)});
    axpy<half>(device().queue, 2, 3 * std::ldexp(1.0f, -12), a_buffer, 0, y.buffer(), y.offset()).wait();
    CHECK(static_cast<float>(y.read()[0]) == 1.0f + 2 * tie);
    y.check_guards("half axpy");
  }

  TEST_CASE("elementwise: the public API with its own choice of parameters, at every length") {
    for (std::size_t n : kLengths) {
      CAPTURE(n);
      check_axpy<float>(nullptr, n, 0, 0);
      check_vector_add<float>(nullptr, n, 0);
    }
  }

  TEST_CASE("elementwise: axpy at the bench sweep's lengths, scaled down (seeds 1-4)") {
    // The same random streams as `tilecl bench --sweep` (bench/sweeps/shapes.hpp), lengths up to 2^20.
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      auto random = bench::sweeps::sweep_random(seed, "axpy", "float");
      for (int i = 0; i < 8; ++i) {
        const std::size_t n = bench::sweeps::draw_vector_length(random, std::size_t{1} << 20);
        CAPTURE(seed);
        CAPTURE(n);
        check_axpy<float>(nullptr, n, static_cast<std::size_t>(i % 3), static_cast<std::size_t>(i % 2));
      }
    }
  }

  TEST_CASE("elementwise: n = 0 enqueues nothing and returns a null event") {
    cl::Buffer tiny(device().context, CL_MEM_READ_WRITE, 4);
    cl::Event event = axpy<float>(device().queue, 0, 1.0f, tiny, 1000, tiny, 1000);
    CHECK(event() == nullptr);
    CHECK(vector_add<float>(device().queue, 0, tiny, 0, tiny, 0, tiny, 0)() == nullptr);
    CHECK(axpy<half>(device().queue, 0, 1.0f, tiny, 1000, tiny, 1000)() == nullptr);
    CHECK(vector_add<half>(device().queue, 0, tiny, 7, tiny, 0, tiny, 0)() == nullptr);
  }

  TEST_CASE("elementwise: in place (the output is an input exactly) is allowed") {
    auto random = test::random_engine("inplace");
    auto a = test::random_vector<float>(1000, random);
    auto b = test::random_vector<float>(1000, random);
    test::GuardedBuffer<float> a_buffer(a);
    cl::Buffer b_buffer = test::to_device(b);
    vector_add<float>(device().queue, 1000, a_buffer.buffer(), a_buffer.offset(), b_buffer, 0, a_buffer.buffer(),
                      a_buffer.offset())
        .wait();
    std::vector<double> want(1000);
    for (int i = 0; i < 1000; ++i) want[i] = static_cast<double>(a[i]) + b[i];
    test::check_all_close(a_buffer.read(), want, 1e-6, "a += b");
    a_buffer.check_guards("a += b");
  }

  TEST_CASE("elementwise: bad arguments raise tilecl::Error naming the argument") {
    cl::Buffer small(device().context, CL_MEM_READ_WRITE, 100 * sizeof(float));
    cl::Buffer large(device().context, CL_MEM_READ_WRITE, 1000 * sizeof(float));
    auto expect_error = [](auto&& call, const std::string& argument, const std::string& status) {
      try {
        call();
        FAIL("expected tilecl::Error for " << argument);
      } catch (const Error& error) {
        CHECK(error.argument() == argument);
        CHECK(error.status_name() == status);
        CHECK(std::string(error.what()).find("tilecl::") == 0);
      }
    };
    expect_error([&] { axpy<float>(device().queue, 100, 1.0f, small, 1, large, 0); }, "x", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { axpy<float>(device().queue, 200, 1.0f, large, 0, small, 0); }, "y", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { vector_add<float>(device().queue, 10, large, 0, small, 95, large, 500); }, "b",
                 "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { axpy<float>(device().queue, 100, 1.0f, large, 0, large, 50); }, "y", "CL_MEM_COPY_OVERLAP");
    expect_error([&] { vector_add<float>(device().queue, 100, large, 0, large, 200, large, 10); }, "c",
                 "CL_MEM_COPY_OVERLAP");
    cl::Buffer null_buffer;
    expect_error([&] { axpy<float>(device().queue, 10, 1.0f, null_buffer, 0, large, 0); }, "x",
                 "CL_INVALID_MEM_OBJECT");
    // Offsets near 2^64 overflow rather than wrap around.
    expect_error([&] { axpy<float>(device().queue, 10, 1.0f, large, ~std::size_t{0} - 3, large, 100); }, "x",
                 "CL_INVALID_VALUE");
    // A buffer of another context.
    cl::Context other(device().device);
    cl::Buffer foreign(other, CL_MEM_READ_WRITE, 1000 * sizeof(float));
    expect_error([&] { axpy<float>(device().queue, 10, 1.0f, foreign, 0, large, 0); }, "x", "CL_INVALID_CONTEXT");
    // Half: sizes and offsets count 2-byte elements (small holds 200 halves).
    CHECK_NOTHROW(axpy<half>(device().queue, 200, 1.0f, small, 0, large, 0).wait());
    expect_error([&] { axpy<half>(device().queue, 200, 1.0f, small, 1, large, 0); }, "x", "CL_INVALID_BUFFER_SIZE");
    expect_error([&] { vector_add<half>(device().queue, 10, large, 0, large, 5, large, 5); }, "c",
                 "CL_MEM_COPY_OVERLAP");
    expect_error([&] { axpy<half>(device().queue, 10, 1.0f, null_buffer, 0, large, 0); }, "x", "CL_INVALID_MEM_OBJECT");
    // An explicit configuration that breaks the search space's rules.
    Config bad{"vector", {{"VEC", 3}, {"WPT", 1}, {"USE_STRIDED", 0}, {"WG_X", 0}}};
    expect_error([&] { detail::axpy_with<float>(bad, device().queue, 10, 1.0f, large, 0, large, 100); }, "config",
                 "CL_INVALID_VALUE");
  }

  TEST_CASE("elementwise: double on a device without fp64 is refused with a clear error") {
    DeviceInfo no_fp64 = *device().info;
    no_fp64.fp64 = false;
    try {
      detail::check_dtype_supported("axpy", detail::dtype_of<double>(), no_fp64);
      FAIL("expected an error");
    } catch (const Error& error) {
      CHECK(error.argument() == "dtype");
      CHECK(error.status_name() == "CL_INVALID_DEVICE");
      CHECK(std::string(error.what()).find("cl_khr_fp64") != std::string::npos);
    }
    CHECK_NOTHROW(detail::check_dtype_supported("axpy", detail::dtype_of<float>(), no_fp64));
  }

  TEST_CASE("elementwise: a work-group larger than the kernel allows is refused before launch") {
    cl::Buffer buffer(device().context, CL_MEM_READ_WRITE, 4096 * sizeof(float));
    Config too_big{"naive", {{"WG_X", static_cast<std::int64_t>(device().info->max_work_group_size) * 2}}};
    CHECK_THROWS_AS(detail::axpy_with<float>(too_big, device().queue, 100, 1.0f, buffer, 0, buffer, 1000), Error);
  }
}

TEST_SUITE("ops.elementwise") {
  TEST_CASE("elementwise: tiny ragged lengths under every variant (also run under oclgrind)") {
    for (const auto& config : configs_to_sweep()) {
      CAPTURE(config.to_string());
      for (std::size_t n : {1, 3, 17, 131}) {
        CAPTURE(n);
        check_axpy<float>(&config, n, 1, 2);
        check_vector_add<float>(&config, n, 2);
      }
    }
    // Half storage: element and vector loads and stores of 16-bit values.
    for (const auto& config : {half_configs()[1], half_configs()[5]}) {
      CAPTURE(config.to_string());
      for (std::size_t n : {3, 131}) {
        check_axpy<half>(&config, n, 1, 2);
        check_vector_add<half>(&config, n, 3);
      }
    }
  }
}
